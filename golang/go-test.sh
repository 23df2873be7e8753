#!/bin/bash -
# go-test.sh: every Go test, one TAP result each.
exec "$srcdir/go-tap.sh"
