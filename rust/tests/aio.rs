//! The aio calls with closures and AioBuffers: completions, panics in
//! callbacks, closures freed exactly once.
mod common;
use common::{nbdkit, pattern};
use libnbd::{AioBuffer, Handle};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn handle(plugin: &[&str]) -> Handle {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(plugin)).unwrap();
    nbd
}

/// Run the handle until the command `cookie` is complete.
fn wait(nbd: &Handle, cookie: libnbd::Cookie) -> libnbd::Result<()> {
    loop {
        if nbd.aio_command_completed(cookie.0)? {
            return Ok(());
        }
        nbd.poll(-1)?;
    }
}

/// Counts its drops: a closure holding one is freed exactly once.
struct DropCount(Arc<AtomicUsize>);
impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

type NoCompletion = fn(&mut i32) -> i32;

#[test]
fn aio_pread_with_aio_buffer() {
    let nbd = handle(&["pattern", "size=1M"]);
    let mut buf = AioBuffer::new(4096);
    let cookie = nbd.aio_pread(&mut buf, 8192, None::<NoCompletion>, None).unwrap();
    // Busy while in flight: neither readable nor usable by another command.
    if buf.is_busy() {
        assert!(buf.get().is_none());
    }
    wait(&nbd, cookie).unwrap();
    assert!(!buf.is_busy());
    assert_eq!(buf.get().unwrap(), &pattern(8192, 4096)[..]);
}

#[test]
fn aio_buffer_busy_is_ebusy() {
    let nbd = handle(&["--filter=delay", "pattern", "size=1M", "rdelay=1"]);
    let mut buf = AioBuffer::new(512);
    let cookie = nbd.aio_pread(&mut buf, 0, None::<NoCompletion>, None).unwrap();
    assert!(buf.is_busy());
    assert!(buf.get_mut().is_none());
    let e = nbd.aio_pread(&mut buf, 0, None::<NoCompletion>, None).unwrap_err();
    assert_eq!(e.errno(), Some(libc::EBUSY));
    wait(&nbd, cookie).unwrap();
    assert_eq!(buf.get().unwrap(), &pattern(0, 512)[..]);
}

#[test]
fn aio_pwrite_and_completion_closure() {
    let nbd = handle(&["memory", "size=1M"]);
    let mut wbuf = AioBuffer::from(vec![0xabu8; 1024]);
    let completed = Arc::new(AtomicUsize::new(0));
    let drops = Arc::new(AtomicUsize::new(0));
    let (c2, guard) = (completed.clone(), DropCount(drops.clone()));
    let cookie = nbd
        .aio_pwrite(
            &mut wbuf,
            4096,
            Some(move |err: &mut i32| {
                let _ = &guard;
                assert_eq!(*err, 0);
                c2.fetch_add(1, Ordering::SeqCst);
                0
            }),
            None,
        )
        .unwrap();
    wait(&nbd, cookie).unwrap();
    assert_eq!(completed.load(Ordering::SeqCst), 1);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    let mut rbuf = AioBuffer::new(1024);
    let cookie = nbd.aio_pread(&mut rbuf, 4096, None::<NoCompletion>, None).unwrap();
    wait(&nbd, cookie).unwrap();
    assert_eq!(rbuf.get().unwrap(), wbuf.get().unwrap());
}

/// Static memory outlives any command: no AioBuffer needed.
static STATIC_DATA: [u8; 512] = [0x5a; 512];

#[test]
fn auto_retire_with_static_buffer() {
    let nbd = handle(&["memory", "size=1M"]);
    let done = Arc::new(AtomicUsize::new(0));
    let d2 = done.clone();
    nbd.aio_pwrite(
        &STATIC_DATA[..],
        512,
        Some(move |_: &mut i32| {
            d2.fetch_add(1, Ordering::SeqCst);
            1
        }),
        None,
    )
    .unwrap();
    while done.load(Ordering::SeqCst) == 0 {
        nbd.poll(-1).unwrap();
    }
    // Retired by the completion's 1: nothing left for the caller.
    assert_eq!(nbd.aio_in_flight().unwrap(), 0);
    assert!(nbd.aio_peek_command_completed().is_err());
    let mut back = [0u8; 512];
    nbd.pread(&mut back, 512, None).unwrap();
    assert_eq!(back, STATIC_DATA);
}

