//! Conversions between Rust and C values used by the generated code.
use crate::error::{Error, Result};
use crate::sys;
use crate::types::AioGuard;
use libc::{c_char, c_int, c_void};
use std::any::Any;
use std::cell::RefCell;
use std::ffi::{CStr, CString};
use std::net::SocketAddr;
use std::os::unix::ffi::OsStringExt;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::ptr;

/// A closure given to libnbd, with the handle whose lock libnbd holds
/// whenever it calls or frees the closure.
pub(crate) struct Boxed<F> {
    pub(crate) handle: *mut sys::nbd_handle,
    pub(crate) f: F,
}

impl<F> Boxed<F> {
    /// The user_data of a C closure.
    pub(crate) fn into_raw(handle: *mut sys::nbd_handle, f: F) -> *mut c_void {
        Box::into_raw(Box::new(Boxed { handle, f })) as *mut c_void
    }
}

thread_local! {
    /// The handles whose callbacks this thread is running, innermost
    /// last (a callback may call another handle, which calls back).
    static IN_CALLBACK: RefCell<Vec<usize>> = RefCell::new(Vec::new());
}

/// While alive: this thread runs a callback of the handle, under its
/// lock.
pub(crate) struct InCallback;

impl InCallback {
    pub(crate) fn enter(handle: *mut sys::nbd_handle) -> InCallback {
        IN_CALLBACK.with(|v| v.borrow_mut().push(handle as usize));
        InCallback
    }
}

impl Drop for InCallback {
    fn drop(&mut self) {
        IN_CALLBACK.with(|v| {
            v.borrow_mut().pop();
        });
    }
}

/// A locked call of `handle` must not come from one of its callbacks:
/// the lock is this thread's already, and the call would deadlock.
pub(crate) fn not_in_callback(handle: *mut sys::nbd_handle, call: &str) -> Result<()> {
    let inside = IN_CALLBACK.with(|v| v.borrow().contains(&(handle as usize)));
    if inside {
        return Err(Error::with_errno(
            libc::EDEADLK,
            format!(
                "{}: called from a callback of the same handle, which runs \
                 with the handle locked: this call would deadlock",
                call
            ),
        ));
    }
    Ok(())
}

/// The free function of a closure: libnbd calls it exactly once, with
/// the handle locked.  A panic in the closure's Drop stops here:
/// unwinding into C is undefined (it would leave the handle locked);
/// the panic hook has reported it, and the rest of the closure is
/// leaked.
pub(crate) unsafe extern "C" fn drop_boxed<F>(data: *mut c_void) {
    let boxed = Box::from_raw(data as *mut Boxed<F>);
    let _locked = InCallback::enter(boxed.handle);
    let dropped = panic::catch_unwind(AssertUnwindSafe(|| drop(boxed)));
    if let Err(payload) = dropped {
        forget_panic(payload);
    }
}

/// Let go of a caught panic's payload without running its Drop, which
/// could panic again, outside any catch_unwind.
pub(crate) fn forget_panic(payload: Box<dyn Any + Send>) {
    std::mem::forget(payload);
}

/// A callback panicked: the panic stopped at the C boundary, and the
/// callback fails with EIO.
pub(crate) unsafe fn callback_panicked(payload: Box<dyn Any + Send>, error: *mut c_int) -> c_int {
    forget_panic(payload);
    if !error.is_null() && *error == 0 {
        *error = libc::EIO;
    }
    -1
}

/// A slice of the C array (ptr, len); NULL is an empty one.
pub(crate) unsafe fn slice_from_raw<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, len)
    }
}

/// The bytes of a C string; NULL is an empty one.
pub(crate) unsafe fn bytes_from_cstr<'a>(s: *const c_char) -> &'a [u8] {
    if s.is_null() {
        &[]
    } else {
        CStr::from_ptr(s).to_bytes()
    }
}

/// A string the library owns for ever.
pub(crate) unsafe fn static_bytes(s: *const c_char) -> &'static [u8] {
    bytes_from_cstr(s)
}

/// A string the caller must free: copy it, then free it.
pub(crate) unsafe fn take_c_string(s: *mut c_char) -> Vec<u8> {
    let v = bytes_from_cstr(s).to_vec();
    libc::free(s as *mut c_void);
    v
}

