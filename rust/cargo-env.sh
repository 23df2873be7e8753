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
set +e
