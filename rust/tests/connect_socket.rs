//! connect_socket takes an OwnedFd: libnbd owns the socket once it
//! accepted the call, and a call it refuses closes the socket instead
//! of leaking it.
mod common;
use common::{open_fds_named, pattern, Server};
use libnbd::Handle;
use std::os::unix::io::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;

/// The /proc name of a descriptor ("socket:[inode]").
fn fd_name(fd: &impl AsRawFd) -> String {
    let link = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).unwrap();
    link.to_string_lossy().into_owned()
}

#[test]
fn a_refused_connect_socket_closes_the_socket() {
    let server = Server::start(&["pattern", "size=1M"]);
    let nbd = Handle::new().unwrap();
    nbd.connect_unix(server.socket()).unwrap();
    let mut names = Vec::new();
    let mut peers = Vec::new();
    for _ in 0..100 {
        let (ours, peer) = UnixStream::pair().unwrap();
        names.push(fd_name(&ours));
        peers.push(peer);
        // The handle is connected already: the call is refused.
        let e = nbd.connect_socket(OwnedFd::from(ours)).unwrap_err();
        assert!(e.is_recoverable(), "{}", e);
    }
    let left: usize = names.iter().map(|n| open_fds_named(n)).sum();
    assert_eq!(left, 0, "{} of 100 refused sockets left open", left);
    // The peer of a closed socket reads end of file.
    let mut byte = [0u8; 1];
    use std::io::Read;
    assert_eq!(peers[0].read(&mut byte).unwrap(), 0);
    // The handle was not disturbed.
    let mut buf = [0u8; 512];
    nbd.pread(&mut buf, 0, None).unwrap();
    assert_eq!(&buf[..], &pattern(0, 512)[..]);
}

#[test]
fn an_accepted_socket_belongs_to_libnbd() {
    let server = Server::start(&["pattern", "size=1M"]);
    let sock = UnixStream::connect(server.socket()).unwrap();
    let name = fd_name(&sock);
    let nbd = Handle::new().unwrap();
    nbd.connect_socket(OwnedFd::from(sock)).unwrap();
    assert_eq!(open_fds_named(&name), 1);
    let mut buf = [0u8; 512];
    nbd.pread(&mut buf, 4096, None).unwrap();
    assert_eq!(&buf[..], &pattern(4096, 512)[..]);
    drop(nbd);
    assert_eq!(open_fds_named(&name), 0);
}

#[test]
fn a_failed_handshake_closes_the_socket_once() {
    // libnbd accepts the socket, the handshake fails (the peer hangs
    // up), and the handle dies having closed it itself.
    let (ours, peer) = UnixStream::pair().unwrap();
    let name = fd_name(&ours);
    drop(peer);
    let nbd = Handle::new().unwrap();
    let e = nbd.connect_socket(OwnedFd::from(ours)).unwrap_err();
    assert!(e.is_fatal(), "{}", e);
    assert_eq!(open_fds_named(&name), 0);
}

#[tokio::test]
async fn a_refused_async_connect_socket_closes_the_socket() {
    let server = Server::start(&["pattern", "size=1M"]);
    let nbd = libnbd::AsyncHandle::new().unwrap();
    nbd.connect_unix(server.socket()).await.unwrap();
    let (ours, _peer) = UnixStream::pair().unwrap();
    let name = fd_name(&ours);
    let e = nbd.connect_socket(OwnedFd::from(ours)).await.unwrap_err();
    assert!(e.is_recoverable(), "{}", e);
    assert_eq!(open_fds_named(&name), 0);
}
