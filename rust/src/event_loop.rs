//! The event loop of an AsyncHandle: it follows the handle's current
//! socket and runs the state machine when that socket is ready.
//!
//! It never registers libnbd's descriptor with tokio, only a duplicate
//! it owns: libnbd closes its socket when the connection dies, shuts
//! down or moves to the next address, and its number is then free for
//! any other socket; deregistering that number later would silence
//! whoever got it.  The duplicate is dropped as soon as libnbd's
//! socket is no longer the one it copies.
use crate::async_handle::Inner;
use crate::{AIO_DIRECTION_READ, AIO_DIRECTION_WRITE};
use std::os::unix::io::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use tokio::io::unix::AsyncFd;

/// The socket's identity: a descriptor number can be reused, the
/// socket's inode is not while it is open.
fn socket_id(fd: RawFd) -> Option<(u64, u64)> {
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } == -1 {
        return None;
    }
    Some((st.st_dev as u64, st.st_ino as u64))
}

/// The duplicate of libnbd's socket the loop watches.
struct Watched {
    afd: AsyncFd<OwnedFd>,
    /// libnbd's descriptor number, and the socket's identity.
    raw: RawFd,
    id: (u64, u64),
}

enum WatchError {
    /// libnbd's descriptor went away while we copied it: look again.
    Gone,
    /// Watching is impossible (no IO driver, out of descriptors).
    Failed(String, i32),
}

impl Watched {
    fn new(raw: RawFd) -> Result<Self, WatchError> {
        let id = socket_id(raw).ok_or(WatchError::Gone)?;
        let dup = unsafe { libc::fcntl(raw, libc::F_DUPFD_CLOEXEC, 0) };
        if dup == -1 {
            let e = std::io::Error::last_os_error();
            return match e.raw_os_error() {
                Some(libc::EBADF) => Err(WatchError::Gone),
                errno => Err(WatchError::Failed(
                    format!("duplicating the handle's socket: {}", e),
                    errno.unwrap_or(0),
                )),
            };
        }
        let dup = unsafe { OwnedFd::from_raw_fd(dup) };
        if socket_id(dup.as_raw_fd()) != Some(id) {
            // The number was reused between fstat and dup.
            return Err(WatchError::Gone);
        }
        // tokio panics, rather than fails, in a runtime without IO.
        match panic::catch_unwind(AssertUnwindSafe(|| AsyncFd::new(dup))) {
            Ok(Ok(afd)) => Ok(Watched { afd, raw, id }),
            Ok(Err(e)) => Err(WatchError::Failed(
                format!("registering the handle's socket with tokio: {}", e),
                e.raw_os_error().unwrap_or(0),
            )),
            Err(payload) => {
                let why = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| String::from("tokio panicked"));
                std::mem::forget(payload);
                Err(WatchError::Failed(
                    format!("the AsyncHandle can not watch its socket: {}", why),
                    0,
                ))
            }
        }
    }

    /// Is this still a copy of libnbd's current socket `raw`?
    fn follows(&self, raw: RawFd) -> bool {
        self.raw == raw && socket_id(raw) == Some(self.id)
    }

    fn fd(&self) -> RawFd {
        self.afd.get_ref().as_raw_fd()
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

/// Marks the loop stopped however it ends (returned, panicked, or
/// aborted with its AsyncHandle), and wakes every waiter.
struct Stopped(Arc<Inner>);

impl Drop for Stopped {
    fn drop(&mut self) {
        self.0.stopped.send_replace(true);
        self.0.bump();
    }
}

impl Inner {
    /// One step of the state machine in direction read or write.
    fn step(&self, read: bool) {
        let r = if read {
            self.handle.aio_notify_read()
        } else {
            self.handle.aio_notify_write()
        };
        // The error is thread-local to this task: keep it for the
        // commands that will find the handle dead.
        if let Err(e) = r {
            self.set_error(e.description(), e.errno().unwrap_or(0));
        }
        self.bump();
    }

    /// libnbd's socket, while there is a connection to drive.
    fn current_socket(&self) -> Option<RawFd> {
        if self.handle.aio_is_dead() || self.handle.aio_is_closed() {
            return None;
        }
        self.handle.aio_get_fd().ok()
    }
}

/// Wait until the socket is ready in `want` (read, write) or a
/// command is issued; step the state machine if it is ready.  Err is
/// tokio's failure to wait, which ends the loop.
async fn wait_and_step(
    inner: &Inner,
    w: &Watched,
    want: (bool, bool),
    notified: tokio::sync::futures::Notified<'_>,
) -> std::io::Result<()> {
    let fd = w.fd();
    tokio::select! {
        r = w.afd.readable(), if want.0 => {
            let mut guard = r?;
            if poll_now(fd, libc::POLLIN | libc::POLLHUP | libc::POLLERR) {
                inner.step(true);
            } else {
                guard.clear_ready();
            }
        }
        r = w.afd.writable(), if want.1 => {
            let mut guard = r?;
            if poll_now(fd, libc::POLLOUT | libc::POLLHUP | libc::POLLERR) {
                inner.step(false);
            } else {
                guard.clear_ready();
            }
        }
        _ = notified => {
            // Commands issued in other threads may have moved the
            // state machine: let their waiters look.
            inner.bump();
        }
    }
    Ok(())
}

/// The task of an AsyncHandle, until the handle is dropped.
pub(crate) async fn run(inner: Arc<Inner>) {
    let _stopped = Stopped(inner.clone());
    let mut watched: Option<Watched> = None;
    loop {
        let notified = inner.kick.notified();
        // Follow libnbd's socket at every step: connect may have moved
        // to the next address, or the connection gone.
        let raw = match inner.current_socket() {
            Some(raw) => raw,
            None => {
                // Not connecting yet, or over: nothing to watch.
                watched = None;
                inner.bump();
                notified.await;
                continue;
            }
        };
        if !watched.as_ref().map_or(false, |w| w.follows(raw)) {
            watched = None;
            match Watched::new(raw) {
                Ok(w) => watched = Some(w),
                Err(WatchError::Gone) => {
                    tokio::task::yield_now().await;
                    continue;
                }
                Err(WatchError::Failed(message, errno)) => {
                    inner.set_error(message, errno);
                    return;
                }
            }
            // Connecting may have moved on in the caller's thread.
            inner.bump();
        }
        let w = watched.as_ref().unwrap();
        let dir = inner.handle.aio_get_direction();
        let want = (dir & AIO_DIRECTION_READ != 0, dir & AIO_DIRECTION_WRITE != 0);
        if let Err(e) = wait_and_step(&inner, w, want, notified).await {
            inner.set_error(
                format!("waiting for the handle's socket: {}", e),
                e.raw_os_error().unwrap_or(0),
            );
            return;
        }
    }
}
