# extended.mk: extended headers (NBD_OPT_EXTENDED_HEADERS), against
# ext-server, a test server that speaks them.

# ext-server speaks NBD itself: it must not link our library.
check_PROGRAMS += ext-server
ext_server_SOURCES = ext-server.c fake-wire.c fake-wire.h
ext_server_LDADD =

extended_tests = \
	extended-negotiate \
	extended-commands \
	extended-filter \
	extended-hostile

check_PROGRAMS += $(extended_tests)
TESTS += $(extended_tests)
EXTRA_DIST += extended-common.h
