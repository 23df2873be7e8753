# 210-connect-port-range.py: a port outside 0..65535 in an address
# tuple raises OverflowError, as the socket module does, instead of
# being cut to 16 bits (70000 would be port 4464).
import nbd

for addr in [("127.0.0.1", 70000), ("127.0.0.1", -1),
             ("::1", 65536, 0, 0), ("::1", 10809, 1 << 20, 0)]:
    h = nbd.NBD()
    try:
        h.aio_connect(addr)
        assert False, addr
    except OverflowError:
        pass
    # Nothing was started: the handle is still unconnected.
    assert h.aio_is_created(), addr

# In range, the address is taken (and nobody listens on port 0).
h = nbd.NBD()
try:
    h.aio_connect(("127.0.0.1", 0))
except nbd.Error:
    pass
assert not h.aio_is_created()
