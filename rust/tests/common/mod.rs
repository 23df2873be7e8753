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
