# 105-with-handle.py: handles as context managers close at the end.
import nbd

with nbd.NBD() as h:
    assert h.get_handle_name().startswith("nbd")
try:
    h.get_size()
    assert False
except nbd.ClosedHandle:
    pass

with nbd.nbd() as h2:
    h2.set_export_name("x")
try:
    h2.get_export_name()
    assert False
except nbd.ClosedHandle:
    pass
