//! AsyncHandle: connect, opt mode, pread, pread_structured, pwrite,
//! block_status(_64), errors, panics and concurrency on tokio.
mod common;
use common::{nbdkit, pattern, Server, TWO_EXPORTS};
use libnbd::{AsyncHandle, CmdFlag, NbdExtent, CONTEXT_BASE_ALLOCATION, STATE_HOLE, STATE_ZERO};
use std::sync::{Arc, Mutex};

async fn connected(args: &[&str]) -> AsyncHandle {
    let nbd = AsyncHandle::new().unwrap();
    nbd.add_meta_context(CONTEXT_BASE_ALLOCATION).unwrap();
    nbd.connect_command(nbdkit(args)).await.unwrap();
    nbd
}

#[tokio::test]
async fn handle_and_defaults() {
    let nbd = AsyncHandle::new().unwrap();
    assert!(nbd.aio_is_created());
    assert_eq!(nbd.get_export_name().unwrap(), b"");
    nbd.set_export_name("x").unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"x");
    fn check<T: Send + Sync>() {}
    check::<AsyncHandle>();
}

#[tokio::test]
async fn connect_command_and_size() {
    let nbd = connected(&["null", "size=1M"]).await;
    assert!(nbd.aio_is_ready());
    assert_eq!(nbd.get_size().unwrap(), 1 << 20);
    nbd.disconnect(None).await.unwrap();
    assert!(nbd.aio_is_closed());
}

#[tokio::test]
async fn connect_uri() {
    let server = Server::start(&["memory", "size=64k"]);
    let nbd = AsyncHandle::new().unwrap();
    nbd.connect_uri(server.uri()).await.unwrap();
    assert_eq!(nbd.get_size().unwrap(), 65536);
}

#[tokio::test]
async fn connect_failure_is_fatal() {
    let nbd = AsyncHandle::new().unwrap();
    let e = nbd
        .connect_unix("/nonexistent/libnbd-rust-test.sock")
        .await
        .unwrap_err();
    assert!(e.is_fatal(), "{:?}", e);
    assert_eq!(e.errno(), Some(libc::ENOENT), "{}", e);
}

#[tokio::test]
async fn opt_mode() {
    let nbd = AsyncHandle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(TWO_EXPORTS)).await.unwrap();
    assert!(nbd.aio_is_negotiating());
    let names = Arc::new(Mutex::new(Vec::new()));
    let n2 = names.clone();
    nbd.opt_list(move |name, _| {
        n2.lock().unwrap().push(name.to_vec());
        0
    })
    .await
    .unwrap();
    assert_eq!(*names.lock().unwrap(), vec![b"a".to_vec(), b"b".to_vec()]);

    nbd.set_export_name("a").unwrap();
    nbd.opt_info().await.unwrap();
    assert_eq!(nbd.get_size().unwrap(), 1 << 20);

    let ctxs = Arc::new(Mutex::new(Vec::new()));
    let c2 = ctxs.clone();
    nbd.opt_list_meta_context_queries(["base:"], move |name| {
        c2.lock().unwrap().push(name.to_vec());
        0
    })
    .await
    .unwrap();
    assert_eq!(*ctxs.lock().unwrap(), vec![CONTEXT_BASE_ALLOCATION.to_vec()]);

    let c3 = ctxs.clone();
    nbd.opt_set_meta_context_queries([CONTEXT_BASE_ALLOCATION], move |name| {
        c3.lock().unwrap().push(name.to_vec());
        0
    })
    .await
    .unwrap();
    nbd.opt_go().await.unwrap();
    assert!(nbd.aio_is_ready());
    assert!(nbd.can_meta_context(CONTEXT_BASE_ALLOCATION).unwrap());
}

#[tokio::test]
async fn opt_abort() {
    let nbd = AsyncHandle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(&["null"])).await.unwrap();
    nbd.opt_abort().await.unwrap();
    assert!(nbd.aio_is_closed());
}

