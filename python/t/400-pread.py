# 400-pread.py: pread returns the bytes of the export as a bytearray.
import errno
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "pattern",
                   "size=1M"])
buf = h.pread(512, 8)
assert isinstance(buf, bytearray)
assert len(buf) == 512
# The pattern plugin writes each 8-byte offset, big-endian.
expected = b"".join((o).to_bytes(8, "big") for o in range(8, 520, 8))
assert buf == expected
try:
    h.pread(0, 0)
    assert False
except nbd.Error as e:
    assert e.errno == "EINVAL", e
assert h.pread(count=16, offset=1024) == \
    (1024).to_bytes(8, "big") + (1032).to_bytes(8, "big")
try:
    h.pread(512, 1024 * 1024 - 256)
    assert False
except nbd.Error as e:
    # Past the end of the export.
    assert e.errnum == errno.EINVAL, e
    assert e.string.startswith("nbd_pread: "), e.string
h.set_strict_mode(0)
try:
    h.pread(512, 1024 * 1024 - 256)
    assert False
except nbd.Error as e:
    # The server refuses it.
    assert e.errnum != 0, e
