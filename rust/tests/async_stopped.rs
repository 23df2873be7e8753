//! When an AsyncHandle's event loop can not run (here: a runtime built
//! without enable_io), its pending and new commands fail at once, with
//! an error that says why, instead of waiting for ever.
mod common;
use common::Server;
use libnbd::AsyncHandle;
use std::time::Duration;

#[test]
fn commands_fail_when_the_event_loop_cannot_run() {
    let server = Server::start(&["pattern", "size=1M"]);
    let socket = server.socket();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // No enable_io: tokio can not watch the handle's socket.
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async move {
            let nbd = AsyncHandle::new().unwrap();
            let connect = nbd.connect_unix(&socket).await;
            let mut buf = [0u8; 512];
            let pread = nbd.pread(&mut buf, 0, None).await;
            let _ = tx.send((connect.map_err(|e| e.to_string()), pread.map_err(|e| (e.is_fatal(), e.to_string()))));
        });
    });
    let (connect, pread) = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("a command waited on an event loop that can not run");
    let e = connect.unwrap_err();
    assert!(e.contains("enable_io"), "unclear error: {}", e);
    let (fatal, e) = pread.unwrap_err();
    assert!(fatal, "{}", e);
    assert!(e.contains("enable_io"), "unclear error: {}", e);
}
