# diff.mk: the differential tests.  Each scenario client runs on our
# library and on each peer, libnbd 1.22.2 and 1.24.4, against the same
# real or misbehaving server, and diff.tap compares what ours printed
# with what each peer printed (one TAP result per scenario per peer).
# 1.22.2 is looked for in $LIBNBD_PEER_DIR (default
# /var/cache/libnbd-peers/debian13, which scripts/peer-libnbd-1.22.sh
# fills), 1.24.4 in $LIBNBD_PEER_1_24_DIR (default
# /var/cache/libnbd-peers/debian-sid, scripts/peer-libnbd-1.24.sh);
# a peer that is missing skips its results.

diff_clients = \
	diff-reads \
	diff-lifetime \
	diff-options \
	diff-close \
	diff-early-reply \
	diff-threads

check_PROGRAMS += $(diff_clients)
TESTS += diff.tap
EXTRA_DIST += diff.tap diff-common.h diff-nbdcopy-flush.sh
