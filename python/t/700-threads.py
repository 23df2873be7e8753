# 700-threads.py: blocking calls release the GIL: two threads reading
# from a slow server each take about as long as one.
import threading
import time
import nbd

delay = 0.5
n = 3


def reader(h, results, i):
    for j in range(n):
        assert h.pread(8, 8 * j) == (8 * j).to_bytes(8, "big")
    results[i] = True


# Connected first, so only the reads are timed.
handles = []
for i in range(2):
    h = nbd.NBD()
    h.connect_command(["nbdkit", "-s", "--exit-with-parent",
                       "--filter=delay", "pattern", "size=1M",
                       "delay-read=%dms" % (delay * 1000)])
    handles.append(h)
results = [False, False]
threads = [threading.Thread(target=reader, args=(handles[i], results, i))
           for i in range(2)]
start = time.monotonic()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.monotonic() - start
print("elapsed %.2fs, serial would be %.2fs" % (elapsed, 2 * n * delay))
assert results == [True, True]
assert elapsed >= n * delay
assert elapsed < 2 * n * delay * 0.85, elapsed

# One handle shared by two threads, with a callback in each.
h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
seen = []


def structured(i):
    for j in range(200):
        h.pread_structured(512, 512 * i,
                           lambda b, o, s, e: seen.append(i))


threads = [threading.Thread(target=structured, args=(i,)) for i in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert sorted(set(seen)) == [0, 1] and len(seen) == 400, len(seen)
