//! 100,000 aio commands with closures and AioBuffers, memory flat.
//! Alone in its test program: the resident set is the whole process's.
mod common;
use common::{nbdkit, rss_kib};
use libnbd::{AioBuffer, Handle};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[test]
fn hundred_thousand_aio_calls_memory_flat() {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["memory", "size=1M"])).unwrap();
    let mut bufs: Vec<AioBuffer> = (0..16).map(|_| AioBuffer::new(512)).collect();
    let completed = Arc::new(AtomicUsize::new(0));
    let run = |n: usize, bufs: &mut Vec<AioBuffer>| {
        let mut issued = 0;
        while issued < n {
            for b in bufs.iter_mut() {
                if issued == n || b.is_busy() {
                    continue;
                }
                let c = completed.clone();
                let off = (issued as u64 % 2048) * 512;
                nbd.aio_pread(
                    b,
                    off,
                    Some(move |err: &mut i32| {
                        assert_eq!(*err, 0);
                        c.fetch_add(1, Ordering::Relaxed);
                        1
                    }),
                    None,
                )
                .unwrap();
                issued += 1;
            }
            if nbd.aio_in_flight().unwrap() > 0 {
                nbd.poll(-1).unwrap();
            }
        }
        while nbd.aio_in_flight().unwrap() > 0 {
            nbd.poll(-1).unwrap();
        }
    };
    run(10_000, &mut bufs);
    let before = rss_kib();
    run(100_000, &mut bufs);
    let after = rss_kib();
    assert_eq!(completed.load(Ordering::SeqCst), 110_000);
    assert!(
        after < before + 2048,
        "memory grew from {} KiB to {} KiB",
        before,
        after
    );
}
