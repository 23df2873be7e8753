# 616-callback-reentry.py: a callback that calls a locked method of its
# own handle gets nbd.Error with EDEADLK at once, where libnbd's module
# waits for ever for the lock the callback's own thread holds; the
# methods that skip the lock, and other handles, work from a callback;
# h.close() from its own callback is refused too (it would free the
# handle under the call running the callback: a crash); afterwards the
# handle goes on working.
import errno
import signal
import nbd

# A regression hangs: SIGALRM, left at its default, then ends the test
# as a failure even while the thread waits inside libnbd.
signal.alarm(60)

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
other = nbd.NBD()
other.connect_command(["nbdkit", "-s", "--exit-with-parent", "pattern",
                       "size=1M"])
seen = []


def reenter(what):
    try:
        what()
        seen.append("no error")
    except nbd.Error as e:
        seen.append((e.errnum, e.string))


def completion(err):
    reenter(lambda: h.pread(512, 0))
    reenter(lambda: h.get_size())
    reenter(lambda: h.close())
    seen.append(h.stats_bytes_sent())    # skips the lock
    seen.append(other.pread(8, 8))       # another handle
    return 1


buf = nbd.Buffer(512)
h.aio_pread(buf, 0, completion=completion)
while h.aio_in_flight() > 0:
    h.poll(-1)
assert len(seen) == 5, seen
for errnum, string in seen[:3]:
    assert errnum == errno.EDEADLK, seen
    assert "callback of the same handle" in string, string
assert seen[0][1].startswith("pread: "), seen[0]
assert seen[1][1].startswith("get_size: "), seen[1]
assert seen[2][1].startswith("close: "), seen[2]
assert seen[3] > 0, seen
assert seen[4] == bytes([0, 0, 0, 0, 0, 0, 0, 8]), seen

# From a chunk callback of a synchronous call, the same.
seen.clear()


def chunk(subbuf, offset, status, error):
    reenter(lambda: h.pwrite(b"x", 0))
    return 0


h.pread_structured(512, 0, chunk)
assert len(seen) == 1 and seen[0][0] == errno.EDEADLK, seen

# The calls were refused before they reached the server, and nothing
# of them is left behind: the handle works as before.
assert h.pread(512, 0) == bytes(512)
h.pwrite(b"y", 0)
assert h.pread(1, 0) == b"y"
assert h.get_size() == 1048576
h.shutdown()
other.shutdown()

# Outside its callbacks, close works, once.
h.close()
try:
    h.close()
    assert False
except nbd.ClosedHandle:
    pass
