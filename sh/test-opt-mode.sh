#!/usr/bin/env bash
# test-opt-mode.sh: --opt-mode before -u stops the connection in option
# negotiation: h.opt_list sees the server's exports, h.opt_go finishes.
source "${srcdir:-.}/sh-functions.sh"
set -e
requires nbdkit memory --version
requires nbdkit --filter=exportname memory --version
start_nbdkit "$tmp/sock" --filter=exportname memory size=1M \
  exportname-list=explicit exportname=first exportname=second

$VG nbdsh --opt-mode -u "$uri" -c '
print(h.aio_is_negotiating())
names = []
print(h.opt_list(lambda name, desc: names.append(name)))
print(names)
' -c 'h.opt_go()' -c 'print(h.aio_is_ready(), h.get_size())' > "$tmp/out"
expect "$tmp/out" "True
2
['first', 'second']
True 1048576"

# With --base-allocation too, the context is granted by opt_go.
$VG nbdsh --opt-mode --base-allocation -u "$uri" \
  -c 'h.opt_go()' \
  -c 'print(h.can_meta_context(nbd.CONTEXT_BASE_ALLOCATION))' > "$tmp/out"
expect "$tmp/out" "True"

# Without --opt-mode the handle is ready at once.
$VG nbdsh -u "$uri" -c 'print(h.aio_is_negotiating(), h.aio_is_ready())' \
  > "$tmp/out"
expect "$tmp/out" "False True"
