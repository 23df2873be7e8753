//! The asynchronous handle on tokio: a task drives the handle's socket
//! (aio_notify_read/write) and wakes the commands waiting on it.  The
//! generated async methods are in async_bindings.rs; the socket the
//! task watches is in event_loop.rs.
use crate::error::{Error, ErrorKind, FatalErrorKind, Result};
use crate::Handle;
use errno::Errno;
use libc::c_int;
use std::sync::{Arc, Mutex};
use tokio::sync::{oneshot, watch, Notify};

/// A Result whose error can be shared, as libnbd 1.22's crate names it
/// for its async calls.  The async methods here return [Result]; `?`
/// turns their errors into this one.
pub type SharedResult<T, E = Arc<Error>> = std::result::Result<T, E>;

/// A handle whose asynchronous calls are `async fn`s.  Create it inside
/// a tokio runtime with IO enabled; dropping it stops its task and
/// closes the handle.
pub struct AsyncHandle {
    inner: Arc<Inner>,
    task: tokio::task::JoinHandle<()>,
}

/// What the AsyncHandle and its event-loop task share.
pub(crate) struct Inner {
    pub(crate) handle: Handle,
    /// A command was issued: the direction may have changed.
    pub(crate) kick: Notify,
    /// Bumped after every step of the state machine.
    pub(crate) progress: watch::Sender<u64>,
    /// Set once, when the event loop ends: nothing drives the handle
    /// any more, so no waiter may wait for ever.
    pub(crate) stopped: watch::Sender<bool>,
    /// Why the event loop's last step failed, or why it stopped:
    /// (message, errno or 0).
    pub(crate) error: Mutex<Option<(String, i32)>>,
}

impl Inner {
    /// Let the waiters look at the handle again.
    pub(crate) fn bump(&self) {
        self.progress.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Keep the first reason of a failure for the waiters.
    pub(crate) fn set_error(&self, message: String, errno: i32) {
        let mut e = self.error.lock().unwrap();
        if e.is_none() {
            *e = Some((message, errno));
        }
    }

    fn is_stopped(&self) -> bool {
        *self.stopped.borrow()
    }
}

impl AsyncHandle {
    /// A new, unconnected handle and its event-loop task.
    pub fn new() -> Result<Self> {
        let inner = Arc::new(Inner {
            handle: Handle::new()?,
            kick: Notify::new(),
            progress: watch::channel(0u64).0,
            stopped: watch::channel(false).0,
            error: Mutex::new(None),
        });
        let task = tokio::spawn(crate::event_loop::run(inner.clone()));
        Ok(AsyncHandle { inner, task })
    }

    /// The blocking handle underneath, for calls with no async form.
    pub fn handle(&self) -> &Handle {
        &self.inner.handle
    }

    pub(crate) fn raw_handle(&self) -> *mut crate::sys::nbd_handle {
        self.inner.handle.handle
    }

    /// Fail at once if the event loop has stopped: nothing would
    /// drive a new command.
    pub(crate) fn check_running(&self) -> Result<()> {
        if self.inner.is_stopped() {
            return Err(self.dead_error());
        }
        Ok(())
    }

    /// Tell the event loop a command was issued.
    pub(crate) fn kick(&self) {
        self.inner.kick.notify_one();
    }

    /// The error of a dead handle, or of one whose event loop stopped:
    /// the event loop's reason, if it has one.
    fn dead_error(&self) -> Error {
        let saved = self.inner.error.lock().unwrap().clone();
        let stopped = self.inner.is_stopped();
        let kind = match saved {
            Some((description, 0)) => ErrorKind::WithoutErrno { description },
            Some((description, e)) => ErrorKind::WithErrno {
                errno: Errno(e),
                description,
            },
            None if stopped => ErrorKind::WithErrno {
                errno: Errno(libc::ENOTCONN),
                description: String::from("the AsyncHandle's event loop has stopped"),
            },
            None => ErrorKind::WithErrno {
                errno: Errno(libc::ENOTCONN),
                description: String::from("the NBD connection is dead"),
            },
        };
        Error::Fatal(FatalErrorKind::Libnbd(kind))
    }

    /// Is the connection gone: dead, closed, or no longer driven?
    fn is_gone(&self) -> bool {
        let h = &self.inner.handle;
        self.inner.is_stopped() || h.aio_is_dead() || h.aio_is_closed()
    }

    /// Wait until `done` holds of the handle; a dead handle fails.
    pub(crate) async fn wait_until(&self, done: impl Fn(&Handle) -> bool) -> Result<()> {
        let mut rx = self.inner.progress.subscribe();
        loop {
            if self.inner.handle.aio_is_dead() || self.inner.is_stopped() {
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
    /// If the event loop stops first, nothing will complete it.
    pub(crate) async fn wait_completion(
        &self,
        mut rx: oneshot::Receiver<(c_int, Vec<u8>)>,
    ) -> Result<(c_int, Vec<u8>)> {
        let mut stopped = self.inner.stopped.subscribe();
        loop {
            if *stopped.borrow_and_update() {
                // A completion sent just before the end still counts.
                return rx.try_recv().map_err(|_| self.dead_error());
            }
            tokio::select! {
                r = &mut rx => return r.map_err(|_| self.dead_error()),
                _ = stopped.changed() => (),
            }
        }
    }

    /// The result of a completed command from its errno.
    pub(crate) fn command_result(&self, err: c_int) -> Result<()> {
        if err == 0 {
            return Ok(());
        }
        // libnbd fails the commands of a dying connection before it
        // marks the handle dead, all under the handle's lock: taking
        // the lock (any locked call) waits for that to be over.
        let _ = self.inner.handle.get_debug();
        if self.is_gone() {
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
