# 515-buffer-is-zero.py: Buffer.is_zero(offset, size) bounds, as in
# libnbd 1.22: an empty range (size 0) is all zeroes wherever it is,
# its offset is not looked at.
import nbd

buf = nbd.Buffer.from_bytearray(bytearray(b"\0\0\0x\0\0\0\0"))
assert buf.is_zero(0, 3)
assert not buf.is_zero(0, 4)
assert not buf.is_zero(3)
assert buf.is_zero(4)
assert buf.is_zero(8)
assert buf.is_zero(3, 0)
assert buf.is_zero(100, 0)
assert buf.is_zero(-5, 0)
for offset, size in [(9, -1), (-1, -1), (4, 5), (0, -2)]:
    try:
        buf.is_zero(offset, size)
        assert False, (offset, size)
    except IndexError:
        pass
