# 590-aio-copy.py: copy one export to another with aio commands in
# flight on both handles, driven by aio_notify_* and select.
import select
import nbd

size = 4 * 1024 * 1024
bs = 65536
src = nbd.NBD()
src.connect_command(["nbdkit", "-s", "--exit-with-parent", "pattern",
                     "size=%d" % size])
dst = nbd.NBD()
dst.connect_command(["nbdkit", "-s", "--exit-with-parent", "memory",
                     "size=%d" % size])

next_offset = 0
writes = 0


def read_done(buf, offset, err):
    global writes
    assert err.value == 0
    dst.aio_pwrite(buf, offset, completion=write_done)
    return 1


def write_done(err):
    global writes
    assert err.value == 0
    writes += 1
    return 1


def wait(h):
    fd = h.aio_get_fd()
    d = h.aio_get_direction()
    r = [fd] if d & nbd.AIO_DIRECTION_READ else []
    w = [fd] if d & nbd.AIO_DIRECTION_WRITE else []
    return fd, r, w


while writes < size // bs:
    while next_offset < size and src.aio_in_flight() < 8:
        buf = nbd.Buffer(bs)
        off = next_offset
        src.aio_pread(buf, off,
                      lambda err, b=buf, o=off: read_done(b, o, err))
        next_offset += bs
    fds = {}
    rs, ws = [], []
    for h in (src, dst):
        fd, r, w = wait(h)
        fds[fd] = h
        rs += r
        ws += w
    rr, ww, _ = select.select(rs, ws, [], 5)
    # A notification can change the direction the other waits for.
    for fd in rr:
        if fds[fd].aio_get_direction() & nbd.AIO_DIRECTION_READ:
            fds[fd].aio_notify_read()
    for fd in ww:
        if fds[fd].aio_get_direction() & nbd.AIO_DIRECTION_WRITE:
            fds[fd].aio_notify_write()

for off in range(0, size, 1024 * 1024):
    assert dst.pread(512, off) == src.pread(512, off)
assert dst.pread(16, size - 16) == \
    (size - 16).to_bytes(8, "big") + (size - 8).to_bytes(8, "big")
