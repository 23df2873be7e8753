# bench/python-pread.py: the client CPU time of N blocking 512-byte
# h.pread calls over one connection, for bench/python-pread.sh.
# Usage: python3 python-pread.py SOCKET [N]
# Prints: "<libnbd version> <user+sys seconds> <elapsed seconds>"
import resource
import sys
import time
import nbd

sock = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
h = nbd.NBD()
h.connect_unix(sock)
size = h.get_size()
h.pread(512, 0)
r0 = resource.getrusage(resource.RUSAGE_SELF)
t0 = time.monotonic()
offset = 0
for i in range(n):
    h.pread(512, offset)
    offset = (offset + 4096) % size
t1 = time.monotonic()
r1 = resource.getrusage(resource.RUSAGE_SELF)
h.shutdown()
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print("%s %.3f %.3f" % (h.get_version(), cpu, t1 - t0))
