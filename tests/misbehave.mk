# misbehave.mk: fake-server, a deliberately broken NBD server, and the
# tests of our defences against it (one scenario per test).

# fake-server speaks NBD itself: it must not link our library.
check_PROGRAMS += fake-server
fake_server_SOURCES = fake-server.c fake-script.c fake-server.h \
	fake-wire.c fake-wire.h
fake_server_LDADD =

misbehave_tests = \
	misbehave-good \
	misbehave-short \
	misbehave-overlap \
	misbehave-out-of-range \
	misbehave-unknown-cookie \
	misbehave-huge-chunk \
	misbehave-error-chunk \
	misbehave-size-too-big \
	misbehave-simple-reply-to-read-with-sr \
	misbehave-bad-magic \
	misbehave-hangup \
	misbehave-block-status-bad \
	misbehave-no-go \
	misbehave-extra-context \
	misbehave-ooo-chunks \
	misbehave-error-offset \
	misbehave-early-reply \
	misbehave-pread-initialize \
	misbehave-opt-hangup \
	misbehave-opt-close-pending

check_PROGRAMS += $(misbehave_tests)
TESTS += $(misbehave_tests)

# Block status described twice (fake-server bs-twice): the library,
# then the tools that walk extents, nbdcopy, nbdinfo --map and nbddump
# (built in ../copy, ../info and ../dump by make before make check).
misbehave_tool_tests = \
	misbehave-bs-twice-copy-file.sh \
	misbehave-bs-twice-copy-nbd.sh \
	misbehave-bs-twice-info.sh
check_PROGRAMS += misbehave-bs-twice
TESTS += misbehave-bs-twice $(misbehave_tool_tests)
EXTRA_DIST += $(misbehave_tool_tests) bs-twice-copy-common.sh

# Connecting to fake-server, and the checks several scenarios share.
EXTRA_DIST += misbehave-common.h noop-callbacks.h misbehave-opt.h

# The hostile-server matrix: one TAP result per scenario, each counted.
check_PROGRAMS += misbehave-matrix
TESTS += misbehave-matrix.tap
EXTRA_DIST += misbehave-matrix.tap
TEST_EXTENSIONS = .tap
TAP_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) \
	$(top_srcdir)/build-aux/tap-driver.sh
TAP_LOG_COMPILER = $(LOG_COMPILER)
