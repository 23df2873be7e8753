// Link the libnbd.so of this source tree (lib/.libs), never a libnbd
// installed on the system.  LIBNBD_LIB_DIR (set by rust/Makefile.am)
// names it in a build tree apart from the sources.
use std::env;
use std::path::PathBuf;

fn main() {
    let dir = match env::var_os("LIBNBD_LIB_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
            manifest.join("../../lib/.libs")
        }
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    println!("cargo:rerun-if-env-changed=LIBNBD_LIB_DIR");
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=nbd");
    println!("cargo:libdir={}", dir.display());
}
