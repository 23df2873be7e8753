//! pread, pread_structured, pwrite, block_status and block_status_64.
mod common;
use common::{nbdkit, pattern};
use libnbd::{CmdFlag, Handle, NbdExtent, CONTEXT_BASE_ALLOCATION, READ_DATA, STATE_HOLE, STATE_ZERO};
use std::sync::{Arc, Mutex};

fn pattern_handle() -> Handle {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["pattern", "size=1M"])).unwrap();
    nbd
}

fn memory_handle() -> Handle {
    let nbd = Handle::new().unwrap();
    nbd.add_meta_context(CONTEXT_BASE_ALLOCATION).unwrap();
    nbd.connect_command(nbdkit(&["memory", "size=1M"])).unwrap();
    nbd
}

#[test]
fn pread() {
    let nbd = pattern_handle();
    let mut buf = vec![0u8; 1000];
    nbd.pread(&mut buf, 4093, None).unwrap();
    assert_eq!(buf, pattern(4093, 1000));
}

#[test]
fn pread_out_of_bounds_is_einval() {
    let nbd = pattern_handle();
    let mut buf = vec![0u8; 512];
    let e = nbd.pread(&mut buf, 1 << 20, None).unwrap_err();
    assert!(e.is_recoverable());
    assert_eq!(e.errno(), Some(libc::EINVAL), "{}", e);
    // The handle still works.
    nbd.pread(&mut buf, 0, None).unwrap();
}

#[test]
fn pread_structured() {
    let nbd = pattern_handle();
    let mut buf = vec![0u8; 1024];
    let chunks = Arc::new(Mutex::new(Vec::new()));
    let chunks2 = chunks.clone();
    nbd.pread_structured(
        &mut buf,
        2048,
        move |sub, offset, status, err| {
            assert_eq!(*err, 0);
            chunks2.lock().unwrap().push((sub.to_vec(), offset, status));
            0
        },
        Some(CmdFlag::DF),
    )
    .unwrap();
    assert_eq!(buf, pattern(2048, 1024));
    let chunks = chunks.lock().unwrap();
    assert_eq!(chunks.len(), 1);
    assert_eq!(chunks[0], (pattern(2048, 1024), 2048, READ_DATA));
}

#[test]
fn pread_structured_callback_error_fails_the_read() {
    let nbd = pattern_handle();
    let mut buf = vec![0u8; 512];
    let e = nbd
        .pread_structured(
            &mut buf,
            0,
            |_, _, _, err| {
                *err = libc::EPROTO;
                -1
            },
            None,
        )
        .unwrap_err();
    assert_eq!(e.errno(), Some(libc::EPROTO), "{}", e);
}

#[test]
fn pwrite_then_pread() {
    let nbd = memory_handle();
    let data: Vec<u8> = (0..4096u32).map(|i| (i * 7) as u8).collect();
    nbd.pwrite(&data, 8192, Some(CmdFlag::FUA)).unwrap();
    let mut back = vec![0u8; 4096];
    nbd.pread(&mut back, 8192, None).unwrap();
    assert_eq!(back, data);
    nbd.flush(None).unwrap();
    nbd.zero(4096, 8192, None).unwrap();
    nbd.pread(&mut back, 8192, None).unwrap();
    assert!(back.iter().all(|&b| b == 0));
    nbd.trim(4096, 0, None).unwrap();
}

#[test]
fn pwrite_read_only_is_eperm() {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["-r", "memory", "size=1M"])).unwrap();
    assert!(nbd.is_read_only().unwrap());
    let e = nbd.pwrite(&[1u8; 512], 0, None).unwrap_err();
    assert_eq!(e.errno(), Some(libc::EPERM), "{}", e);
}

#[test]
fn block_status() {
    let nbd = memory_handle();
    nbd.pwrite(&[1u8; 65536], 65536, None).unwrap();
    let extents = Arc::new(Mutex::new(Vec::new()));
    let e2 = extents.clone();
    nbd.block_status(
        1 << 20,
        0,
        move |ctx, offset, entries, err| {
            assert_eq!(ctx, CONTEXT_BASE_ALLOCATION);
            assert_eq!(offset, 0);
            assert_eq!(*err, 0);
            e2.lock().unwrap().extend_from_slice(entries);
            0
        },
        None,
    )
    .unwrap();
    let v = extents.lock().unwrap();
    // (length, flags) pairs: a hole, the data, a hole.
    assert_eq!(v.len() % 2, 0);
    assert_eq!(v[0], 65536);
    assert_eq!(v[1], STATE_HOLE | STATE_ZERO);
    assert_eq!(v[2], 65536);
    assert_eq!(v[3], 0);
}

#[test]
fn block_status_64() {
    let nbd = memory_handle();
    nbd.pwrite(&[1u8; 65536], 0, None).unwrap();
    let extents = Arc::new(Mutex::new(Vec::new()));
    let e2 = extents.clone();
    nbd.block_status_64(
        1 << 20,
        0,
        move |ctx, _offset, entries, _err| {
            assert_eq!(ctx, CONTEXT_BASE_ALLOCATION);
            e2.lock().unwrap().extend_from_slice(entries);
            0
        },
        None,
    )
    .unwrap();
    let v = extents.lock().unwrap();
    assert_eq!(v[0], NbdExtent { length: 65536, flags: 0 });
    assert_eq!(v[1].flags, (STATE_HOLE | STATE_ZERO) as u64);
    let total: u64 = v.iter().map(|e| e.length).sum();
    assert_eq!(total, 1 << 20);
}
