# 205-connect-uri-unix.py: connect_unix and connect_uri to an nbdkit
# listening on a Unix socket; aio_connect with a socket address.
import os
import subprocess
import tempfile
import time
import nbd

d = tempfile.mkdtemp()
sock = os.path.join(d, "sock")
pidfile = os.path.join(d, "pid")
p = subprocess.Popen(["nbdkit", "-U", sock, "-P", pidfile, "-f",
                      "--exit-with-parent", "memory", "size=64K"])
try:
    for _ in range(300):
        if os.path.exists(pidfile):
            break
        time.sleep(0.1)
    assert os.path.exists(pidfile)

    h = nbd.NBD()
    h.connect_unix(sock)
    assert h.get_size() == 65536
    h.pwrite(b"\1" * 512, 0)
    h.close()

    h = nbd.NBD()
    h.connect_uri("nbd+unix:///?socket=" + sock)
    assert h.get_size() == 65536
    assert h.pread(512, 0) == b"\1" * 512
    assert h.get_uri().startswith("nbd+unix:")
    h.close()

    h = nbd.NBD()
    h.aio_connect(sock)
    while h.aio_is_connecting():
        h.poll(-1)
    assert h.aio_is_ready()
    assert h.get_size() == 65536
    h.close()

    h = nbd.NBD()
    try:
        h.connect_unix(os.path.join(d, "nothing-here"))
        assert False
    except nbd.Error as e:
        assert e.errno == "ENOENT", e
finally:
    p.terminate()
    p.wait()
    for f in os.listdir(d):
        os.unlink(os.path.join(d, f))
    os.rmdir(d)
