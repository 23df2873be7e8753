//! The "log" feature: a handle made while a logger takes debug
//! messages sends its debug output there (as libnbd 1.22's crate
//! does); made while none does, it leaves debugging off.
#![cfg(feature = "log")]
use libnbd::Handle;
use std::sync::Mutex;

/// Every record as "target: message".
struct Capture(Mutex<Vec<String>>);

impl log::Log for Capture {
    fn enabled(&self, _: &log::Metadata) -> bool {
        true
    }
    fn log(&self, record: &log::Record) {
        let line = format!("{}: {}", record.target(), record.args());
        self.0.lock().unwrap().push(line);
    }
    fn flush(&self) {}
}

static CAPTURE: Capture = Capture(Mutex::new(Vec::new()));

fn take() -> Vec<String> {
    std::mem::take(&mut *CAPTURE.0.lock().unwrap())
}

// One test function: the logger and its level are global.
#[test]
fn debug_goes_to_the_log_only_when_it_listens() {
    log::set_logger(&CAPTURE).unwrap();

    log::set_max_level(log::LevelFilter::Debug);
    let nbd = Handle::new().unwrap();
    assert!(nbd.get_debug());
    nbd.set_export_name("x").unwrap();
    drop(nbd);
    let lines = take();
    assert!(
        lines.iter().any(|l| l == "nbd_close: closing handle"),
        "no close message among {:?}",
        lines
    );

    log::set_max_level(log::LevelFilter::Info);
    let nbd = Handle::new().unwrap();
    assert!(!nbd.get_debug());
    drop(nbd);
    assert_eq!(take(), Vec::<String>::new());
}
