#!/usr/bin/env bash
# test-python-path.sh: nbdsh runs the first python3 on $PATH (as
# Debian's nbdsh does), not the interpreter configure found; one that
# cannot import the nbd module gets a clear error, not a traceback.
source "${srcdir:-.}/sh-functions.sh"
set -e
real_python=$(command -v "${PYTHON:-python3}")

# A python3 that leaves a mark, then runs the real one.
mkdir "$tmp/bin"
cat > "$tmp/bin/python3" <<EOF2
#!/bin/sh
echo "\$@" > "$tmp/ran"
exec "$real_python" "\$@"
EOF2
chmod +x "$tmp/bin/python3"

PATH="$tmp/bin:$PATH" $VG nbdsh -c 'print("hello")' > "$tmp/out"
expect "$tmp/out" "hello"
if [ ! -s "$tmp/ran" ]; then
  echo "$0: nbdsh did not run the python3 first on PATH"
  exit 1
fi
# The arguments reach nbdsh.py after the launcher's own -c.
grep -q -- '-c print("hello")$' "$tmp/ran"

# A python3 that does not see our nbd module: isolated mode ignores
# PYTHONPATH, where ../run put python/ of the build.
if "$real_python" -I -c 'import nbd' 2>/dev/null; then
  echo "$0: SKIP: an nbd module is installed for $real_python"
  exit 77
fi
cat > "$tmp/bin/python3" <<EOF2
#!/bin/sh
exec "$real_python" -I "\$@"
EOF2
status=0
PATH="$tmp/bin:$PATH" $VG nbdsh -c 'print("hello")' > "$tmp/out" \
  2> "$tmp/err" || status=$?
cat "$tmp/err"
if [ "$status" != 1 ] || [ -s "$tmp/out" ]; then
  echo "$0: nbdsh without the nbd module: exit $status, stdout:"
  cat "$tmp/out"
  exit 1
fi
grep -q "^nbdsh: .* cannot load the nbd module: " "$tmp/err"
! grep -q "^Traceback" "$tmp/err"
