//! Types of the bindings: cookies, extents, and the buffers of
//! asynchronous commands.
use crate::error::{Error, Result};
use std::os::unix::io::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The extra descriptor of poll2: anything with a descriptor number.
/// libnbd 1.22's crate took an OwnedFd (closed after the call, as the
/// value is dropped); a RawFd (-1 for none) or a borrowed descriptor
/// work too.
pub trait PollFd {
    /// The descriptor number to poll.
    fn poll_fd(&self) -> RawFd;
}

impl PollFd for RawFd {
    fn poll_fd(&self) -> RawFd {
        *self
    }
}

impl PollFd for OwnedFd {
    fn poll_fd(&self) -> RawFd {
        self.as_raw_fd()
    }
}

impl PollFd for BorrowedFd<'_> {
    fn poll_fd(&self) -> RawFd {
        self.as_raw_fd()
    }
}

impl<T: AsFd> PollFd for &T {
    fn poll_fd(&self) -> RawFd {
        self.as_fd().as_raw_fd()
    }
}

/// The cookie of an asynchronous command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cookie(pub u64);

/// An extent of block_status_64: its length and its status flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct NbdExtent {
    pub length: u64,
    pub flags: u64,
}

// The layout is libnbd's nbd_extent: the callback's array is read as
// a slice of NbdExtent.
const _: () = assert!(
    std::mem::size_of::<NbdExtent>() == std::mem::size_of::<libnbd_sys::nbd_extent>()
);

/// The memory of an AioBuffer, kept as a raw pointer and a length:
/// no Rust reference to the bytes exists while libnbd may write them.
struct AioInner {
    ptr: *mut u8,
    len: usize,
    busy: AtomicBool,
}

// The bytes are reached by one side at a time: by libnbd while busy,
// through &mut AioBuffer otherwise.
unsafe impl Send for AioInner {}
unsafe impl Sync for AioInner {}

impl Drop for AioInner {
    fn drop(&mut self) {
        // The last owner: no command uses the bytes any more.
        let slice = std::ptr::slice_from_raw_parts_mut(self.ptr, self.len);
        drop(unsafe { Box::from_raw(slice) });
    }
}

/// A buffer for aio_pread, aio_pwrite and the like, whose memory lives
/// as long as the command that uses it.
///
/// While a command uses the buffer it is busy: [AioBuffer::get] and
/// [AioBuffer::get_mut] return None, and another command on it fails
/// with EBUSY.  It becomes free when libnbd releases the command's
/// completion callback, after the completion; dropping the AioBuffer
/// earlier leaves the memory to the command.
pub struct AioBuffer {
    inner: Arc<AioInner>,
}

impl AioBuffer {
    /// A zeroed buffer of `len` bytes.
    pub fn new(len: usize) -> Self {
        Self::from(vec![0u8; len])
    }

    /// The length in bytes (known without looking at the bytes,
    /// which a command may be writing).
    pub fn len(&self) -> usize {
        self.inner.len
    }

    /// Is the buffer empty?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Is a command using the buffer?
    pub fn is_busy(&self) -> bool {
        self.inner.busy.load(Ordering::Acquire)
    }

    /// The bytes, unless a command is using them.
    pub fn get(&self) -> Option<&[u8]> {
        if self.is_busy() {
            None
        } else {
            Some(unsafe { std::slice::from_raw_parts(self.inner.ptr, self.inner.len) })
        }
    }

    /// The bytes, to change them, unless a command is using them.
    pub fn get_mut(&mut self) -> Option<&mut [u8]> {
        if self.is_busy() {
            None
        } else {
            Some(unsafe { std::slice::from_raw_parts_mut(self.inner.ptr, self.inner.len) })
        }
    }

    /// Mark the buffer busy for one command: the guard frees it.
    fn start(&mut self) -> Result<(*mut u8, usize, Option<AioGuard>)> {
        if self
            .inner
            .busy
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return Err(Error::with_errno(
                libc::EBUSY,
                "the AioBuffer is in use by another command",
            ));
        }
        let guard = AioGuard {
            inner: self.inner.clone(),
        };
        Ok((self.inner.ptr, self.inner.len, Some(guard)))
    }
}

impl From<Vec<u8>> for AioBuffer {
    fn from(v: Vec<u8>) -> Self {
        let boxed = v.into_boxed_slice();
        let len = boxed.len();
        let ptr = Box::into_raw(boxed) as *mut u8;
        AioBuffer {
            inner: Arc::new(AioInner {
                ptr,
                len,
                busy: AtomicBool::new(false),
            }),
        }
    }
}

impl std::fmt::Debug for AioBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AioBuffer")
            .field("len", &self.len())
            .field("busy", &self.is_busy())
            .finish()
    }
}

/// Keeps an AioBuffer's memory, and marks it busy, until dropped by
/// the completion callback's free.
pub struct AioGuard {
    inner: Arc<AioInner>,
}

impl Drop for AioGuard {
    fn drop(&mut self) {
        self.inner.busy.store(false, Ordering::Release);
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for &'static [u8] {}
    impl Sealed for &'static mut [u8] {}
    impl Sealed for &mut super::AioBuffer {}
}

/// A buffer an asynchronous command reads from (aio_pwrite): either an
/// AioBuffer or memory that lives for ever.
pub trait AioBufferIn: sealed::Sealed {
    #[doc(hidden)]
    fn into_aio_in(self) -> Result<(*const u8, usize, Option<AioGuard>)>;
}

/// A buffer an asynchronous command writes to (aio_pread): either an
/// AioBuffer or memory that lives for ever.
pub trait AioBufferOut: sealed::Sealed {
    #[doc(hidden)]
    fn into_aio_out(self) -> Result<(*mut u8, usize, Option<AioGuard>)>;
}

impl AioBufferIn for &'static [u8] {
    fn into_aio_in(self) -> Result<(*const u8, usize, Option<AioGuard>)> {
        Ok((self.as_ptr(), self.len(), None))
    }
}

impl AioBufferIn for &'static mut [u8] {
    fn into_aio_in(self) -> Result<(*const u8, usize, Option<AioGuard>)> {
        Ok((self.as_ptr(), self.len(), None))
    }
}

impl AioBufferIn for &mut AioBuffer {
    fn into_aio_in(self) -> Result<(*const u8, usize, Option<AioGuard>)> {
        let (p, n, g) = self.start()?;
        Ok((p as *const u8, n, g))
    }
}

impl AioBufferOut for &'static mut [u8] {
    fn into_aio_out(self) -> Result<(*mut u8, usize, Option<AioGuard>)> {
        Ok((self.as_mut_ptr(), self.len(), None))
    }
}

impl AioBufferOut for &mut AioBuffer {
    fn into_aio_out(self) -> Result<(*mut u8, usize, Option<AioGuard>)> {
        self.start()
    }
}
