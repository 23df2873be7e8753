#!/bin/bash -
# cargo-doc.sh: the crate's docs, converted by the generator from the
# API table's POD, come out as clean rustdoc: no POD mark-up left in
# the doc comments of the generated sources, "cargo doc" without a
# single warning (broken links to methods, stray HTML tags), and none
# left in the rendered pages, whose links to other calls resolve.  One
# TAP result each.
set -u
. "$srcdir/tap-skip.sh"
. "$srcdir/cargo-env.sh" || exit 1
# cargo runs the rustdoc of PATH, which must be the one beside $RUSTC
# that built the dependencies.
export RUSTDOC="${RUSTDOC:-$(dirname "$RUSTC")/rustdoc}"
echo "1..4"

# POD: a capital with "<" (C<...>, L<...>, E<lt>...) or a =command,
# outside code spans and fenced blocks.
pod_left () {
  awk '
    /^[ \t]*\/\/\// {
      l = $0; sub(/^[ \t]*\/\/\/ ?/, "", l)
      if (l ~ /^[ \t]*(```|~~~~)/) { fence = !fence; next }
      if (fence) next
      gsub(/`+[^`]*`+/, "", l)
      if (l ~ /(^|[^\\A-Za-z])[A-Z]<[^ ]/ || l ~ /^[ \t]*=[a-z]/)
        print FILENAME ":" FNR ": " $0
    }' "$@"
}
out=$(pod_left src/bindings.rs src/async_bindings.rs)
n=$(grep -c '^[ \t]*/// The C call is nbd_' src/bindings.rs)
if [ -n "$out" ]; then
  printf '%s\n' "$out" | sed 's/^/# /'
  echo "not ok 1 - POD mark-up left in the doc comments"
elif [ "$n" -lt 100 ]; then
  echo "not ok 1 - only $n methods documented in src/bindings.rs"
else
  echo "ok 1 - no POD mark-up in the doc comments of $n methods"
fi

# Any warning of rustdoc is an error, the lints for links and HTML
# included.
rm -rf "$CARGO_TARGET_DIR/doc/libnbd"
if out=$(RUSTDOCFLAGS="-D warnings" "$CARGO" doc --offline --no-deps --lib 2>&1)
then
  echo "ok 2 - cargo doc, no warnings"
else
  printf '%s\n' "$out" | tail -40 | sed 's/^/# /'
  echo "not ok 2 - cargo doc"
fi

# The text of the rendered doc blocks of Handle and AsyncHandle.
html="$CARGO_TARGET_DIR/doc/libnbd/struct.Handle.html"
ahtml="$CARGO_TARGET_DIR/doc/libnbd/struct.AsyncHandle.html"
if [ ! -s "$html" ] || [ ! -s "$ahtml" ]; then
  echo "not ok 3 - no $html or $ahtml"
  echo "not ok 4 - no $html"
  exit 0
fi
text=$(perl -0777 -ne '
  while (/<div class="docblock">(.*?)<\/div>/gs) {
    my $t = $1;
    $t =~ s/<code>.*?<\/code>//gs;    # code keeps its own characters
    $t =~ s/<pre[^>]*>.*?<\/pre>//gs;
    $t =~ s/<[^>]*>//g;
    $t =~ s/&lt;/</g; $t =~ s/&gt;/>/g; $t =~ s/&quot;/"/g;
    $t =~ s/&#39;/'"'"'/g; $t =~ s/&amp;/&/g;
    print "$t\n";
  }' "$html" "$ahtml")
# Left over: POD, or a Markdown escape or emphasis marker shown as it is.
bad=$(printf '%s\n' "$text" |
      grep -nE '(^|[^A-Za-z])[A-Z]<[^ ]|^[ \t]*=[a-z]|\\[][\\`*_<|~&#>+=-]|\*\*' |
      head -20)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" | sed 's/^/# /'
  echo "not ok 3 - mark-up left in the rendered docs"
else
  echo "ok 3 - rendered docs: $(printf '%s\n' "$text" | wc -l) lines, no mark-up left"
fi

# L<nbd_connect_uri(3)> in the table became a link to the method.
block=$(perl -0777 -ne '
  print $1 if /id="method.set_uri_allow_tls".*?<div class="docblock">(.*?)<\/div>/s' \
  "$html")
if printf '%s' "$block" | grep -q 'href="[^"]*method.connect_uri"' &&
   printf '%s' "$block" | grep -q '<code>LIBNBD_TLS_DISABLE</code>' &&
   printf '%s' "$block" | grep -q '<li>'; then
  echo "ok 4 - links to methods, code and lists rendered"
else
  printf '%s\n' "$block" | head -20 | sed 's/^/# /'
  echo "not ok 4 - set_uri_allow_tls: no link to connect_uri, code or list"
fi
