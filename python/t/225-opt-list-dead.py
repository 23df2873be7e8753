# 225-opt-list-dead.py: the server hangs up in the middle of
# aio_opt_list: the completion still runs, once, with ENOTCONN, and
# then the list callback is released, then the completion.
import errno
import shutil
import sys
import time
import weakref
import nbd

# fake-server is built by "make check" in tests/; ./run puts it on $PATH.
fake_server = shutil.which("fake-server")
if fake_server is None:
    print("SKIP: tests/fake-server is not built")
    sys.exit(77)

events = []


class ListCb:
    def __call__(self, name, description):
        events.append("list " + name)
        return 0


class CompletionCb:
    def __call__(self, err):
        events.append("completion %d" % err.value)
        return 1


h = nbd.NBD()
h.set_opt_mode(True)
h.set_request_structured_replies(False)
h.set_request_extended_headers(False)
# One NBD_REP_SERVER naming "disk", then the connection closes.
h.connect_command([fake_server, "script", "list",
                   "u64:omagic u32:opt u32:2 u32:8 u32:4 str:disk close"])
list_cb, completion_cb = ListCb(), CompletionCb()
weakref.finalize(list_cb, events.append, "list freed")
weakref.finalize(completion_cb, events.append, "completion freed")
h.aio_opt_list(list_cb, completion_cb)
del list_cb, completion_cb

start = time.monotonic()
while not h.aio_is_dead():
    assert time.monotonic() - start < 5, ("the option never ended", events)
    try:
        h.poll(1000)
    except nbd.Error:
        pass

assert events == ["list disk", "completion %d" % errno.ENOTCONN,
                  "list freed", "completion freed"], events
h.close()
assert len(events) == 4, events
