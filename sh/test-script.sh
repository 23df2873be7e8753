#!/usr/bin/env bash
# test-script.sh: a Python file runs as a user of libnbd 1.22's nbdsh
# runs one, with "-c -" and the file on stdin or with -c and exec(),
# in its place among the options; its errors exit 1 with a traceback.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

cat > "$tmp/script.py" <<'EOF2'
y = len(x)
print(x, h.get_size())
EOF2
$VG nbdsh -u "$uri" -c 'x = "set by -c"' -c - -c 'print(y)' \
  < "$tmp/script.py" > "$tmp/out"
expect "$tmp/out" "set by -c 1048576
9"

export NBDSH_TEST_SCRIPT="$tmp/script.py"
$VG nbdsh -c 'x = "exec"' -u "$uri" \
  -c 'import os; exec(open(os.environ["NBDSH_TEST_SCRIPT"]).read())' > "$tmp/out"
expect "$tmp/out" "exec 1048576"

# fails EXPECT ARGS...: nbdsh ARGS exits 1 with a traceback ending in
# EXPECT and prints nothing on stdout.
fails ()
{
  local expect=$1 status=0
  shift
  $VG nbdsh "$@" > "$tmp/out" 2> "$tmp/err" || status=$?
  cat "$tmp/err"
  test $status -eq 1
  test ! -s "$tmp/out"
  grep -q '^Traceback' "$tmp/err"
  grep -q -- "$expect" "$tmp/err"
}

# A Python error in the file, read from stdin or compiled under its
# name, which the traceback then shows.
printf 'pass\n1 / 0\nprint("not reached")\n' > "$tmp/bad.py"
fails '^ZeroDivisionError' -c - < "$tmp/bad.py"
grep -q 'File "<string>", line 2' "$tmp/err"
export NBDSH_TEST_SCRIPT="$tmp/bad.py"
fails '^ZeroDivisionError' -c 'import os
exec(compile(open(os.environ["NBDSH_TEST_SCRIPT"]).read(), os.environ["NBDSH_TEST_SCRIPT"], "exec"))'
grep -q "File \"$tmp/bad.py\", line 2" "$tmp/err"

# A missing file is Python's FileNotFoundError; what came before it ran.
export NBDSH_TEST_SCRIPT="$tmp/nonexistent.py"
status=0
$VG nbdsh -c 'print("ran")' \
  -c 'import os; exec(open(os.environ["NBDSH_TEST_SCRIPT"]).read())' \
  > "$tmp/out" 2> "$tmp/err" || status=$?
cat "$tmp/err"
test $status -eq 1
expect "$tmp/out" "ran"
grep -q '^FileNotFoundError: .*nonexistent\.py' "$tmp/err"
