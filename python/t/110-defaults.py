# 110-defaults.py: settings of a new handle.
import nbd

h = nbd.NBD()
assert h.get_export_name() == ""
assert h.get_full_info() is False
assert h.get_tls() == nbd.TLS_DISABLE
assert h.get_request_structured_replies() is True
assert h.get_request_extended_headers() is True
assert h.get_request_meta_context() is True
assert h.get_request_block_size() is True
assert h.get_pread_initialize() is True
assert h.get_handshake_flags() == nbd.HANDSHAKE_FLAG_MASK
assert h.get_strict_mode() & nbd.STRICT_COMMANDS
assert h.get_opt_mode() is False
assert h.get_private_data() == 0
assert h.get_nr_meta_contexts() == 0
assert h.aio_is_created() is True
assert h.aio_is_ready() is False
