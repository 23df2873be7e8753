# 460-block-status.py: 32-bit extents as a flat list of (length,
# flags) pairs.
import nbd

h = nbd.NBD()
h.add_meta_context(nbd.CONTEXT_BASE_ALLOCATION)
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "data",
                   "data=1 @131072 1", "size=262144"])
got = {}


def extent(metacontext, offset, entries, err):
    assert err.value == 0
    got[metacontext] = (offset, entries)


h.block_status(262144, 0, extent)
hz = nbd.STATE_HOLE | nbd.STATE_ZERO
assert got == {"base:allocation":
               (0, [32768, 0, 98304, hz, 32768, 0, 98304, hz])}, got
h.block_status(65536, 32768, extent, nbd.CMD_FLAG_REQ_ONE)
offset, entries = got["base:allocation"]
assert offset == 32768 and len(entries) == 2 and entries[1] == hz, got
