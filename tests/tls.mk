# tls.mk: TLS with GnuTLS against nbdkit, qemu-nbd and tls-fake-server:
# PSK and X.509 made at test time, URIs, opt mode, no downgrade, many
# commands in flight, the cipher order.  The scripts drive tls-client.

# tls-client and tls-fake-server are not tests themselves: the
# tls-*.sh scripts run them.  tls-fake-server speaks NBD itself and must
# not link our library.
check_PROGRAMS += tls-client tls-fake-server tls-hangup tls-forget
tls_fake_server_SOURCES = tls-fake-server.c fake-wire.c fake-wire.h
tls_fake_server_LDADD =

tls_tests = \
	tls-psk.sh \
	tls-x509.sh \
	tls-client-certs.sh \
	tls-no-downgrade.sh \
	tls-opt-starttls.sh \
	tls-aio-parallel.sh \
	tls-hangup.sh \
	tls-forget.sh \
	tls-qemu.sh \
	tls-cipher-order.sh \
	tls-pq-groups.sh

TESTS += $(tls_tests)
EXTRA_DIST += $(tls_tests) tls-functions.sh
