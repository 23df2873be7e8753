//! The error of a failed call: libnbd's message and errno, and whether
//! the handle survived it.
use crate::sys;
use errno::Errno;
use std::ffi::{CStr, NulError};
use std::fmt;
use std::io;

/// The error of a libnbd call.
#[derive(Debug)]
pub enum Error {
    /// The call failed, but the handle can still be used.
    Recoverable(ErrorKind),
    /// The handle is dead: no further command can succeed on it.
    Fatal(FatalErrorKind),
}

/// What went wrong, as libnbd reported it.
#[derive(Debug)]
pub enum ErrorKind {
    /// A message with the errno that goes with it.
    WithErrno { errno: Errno, description: String },
    /// A message without an errno.
    WithoutErrno { description: String },
    /// Only an errno (a command's completion reported it).
    Errno(Errno),
}

/// Why the handle is dead.
#[derive(Debug)]
pub enum FatalErrorKind {
    /// libnbd reported the error.
    Libnbd(ErrorKind),
    /// An I/O error outside libnbd (the event loop of an AsyncHandle).
    Io(io::Error),
}

/// A Result of libnbd's Error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl ErrorKind {
    /// The last error libnbd reported in this thread.
    pub(crate) fn last() -> Self {
        // The message is the library's, valid until the next call in
        // this thread: copy it at once.
        let msg = unsafe { sys::nbd_get_error() };
        let description = if msg.is_null() {
            String::from("unknown libnbd error")
        } else {
            unsafe { CStr::from_ptr(msg) }.to_string_lossy().into_owned()
        };
        match unsafe { sys::nbd_get_errno() } {
            0 => Self::WithoutErrno { description },
            e => Self::WithErrno { errno: Errno(e), description },
        }
    }

    /// An error made of an errno value only.
    pub fn from_errno(val: i32) -> Self {
        Self::Errno(Errno(val))
    }

    /// The errno value, if any.
    pub fn errno(&self) -> Option<i32> {
        match self {
            Self::WithErrno { errno, .. } | Self::Errno(errno) => Some(errno.0),
            Self::WithoutErrno { .. } => None,
        }
    }

    /// The message alone, without the errno (the event loop hands it
    /// back to libnbd, which adds its own).
    #[cfg(feature = "tokio")]
    pub(crate) fn description(&self) -> String {
        match self {
            Self::WithErrno { description, .. } | Self::WithoutErrno { description } => {
                description.clone()
            }
            Self::Errno(errno) => errno.to_string(),
        }
    }
}

impl Error {
    /// The last error libnbd reported in this thread, fatal if the
    /// handle is dead now.
    pub(crate) unsafe fn get_error(handle: *mut sys::nbd_handle) -> Self {
        let kind = ErrorKind::last();
        if !handle.is_null() && sys::nbd_aio_is_dead(handle) != 0 {
            Self::Fatal(FatalErrorKind::Libnbd(kind))
        } else {
            Self::Recoverable(kind)
        }
    }

    /// A recoverable error with an errno and a message.
    pub(crate) fn with_errno(errno: i32, description: impl Into<String>) -> Self {
        Self::Recoverable(ErrorKind::WithErrno {
            errno: Errno(errno),
            description: description.into(),
        })
    }

    /// The errno value, if any.
    pub fn errno(&self) -> Option<i32> {
        match self {
            Self::Recoverable(e) | Self::Fatal(FatalErrorKind::Libnbd(e)) => e.errno(),
            Self::Fatal(FatalErrorKind::Io(e)) => e.raw_os_error(),
        }
    }

    /// The message alone: no errno, no "fatal" prefix.
    #[cfg(feature = "tokio")]
    pub(crate) fn description(&self) -> String {
        match self {
            Self::Recoverable(e) | Self::Fatal(FatalErrorKind::Libnbd(e)) => e.description(),
            Self::Fatal(FatalErrorKind::Io(e)) => e.to_string(),
        }
    }

    /// Is the handle dead?
    pub fn is_fatal(&self) -> bool {
        matches!(self, Self::Fatal(_))
    }

    /// Can the handle still be used?
    pub fn is_recoverable(&self) -> bool {
        matches!(self, Self::Recoverable(_))
    }

    /// This error as the reason a handle is dead.
    pub fn to_fatal(self) -> FatalErrorKind {
        match self {
            Self::Fatal(e) => e,
            Self::Recoverable(e) => FatalErrorKind::Libnbd(e),
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WithErrno { errno, description } => {
                write!(f, "{} (errno {}: {})", description, errno.0, errno)
            }
            Self::WithoutErrno { description } => f.write_str(description),
            Self::Errno(errno) => write!(f, "errno {}: {}", errno.0, errno),
        }
    }
}

impl fmt::Display for FatalErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Libnbd(e) => e.fmt(f),
            Self::Io(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Recoverable(e) => e.fmt(f),
            Self::Fatal(e) => write!(f, "fatal: the NBD handle is dead: {}", e),
        }
    }
}

impl std::error::Error for ErrorKind {}
impl std::error::Error for FatalErrorKind {}
impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Self::Fatal(FatalErrorKind::Io(e))
    }
}

// As in libnbd 1.22's crate: a message is a recoverable error, and so
// is a string with a NUL byte.
impl From<String> for Error {
    fn from(description: String) -> Self {
        Self::Recoverable(ErrorKind::WithoutErrno { description })
    }
}

impl From<NulError> for Error {
    fn from(e: NulError) -> Self {
        Self::with_errno(libc::EINVAL, e.to_string())
    }
}

impl From<Errno> for ErrorKind {
    fn from(errno: Errno) -> Self {
        Self::Errno(errno)
    }
}

impl From<ErrorKind> for FatalErrorKind {
    fn from(e: ErrorKind) -> Self {
        Self::Libnbd(e)
    }
}

impl From<io::Error> for FatalErrorKind {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}
