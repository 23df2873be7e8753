# 300-get-size.py: the export size and flags.
import nbd

h = nbd.NBD()
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "-r", "null",
                   "size=%d" % (2**63 - 1)])
assert h.get_size() == 2**63 - 1
assert h.is_read_only() is True
assert h.can_flush() in (True, False)
assert h.get_block_size(nbd.SIZE_MINIMUM) >= 0
