# 600-debug-callback.py: debug messages reach a Python callback, which
# is released when cleared.
import sys
import nbd

messages = []


class Cb:
    def __call__(self, context, msg):
        messages.append((context, msg))


cb = Cb()
h = nbd.NBD()
h.set_debug(True)
before = sys.getrefcount(cb)
h.set_debug_callback(cb)
assert sys.getrefcount(cb) == before + 1
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "null"])
h.get_size()
assert any(c == "nbd_connect_command" for c, m in messages), messages[:5]
h.clear_debug_callback()
assert sys.getrefcount(cb) == before
n = len(messages)
h.get_size()
assert len(messages) == n
