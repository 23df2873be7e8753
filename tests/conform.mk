# conform.mk: behaviours that must match libnbd 1.22 call by call
# (errno, order of checks, defaults, queues), one area per test.

conform_tests = \
	conform-wrong-state \
	conform-check-order \
	conform-negotiation \
	conform-queue \
	conform-lockfree-reads \
	conform-full-info

check_PROGRAMS += $(conform_tests)
TESTS += $(conform_tests)
