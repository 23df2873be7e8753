//! The blocking handle: the generated methods are in bindings.rs.
use crate::error::{Error, ErrorKind, FatalErrorKind, Result};
use crate::sys;

/// A libnbd handle: the settings and the state of one connection.
///
/// libnbd locks the handle in every call, so it may be shared between
/// threads.  Dropping it closes the connection (nbd_close(3)).
#[derive(Debug)]
pub struct Handle {
    pub(crate) handle: *mut sys::nbd_handle,
}

impl Handle {
    /// A new, unconnected handle (nbd_create(3)).
    pub fn new() -> Result<Self> {
        let handle = unsafe { sys::nbd_create() };
        if handle.is_null() {
            return Err(Error::Fatal(FatalErrorKind::Libnbd(ErrorKind::last())));
        }
        let nbd = Handle { handle };
        #[cfg(feature = "log")]
        nbd.debug_to_log()?;
        Ok(nbd)
    }

    /// With the "log" feature, as libnbd 1.22's crate does: the
    /// handle's debug messages go to log::debug!, their target the
    /// libnbd function (nbd_pread, ...).  Debugging is on from the
    /// start, so a logger installed later hears the handle too; a
    /// message is only converted when the log level lets it through
    /// and the logger wants its target.
    #[cfg(feature = "log")]
    fn debug_to_log(&self) -> Result<()> {
        self.set_debug_callback(|func, msg| {
            if log::max_level() < log::LevelFilter::Debug {
                return 0;
            }
            let target = String::from_utf8_lossy(func);
            if log::log_enabled!(target: target.as_ref(), log::Level::Debug) {
                log::debug!(target: target.as_ref(), "{}", String::from_utf8_lossy(msg));
            }
            0
        })?;
        self.set_debug(true)
    }

    /// The C handle, for calls this crate does not wrap.  It stays
    /// valid as long as this Handle.
    pub fn raw_handle(&self) -> *mut sys::nbd_handle {
        self.handle
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { sys::nbd_close(self.handle) }
    }
}

// The C handle takes its own lock in every call, and the closures it
// holds are Send.
unsafe impl Send for Handle {}
unsafe impl Sync for Handle {}
