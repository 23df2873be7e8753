//! What a callback may call on its own handle.  libnbd runs callbacks
//! with the handle locked: a locked call of the same handle from one
//! would wait for ever on the lock.  It fails at once instead with
//! EDEADLK (a call that can not return an error panics, which fails
//! the callback); the lockless calls, and other handles, still work.
mod common;
use common::{nbdkit, pattern};
use libnbd::{AsyncHandle, Handle};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

fn connected() -> Arc<Handle> {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["pattern", "size=1M"])).unwrap();
    Arc::new(nbd)
}

/// Run `f` in a thread; a call that deadlocks fails the test instead
/// of hanging it.
fn within_limit<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("a call from a callback of its own handle deadlocked")
}

#[test]
fn a_locked_call_from_a_callback_fails_with_edeadlk() {
    let (errno, message, lockless, size) = within_limit(|| {
        let nbd = connected();
        let seen = Arc::new(Mutex::new(None));
        let (nbd2, seen2) = (nbd.clone(), seen.clone());
        let mut buf = [0u8; 512];
        nbd.pread_structured(
            &mut buf,
            0,
            move |_, _, _, _| {
                let e = nbd2.get_size().unwrap_err();
                // Lockless calls are fine.
                let ready = nbd2.aio_is_ready();
                *seen2.lock().unwrap() = Some((e.errno(), e.to_string(), ready));
                0
            },
            None,
        )
        .unwrap();
        assert_eq!(&buf[..], &pattern(0, 512)[..]);
        let (errno, message, ready) = seen.lock().unwrap().take().unwrap();
        // Outside the callback the same call works.
        (errno, message, ready, nbd.get_size().unwrap())
    });
    assert_eq!(errno, Some(libc::EDEADLK));
    assert!(message.contains("nbd_get_size") && message.contains("callback"), "{}", message);
    assert!(lockless);
    assert_eq!(size, 1 << 20);
}

#[test]
fn a_call_that_cannot_fail_panics_and_fails_the_callback() {
    let e = within_limit(|| {
        let nbd = connected();
        let nbd2 = nbd.clone();
        let mut buf = [0u8; 512];
        let e = nbd
            .pread_structured(
                &mut buf,
                0,
                move |_, _, _, _| {
                    let _ = nbd2.get_debug();
                    0
                },
                None,
            )
            .unwrap_err();
        // The handle is unhurt.
        nbd.pread(&mut buf, 512, None).unwrap();
        e.errno()
    });
    assert_eq!(e, Some(libc::EIO));
}

#[test]
fn a_callback_may_call_another_handle() {
    let size = within_limit(|| {
        let nbd = connected();
        let other = connected();
        let got = Arc::new(Mutex::new(0u64));
        let got2 = got.clone();
        let mut buf = [0u8; 512];
        nbd.pread_structured(
            &mut buf,
            0,
            move |_, _, _, _| {
                let mut b = [0u8; 8];
                other.pread(&mut b, 8, None).unwrap();
                *got2.lock().unwrap() = u64::from_be_bytes(b);
                0
            },
            None,
        )
        .unwrap();
        let v = *got.lock().unwrap();
        v
    });
    assert_eq!(size, 8);
}

// On an AsyncHandle the callbacks run in the event loop's task.
#[test]
fn an_async_handle_callback_calling_its_handle() {
    let seen = within_limit(|| {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let nbd = Arc::new(AsyncHandle::new().unwrap());
            nbd.connect_command(nbdkit(&["pattern", "size=1M"])).await.unwrap();
            let seen = Arc::new(Mutex::new(None));
            let (nbd2, seen2) = (nbd.clone(), seen.clone());
            let mut buf = vec![0u8; 512];
            nbd.pread_structured(
                &mut buf,
                0,
                move |_, _, _, _| {
                    *seen2.lock().unwrap() = Some(nbd2.get_size().map_err(|e| e.errno()));
                    0
                },
                None,
            )
            .await
            .unwrap();
            let v = seen.lock().unwrap().take();
            v
        })
    });
    assert_eq!(seen, Some(Err(Some(libc::EDEADLK))));
}
