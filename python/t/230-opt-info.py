# 230-opt-info.py: opt_info reports an export before going to it.
import errno
import nbd

h = nbd.NBD()
h.set_opt_mode(True)
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "null",
                   "size=4096"])
h.opt_info()
assert h.get_size() == 4096
assert h.is_read_only() in (True, False)
h.opt_go()
assert h.get_size() == 4096
try:
    h.opt_info()
    assert False
except nbd.Error as e:
    # No longer negotiating: a call in the wrong state.
    assert e.errnum == errno.EINVAL, e
    assert e.string.startswith("nbd_opt_info: "), e.string
