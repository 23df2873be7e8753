# 516-buffer-index.py: nbd.Buffer indexing and slicing, as in libnbd
# 1.24: those of the bytearray underneath, its errors included; an
# uninitialised Buffer reads as zeroes; a Buffer held by a command in
# flight cannot be resized.
import nbd


def raises(exc, fn, text=None):
    try:
        fn()
    except exc as e:
        assert text is None or text in str(e), (text, str(e))
        return
    assert False, "%s not raised" % exc.__name__


def setitem(b, k, v):
    b[k] = v


buf = nbd.Buffer(8)
assert len(buf) == 8
assert buf[0] == 0 and buf[-1] == 0
assert buf[2:5] == bytearray(3) and type(buf[2:5]) is bytearray
assert buf[:] == bytearray(8)

buf[0] = 0x41
buf[-1] = 0x42
buf[1:3] = b"xy"
assert buf.to_bytearray() == b"Axy\0\0\0\0B"
assert buf[1] == ord("x") and buf[-8] == 0x41 and buf[7] == 0x42
assert buf[::3] == b"A\0\0" and buf[::-1] == b"B\0\0\0\0yxA"
assert buf[6:100] == b"\0B" and buf[100:] == b""
assert list(buf)[:3] == [0x41, 0x78, 0x79] and 0x42 in buf

for k in [8, -9, 2**70]:
    raises(IndexError, lambda: buf[k])
for k in ["x", 1.5, None]:
    raises(TypeError, lambda: buf[k])
raises(IndexError, lambda: setitem(buf, 8, 1), "index out of range")
raises(IndexError, lambda: setitem(buf, -9, 1), "index out of range")
raises(ValueError, lambda: setitem(buf, 0, 256))
raises(ValueError, lambda: setitem(buf, 0, -1))
raises(TypeError, lambda: setitem(buf, 0, "a"))
raises(TypeError, lambda: setitem(buf, "a", 1))
raises(TypeError, lambda: setitem(buf, slice(0, 2), 5))
assert buf.to_bytearray() == b"Axy\0\0\0\0B"

# Slice assignment of another length resizes, as on a bytearray.
buf[0:0] = b"zz"
assert len(buf) == buf.size() == 10 and buf[:3] == b"zzA"

# from_buffer shares: writes through the Buffer are seen in the
# original; a read-only original refuses them.
ba = bytearray(4)
shared = nbd.Buffer.from_buffer(ba)
shared[0] = 7
shared[2:4] = b"\1\2"
assert ba == b"\7\0\1\2"
ro = nbd.Buffer.from_buffer(b"abcd")
assert ro[1] == ord("b") and ro[1:3] == b"bc"
raises(TypeError, lambda: setitem(ro, 0, 1))

# Reading an index initialises the buffer, to zeroes.
fresh = nbd.Buffer(4)
assert fresh[:] == bytearray(4) and fresh.is_zero()

# The command holds the buffer until it retires: resizing is refused
# (the library writes into that memory), a byte may still be stored.
h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
h.pwrite(b"\x55" * 512, 0)
rd = nbd.Buffer(512)
cookie = h.aio_pread(rd, 0)
raises(BufferError, lambda: setitem(rd, slice(0, 1), b""))
assert len(rd) == 512
while not h.aio_command_completed(cookie):
    h.poll(-1)
assert rd[0] == 0x55 and rd[-1] == 0x55 and rd[100:102] == b"\x55\x55"
rd[0:1] = b""
assert len(rd) == 511
