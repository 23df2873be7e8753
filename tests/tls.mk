# tls.mk: TLS with GnuTLS against nbdkit, qemu-nbd and fake-server:
# PSK and X.509 made at test time, URIs, opt mode, no downgrade, many
# commands in flight.  The scripts drive tls-client.

# tls-client is not a test itself: the tls-*.sh scripts run it.
check_PROGRAMS += tls-client

tls_tests = \
	tls-psk.sh \
	tls-x509.sh \
	tls-no-downgrade.sh \
	tls-opt-starttls.sh \
	tls-aio-parallel.sh \
	tls-qemu.sh

TESTS += $(tls_tests)
EXTRA_DIST += $(tls_tests) tls-functions.sh
