# 405-pread-structured.py: the chunk callback sees read-only views of
# the result; its error aborts the read.
import errno
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "pattern",
                   "size=64K"])
expected = b"".join((o).to_bytes(8, "big") for o in range(0, 4096, 8))
calls = []


def chunk(subbuf, offset, status, err):
    assert err.value == 0
    assert status == nbd.READ_DATA
    try:
        subbuf[0] = 1
        assert False
    except TypeError:
        pass
    calls.append((bytes(subbuf), offset))
    return 0


buf = h.pread_structured(4096, 0, chunk)
assert buf == expected
assert calls == [(expected, 0)], calls


def bad_chunk(subbuf, offset, status, err):
    err.value = errno.EPROTO
    return -1


try:
    h.pread_structured(512, 0, bad_chunk)
    assert False
except nbd.Error as e:
    assert e.errnum == errno.EPROTO, e
# The handle is still usable.
assert h.pread(8, 8) == (8).to_bytes(8, "big")
try:
    h.pread_structured(512, 0, "not callable")
    assert False
except TypeError:
    pass
