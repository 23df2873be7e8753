# 035-display-version.py: libnbdmod.display_version (PROGRAM), which
# libnbd's own nbdsh.py calls for --version, prints the program's
# version and then the loaded library's, each on a line, after what
# Python had buffered.  C's stdout is a pipe here, so the child's
# output is read back whole.
import os
import subprocess
import sys

import nbd

# The runner, so that a sanitizer build preloads its runtimes here too.
python = os.environ.get("NBD_TEST_PYTHON", sys.executable)

code = ("import libnbdmod, sys\n"
        "sys.stdout.write('first\\n')\n"
        "libnbdmod.display_version('nbdsh')\n"
        "sys.stdout.write('last\\n')\n")
out = subprocess.run([python, "-c", code], check=True,
                     stdout=subprocess.PIPE, text=True).stdout
lines = out.split("\n")
h = nbd.NBD()
version = h.get_version()
extra = h.get_version_extra()
lib = "libnbd %s" % version + (" (%s)" % extra if extra else "")
assert lines[0] == "first", out
assert lines[1].startswith("nbdsh "), out
assert lines[2] == lib, (out, lib)
assert lines[3] == "last", out
assert len(lines) == 5 and lines[4] == "", out
