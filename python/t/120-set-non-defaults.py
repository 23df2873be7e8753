# 120-set-non-defaults.py: settings read back; bad ones raise nbd.Error.
import errno
import nbd

h = nbd.NBD()
h.set_export_name("name")
assert h.get_export_name() == "name"
h.set_full_info(True)
assert h.get_full_info() is True
try:
    h.set_tls(nbd.TLS_REQUIRE + 1)
    assert False
except nbd.Error as e:
    assert e.errnum == errno.EINVAL, e
if h.supports_tls():
    h.set_tls(nbd.TLS_ALLOW)
    assert h.get_tls() == nbd.TLS_ALLOW
h.set_request_structured_replies(False)
assert h.get_request_structured_replies() is False
try:
    h.set_handshake_flags(nbd.HANDSHAKE_FLAG_MASK + 1)
    assert False
except nbd.Error as e:
    assert e.errno == "EINVAL", e
h.set_handshake_flags(0)
assert h.get_handshake_flags() == 0
h.set_strict_mode(0)
assert h.get_strict_mode() == 0
h.set_opt_mode(True)
assert h.get_opt_mode() is True
h.set_private_data(2**64 - 1)
assert h.get_private_data() == 2**64 - 1
h.set_pread_initialize(False)
assert h.get_pread_initialize() is False
h.set_handle_name("my handle")
assert h.get_handle_name() == "my handle"
h.add_meta_context("base:allocation")
assert h.get_nr_meta_contexts() == 1
assert h.get_meta_context(0) == "base:allocation"
h.set_uri_allow_local_file(True)
h.set_socket_activation_name("sock")
assert h.get_socket_activation_name() == "sock"
