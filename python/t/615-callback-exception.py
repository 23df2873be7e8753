# 615-callback-exception.py: an exception raised in a callback is
# printed; from a chunk callback it fails the command (a completion
# callback's result is not an error, as in libnbd 1.22); the handle
# goes on working.
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])


def raises(*args):
    raise ValueError("from the callback")


try:
    h.pread_structured(512, 0, raises)
    assert False
except nbd.Error as e:
    assert e.errnum != 0, e

buf = nbd.Buffer(512)
cookie = h.aio_pread_structured(buf, 0, raises)
try:
    while not h.aio_command_completed(cookie):
        h.poll(-1)
    assert False
except nbd.Error as e:
    assert e.errnum != 0, e

cookie = h.aio_pread(buf, 0, raises)
while not h.aio_command_completed(cookie):
    h.poll(-1)

assert h.pread(512, 0) == bytes(512)
