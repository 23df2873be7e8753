//! Write and read back distinct blocks concurrently through one
//! AsyncHandle, from many tokio tasks, and check every byte.  The
//! tasks and the handle's event loop share one thread: the commands
//! overlap on the connection, not on the CPU.
//! Usage: concurrent-read-write URI   (a writable export of >= 1 MiB)
use libnbd::AsyncHandle;
use std::sync::Arc;

const TASKS: u64 = 8;
const BLOCKS: u64 = 32;
const BLOCK: usize = 4096;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let uri = std::env::args()
        .nth(1)
        .expect("usage: concurrent-read-write URI");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let nbd = Arc::new(AsyncHandle::new()?);
        nbd.connect_uri(uri.as_str()).await?;
        let mut tasks = Vec::new();
        for t in 0..TASKS {
            let nbd = nbd.clone();
            tasks.push(tokio::spawn(async move {
                for b in 0..BLOCKS {
                    let n = t * BLOCKS + b;
                    let data = vec![(n % 256) as u8; BLOCK];
                    nbd.pwrite(&data, n * BLOCK as u64, None).await?;
                    let mut back = vec![0u8; BLOCK];
                    nbd.pread(&mut back, n * BLOCK as u64, None).await?;
                    assert_eq!(back, data, "block {} read back differs", n);
                }
                Ok::<(), std::sync::Arc<libnbd::Error>>(())
            }));
        }
        for task in tasks {
            task.await.expect("task panicked")?;
        }
        println!("{} blocks written and read back", TASKS * BLOCKS);
        Ok(())
    })
}
