# cargo-env.sh: environment for building and testing the Rust crates
# offline, with Debian's cargo and rustc and its packaged crates,
# against this build tree's libnbd.  Sourced; cds to the workspace.
set -e
cd "$abs_builddir"
export RUSTC
export CARGO_HOME="$abs_builddir/.cargo-home"
export CARGO_TARGET_DIR="$abs_builddir/target"
export LIBNBD_LIB_DIR="$abs_top_builddir/lib/.libs"
# The crates come from /usr/share/cargo/registry, nothing is fetched.
mkdir -p .cargo
cat > .cargo/config.toml.new <<'CONFIG'
[source.crates-io]
replace-with = "debian-packages"
[source.debian-packages]
directory = "/usr/share/cargo/registry"
[net]
offline = true
CONFIG
if cmp -s .cargo/config.toml.new .cargo/config.toml; then
  rm .cargo/config.toml.new
else
  mv .cargo/config.toml.new .cargo/config.toml
fi
# In a sanitizer build the test programs are not instrumented, but the
# libnbd.so they load is: its runtimes must be loaded first.
rust_preload=
case "${RUST_SANITIZE:-}" in
  *address*) rust_preload="$("${CC:-cc}" -print-file-name=libasan.so)" ;;
esac
case "${RUST_SANITIZE:-}" in
  *undefined*)
    rust_preload="$rust_preload${rust_preload:+ }$("${CC:-cc}" -print-file-name=libubsan.so)" ;;
esac
if [ -n "$rust_preload" ]; then
  # cargo splits the runner at spaces: ld.so takes ':' between names too.
  export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="env LD_PRELOAD=$(echo $rust_preload | tr " " :)"
  # Rust's runtime allocates for the life of the program.
  export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
set +e
