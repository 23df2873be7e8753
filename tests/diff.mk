# diff.mk: the differential tests.  Each scenario client runs once on
# our library and once on libnbd 1.22.2 against the same real or
# misbehaving server, and diff.tap compares what they printed (one TAP
# result per scenario).  1.22.2 is looked for in $LIBNBD_PEER_DIR
# (default /var/cache/libnbd-peers/debian13, which
# scripts/peer-libnbd-1.22.sh fills); without it the set is skipped.

diff_clients = \
	diff-reads \
	diff-lifetime \
	diff-options \
	diff-close \
	diff-early-reply

check_PROGRAMS += $(diff_clients)
TESTS += diff.tap
EXTRA_DIST += diff.tap diff-common.h diff-nbdcopy-flush.sh
