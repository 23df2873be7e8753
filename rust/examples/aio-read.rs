//! Read two blocks at once with the aio calls of a blocking Handle:
//! one with a completion closure, one retired by aio_command_completed,
//! and say which libnbd did it.
//! Usage: aio-read URI
use libnbd::{AioBuffer, Handle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn main() -> libnbd::Result<()> {
    let uri = std::env::args().nth(1).expect("usage: aio-read URI");
    let nbd = Handle::new()?;
    nbd.connect_uri(uri)?;
    println!("libnbd {}", String::from_utf8_lossy(nbd.get_version()));

    // The buffers of aio commands live as long as the commands: an
    // AioBuffer is busy (unreadable) until its command is done.
    let mut first = AioBuffer::new(512);
    let mut second = AioBuffer::new(512);

    // A completion closure: 1 retires the command at once.
    let done = Arc::new(AtomicBool::new(false));
    let done2 = done.clone();
    nbd.aio_pread(
        &mut first,
        0,
        Some(move |err: &mut i32| {
            assert_eq!(*err, 0, "the first read failed");
            done2.store(true, Ordering::SeqCst);
            1
        }),
        None,
    )?;
    // No completion: name the closure type all the same, and retire
    // the command with its cookie.
    let cookie = nbd.aio_pread(&mut second, 512, None::<fn(&mut i32) -> i32>, None)?;

    let mut second_done = false;
    while !(done.load(Ordering::SeqCst) && second_done) {
        nbd.poll(-1)?;
        if !second_done {
            second_done = nbd.aio_command_completed(cookie.0)?;
        }
    }
    println!("first: {:02x?}", &first.get().unwrap()[..16]);
    println!("second: {:02x?}", &second.get().unwrap()[..16]);
    Ok(())
}
