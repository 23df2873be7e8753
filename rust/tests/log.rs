//! The "log" feature: a handle's debug messages reach the log crate,
//! each with its libnbd function as the target (as libnbd 1.22's crate
//! does), even when the logger comes after the handle, and only for
//! the targets the logger wants.
#![cfg(feature = "log")]
mod common;
use common::{nbdkit, pattern};
use libnbd::Handle;
use std::sync::Mutex;

/// Takes the targets in `wanted` only; keeps every record it is given
/// as (target, message), to check that nothing else was sent.
struct Capture {
    wanted: &'static [&'static str],
    records: Mutex<Vec<(String, String)>>,
}

impl log::Log for Capture {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Debug && self.wanted.contains(&metadata.target())
    }
    fn log(&self, record: &log::Record) {
        let entry = (record.target().to_string(), record.args().to_string());
        self.records.lock().unwrap().push(entry);
    }
    fn flush(&self) {}
}

static CAPTURE: Capture = Capture {
    wanted: &["nbd_pread", "nbd_close"],
    records: Mutex::new(Vec::new()),
};

fn take() -> Vec<(String, String)> {
    std::mem::take(&mut *CAPTURE.records.lock().unwrap())
}

// One test function: the logger and its level are global.
#[test]
fn debug_messages_reach_a_logger_installed_later_by_target() {
    // Made while nothing listens: log's level is still Off.
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["pattern", "size=1M"])).unwrap();

    log::set_logger(&CAPTURE).unwrap();
    log::set_max_level(log::LevelFilter::Debug);
    let mut buf = [0u8; 512];
    nbd.pread(&mut buf, 512, None).unwrap();
    assert_eq!(&buf[..], &pattern(512, 512)[..]);
    drop(nbd);
    let records = take();
    assert!(
        records.iter().any(|(t, m)| t == "nbd_pread" && m.starts_with("enter:")),
        "no nbd_pread message among {:?}",
        records
    );
    assert!(
        records.iter().any(|(t, m)| t == "nbd_close" && m == "closing handle"),
        "no nbd_close message among {:?}",
        records
    );
    let unwanted: Vec<_> = records.iter().filter(|(t, _)| !CAPTURE.wanted.contains(&t.as_str())).collect();
    assert!(unwanted.is_empty(), "targets the logger refused: {:?}", unwanted);

    // Below the debug level nothing is sent.
    log::set_max_level(log::LevelFilter::Info);
    let nbd = Handle::new().unwrap();
    nbd.set_export_name("x").unwrap();
    drop(nbd);
    assert_eq!(take(), Vec::<(String, String)>::new());
}
