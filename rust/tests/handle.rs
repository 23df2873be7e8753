//! The handle and its defaults, settings, and errors with errno.
mod common;
use libnbd::{AllowTransport, CmdFlag, Error, Handle, HandshakeFlag, Shutdown, Size, Strict, Tls};

#[test]
fn new_and_drop() {
    let nbd = Handle::new().unwrap();
    assert!(nbd.aio_is_created());
    drop(nbd);
}

#[test]
fn handle_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Handle>();
    let nbd = Handle::new().unwrap();
    std::thread::spawn(move || nbd.set_export_name("moved").unwrap())
        .join()
        .unwrap();
}

#[test]
fn defaults() {
    let nbd = Handle::new().unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"");
    assert!(!nbd.get_full_info().unwrap());
    assert_eq!(nbd.get_tls(), Tls::Disable);
    assert!(nbd.get_request_structured_replies());
    assert!(nbd.get_request_meta_context().unwrap());
    assert!(nbd.get_request_block_size().unwrap());
    assert!(nbd.get_pread_initialize());
    assert_eq!(
        nbd.get_handshake_flags(),
        HandshakeFlag::FIXED_NEWSTYLE | HandshakeFlag::NO_ZEROES
    );
    assert!(!nbd.get_opt_mode());
    assert_eq!(nbd.get_private_data(), 0);
    assert_eq!(nbd.get_package_name(), b"libnbd");
    assert!(!nbd.get_version().is_empty());
    assert!(!nbd.connection_state().unwrap().is_empty());
    assert_eq!(nbd.stats_bytes_sent(), 0);
    // Commands need a connection.
    assert_eq!(nbd.aio_in_flight().unwrap_err().errno(), Some(libc::ENOTCONN));
}

#[test]
fn set_non_defaults() {
    let nbd = Handle::new().unwrap();
    nbd.set_export_name("name").unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"name");
    nbd.set_handle_name(b"rusty".as_slice()).unwrap();
    assert_eq!(nbd.get_handle_name().unwrap(), b"rusty");
    nbd.set_full_info(true).unwrap();
    assert!(nbd.get_full_info().unwrap());
    nbd.set_request_structured_replies(false).unwrap();
    assert!(!nbd.get_request_structured_replies());
    nbd.set_handshake_flags(HandshakeFlag::empty()).unwrap();
    assert_eq!(nbd.get_handshake_flags(), HandshakeFlag::empty());
    nbd.set_strict_mode(Strict::COMMANDS | Strict::BOUNDS).unwrap();
    assert_eq!(nbd.get_strict_mode(), Strict::COMMANDS | Strict::BOUNDS);
    nbd.set_opt_mode(true).unwrap();
    assert!(nbd.get_opt_mode());
    nbd.set_pread_initialize(false).unwrap();
    assert!(!nbd.get_pread_initialize());
    assert_eq!(nbd.set_private_data(42), 0);
    assert_eq!(nbd.get_private_data(), 42);
    nbd.set_uri_allow_transports(AllowTransport::UNIX).unwrap();
    nbd.set_uri_allow_tls(Tls::Disable).unwrap();
    nbd.set_uri_allow_local_file(true).unwrap();
    // Debug messages go to a callback, not into the test's output.
    nbd.set_debug_callback(|_, _| 0).unwrap();
    nbd.set_debug(true).unwrap();
    assert!(nbd.get_debug());
    nbd.set_debug(false).unwrap();
    nbd.add_meta_context(libnbd::CONTEXT_BASE_ALLOCATION).unwrap();
    assert_eq!(nbd.get_nr_meta_contexts().unwrap(), 1);
    assert_eq!(nbd.get_meta_context(0).unwrap(), b"base:allocation");
    nbd.clear_meta_contexts().unwrap();
    assert_eq!(nbd.get_nr_meta_contexts().unwrap(), 0);
    let _ = (CmdFlag::FUA, Shutdown::ABANDON_PENDING, Size::Maximum);
}

#[test]
fn errors_carry_errno_and_message() {
    let nbd = Handle::new().unwrap();
    // Not connected: the handle survives the error.
    let e = nbd.get_size().unwrap_err();
    assert!(e.is_recoverable(), "{:?}", e);
    assert!(matches!(e, Error::Recoverable(_)));
    assert!(e.errno().is_some());
    assert!(e.to_string().contains("nbd_get_size"), "{}", e);
    // Out of range index: EINVAL.
    let e = nbd.get_meta_context(3).unwrap_err();
    assert_eq!(e.errno(), Some(libc::EINVAL), "{}", e);
    // A string with a NUL byte never reaches C.
    let e = nbd.set_export_name("a\0b").unwrap_err();
    assert_eq!(e.errno(), Some(libc::EINVAL));
    assert_eq!(nbd.is_uri("nbd://a\0b").unwrap_err().errno(), Some(libc::EINVAL));
    let mut buf = [0u8; 512];
    let e = nbd.pread(&mut buf, 0, None).unwrap_err();
    assert!(e.is_recoverable());
}

#[test]
fn fatal_error_when_connect_fails() {
    let nbd = Handle::new().unwrap();
    let e = nbd
        .connect_unix("/nonexistent/libnbd-rust-test.sock")
        .unwrap_err();
    assert!(e.is_fatal(), "{:?}", e);
    assert_eq!(e.errno(), Some(libc::ENOENT), "{}", e);
    assert!(nbd.aio_is_dead());
}

#[test]
fn debug_callback_freed_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    struct Count(Arc<AtomicUsize>);
    impl Drop for Count {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let calls = Arc::new(AtomicUsize::new(0));
    let nbd = Handle::new().unwrap();
    let c = Count(drops.clone());
    let calls2 = calls.clone();
    nbd.set_debug_callback(move |_ctx, _msg| {
        let _ = &c;
        calls2.fetch_add(1, Ordering::SeqCst);
        0
    })
    .unwrap();
    nbd.set_debug(true).unwrap();
    nbd.set_export_name("x").unwrap();
    assert!(calls.load(Ordering::SeqCst) > 0);
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    // Replacing the callback frees the old one, once.
    nbd.set_debug_callback(|_, _| 0).unwrap();
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    drop(nbd);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}
