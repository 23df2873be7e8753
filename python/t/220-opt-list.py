# 220-opt-list.py: opt mode: list the exports, then go to one.
import nbd

h = nbd.NBD()
h.set_opt_mode(True)
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "eval",
                   "list_exports=echo first; echo second",
                   "get_size=echo 1048576", "pread=exit 1"])
assert h.aio_is_negotiating()
exports = []
n = h.opt_list(lambda name, desc: exports.append(name))
assert n == len(exports) >= 1, (n, exports)
assert exports == ["first", "second"], exports
h.set_export_name("second")
h.opt_go()
assert h.get_size() == 1024 * 1024
assert h.get_export_name() == "second"
h.shutdown()

h = nbd.NBD()
h.set_opt_mode(True)
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "null"])
h.opt_abort()
assert h.aio_is_closed()