/// A C string of the bytes; an interior NUL is EINVAL.
pub(crate) fn to_cstring(bytes: Vec<u8>) -> Result<CString> {
    CString::new(bytes).map_err(|_| {
        Error::with_errno(libc::EINVAL, "string argument contains a NUL byte")
    })
}

pub(crate) fn path_to_cstring(p: PathBuf) -> Result<CString> {
    to_cstring(p.into_os_string().into_vec())
}

/// A NULL-terminated char ** and the strings it points to.
pub(crate) struct CStringList {
    _strings: Vec<CString>,
    ptrs: Vec<*mut c_char>,
}

impl CStringList {
    pub(crate) fn new(items: impl IntoIterator<Item = impl AsRef<[u8]>>) -> Result<Self> {
        let strings = items
            .into_iter()
            .map(|s| to_cstring(s.as_ref().to_vec()))
            .collect::<Result<Vec<_>>>()?;
        let mut ptrs: Vec<*mut c_char> =
            strings.iter().map(|s| s.as_ptr() as *mut c_char).collect();
        ptrs.push(ptr::null_mut());
        Ok(CStringList {
            _strings: strings,
            ptrs,
        })
    }

    pub(crate) fn as_mut_ptr(&mut self) -> *mut *mut c_char {
        self.ptrs.as_mut_ptr()
    }
}

/// The struct sockaddr of a socket address.
pub(crate) fn sockaddr_from(addr: &SocketAddr) -> (libc::sockaddr_storage, libc::socklen_t) {
    let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let len = match addr {
        SocketAddr::V4(a) => {
            let sin = unsafe { &mut *(&mut ss as *mut _ as *mut libc::sockaddr_in) };
            sin.sin_family = libc::AF_INET as libc::sa_family_t;
            sin.sin_port = a.port().to_be();
            sin.sin_addr.s_addr = u32::from_ne_bytes(a.ip().octets());
            std::mem::size_of::<libc::sockaddr_in>()
        }
        SocketAddr::V6(a) => {
            let sin6 = unsafe { &mut *(&mut ss as *mut _ as *mut libc::sockaddr_in6) };
            sin6.sin6_family = libc::AF_INET6 as libc::sa_family_t;
            sin6.sin6_port = a.port().to_be();
            sin6.sin6_flowinfo = a.flowinfo();
            sin6.sin6_addr.s6_addr = a.ip().octets();
            sin6.sin6_scope_id = a.scope_id();
            std::mem::size_of::<libc::sockaddr_in6>()
        }
    };
    (ss, len as libc::socklen_t)
}

/// The completion closure of a command on a persistent buffer: the
/// caller's closure (if any) and the buffer's guard, dropped together
/// when libnbd frees the closure, after the command completed.
pub(crate) fn completion_with_guard(
    h: *mut sys::nbd_handle,
    completion: Option<impl FnMut(&mut c_int) -> c_int + Send + 'static>,
    guard: Option<AioGuard>,
) -> sys::nbd_completion_callback {
    match (completion, guard) {
        (Some(mut f), guard) => crate::bindings::completion_to_raw(h, move |err: &mut c_int| {
            let _keep = &guard;
            f(err)
        }),
        // Returning 0 leaves the command for aio_command_completed, as
        // with no callback at all.
        (None, Some(guard)) => crate::bindings::completion_to_raw(h, move |_: &mut c_int| {
            let _keep = &guard;
            0
        }),
        (None, None) => sys::nbd_completion_callback {
            callback: None,
            user_data: ptr::null_mut(),
            free: None,
        },
    }
}

/// The completion closure of an AsyncHandle command: it sends the
/// command's errno and its bounce buffer (which libnbd no longer
/// touches by then) to the waiting future, and retires the command.
#[cfg(feature = "tokio")]
pub(crate) fn completion_sender(
    h: *mut sys::nbd_handle,
    tx: tokio::sync::oneshot::Sender<(c_int, Vec<u8>)>,
    bounce: Vec<u8>,
) -> sys::nbd_completion_callback {
    let mut state = Some((tx, bounce));
    crate::bindings::completion_to_raw(h, move |err: &mut c_int| {
        if let Some((tx, bounce)) = state.take() {
            let _ = tx.send((*err, bounce));
        }
        1
    })
}
