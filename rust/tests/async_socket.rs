//! The AsyncHandle's event loop and the socket it watches: it owns
//! what it registers with tokio, so a handle that closed its socket,
//! or was dropped, cannot silence a socket that reused the number,
//! and it lets the socket go once the handle is dead or dropped.
mod common;
use common::{open_fds_named, pattern, Server};
use libnbd::AsyncHandle;
use std::time::Duration;
use tokio::time::timeout;

/// Long enough for any command of these tests; a hang fails.
const LIMIT: Duration = Duration::from_secs(10);

/// Connect, read and disconnect; the handle is dropped by the caller.
async fn connect_read_disconnect(server: &Server) -> AsyncHandle {
    let nbd = AsyncHandle::new().unwrap();
    timeout(LIMIT, nbd.connect_unix(server.socket()))
        .await
        .expect("connect hung")
        .unwrap();
    let mut buf = vec![0u8; 4096];
    timeout(LIMIT, nbd.pread(&mut buf, 4096, None))
        .await
        .expect("pread hung")
        .unwrap();
    assert_eq!(buf, pattern(4096, 4096));
    timeout(LIMIT, nbd.disconnect(None))
        .await
        .expect("disconnect hung")
        .unwrap();
    nbd
}

// The old handle's socket number is free after disconnect: the next
// connection gets it, and then the old handle is dropped.
#[tokio::test]
async fn dropping_a_closed_handle_leaves_the_reused_number_alone() {
    let server = Server::start(&["pattern", "size=1M"]);
    let mut old = connect_read_disconnect(&server).await;
    for _ in 0..20 {
        let new = connect_read_disconnect(&server).await;
        drop(old);
        tokio::task::yield_now().await;
        old = new;
    }
}

// The same with both handles alive: the older one is dropped while
// the newer one, on the reused number, is still reading.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_handle_does_not_silence_a_live_one() {
    let server = Server::start(&["pattern", "size=1M"]);
    for _ in 0..20 {
        let old = connect_read_disconnect(&server).await;
        let new = AsyncHandle::new().unwrap();
        timeout(LIMIT, new.connect_unix(server.socket()))
            .await
            .expect("connect hung")
            .unwrap();
        drop(old);
        for i in 0..4 {
            let mut buf = vec![0u8; 512];
            timeout(LIMIT, new.pread(&mut buf, i * 512, None))
                .await
                .expect("pread hung after another handle was dropped")
                .unwrap();
            assert_eq!(buf, pattern(i * 512, 512));
        }
    }
}

/// The socket libnbd connected, as /proc names it ("socket:[inode]").
fn socket_name(nbd: &AsyncHandle) -> String {
    let fd = nbd.handle().aio_get_fd().unwrap();
    let link = std::fs::read_link(format!("/proc/self/fd/{}", fd)).unwrap();
    link.to_string_lossy().into_owned()
}

/// Wait until no descriptor of this process is the socket `name`;
/// false if one still is after LIMIT.
async fn released(name: &str) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < LIMIT {
        if open_fds_named(name) == 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

// Its socket is let go when the handle is dropped, and when it dies.
#[tokio::test]
async fn the_socket_is_released_when_the_handle_dies_or_is_dropped() {
    let server = Server::start(&["pattern", "size=1M"]);
    let nbd = AsyncHandle::new().unwrap();
    nbd.connect_unix(server.socket()).await.unwrap();
    let mut buf = vec![0u8; 512];
    nbd.pread(&mut buf, 0, None).await.unwrap();
    let name = socket_name(&nbd);
    assert!(open_fds_named(&name) >= 1);
    drop(nbd);
    assert!(released(&name).await, "a dropped handle left {} open", name);

    // Kill the server under a live handle: the handle dies on its next
    // command, and nothing of its socket stays open.
    let nbd = AsyncHandle::new().unwrap();
    nbd.connect_unix(server.socket()).await.unwrap();
    let name = socket_name(&nbd);
    drop(server);
    let _ = timeout(LIMIT, nbd.pread(&mut buf, 0, None))
        .await
        .expect("pread on a dead connection hung");
    assert!(nbd.aio_is_dead() || nbd.aio_is_closed());
    assert!(released(&name).await, "a dead handle left {} open", name);
    drop(nbd);
}
