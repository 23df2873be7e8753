/* basic-info-flags.c: test the can_* and is_* getters against nbdkit eval. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "test-common.h"

#define EVAL_ARGS(can, fua_cache)                                       \
  "nbdkit", "-s", "--exit-with-parent", "eval",                         \
    "get_size=echo 1M",                                                 \
    "pread=dd if=/dev/zero count=$3 iflag=count_bytes status=none",     \
    "pwrite=cat >/dev/null", "flush=exit 0", "trim=exit 0",             \
    "zero=exit 0", "cache=exit 0",                                      \
    "extents=echo 0 1M 0",                                              \
    "can_flush=" can, "can_trim=" can, "can_zero=exit 0",               \
    "can_fast_zero=" can, "can_multi_conn=" can,                        \
    "is_rotational=" can, "can_extents=exit 0",                         \
    "can_fua=echo " fua_cache, "can_cache=echo " fua_cache

/* Connect to nbdkit with ARGS and compare every flag with EXPECT. */
static void
check_flags (char **args, int read_only, int expect)
{
  struct nbd_handle *h;

  h = connect_command_or_fail (args);

  if (nbd_is_read_only (h) != read_only)
    FAIL ("is_read_only: got %d, expected %d",
          nbd_is_read_only (h), read_only);
#define FLAG(fn)                                                        \
  if (nbd_##fn (h) != expect)                                           \
    FAIL (#fn ": got %d, expected %d", nbd_##fn (h), expect)
  FLAG (can_flush);
  FLAG (can_fua);
  FLAG (can_trim);
  FLAG (can_fast_zero);
  FLAG (can_multi_conn);
  FLAG (can_cache);
  FLAG (is_rotational);
#undef FLAG
  /* Write zeroes: nbdkit emulates it on any writable export. */
  if (nbd_can_zero (h) != !read_only)
    FAIL ("can_zero: got %d, expected %d", nbd_can_zero (h), !read_only);

  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (void)
{
  char *all_true[] = { EVAL_ARGS ("exit 0", "native"),
                       "can_write=exit 0", NULL };
  char *all_false[] = { EVAL_ARGS ("exit 3", "none"),
                        "can_write=exit 0", NULL };
  char *read_only[] = { EVAL_ARGS ("exit 3", "none"),
                        "can_write=exit 3", NULL };
  char *ro_flag[] = { "nbdkit", "-s", "--exit-with-parent", "-r",
                      "memory", "1M", NULL };

  requires_program ("nbdkit");

  check_flags (all_true, 0, 1);
  check_flags (all_false, 0, 0);
  check_flags (read_only, 1, 0);
  /* nbdkit -r: read-only, no write-side flags (flush is still allowed). */
  {
    struct nbd_handle *h = connect_command_or_fail (ro_flag);
    CHECK (nbd_is_read_only (h) == 1);
    CHECK (nbd_can_trim (h) == 0);
    CHECK (nbd_can_zero (h) == 0);
    CHECK (nbd_can_fast_zero (h) == 0);
    CHECK (nbd_can_fua (h) == 0);
    nbd_close (h);
  }

  exit (EXIT_SUCCESS);
}
