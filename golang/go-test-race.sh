#!/bin/bash -
# go-test-race.sh: every Go test again under the race detector.
exec "$srcdir/go-tap.sh" -race
