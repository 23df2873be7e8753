# 140-explicit-close.py: close() closes once; later calls raise.
import nbd

messages = []
h = nbd.NBD()
h.set_debug(True)
h.set_debug_callback(lambda ctx, msg: messages.append(msg))
h.close()
assert any("clos" in m for m in messages), messages
for f in (lambda: h.get_size(), lambda: h.close()):
    try:
        f()
        assert False
    except nbd.ClosedHandle:
        pass
