# 620-stats.py: the byte and chunk counters grow with traffic.
import nbd

h = nbd.NBD()
assert h.stats_bytes_sent() == 0
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "null",
                   "size=1M"])
bs, cs = h.stats_bytes_sent(), h.stats_chunks_sent()
br, cr = h.stats_bytes_received(), h.stats_chunks_received()
assert bs > 0 and br > 0
h.pread(4096, 0)
assert h.stats_chunks_sent() == cs + 1
assert h.stats_bytes_sent() > bs
assert h.stats_bytes_received() >= br + 4096
assert h.stats_chunks_received() > cr
