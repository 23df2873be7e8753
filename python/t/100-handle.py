# 100-handle.py: create and drop handles.
import nbd

h = nbd.NBD()
assert h.get_handle_name().startswith("nbd")
del h
for i in range(1000):
    nbd.NBD()