#[test]
fn closures_freed_exactly_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    {
        let nbd = handle(&["pattern", "size=1M"]);
        let mut buf = AioBuffer::new(512);
        let (g1, g2) = (DropCount(drops.clone()), DropCount(drops.clone()));
        let cookie = nbd
            .aio_pread_structured(
                &mut buf,
                0,
                move |_, _, _, _| {
                    let _ = &g1;
                    0
                },
                Some(move |_: &mut i32| {
                    let _ = &g2;
                    0
                }),
                None,
            )
            .unwrap();
        wait(&nbd, cookie).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 2);

        // A call refused at once frees its closures too.
        let g3 = DropCount(drops.clone());
        let e = nbd
            .aio_block_status(
                0,
                0,
                move |_, _, _, _| {
                    let _ = &g3;
                    0
                },
                None::<NoCompletion>,
                None,
            )
            .unwrap_err();
        assert!(e.errno().is_some());
        assert_eq!(drops.load(Ordering::SeqCst), 3);

        // Commands still in flight when the handle closes.
        let g4 = DropCount(drops.clone());
        let mut buf2 = AioBuffer::new(512);
        nbd.aio_pread(
            &mut buf2,
            0,
            Some(move |_: &mut i32| {
                let _ = &g4;
                0
            }),
            None,
        )
        .unwrap();
    }
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}

#[test]
fn panic_in_chunk_callback_fails_the_command() {
    let nbd = handle(&["pattern", "size=1M"]);
    let mut buf = AioBuffer::new(512);
    let cookie = nbd
        .aio_pread_structured(
            &mut buf,
            0,
            |_, _, _, _| panic!("deliberate panic in a chunk callback"),
            None::<NoCompletion>,
            None,
        )
        .unwrap();
    let e = wait(&nbd, cookie).unwrap_err();
    assert_eq!(e.errno(), Some(libc::EIO), "{}", e);
    assert!(e.is_recoverable());
    // The handle still works.
    let mut v = vec![0u8; 512];
    nbd.pread(&mut v, 0, None).unwrap();
}

#[test]
fn panic_in_completion_fails_the_command() {
    let nbd = handle(&["pattern", "size=1M"]);
    let mut buf = AioBuffer::new(512);
    let cookie = nbd
        .aio_pread(
            &mut buf,
            0,
            Some(|_: &mut i32| -> i32 { panic!("deliberate panic in a completion") }),
            None,
        )
        .unwrap();
    let e = wait(&nbd, cookie).unwrap_err();
    assert_eq!(e.errno(), Some(libc::EIO), "{}", e);
    assert!(!buf.is_busy());
}

#[test]
fn panic_in_blocking_call_callback() {
    let nbd = Handle::new().unwrap();
    nbd.add_meta_context(libnbd::CONTEXT_BASE_ALLOCATION).unwrap();
    nbd.connect_command(nbdkit(&["memory", "size=1M"])).unwrap();
    let e = nbd
        .block_status(
            65536,
            0,
            |_, _, _, _| panic!("deliberate panic in an extent callback"),
            None,
        )
        .unwrap_err();
    assert_eq!(e.errno(), Some(libc::EIO), "{}", e);
}

// len, is_empty and Debug while libnbd writes the bytes: they read
// only the buffer's own fields, never the bytes.
#[test]
fn aio_buffer_len_and_debug_while_busy() {
    let nbd = handle(&["--filter=delay", "pattern", "size=1M", "rdelay=1"]);
    let mut buf = AioBuffer::new(4096);
    let cookie = nbd.aio_pread(&mut buf, 0, None::<NoCompletion>, None).unwrap();
    assert!(buf.is_busy());
    assert_eq!(buf.len(), 4096);
    assert!(!buf.is_empty());
    assert_eq!(format!("{:?}", buf), "AioBuffer { len: 4096, busy: true }");
    wait(&nbd, cookie).unwrap();
    assert_eq!(format!("{:?}", buf), "AioBuffer { len: 4096, busy: false }");
    assert_eq!(buf.get().unwrap(), &pattern(0, 4096)[..]);
    let empty = AioBuffer::new(0);
    assert!(empty.is_empty());
    assert_eq!(empty.get().unwrap(), &[] as &[u8]);
}
