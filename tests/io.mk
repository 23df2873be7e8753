# io.mk: data, aio, polling, closures, threads and dead-server tests.
# Each test starts its own nbdkit (or qemu-nbd) and skips without it.

io_c_tests = \
	io-round-trip \
	io-pattern \
	io-bounds \
	io-structured-read \
	io-block-status \
	io-aio-parallel \
	io-aio-commands \
	io-manual-poll \
	io-notify-both \
	io-closure-lifetimes \
	io-server-killed \
	io-threads \
	io-private-data-threads \
	io-threads-poller \
	io-threads-shutdown \
	io-threads-sync-parallel \
	io-threads-sync-killed \
	io-threads-sync-shutdown \
	io-threads-sync-slow-one \
	io-threads-sync-reaper \
	io-threads-sync-invisible \
	io-threads-sync-notify \
	io-threads-sync-disconnect \
	io-threads-sync-error \
	io-poll-woken \
	io-pread-initialize \
	io-aio-read-zeroed \
	io-command-completed \
	io-shutdown \
	io-callback-reentry \
	io-tcp-lowat

check_PROGRAMS += $(io_c_tests)
TESTS += $(io_c_tests)
# The poll loop of io-threads-poller and io-threads-shutdown.
EXTRA_DIST += poll-thread.h
# The background server of io-server-killed and the io-threads-sync-*.
EXTRA_DIST += bg-server.h

# io-qemu-client is not a test itself: io-sync-vs-qemu.sh runs it.
check_PROGRAMS += io-qemu-client
TESTS += io-sync-vs-qemu.sh
EXTRA_DIST += io-sync-vs-qemu.sh

# The unbatched send path, for the same data tests.
TESTS += io-no-batch.sh
EXTRA_DIST += io-no-batch.sh
