//! Connecting by command, URI and Unix socket; opt mode: list, info,
//! meta contexts and their queries.
mod common;
use common::{nbdkit, Server, TWO_EXPORTS};
use libnbd::{Handle, CONTEXT_BASE_ALLOCATION};
use std::sync::{Arc, Mutex};

#[test]
fn connect_command() {
    let nbd = Handle::new().unwrap();
    nbd.connect_command(nbdkit(&["null", "size=1M"])).unwrap();
    assert!(nbd.aio_is_ready());
    assert_eq!(nbd.get_size().unwrap(), 1 << 20);
    assert_eq!(nbd.get_protocol().unwrap(), b"newstyle-fixed");
    assert!(nbd.get_subprocess_pid().unwrap() > 0);
    assert!(nbd.get_structured_replies_negotiated().unwrap());
    nbd.shutdown(None).unwrap();
    assert!(nbd.aio_is_closed());
}

#[test]
fn connect_command_fails() {
    let nbd = Handle::new().unwrap();
    let e = nbd
        .connect_command(["/nonexistent-libnbd-rust-command"])
        .unwrap_err();
    assert!(e.is_fatal(), "{:?}", e);
}

#[test]
fn connect_uri_and_unix() {
    let server = Server::start(&["memory", "size=64k"]);
    let nbd = Handle::new().unwrap();
    assert!(nbd.is_uri(server.uri()).unwrap());
    nbd.connect_uri(server.uri()).unwrap();
    assert_eq!(nbd.get_size().unwrap(), 65536);
    let uri = String::from_utf8(nbd.get_uri().unwrap()).unwrap();
    assert!(uri.starts_with("nbd+unix:"), "{}", uri);

    let nbd2 = Handle::new().unwrap();
    nbd2.connect_unix(server.socket()).unwrap();
    assert_eq!(nbd2.get_size().unwrap(), 65536);
}

#[test]
fn connect_uri_refused_transport() {
    let server = Server::start(&["memory", "size=64k"]);
    let nbd = Handle::new().unwrap();
    nbd.set_uri_allow_transports(libnbd::AllowTransport::TCP)
        .unwrap();
    let e = nbd.connect_uri(server.uri()).unwrap_err();
    assert!(e.errno().is_some(), "{}", e);
}

#[test]
fn opt_abort_and_go() {
    let nbd = Handle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(&["null"])).unwrap();
    assert!(nbd.aio_is_negotiating());
    nbd.opt_abort().unwrap();
    assert!(nbd.aio_is_closed());

    let nbd = Handle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(&["null", "size=512"])).unwrap();
    nbd.opt_go().unwrap();
    assert!(nbd.aio_is_ready());
    assert_eq!(nbd.get_size().unwrap(), 512);
}

#[test]
fn opt_list() {
    let nbd = Handle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(TWO_EXPORTS)).unwrap();
    let names = Arc::new(Mutex::new(Vec::new()));
    let names2 = names.clone();
    let n = nbd
        .opt_list(move |name, _desc| {
            names2.lock().unwrap().push(name.to_vec());
            0
        })
        .unwrap();
    assert_eq!(n, 2);
    assert_eq!(*names.lock().unwrap(), vec![b"a".to_vec(), b"b".to_vec()]);
    nbd.opt_abort().unwrap();
}

#[test]
fn opt_info() {
    let nbd = Handle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(&["memory", "size=2M"])).unwrap();
    nbd.set_export_name("").unwrap();
    nbd.opt_info().unwrap();
    assert_eq!(nbd.get_size().unwrap(), 2 << 20);
    assert!(!nbd.is_read_only().unwrap());
    assert!(nbd.can_flush().is_ok());
    nbd.opt_go().unwrap();
    assert_eq!(nbd.get_size().unwrap(), 2 << 20);
}

fn collect_contexts(
    f: impl FnOnce(Box<dyn FnMut(&[u8]) -> i32 + Send>) -> libnbd::Result<u32>,
) -> (u32, Vec<Vec<u8>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    let n = f(Box::new(move |name: &[u8]| {
        seen2.lock().unwrap().push(name.to_vec());
        0
    }))
    .unwrap();
    let v = seen.lock().unwrap().clone();
    (n, v)
}

#[test]
fn opt_meta_contexts() {
    let nbd = Handle::new().unwrap();
    nbd.set_opt_mode(true).unwrap();
    nbd.connect_command(nbdkit(&["memory", "size=1M"])).unwrap();

    // No query: every context the server has.
    let (n, names) = collect_contexts(|cb| nbd.opt_list_meta_context(cb));
    assert!(n >= 1);
    assert!(names.iter().any(|c| c == CONTEXT_BASE_ALLOCATION));

    // The handle's list as the query.
    nbd.add_meta_context("x-nonexistent:nothing").unwrap();
    let (n, names) = collect_contexts(|cb| nbd.opt_list_meta_context(cb));
    assert_eq!(n, 0);
    assert!(names.is_empty());

    // An explicit query.
    let (n, names) = collect_contexts(|cb| {
        nbd.opt_list_meta_context_queries(["base:", "x-nonexistent:"], cb)
    });
    assert_eq!(n, 1);
    assert_eq!(names, vec![CONTEXT_BASE_ALLOCATION.to_vec()]);

    // Setting: none of the handle's list exists.
    let (n, _) = collect_contexts(|cb| nbd.opt_set_meta_context(cb));
    assert_eq!(n, 0);
    assert!(!nbd.can_meta_context(CONTEXT_BASE_ALLOCATION).unwrap_or(false));

    // Setting with queries.
    let (n, names) = collect_contexts(|cb| {
        nbd.opt_set_meta_context_queries([CONTEXT_BASE_ALLOCATION], cb)
    });
    assert_eq!(n, 1);
    assert_eq!(names, vec![CONTEXT_BASE_ALLOCATION.to_vec()]);
    nbd.opt_go().unwrap();
    assert!(nbd.can_meta_context(CONTEXT_BASE_ALLOCATION).unwrap());
}
