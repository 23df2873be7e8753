# 200-connect-command.py: connect to a subprocess nbdkit and shut down.
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "null",
                   "size=1M"])
assert h.aio_is_ready() is True
assert h.get_size() == 1024 * 1024
assert h.get_protocol() == "newstyle-fixed"
h.shutdown()
assert h.aio_is_closed() is True
