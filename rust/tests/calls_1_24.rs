//! The calls new in libnbd 1.24: the extra version, the handle size
//! and the TLS priority string.
use libnbd::{Error, Handle};

#[test]
fn calls_1_24() {
    let nbd = Handle::new().unwrap();
    let _extra: &'static [u8] = nbd.get_version_extra();
    let size = nbd.get_handle_size().unwrap();
    assert!(size > 0);
    nbd.set_export_name(vec![b'x'; 4096]).unwrap();
    assert!(nbd.get_handle_size().unwrap() >= size + 4096);
    assert!(nbd.get_tls_priority().unwrap().starts_with(b"NORMAL"));
    nbd.set_tls_priority("NORMAL:-VERS-TLS1.2").unwrap();
    assert_eq!(nbd.get_tls_priority().unwrap(), b"NORMAL:-VERS-TLS1.2");
    nbd.set_uri_allow_tls_priority(false).unwrap();
    match nbd.connect_uri("nbd+unix:///?socket=/nonexistent&tls-priority=NORMAL") {
        Err(e @ Error::Recoverable(_)) => assert_eq!(e.errno(), Some(1)), // EPERM,
        other => panic!("tls-priority= not refused: {:?}", other),
    }
}
