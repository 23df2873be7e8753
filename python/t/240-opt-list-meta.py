# 240-opt-list-meta.py: the meta contexts a server offers.
import nbd

h = nbd.NBD()
h.set_opt_mode(True)
h.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                   "size=1M"])
seen = []
n = h.opt_list_meta_context(lambda name: seen.append(name))
assert n == len(seen)
assert nbd.CONTEXT_BASE_ALLOCATION in seen, seen
seen = []
n = h.opt_list_meta_context_queries(["base:"], lambda name: seen.append(name))
assert seen == [nbd.CONTEXT_BASE_ALLOCATION], seen
h.add_meta_context(nbd.CONTEXT_BASE_ALLOCATION)
n = h.opt_set_meta_context(lambda name: None)
assert n == 1
h.opt_go()
assert h.can_meta_context(nbd.CONTEXT_BASE_ALLOCATION) is True
