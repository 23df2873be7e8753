//! Rust bindings for libnbd, the NBD client library.
//!
//! [Handle] is a connection to one NBD server: every call of libnbd's
//! C API that takes a handle is one of its methods (generated from the
//! API table, see libnbd-rust(3)).  With the `tokio` feature,
//! [AsyncHandle] offers the asynchronous calls as `async fn`s.
#![deny(warnings)]

#[cfg(feature = "tokio")]
mod async_bindings;
#[cfg(feature = "tokio")]
mod async_handle;
mod bindings;
mod error;
#[cfg(feature = "tokio")]
mod event_loop;
mod handle;
pub mod types;
mod utils;

#[cfg(feature = "tokio")]
pub use async_handle::{AsyncHandle, SharedResult};
pub use bindings::*;
pub use error::{Error, ErrorKind, FatalErrorKind, Result};
pub use handle::Handle;
pub use types::{AioBuffer, AioBufferIn, AioBufferOut, Cookie, NbdExtent, PollFd};
pub(crate) use libnbd_sys as sys;
