# 465-block-status-64.py: 64-bit extents as a list of (length, flags)
# tuples.
import nbd

h = nbd.NBD()
h.add_meta_context(nbd.CONTEXT_BASE_ALLOCATION)
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "data",
                   "data=1 @131072 1", "size=262144"])
got = []


def extent64(metacontext, offset, entries, err):
    assert metacontext == nbd.CONTEXT_BASE_ALLOCATION
    got.append((offset, entries))


h.block_status_64(262144, 0, extent64)
hz = nbd.STATE_HOLE | nbd.STATE_ZERO
assert got == [(0, [(32768, 0), (98304, hz), (32768, 0), (98304, hz)])], got
got = []
h.block_status_64(1000, 131072, extent64, flags=nbd.CMD_FLAG_REQ_ONE)
assert len(got) == 1 and len(got[0][1]) == 1 and got[0][1][0][1] == 0, got
