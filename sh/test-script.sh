#!/usr/bin/env bash
# test-script.sh: a script file named after the options runs after all
# of them, with sys.argv[0] set to its name; a missing file is an error.
# (libnbd 1.22's nbdsh has no SCRIPT argument; this one adds it.)
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
start_nbdkit "$tmp/sock" memory size=1M

cat > "$tmp/script.py" <<'EOF2'
import sys
print(sys.argv[0].endswith("script.py"), x, h.get_size())
EOF2
$VG nbdsh "$tmp/script.py" -u "$uri" -c 'x = "set by -c"' > "$tmp/out"
expect "$tmp/out" "True set by -c 1048576"

# A Python error in the script: a traceback naming the file, exit 1.
printf 'pass\n1 / 0\n' > "$tmp/bad.py"
status=0
$VG nbdsh "$tmp/bad.py" > "$tmp/out" 2> "$tmp/err" || status=$?
cat "$tmp/err"
test $status -eq 1
grep -q "File \"$tmp/bad.py\", line 2" "$tmp/err"
grep -q '^ZeroDivisionError' "$tmp/err"

# A missing script fails before anything connects or runs.
status=0
$VG nbdsh -c 'print("ran")' "$tmp/nonexistent.py" \
  > "$tmp/out" 2> "$tmp/err" || status=$?
cat "$tmp/err"
test $status -eq 1
test ! -s "$tmp/out"
grep -q "^nbdsh: $tmp/nonexistent.py: No such file or directory" "$tmp/err"
