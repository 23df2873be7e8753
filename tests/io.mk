# io.mk: data, aio, polling, closures, threads and dead-server tests.
# Each test starts its own nbdkit (or qemu-nbd) and skips without it.

check_PROGRAMS += \
	io-round-trip \
	io-pattern \
	io-bounds \
	io-structured-read \
	io-block-status \
	io-aio-parallel \
	io-manual-poll \
	io-closure-lifetimes \
	io-server-killed \
	io-threads \
	io-pread-initialize \
	io-shutdown \
	io-qemu-client

TESTS += \
	io-round-trip \
	io-pattern \
	io-bounds \
	io-structured-read \
	io-block-status \
	io-aio-parallel \
	io-manual-poll \
	io-closure-lifetimes \
	io-server-killed \
	io-threads \
	io-pread-initialize \
	io-shutdown \
	io-sync-vs-qemu.sh

# io-qemu-client is not a test itself: io-sync-vs-qemu.sh runs it.
EXTRA_DIST += io-sync-vs-qemu.sh

# The unbatched send path, for the same data tests.
TESTS += io-no-batch.sh
EXTRA_DIST += io-no-batch.sh

# The aio forms of flush, trim, zero, cache and 64-bit block status.
check_PROGRAMS += io-aio-commands
TESTS += io-aio-commands
