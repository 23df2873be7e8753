# 710-refcount.py: 100,000 aio commands with callbacks leave the
# callback's reference count and the process's memory where they were.
import resource
import sys
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
done = [0]


def completion(err):
    done[0] += 1
    return 1


def chunk(subbuf, offset, status, err):
    return 0


buf = nbd.Buffer(512)


def batch(n):
    for i in range(n // 2):
        h.aio_pread(buf, 0, completion)
        h.aio_pread_structured(buf, 512, chunk, completion)
        while h.aio_in_flight() > 32:
            h.poll(-1)
    while h.aio_in_flight() > 0:
        h.poll(-1)


rc_completion = sys.getrefcount(completion)
rc_chunk = sys.getrefcount(chunk)
rc_buf = sys.getrefcount(buf._o)
batch(20000)
rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
batch(80000)
rss2 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("refcounts", sys.getrefcount(completion), sys.getrefcount(chunk),
      sys.getrefcount(buf._o), "max rss %d -> %d KiB" % (rss1, rss2))
assert done[0] == 100000
assert sys.getrefcount(completion) == rc_completion
assert sys.getrefcount(chunk) == rc_chunk
assert sys.getrefcount(buf._o) == rc_buf
# 80,000 leaked closures of even 32 bytes would be 2.5 MiB.  ASan
# keeps freed memory in quarantine, so there only the counts tell.
with open("/proc/self/maps") as f:
    sanitized = "libasan" in f.read()
if not sanitized:
    assert rss2 - rss1 < 2048, (rss1, rss2)
