# 010-import.py: the module imports and has the constants of libnbd.
import nbd

assert nbd.CMD_FLAG_FUA == 1
assert nbd.CMD_FLAG_MASK == 0x3f
assert nbd.TLS_REQUIRE == 2
assert nbd.STATE_HOLE == 1 and nbd.STATE_ZERO == 2
assert nbd.NAMESPACE_BASE == "base:"
assert nbd.CONTEXT_BASE_ALLOCATION == "base:allocation"
assert nbd.CONTEXT_QEMU_DIRTY_BITMAP == "qemu:dirty-bitmap:"
assert nbd.SHUTDOWN_ABANDON_PENDING == 0x10000
assert nbd.READ_DATA == 1
assert issubclass(nbd.Error, Exception)
assert nbd.__version__.startswith("1.")
assert nbd.package_name == "libnbd"
# Every method has a docstring from the table.
assert "read" in nbd.NBD.pread.__doc__
