# 040-man-page.py: libnbd-python(3) is there, its synopsis runs as
# printed, and it documents every public method of nbd.Buffer and
# nbd.Error's properties.
import os
import re
import subprocess
import sys
import nbd

# The runner, so that a sanitizer build preloads its runtimes here too.
python = os.environ.get("NBD_TEST_PYTHON", sys.executable)

page = os.path.join("..", "docs", "libnbd-python.3")
with open(page) as f:
    troff = f.read()


def unescape(line):
    return (line.replace("\\-", "-").replace("\\(aq", "'")
            .replace("\\&", "").replace("\\e", "\\"))


# The first verbatim block (.nf ... .fi) is the synopsis.
m = re.search(r"^\.SH SYNOPSIS\n(?:.*\n)*?\.nf\n((?:.*\n)*?)\.fi$", troff,
              re.M)
assert m, "no synopsis block in %s" % page
prog = "".join(unescape(l) + "\n" if l != ".sp" else "\n"
               for l in m.group(1).splitlines())
out = subprocess.run([python, "-c", prog], check=True,
                     stdout=subprocess.PIPE, text=True).stdout
assert out == "1048576 b'hello'\n", out

text = unescape(troff)
for name in dir(nbd.Buffer):
    if not name.startswith("_"):
        assert "buf.%s(" % name in text or "Buffer.%s(" % name in text, name
for prop in ["string", "errnum", "errno"]:
    assert "e.%s" % prop in text, prop
for section in ["HANDLES", "ERRORS", "BUFFERS", "CALLBACKS",
                "THREADS AND THE GIL"]:
    assert "\n.SH %s\n" % section in troff, section
