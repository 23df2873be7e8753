# bench/threads-client.py: THREADS Python threads share one nbd.NBD
# handle, each making READS blocking 4 KiB h.pread calls, for
# bench/bindings-threads.sh.  The binding releases the GIL around each
# call, so how many reads are in flight at once is the library's doing.
# Usage: python3 threads-client.py SOCKET THREADS READS
# Prints: "<reads/s> <client CPU seconds per 1000 reads> <libnbd version>",
# as
# bench/sync-threads-client.c does, both from the first call to the
# last return (the interpreter's start-up would swamp 200 reads).
import resource
import sys
import threading
import time
import nbd

sock, threads, reads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
h = nbd.NBD()
h.connect_unix(sock)
failed = []


def run(t):
    try:
        for i in range(reads):
            h.pread(4096, ((t * reads + i) % 256) * 4096)
    except nbd.Error as e:
        failed.append(e)


workers = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
r0 = resource.getrusage(resource.RUSAGE_SELF)
t0 = time.monotonic()
for w in workers:
    w.start()
for w in workers:
    w.join()
wall = time.monotonic() - t0
if failed:
    sys.exit("%s" % failed[0])
r1 = resource.getrusage(resource.RUSAGE_SELF)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print("%.0f %.4f %s" % (threads * reads / wall, cpu * 1000 / (threads * reads),
                        h.get_version()))
h.shutdown()
