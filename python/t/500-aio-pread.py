# 500-aio-pread.py: aio_pread into nbd.Buffer and a bytearray, with a
# completion callback and a poll loop.
import errno
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "pattern",
                   "size=1M"])
expected = b"".join((o).to_bytes(8, "big") for o in range(4096, 8192, 8))

buf = nbd.Buffer(4096)
done = []
cookie = h.aio_pread(buf, 4096,
                     lambda err: done.append(err.value) or 1)
assert cookie >= 1
while not done:
    h.poll(-1)
assert done == [0]
# Returning 1 auto-retired the command.
assert h.aio_in_flight() == 0
assert buf.to_bytearray() == expected
assert buf.to_bytes() == expected

# The buffer may be dropped before the command completes: the library
# keeps it alive.
cookie = h.aio_pread(nbd.Buffer(512), 0)
while not h.aio_command_completed(cookie):
    h.poll(-1)

# A bytearray is pinned (cannot be resized) while the read is in
# flight; the delay filter keeps it there.
slow = nbd.NBD()
slow.connect_command(["nbdkit", "-s", "--exit-with-parent",
                      "--filter=delay", "pattern", "size=1M",
                      "delay-read=1"])
ba = bytearray(4096)
cookie = slow.aio_pread(ba, 4096, flags=0)
try:
    ba.append(0)
    assert False
except BufferError:
    pass
while not slow.aio_command_completed(cookie):
    slow.poll(-1)
assert ba == expected
ba.append(0)



# A completion callback that sets an error and returns -1 fails the
# command with that error.
def fail(err):
    err.value = errno.ENOMEM
    return -1


cookie = h.aio_pread(nbd.Buffer(512), 0, completion=fail)
try:
    while not h.aio_command_completed(cookie):
        h.poll(-1)
    assert False
except nbd.Error as e:
    assert e.errnum == errno.ENOMEM, e
try:
    h.aio_pread(b"read-only bytes", 0)
    assert False
except BufferError:
    pass