#[tokio::test]
async fn pread_pwrite() {
    let nbd = connected(&["memory", "size=1M"]).await;
    let data: Vec<u8> = (0..8192u32).map(|i| (i % 251) as u8).collect();
    nbd.pwrite(&data, 4096, Some(CmdFlag::FUA)).await.unwrap();
    let mut back = vec![0u8; 8192];
    nbd.pread(&mut back, 4096, None).await.unwrap();
    assert_eq!(back, data);
    nbd.flush(None).await.unwrap();
    nbd.zero(8192, 4096, None).await.unwrap();
    nbd.pread(&mut back, 4096, None).await.unwrap();
    assert!(back.iter().all(|&b| b == 0));
}

#[tokio::test]
async fn pread_structured() {
    let nbd = connected(&["pattern", "size=1M"]).await;
    let mut buf = vec![0u8; 2048];
    let seen = Arc::new(Mutex::new(0usize));
    let s2 = seen.clone();
    nbd.pread_structured(
        &mut buf,
        1024,
        move |sub, offset, _, _| {
            assert_eq!(sub, &pattern(offset, sub.len())[..]);
            *s2.lock().unwrap() += sub.len();
            0
        },
        None,
    )
    .await
    .unwrap();
    assert_eq!(buf, pattern(1024, 2048));
    assert_eq!(*seen.lock().unwrap(), 2048);
}

#[tokio::test]
async fn block_status_both() {
    let nbd = connected(&["memory", "size=1M"]).await;
    nbd.pwrite(&[1u8; 65536], 0, None).await.unwrap();
    let v32 = Arc::new(Mutex::new(Vec::new()));
    let v = v32.clone();
    nbd.block_status(1 << 20, 0, move |_, _, e, _| {
        v.lock().unwrap().extend_from_slice(e);
        0
    }, None)
    .await
    .unwrap();
    assert_eq!(&v32.lock().unwrap()[..4], &[65536, 0, (1 << 20) - 65536, STATE_HOLE | STATE_ZERO]);
    let v64 = Arc::new(Mutex::new(Vec::new()));
    let v = v64.clone();
    nbd.block_status_64(1 << 20, 0, move |_, _, e, _| {
        v.lock().unwrap().extend_from_slice(e);
        0
    }, None)
    .await
    .unwrap();
    assert_eq!(v64.lock().unwrap()[0], NbdExtent { length: 65536, flags: 0 });
}

#[tokio::test]
async fn errors_and_panics() {
    let nbd = connected(&["pattern", "size=1M"]).await;
    let mut buf = vec![0u8; 512];
    let e = nbd.pread(&mut buf, 1 << 20, None).await.unwrap_err();
    assert_eq!(e.errno(), Some(libc::EINVAL), "{}", e);
    assert!(e.is_recoverable());
    let e = nbd
        .pread_structured(&mut buf, 0, |_, _, _, _| panic!("deliberate panic in a chunk callback"), None)
        .await
        .unwrap_err();
    assert_eq!(e.errno(), Some(libc::EIO), "{}", e);
    // Still usable.
    nbd.pread(&mut buf, 0, None).await.unwrap();
    assert_eq!(buf, pattern(0, 512));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_commands() {
    let nbd = Arc::new(connected(&["memory", "size=1M"]).await);
    let mut tasks = Vec::new();
    for i in 0..16u64 {
        let nbd = nbd.clone();
        tasks.push(tokio::spawn(async move {
            for j in 0..50u64 {
                let off = (i * 50 + j) * 1024;
                let data = vec![(i * 50 + j) as u8; 1024];
                nbd.pwrite(&data, off, None).await.unwrap();
                let mut back = vec![0u8; 1024];
                nbd.pread(&mut back, off, None).await.unwrap();
                assert_eq!(back, data);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

#[tokio::test]
async fn dropped_future_keeps_buffer_alive() {
    let nbd = connected(&["--filter=delay", "pattern", "size=1M", "rdelay=1"]).await;
    {
        let mut buf = vec![0u8; 4096];
        let fut = nbd.pread(&mut buf, 0, None);
        // Poll once, so the command is in flight, then drop it.
        let _ = tokio::time::timeout(std::time::Duration::from_millis(50), fut).await;
    }
    let mut buf = vec![0u8; 512];
    nbd.pread(&mut buf, 512, None).await.unwrap();
    assert_eq!(buf, pattern(512, 512));
}
