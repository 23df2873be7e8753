//! Helpers of the tests: nbdkit servers the tests start, and memory use.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// argv of an nbdkit serving on stdin/stdout, for connect_command.
/// nbdkit must not inherit sanitizer runtimes someone preloaded into
/// the test program: it can then deadlock in its exit handlers.
pub fn nbdkit(args: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["env", "-u", "LD_PRELOAD", "nbdkit", "-s", "--exit-with-parent"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

/// nbdkit arguments for a server that lists two exports, "a" and "b",
/// for the opt mode tests, blocking and async.
pub const TWO_EXPORTS: &[&str] = &[
    "--filter=exportname",
    "memory",
    "size=1M",
    "exportname=a",
    "exportname=b",
    "exportname-list=explicit",
];

/// An nbdkit listening on a Unix socket in a directory of its own;
/// killed, and the directory removed, on drop.
pub struct Server {
    dir: PathBuf,
    child: Child,
}

static SERVERS: AtomicUsize = AtomicUsize::new(0);

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let n = SERVERS.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!(
            "libnbd-rust-test-{}-{}",
            std::process::id(),
            n
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        let sock = dir.join("sock");
        let pidfile = dir.join("pid");
        let child = Command::new("nbdkit")
            .env_remove("LD_PRELOAD")
            .arg("-f")
            .arg("--exit-with-parent")
            .arg("-U")
            .arg(&sock)
            .arg("-P")
            .arg(&pidfile)
            .args(args)
            .spawn()
            .expect("nbdkit");
        let server = Server { dir, child };
        let start = Instant::now();
        // nbdkit writes the pid file once it listens.
        while !pidfile.exists() {
            assert!(start.elapsed() < Duration::from_secs(30), "nbdkit did not start");
            std::thread::sleep(Duration::from_millis(10));
        }
        server
    }

    pub fn socket(&self) -> PathBuf {
        self.dir.join("sock")
    }

    pub fn uri(&self) -> String {
        format!("nbd+unix:///?socket={}", self.socket().display())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The bytes nbdkit's pattern plugin serves at `offset`: each 8-byte
/// word is its own offset, big-endian.
pub fn pattern(offset: u64, len: usize) -> Vec<u8> {
    (offset..offset + len as u64)
        .map(|o| ((o & !7) >> (8 * (7 - (o & 7)))) as u8)
        .collect()
}

/// The resident set of this process in KiB.
pub fn rss_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * (unsafe { libc_page_size() } as u64) / 1024
}

extern "C" {
    fn getpagesize() -> i32;
}

unsafe fn libc_page_size() -> i32 {
    getpagesize()
}

/// How many descriptors of this process are `name` (as the links of
/// /proc/self/fd name them: a path, "socket:[inode]").
pub fn open_fds_named(name: &str) -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|l| l.to_string_lossy() == name)
        .count()
}

/// An nbdkit serving a loopback TCP socket this process bound and
/// hands over by socket activation (so there is no port race); killed
/// on drop.
pub struct TcpServer {
    child: Child,
    port: u16,
}

impl TcpServer {
    pub fn start(args: &[&str]) -> TcpServer {
        use std::os::unix::io::AsRawFd;
        use std::os::unix::process::CommandExt;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let fd = listener.as_raw_fd();
        let mut cmd = Command::new("sh");
        // LISTEN_PID must be nbdkit's: the shell's, which exec keeps.
        cmd.env_remove("LD_PRELOAD")
            .env("LISTEN_FDS", "1")
            .env_remove("LISTEN_FDNAMES")
            .arg("-c")
            .arg("LISTEN_PID=$$ exec nbdkit -f --exit-with-parent \"$@\"")
            .arg("nbdkit")
            .args(args);
        // Only dup2, async-signal-safe, between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let r = if fd == 3 {
                    libc::fcntl(3, libc::F_SETFD, 0)
                } else {
                    libc::dup2(fd, 3)
                };
                if r == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("nbdkit");
        // nbdkit has its own copy: connections queue until it accepts.
        drop(listener);
        TcpServer { child, port }
    }

    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for TcpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback TCP port that refuses connections: bound, never
/// listening, for as long as the value lives.
pub struct RefusingPort {
    fd: std::os::unix::io::OwnedFd,
    port: u16,
}

impl RefusingPort {
    pub fn new() -> RefusingPort {
        use std::os::unix::io::FromRawFd;
        unsafe {
            let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            assert!(fd >= 0);
            let fd = std::os::unix::io::OwnedFd::from_raw_fd(fd);
            let mut sin: libc::sockaddr_in = std::mem::zeroed();
            sin.sin_family = libc::AF_INET as libc::sa_family_t;
            sin.sin_addr.s_addr = u32::from_ne_bytes([127, 0, 0, 1]);
            let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
            use std::os::unix::io::AsRawFd;
            let sa = &mut sin as *mut _ as *mut libc::sockaddr;
            assert_eq!(libc::bind(fd.as_raw_fd(), sa, len), 0);
            let mut len = len;
            assert_eq!(libc::getsockname(fd.as_raw_fd(), sa, &mut len), 0);
            RefusingPort { port: u16::from_be(sin.sin_port), fd }
        }
    }

    pub fn port(&self) -> u16 {
        let _ = &self.fd;
        self.port
    }
}
