# 510-aio-pwrite.py: aio_pwrite from nbd.Buffer, then read back.
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
data = bytes(range(256)) * 16
buf = nbd.Buffer.from_bytearray(data)
assert len(buf) == buf.size() == 4096
assert not buf.is_zero()
assert nbd.Buffer(4096).is_zero()
cookie = h.aio_pwrite(buf, 8192, flags=nbd.CMD_FLAG_FUA)
while not h.aio_command_completed(cookie):
    h.poll(-1)
assert h.pread(4096, 8192) == data
# An uninitialised Buffer writes zeroes.
h.pwrite(b"\1" * 512, 0)
cookie = h.aio_pwrite(nbd.Buffer(512), 0)
while not h.aio_command_completed(cookie):
    h.poll(-1)
assert h.pread(512, 0) == bytes(512)
assert h.aio_in_flight() == 0
