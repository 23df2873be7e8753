#!/bin/bash -
# new-user.sh: build a program the way libnbd-rust(3) says, from the
# files it shows (Cargo.toml, .cargo/config.toml, src/main.rs), with
# /path/to/libnbd replaced by this tree; run it without ./run's
# LD_LIBRARY_PATH and check it runs on this tree's libnbd.
set -u
. "$srcdir/tap-skip.sh"
if ! command -v nbdkit >/dev/null; then
  echo "1..0 # SKIP nbdkit not installed"
  exit 0
fi
page="$abs_top_builddir/docs/libnbd-rust.3"
# The program's project is outside this tree (inside, cargo would take
# it for a member of the crate's workspace); its build is kept here.
d="$abs_builddir/new-user"
mkdir -p "$d"
p=$(mktemp -d)
trap 'rm -rf "$p"' EXIT
echo "1..3"

# The verbatim block after the comment '.\" file: NAME', as man shows it.
file_from_page ()
{
  awk -v name="$1" '
    $0 == ".\\\" file: " name { found = 1; next }
    found && /^\.fi$/ { exit }
    found && /^\.(PP|RS|nf)/ { next }
    found { print }' "$page" |
  sed -e 's/^\\&//' -e 's/\\-/-/g' -e 's/\\e/\\/g'
}
ok=ok
for f in Cargo.toml .cargo/config.toml src/main.rs; do
  mkdir -p "$p/$(dirname "$f")"
  file_from_page "$f" > "$p/$f"
  if [ ! -s "$p/$f" ]; then
    echo "# no $f in $page"; ok="not ok"
  fi
done
sed -i "s|/path/to/libnbd|$abs_top_builddir|" "$p/Cargo.toml" \
  "$p/.cargo/config.toml"
sed 's/^/# /' "$p/Cargo.toml" "$p/.cargo/config.toml"
echo "$ok 1 - the page shows Cargo.toml, .cargo/config.toml and src/main.rs"

# Its own cargo home and target directory: nothing shared with the
# crate's tests (whose flags differ) or the user's ~/.cargo.
cd "$p"
if out=$(CARGO_HOME="$d/cargo-home" CARGO_TARGET_DIR="$d/target" \
           "$CARGO" build --quiet 2>&1); then
  echo "ok 2 - cargo build as the page says"
else
  printf '%s\n' "$out" | sed 's/^/# /'
  echo "not ok 2 - cargo build as the page says"
  echo "ok 3 # SKIP not built"
  exit 0
fi

sock="$d/sock"; pid="$d/pid"
rm -f "$sock" "$pid"
nbdkit -f -U "$sock" -P "$pid" --exit-with-parent pattern size=1M &
for i in $(seq 100); do [ -s "$pid" ] && break; sleep 0.1; done
trap 'kill "$(cat "$pid" 2>/dev/null)" 2>/dev/null; rm -rf "$sock" "$pid" "$p"' EXIT
out=$(env -u LD_LIBRARY_PATH "$d/target/debug/aio-read" "nbd+unix:///?socket=$sock" 2>&1)
printf '%s\n' "$out" | sed 's/^/# /'
expect_version="libnbd $PACKAGE_VERSION"
if printf '%s\n' "$out" | grep -qx "$expect_version" &&
   printf '%s\n' "$out" | grep -qx 'second: \[00, 00, 00, 00, 00, 00, 02, 00, 00, 00, 00, 00, 00, 00, 02, 08\]'; then
  echo "ok 3 - it runs on this tree's libnbd without ./run"
else
  echo "not ok 3 - it runs on this tree's libnbd without ./run (no \"$expect_version\" and the data)"
fi
