# 610-errors.py: nbd.Error carries the message and the errno, as
# .string, .errnum and .errno (its name).
import errno
import nbd

h = nbd.NBD()
try:
    h.pread(512, 0)
    assert False
except nbd.Error as e:
    # Not connected: a call in the wrong state.
    assert e.string.startswith("nbd_pread: "), e.string
    assert e.errnum == errno.ENOTCONN, e.errnum
    assert e.errno == "ENOTCONN", e.errno
    assert str(e) == "%s (ENOTCONN)" % e.string

h.connect_command(["nbdkit", "-s", "--exit-with-parent", "null",
                   "size=512"])
try:
    h.set_export_name("too late")
    assert False
except nbd.Error as e:
    assert e.string.startswith("nbd_set_export_name: "), e.string
    assert e.errno is not None
try:
    h.pread(512, 512)
    assert False
except nbd.Error as e:
    assert e.errno == "EINVAL", e
try:
    h.pread(-1, 0)
    assert False
except ValueError:
    pass
try:
    h.connect_command("not a list")
    assert False
except TypeError:
    pass
