//! AsyncHandle::connect_tcp to a name with two addresses, the first
//! refusing: libnbd closes the first socket and connects from a new
//! one, and the event loop must follow it (not spin on the old one).
//!
//! The name is made up here: this test program defines getaddrinfo
//! and freeaddrinfo (exported, see build.rs), which libnbd's calls
//! reach before libc's; every other name goes on to libc.
mod common;
use common::{pattern, RefusingPort, TcpServer};
use libc::{addrinfo, c_char, c_int, sockaddr_in};
use libnbd::AsyncHandle;
use std::ffi::CStr;
use std::sync::Mutex;
use std::time::Duration;

const NAME: &str = "two-addresses.libnbd-rust-test.invalid";

/// The ports of NAME's two addresses, both 127.0.0.1, in order.
static PORTS: Mutex<Option<(u16, u16)>> = Mutex::new(None);
/// The lists our getaddrinfo made, for our freeaddrinfo.
static OURS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

#[repr(C)]
struct TwoAddresses {
    ai: [addrinfo; 2],
    sin: [sockaddr_in; 2],
}

fn libc_fn(name: &[u8]) -> *mut libc::c_void {
    let f = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr() as *const c_char) };
    assert!(!f.is_null());
    f
}

#[no_mangle]
pub unsafe extern "C" fn getaddrinfo(
    node: *const c_char,
    service: *const c_char,
    hints: *const addrinfo,
    res: *mut *mut addrinfo,
) -> c_int {
    let ports = *PORTS.lock().unwrap();
    match ports {
        Some((first, second)) if !node.is_null() && CStr::from_ptr(node).to_bytes() == NAME.as_bytes() => {
            let mut two: Box<TwoAddresses> = Box::new(std::mem::zeroed());
            for (i, port) in [first, second].into_iter().enumerate() {
                two.sin[i].sin_family = libc::AF_INET as libc::sa_family_t;
                two.sin[i].sin_port = port.to_be();
                two.sin[i].sin_addr.s_addr = u32::from_ne_bytes([127, 0, 0, 1]);
                two.ai[i].ai_family = libc::AF_INET;
                two.ai[i].ai_socktype = libc::SOCK_STREAM;
                two.ai[i].ai_protocol = libc::IPPROTO_TCP;
                two.ai[i].ai_addrlen = std::mem::size_of::<sockaddr_in>() as libc::socklen_t;
                two.ai[i].ai_addr = &mut two.sin[i] as *mut _ as *mut libc::sockaddr;
            }
            two.ai[0].ai_next = &mut two.ai[1];
            let p = Box::into_raw(two);
            OURS.lock().unwrap().push(p as usize);
            *res = p as *mut addrinfo;
            0
        }
        _ => {
            type F = unsafe extern "C" fn(*const c_char, *const c_char, *const addrinfo, *mut *mut addrinfo) -> c_int;
            let f: F = std::mem::transmute(libc_fn(b"getaddrinfo\0"));
            f(node, service, hints, res)
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn freeaddrinfo(ai: *mut addrinfo) {
    let mut ours = OURS.lock().unwrap();
    if let Some(i) = ours.iter().position(|&p| p == ai as usize) {
        ours.remove(i);
        drop(Box::from_raw(ai as *mut TwoAddresses));
        return;
    }
    drop(ours);
    type F = unsafe extern "C" fn(*mut addrinfo);
    let f: F = std::mem::transmute(libc_fn(b"freeaddrinfo\0"));
    f(ai)
}

/// The CPU time this process has used.
fn cpu_time() -> Duration {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) }, 0);
    let us = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    us(ru.ru_utime) + us(ru.ru_stime)
}

/// Connect to NAME, read, then sit idle for a second: that second
/// must cost next to no CPU (a loop on a dead socket takes all of it).
async fn connect_via_second_address() {
    let refusing = RefusingPort::new();
    let server = TcpServer::start(&["pattern", "size=1M"]);
    *PORTS.lock().unwrap() = Some((refusing.port(), server.port()));
    let nbd = AsyncHandle::new().unwrap();
    nbd.connect_tcp(NAME, "unused").await.unwrap();
    assert!(OURS.lock().unwrap().is_empty(), "libnbd kept the address list");
    let mut buf = vec![0u8; 4096];
    nbd.pread(&mut buf, 8192, None).await.unwrap();
    assert_eq!(buf, pattern(8192, 4096));

    let before = cpu_time();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let used = cpu_time() - before;
    assert!(used < Duration::from_millis(100), "an idle second used {:?} of CPU", used);

    nbd.pread(&mut buf, 0, None).await.unwrap();
    assert_eq!(buf, pattern(0, 4096));
    nbd.disconnect(None).await.unwrap();
}

/// Run `f` on a runtime in its own thread; fail if it takes too long
/// (a spinning current-thread runtime never lets a timer fire).
fn within_limit(rt: tokio::runtime::Runtime) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        rt.block_on(connect_via_second_address());
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(()) => (),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("connect_tcp to the second address did not finish in 20s")
        }
        Err(e) => panic!("the test's thread failed: {}", e),
    }
}

// Both in one test: PORTS is global.
#[test]
fn connect_tcp_follows_the_socket_to_the_next_address() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    within_limit(rt);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    within_limit(rt);
}
