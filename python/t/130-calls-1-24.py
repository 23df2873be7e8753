# 130-calls-1-24.py: the calls new in libnbd 1.24: the extra version,
# the handle size and the TLS priority string.
import errno
import nbd

h = nbd.NBD()
assert isinstance(h.get_version_extra(), str)
size = h.get_handle_size()
assert size > 0
h.set_export_name("x" * 4096)
assert h.get_handle_size() >= size + 4096
assert h.get_tls_priority().startswith("NORMAL")
h.set_tls_priority("NORMAL:-VERS-TLS1.2")
assert h.get_tls_priority() == "NORMAL:-VERS-TLS1.2"
h.set_uri_allow_tls_priority(True)
h.set_uri_allow_tls_priority(False)
try:
    h.connect_uri("nbd+unix:///?socket=/nonexistent&tls-priority=NORMAL")
    assert False, "tls-priority= was not refused"
except nbd.Error as e:
    assert e.errnum == errno.EPERM and e.errno == "EPERM", e
    assert "nbd_set_uri_allow_tls_priority" in e.string, e
