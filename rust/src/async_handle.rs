//! The asynchronous handle on tokio: a task drives the handle's file
//! descriptor (aio_notify_read/write) and wakes the commands waiting on
//! it.  The generated async methods are in async_bindings.rs.
use crate::error::{Error, ErrorKind, FatalErrorKind, Result};
use crate::{Handle, AIO_DIRECTION_READ, AIO_DIRECTION_WRITE};
use errno::Errno;
use libc::c_int;
use std::os::unix::io::RawFd;
use std::sync::{Arc, Mutex};
use tokio::io::unix::AsyncFd;
use tokio::sync::{oneshot, watch, Notify};

/// A Result whose error can be shared, as libnbd 1.22's crate names it
/// for its async calls.  The async methods here return [Result]; `?`
/// turns their errors into this one.
pub type SharedResult<T, E = Arc<Error>> = std::result::Result<T, E>;

/// A handle whose asynchronous calls are `async fn`s.  Create it inside
/// a tokio runtime; dropping it stops its task and closes the handle.
pub struct AsyncHandle {
    inner: Arc<Inner>,
    task: tokio::task::JoinHandle<()>,
}

struct Inner {
    handle: Handle,
    /// A command was issued: the direction may have changed.
    kick: Notify,
    /// Bumped after every step of the state machine.
    progress: watch::Sender<u64>,
    /// Why the event loop's last step failed: (message, errno).
    error: Mutex<Option<(String, i32)>>,
}

impl AsyncHandle {
    /// A new, unconnected handle and its event-loop task.
    pub fn new() -> Result<Self> {
        let (progress, _) = watch::channel(0u64);
        let inner = Arc::new(Inner {
            handle: Handle::new()?,
            kick: Notify::new(),
            progress,
            error: Mutex::new(None),
        });
        let task = tokio::spawn(event_loop(inner.clone()));
        Ok(AsyncHandle { inner, task })
    }

    /// The blocking handle underneath, for calls with no async form.
    pub fn handle(&self) -> &Handle {
        &self.inner.handle
    }

    pub(crate) fn raw_handle(&self) -> *mut crate::sys::nbd_handle {
        self.inner.handle.handle
    }

    /// Tell the event loop a command was issued.
    pub(crate) fn kick(&self) {
        self.inner.kick.notify_one();
    }

    /// The error of a dead handle: the event loop's, if it has one.
    fn dead_error(&self) -> Error {
        let saved = self.inner.error.lock().unwrap().clone();
        let kind = match saved {
            Some((description, 0)) => ErrorKind::WithoutErrno { description },
            Some((description, e)) => ErrorKind::WithErrno {
                errno: Errno(e),
                description,
            },
            None => ErrorKind::WithErrno {
                errno: Errno(libc::ENOTCONN),
                description: String::from("the NBD connection is dead"),
            },
        };
        Error::Fatal(FatalErrorKind::Libnbd(kind))
    }

    /// Wait until `done` holds of the handle; a dead handle fails.
    pub(crate) async fn wait_until(&self, done: impl Fn(&Handle) -> bool) -> Result<()> {
        let mut rx = self.inner.progress.subscribe();
        loop {
            if self.inner.handle.aio_is_dead() {
                return Err(self.dead_error());
            }
            if done(&self.inner.handle) {
                return Ok(());
            }
            if rx.changed().await.is_err() {
                return Err(self.dead_error());
            }
        }
    }

    /// Wait for a command's completion: its errno and bounce buffer.
    pub(crate) async fn wait_completion(
        &self,
        rx: oneshot::Receiver<(c_int, Vec<u8>)>,
    ) -> Result<(c_int, Vec<u8>)> {
        rx.await.map_err(|_| self.dead_error())
    }

    /// The result of a completed command from its errno.
    pub(crate) fn command_result(&self, err: c_int) -> Result<()> {
        if err == 0 {
            return Ok(());
        }
        if self.inner.handle.aio_is_dead() {
            return Err(self.dead_error());
        }
        Err(Error::Recoverable(ErrorKind::WithErrno {
            errno: Errno(err),
            description: format!("command failed: {}", Errno(err)),
        }))
    }
}

impl Drop for AsyncHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Is the fd ready for `events` now?  tokio's readiness is edge
/// triggered and libnbd may leave data unread, so the event loop asks
/// the kernel before each step instead of trusting a cached edge.
fn poll_now(fd: RawFd, events: libc::c_short) -> bool {
    let mut pfd = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    let r = unsafe { libc::poll(&mut pfd, 1, 0) };
    r > 0 && pfd.revents != 0
}

impl Inner {
    fn step(&self, read: bool) {
        let r = if read {
            self.handle.aio_notify_read()
        } else {
            self.handle.aio_notify_write()
        };
        // The error is thread-local to this task: keep it for the
        // commands that will find the handle dead.
        if let Err(e) = r {
            *self.error.lock().unwrap() = Some((e.to_string(), e.errno().unwrap_or(0)));
        }
        self.progress.send_modify(|n| *n = n.wrapping_add(1));
    }
}

async fn event_loop(inner: Arc<Inner>) {
    // No fd until a connect call has started.
    let fd = loop {
        let notified = inner.kick.notified();
        if let Ok(fd) = inner.handle.aio_get_fd() {
            break fd;
        }
        if inner.handle.aio_is_dead() || inner.handle.aio_is_closed() {
            inner.progress.send_modify(|n| *n = n.wrapping_add(1));
        }
        notified.await;
    };
    let afd = match AsyncFd::new(fd) {
        Ok(afd) => afd,
        Err(e) => {
            *inner.error.lock().unwrap() = Some((e.to_string(), e.raw_os_error().unwrap_or(0)));
            inner.progress.send_modify(|n| *n = n.wrapping_add(1));
            return;
        }
    };
    // Connecting may have finished in the caller's thread already.
    inner.progress.send_modify(|n| *n = n.wrapping_add(1));
    loop {
        let notified = inner.kick.notified();
        if inner.handle.aio_is_dead() || inner.handle.aio_is_closed() {
            inner.progress.send_modify(|n| *n = n.wrapping_add(1));
            // The fd is closed (or will be): nothing more to drive.
            notified.await;
            continue;
        }
        let dir = inner.handle.aio_get_direction();
        let want_read = dir & AIO_DIRECTION_READ != 0;
        let want_write = dir & AIO_DIRECTION_WRITE != 0;
        tokio::select! {
            r = afd.readable(), if want_read => match r {
                Ok(mut guard) => {
                    if poll_now(fd, libc::POLLIN | libc::POLLHUP | libc::POLLERR) {
                        inner.step(true);
                    } else {
                        guard.clear_ready();
                    }
                }
                Err(e) => {
                    *inner.error.lock().unwrap() = Some((e.to_string(), e.raw_os_error().unwrap_or(0)));
                    return;
                }
            },
            r = afd.writable(), if want_write => match r {
                Ok(mut guard) => {
                    if poll_now(fd, libc::POLLOUT | libc::POLLHUP | libc::POLLERR) {
                        inner.step(false);
                    } else {
                        guard.clear_ready();
                    }
                }
                Err(e) => {
                    *inner.error.lock().unwrap() = Some((e.to_string(), e.raw_os_error().unwrap_or(0)));
                    return;
                }
            },
            _ = notified => {
                // Commands issued in other threads may have moved the
                // state machine: let their waiters look.
                inner.progress.send_modify(|n| *n = n.wrapping_add(1));
            }
        }
    }
}
