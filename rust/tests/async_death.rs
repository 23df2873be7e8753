//! The death of the connection under an AsyncHandle: every command it
//! fails is an Error::Fatal, whichever thread sees its completion.
mod common;
use common::Server;
use libnbd::AsyncHandle;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::timeout;

const LIMIT: Duration = Duration::from_secs(10);
const COMMANDS: u64 = 40;

/// Start COMMANDS slow reads, kill the server under them, and check
/// that each failed as fatal.
async fn commands_fail_fatal_when_the_server_dies() {
    let server = Server::start(&["--filter=delay", "pattern", "size=1M", "rdelay=2"]);
    let nbd = Arc::new(AsyncHandle::new().unwrap());
    nbd.connect_unix(server.socket()).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..COMMANDS {
        let nbd = nbd.clone();
        tasks.push(tokio::spawn(async move {
            let mut buf = vec![0u8; 512];
            nbd.pread(&mut buf, i * 512, None).await
        }));
    }
    // Let every read reach the server, then kill it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(server);
    let mut recoverable = Vec::new();
    for t in tasks {
        let r = timeout(LIMIT, t).await.expect("a read hung").unwrap();
        match r {
            Err(e) if e.is_fatal() => (),
            Err(e) => recoverable.push(e.to_string()),
            Ok(()) => panic!("a read succeeded on a dead connection"),
        }
    }
    assert!(
        recoverable.is_empty(),
        "{} of {} reads failed as recoverable: {:?}",
        recoverable.len(),
        COMMANDS,
        recoverable
    );
    assert!(nbd.aio_is_dead() || nbd.aio_is_closed());
}

#[tokio::test]
async fn death_is_fatal_on_one_thread() {
    commands_fail_fatal_when_the_server_dies().await;
}

// The waiters run on another thread than the event loop's step that
// fails their commands: the race this is about needs a few tries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn death_is_fatal_on_two_threads() {
    for _ in 0..5 {
        commands_fail_fatal_when_the_server_dies().await;
    }
}
