# 030-main.py: "python3 -m nbd" runs the NBD shell, as in libnbd 1.22
# (whose nbdsh script is exactly that).  runpy is what -m uses; run in
# this process, the module also gets a sanitizer build's runtimes.
import contextlib
import io
import runpy
import sys


def nbd_m(*args):
    sys.argv = ["nbd"] + list(args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_module("nbd", run_name="__main__", alter_sys=True)
        except SystemExit as e:
            assert not e.code, e.code
    return out.getvalue()


out = nbd_m("-c", "print(type(h).__name__, h.get_handle_name())")
assert out == "NBD nbdsh\n", out
out = nbd_m("-n", "-c", "print('h' in dir())")
assert out == "False\n", out
out = nbd_m("--version")
assert out.startswith("nbdsh "), out
