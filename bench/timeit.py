#!/usr/bin/env python3
# timeit.py: run a command; write "elapsed seconds,peak RSS KiB,user s,
# sys s" of that command alone to OUTFILE.  Usage: timeit.py OUTFILE CMD...
# The peak RSS comes from /usr/bin/time, whose child is small before it
# execs the command (a child forked from Python would count Python's).
import os
import sys
import time

out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp("/usr/bin/time",
                  ["/usr/bin/time", "-q", "-f", "%M", "-o", out + ".rss"]
                  + argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
elapsed = time.monotonic() - t0
with open(out + ".rss") as f:
    rss = int(f.read().split()[-1])
os.unlink(out + ".rss")
with open(out, "w") as f:
    f.write("%.4f,%d,%.3f,%.3f\n" % (elapsed, rss, ru.ru_utime,
                                    ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
