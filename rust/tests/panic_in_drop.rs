//! A closure whose Drop panics: libnbd frees closures from C (the free
//! function), and a panic must not unwind into the library.  It is
//! caught there; the handle stays usable, its lock free.
mod common;
use common::{nbdkit, pattern};
use libnbd::{AioBuffer, Handle};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Panics when dropped, after counting the drop.
struct PanicOnDrop(Arc<AtomicUsize>);
impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
        panic!("deliberate panic in a closure's drop");
    }
}

#[test]
fn replacing_a_callback_whose_drop_panics() {
    let drops = Arc::new(AtomicUsize::new(0));
    let nbd = Handle::new().unwrap();
    let p = PanicOnDrop(drops.clone());
    nbd.set_debug_callback(move |_, _| {
        let _ = &p;
        0
    })
    .unwrap();
    // Freeing the first callback panics inside nbd_set_debug_callback.
    nbd.set_debug_callback(|_, _| 0).unwrap();
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    // The handle lock was released: more calls go through.
    nbd.set_export_name("still usable").unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"still usable");
    // With the "log" feature debugging is on: without a callback,
    // libnbd would print the rest (nbd_close's too) on stderr.
    nbd.set_debug(false).unwrap();
    nbd.clear_debug_callback().unwrap();
}

#[test]
fn a_completion_whose_drop_panics() {
    let drops = Arc::new(AtomicUsize::new(0));
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["pattern", "size=1M"])).unwrap();
    let mut buf = AioBuffer::new(512);
    let p = PanicOnDrop(drops.clone());
    let cookie = nbd
        .aio_pread(
            &mut buf,
            512,
            Some(move |_: &mut i32| {
                let _ = &p;
                1
            }),
            None,
        )
        .unwrap();
    while nbd.aio_in_flight().unwrap() > 0 {
        nbd.poll(-1).unwrap();
    }
    let _ = cookie;
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    assert_eq!(buf.get().unwrap(), &pattern(512, 512)[..]);
    let mut back = [0u8; 512];
    nbd.pread(&mut back, 0, None).unwrap();
    assert_eq!(&back[..], &pattern(0, 512)[..]);
}

#[test]
fn closing_a_handle_whose_callback_drop_panics() {
    let drops = Arc::new(AtomicUsize::new(0));
    let nbd = Handle::new().unwrap();
    let p = PanicOnDrop(drops.clone());
    nbd.set_debug_callback(move |_, _| {
        let _ = &p;
        0
    })
    .unwrap();
    drop(nbd);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}
