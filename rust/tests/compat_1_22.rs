//! Code written for libnbd 1.22's crate compiles unchanged: its
//! signatures where this crate once differed (see libnbd-rust(3) for
//! what still differs).  Each use below also checks what it returns.
mod common;
use common::{nbdkit, pattern, Server};
use libnbd::{AioBuffer, AsyncHandle, Error, ErrorKind, Handle, SharedResult};
use std::ffi::CString;
use std::os::unix::io::{FromRawFd, OwnedFd};

type NoCompletion = fn(&mut i32) -> i32;

#[test]
fn strings_take_into_vec_u8() {
    let nbd = Handle::new().unwrap();
    nbd.set_export_name(CString::new("c-string").unwrap()).unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"c-string");
    nbd.set_export_name(String::from("string")).unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"string");
    nbd.set_export_name("str").unwrap();
    nbd.set_export_name(b"bytes".to_vec()).unwrap();
    nbd.set_export_name(&b"slice"[..]).unwrap();
    assert_eq!(nbd.get_export_name().unwrap(), b"slice");
    // A generic caller, as code for 1.22 may be.
    fn name_it<S: Into<Vec<u8>>>(nbd: &Handle, s: S) {
        nbd.set_handle_name(s).unwrap();
    }
    name_it(&nbd, "generic");
    assert_eq!(nbd.get_handle_name().unwrap(), b"generic");
    let e = nbd.set_export_name("nul\0inside").unwrap_err();
    assert_eq!(e.errno(), Some(libc::EINVAL));
}

#[test]
fn connection_state_and_is_uri_return_results() {
    let nbd = Handle::new().unwrap();
    let state: libnbd::Result<&'static [u8]> = nbd.connection_state();
    assert!(!state.unwrap().is_empty());
    assert!(nbd.is_uri("nbd://localhost").unwrap());
    assert!(!nbd.is_uri(String::from("/dev/null")).unwrap());
}

#[test]
fn paths_take_into_pathbuf() {
    let server = Server::start(&["pattern", "size=1M"]);
    let nbd = Handle::new().unwrap();
    nbd.connect_unix(server.socket().to_str().unwrap()).unwrap();
    assert_eq!(nbd.get_size().unwrap(), 1 << 20);
}

#[test]
fn poll2_takes_an_owned_fd() {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["pattern", "size=1M"])).unwrap();
    let mut buf = AioBuffer::new(512);
    let cookie = nbd.aio_pread(&mut buf, 0, None::<NoCompletion>, None).unwrap();
    while !nbd.aio_command_completed(cookie.0).unwrap() {
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
        assert!(fd >= 0);
        nbd.poll2(unsafe { OwnedFd::from_raw_fd(fd) }, -1).unwrap();
    }
    assert_eq!(buf.get().unwrap(), &pattern(0, 512)[..]);
    // A RawFd, -1 for none, still works.
    nbd.poll2(-1, 0).unwrap();
}

#[test]
fn error_conversions() {
    let e: Error = String::from("a message").into();
    assert!(e.is_recoverable());
    assert_eq!(e.to_string(), "a message");
    let nul = CString::new("a\0b").unwrap_err();
    let e: Error = nul.into();
    assert!(e.is_recoverable());
    let k: ErrorKind = errno::Errno(libc::EIO).into();
    assert_eq!(k.errno(), Some(libc::EIO));
}

#[tokio::test]
async fn async_calls_return_shared_results() {
    let server = Server::start(&["memory", "size=1M"]);
    let nbd = AsyncHandle::new().unwrap();
    let r: SharedResult<()> = nbd.connect_uri(server.uri()).await;
    r.unwrap();
    let data = vec![7u8; 4096];
    nbd.pwrite(&data, 0, None).await.unwrap();
    let mut buf = vec![0u8; 4096];
    nbd.pread(&mut buf, 0, None).await.unwrap();
    assert_eq!(buf, data);
    // The error is shared: cloned into every task that wants it.
    let e = nbd.pread(&mut buf, 1 << 20, None).await.unwrap_err();
    let e2 = e.clone();
    assert_eq!(e2.errno(), Some(libc::EINVAL));
    assert!(e.is_recoverable());
}

// The aio_ calls of libnbd 1.22's AsyncHandle: the event loop drives
// them, the caller retires them.
#[tokio::test]
async fn async_handle_has_the_aio_calls() {
    let server = Server::start(&["pattern", "size=1M"]);
    let nbd = AsyncHandle::new().unwrap();
    nbd.aio_connect_unix(server.socket()).unwrap();
    while nbd.aio_is_connecting() {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert!(nbd.aio_is_ready());
    let mut buf = AioBuffer::new(4096);
    let cookie = nbd.aio_pread(&mut buf, 4096, None::<NoCompletion>, None).unwrap();
    while !nbd.aio_command_completed(cookie.0).unwrap() {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(buf.get().unwrap(), &pattern(4096, 4096)[..]);
    let cookie = nbd.aio_pread(&mut buf, 0, None::<NoCompletion>, None).unwrap();
    loop {
        match nbd.aio_peek_command_completed() {
            Ok(c) if c == cookie.0 => break,
            _ => tokio::time::sleep(std::time::Duration::from_millis(5)).await,
        }
    }
    assert!(nbd.aio_command_completed(cookie.0).unwrap());
    assert_eq!(buf.get().unwrap(), &pattern(0, 4096)[..]);
    nbd.aio_disconnect(None).unwrap();
}
