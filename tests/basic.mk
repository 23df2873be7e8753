# basic.mk: tests of lifecycle, settings, errors, connecting and the
# handshake getters.  Each test starts its own nbdkit; see basic-server.h.

basic_c_tests = \
	basic-lifecycle \
	basic-handle-name \
	basic-stats-handshake \
	basic-errors-not-connected \
	basic-errors-invalid-args \
	basic-errors-wrong-state \
	basic-errors-connect-unix \
	basic-errors-thread-local \
	basic-settings-bool \
	basic-settings-flags \
	basic-settings-export \
	basic-settings-tls \
	basic-debug-callback \
	basic-debug-env \
	basic-connect-unix \
	basic-socket-buffers \
	basic-connect-tcp \
	basic-connect-tcp-refused \
	basic-connect-uri-unix \
	basic-connect-uri-tcp \
	basic-connect-uri-bad \
	basic-connect-uri-ssh \
	basic-connect-uri-query \
	basic-calls-1-24 \
	basic-connect-uri-round-trip \
	basic-connect-command \
	basic-connect-socket \
	basic-connect-systemd \
	basic-subprocess-fds \
	basic-settings-more \
	basic-connect-vsock \
	basic-extended-absent \
	basic-opt-mode \
	basic-opt-aio \
	basic-handshake-flags \
	basic-aio-connect \
	basic-info-flags \
	basic-nozero \
	basic-meta-context \
	basic-structured-replies \
	basic-oldstyle \
	basic-block-size \
	basic-full-info \
	basic-export-size \
	basic-qemu-nbd \
	basic-loaded-library \
	basic-header-c

check_PROGRAMS += $(basic_c_tests)
TESTS += $(basic_c_tests) basic-header-cxx.sh
EXTRA_DIST += basic-server.h basic-header-cxx.sh opt-callbacks.h

# The public header must compile alone as strict ISO C99.
basic_header_c_CFLAGS = $(AM_CFLAGS) -std=c99 -pedantic-errors

# Debian's own libnbd programs, run on this library.
TESTS += compat-debian-binaries.sh compat-sid-binaries.sh
EXTRA_DIST += compat-debian-binaries.sh compat-sid-binaries.sh

# The man pages: one per exported call, each rendering cleanly.
TESTS += docs-man-pages.sh
EXTRA_DIST += docs-man-pages.sh

# The generator refuses inconsistent tables and state machines.
TESTS += generator-rejects.sh
EXTRA_DIST += generator-rejects.sh

# Every exported call is used by at least one test.
TESTS += api-coverage.sh
EXTRA_DIST += api-coverage.sh

# Every symbol@version of libnbd 1.24.4 is ours too, and no more.
TESTS += abi-symbols-1-24.sh
EXTRA_DIST += abi-symbols-1-24.sh
