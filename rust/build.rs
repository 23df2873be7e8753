// build.rs: the test programs export their symbols, so a test can
// interpose a libc function libnbd calls (tests/async_next_address.rs
// gives getaddrinfo a name with two addresses).
fn main() {
    println!("cargo:rustc-link-arg-tests=-rdynamic");
}
