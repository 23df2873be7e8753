/* extended-negotiate.c: NBD_OPT_EXTENDED_HEADERS agreed, refused, unknown,
 * and not asked for; in opt mode through both the sync and aio calls.
 */
#include <config.h>

#include <stdlib.h>
#include <errno.h>

#include <libnbd.h>

#include "extended-common.h"

/* Connect normally; check what was negotiated. */
static void
connect_and_check (const char *argv0, const char *scenario, bool want_eh,
                   bool want_sr, int eh, int sr)
{
  struct nbd_handle *h = ext_handle ();

  CHECK (nbd_set_request_extended_headers (h, want_eh) == 0);
  CHECK (nbd_set_request_structured_replies (h, want_sr) == 0);
  ext_connect (h, argv0, scenario);
  if (nbd_get_extended_headers_negotiated (h) != eh ||
      nbd_get_structured_replies_negotiated (h) != sr)
    FAIL ("%s: extended %d, structured %d; expected %d, %d", scenario,
          nbd_get_extended_headers_negotiated (h),
          nbd_get_structured_replies_negotiated (h), eh, sr);
  CHECK (nbd_can_block_status_payload (h) == eh);
  CHECK (nbd_get_size (h) == (int64_t) EXT_SIZE);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

/* Opt mode (connect not asking for them itself): the aio call sends
 * the option and its completion gets the server's answer; the sync
 * call says true or false, never fails.  Structured replies were
 * agreed by connect already.
 */
static void
opt_mode (const char *argv0, const char *scenario, int want_err)
{
  struct nbd_handle *h = ext_handle ();
  int err = -1;

  CHECK (nbd_set_opt_mode (h, true) == 0);
  CHECK (nbd_set_request_extended_headers (h, false) == 0);
  ext_connect (h, argv0, scenario);
  CHECK (nbd_get_extended_headers_negotiated (h) == 0);
  CHECK (nbd_aio_opt_extended_headers (h, (nbd_completion_callback) {
           .callback = ext_completion, .user_data = &err }) == 0);
  while (err == -1)
    CHECK (nbd_poll (h, -1) != -1);
  if (err != want_err)
    FAIL ("%s: completion saw %d, expected %d", scenario, err, want_err);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  CHECK (nbd_get_extended_headers_negotiated (h) == (want_err == 0));
  CHECK (nbd_opt_extended_headers (h) == (want_err == 0));
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_get_extended_headers_negotiated (h) == (want_err == 0));
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

/* Opt mode, extended headers agreed by connect: NBD_OPT_STRUCTURED_REPLY
 * is still sent, as libnbd 1.22 sends it, and the server's answer is
 * what the calls report (ext-server refuses the downgrade with
 * NBD_REP_ERR_EXT_HEADER_REQD; "sr-ack" agrees).  Either way both stay
 * negotiated and the export works.
 */
static void
sr_after_extended (const char *argv0, const char *scenario, int want)
{
  struct nbd_handle *h = ext_handle ();
  char buf[512];
  int err = -1;

  CHECK (nbd_set_opt_mode (h, true) == 0);
  ext_connect (h, argv0, scenario);
  CHECK (nbd_get_extended_headers_negotiated (h) == 1);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  if (nbd_opt_structured_reply (h) != want)
    FAIL ("%s: nbd_opt_structured_reply did not return %d (error: %s)",
          scenario, want, nbd_get_error ());
  CHECK (nbd_aio_opt_structured_reply (h, (nbd_completion_callback) {
           .callback = ext_completion, .user_data = &err }) == 0);
  while (err == -1)
    CHECK (nbd_poll (h, -1) != -1);
  if (err != (want ? 0 : EINVAL))
    FAIL ("%s: completion saw %d, expected %d", scenario, err,
          want ? 0 : EINVAL);
  CHECK (nbd_aio_is_negotiating (h) == 1);
  CHECK (nbd_get_extended_headers_negotiated (h) == 1);
  CHECK (nbd_get_structured_replies_negotiated (h) == 1);
  CHECK (nbd_opt_go (h) == 0);
  CHECK (nbd_pread (h, buf, sizeof buf, 0, 0) == 0);
  CHECK (nbd_shutdown (h, 0) == 0);
  nbd_close (h);
}

int
main (int argc, char *argv[])
{
  /* Agreed: structured replies come with them. */
  connect_and_check (argv[0], "good", true, true, 1, 1);
  /* Refused or unknown: structured replies as before. */
  connect_and_check (argv[0], "refuse", true, true, 0, 1);
  connect_and_check (argv[0], "absent", true, true, 0, 1);
  /* Not asked for, or not asked for because structured replies
   * are not wanted either.
   */
  connect_and_check (argv[0], "good", false, true, 0, 1);
  connect_and_check (argv[0], "good", true, false, 0, 0);

  opt_mode (argv[0], "good", 0);
  opt_mode (argv[0], "refuse", ENOTSUP);
  opt_mode (argv[0], "absent", ENOTSUP);
  opt_mode (argv[0], "invalid", EINVAL);

  sr_after_extended (argv[0], "good", 0);
  sr_after_extended (argv[0], "sr-ack", 1);
  exit (EXIT_SUCCESS);
}
