/* connect.c: open handles and connect them to the server named on the
 * command line, a URI or a command run by socket activation.
 */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <libnbd.h>

#include "nbdinfo.h"

static const char *target_uri;  /* the URI argument, or NULL */
static char **target_argv;      /* [ CMD ARGS ... ] without brackets */

/* The first handle opened, closed at exit even on an error path, so
 * that a server run by socket activation is never left behind.
 */
static struct nbd_handle *main_handle;

void
set_target_uri (const char *uri)
{
  target_uri = uri;
}

void
set_target_command (char **argv)
{
  target_argv = argv;
}

/* A subprocess lives only as long as nbdinfo, so its URI names a
 * socket that will be gone: printing it would mislead.
 */
bool
uri_is_meaningful (void)
{
  return target_uri != NULL;
}

static void
close_main_handle (void)
{
  close_handle (main_handle);
}

/* Every handle starts in option mode: a list, an INFO for each export,
 * and the meta context listing all happen before NBD_OPT_GO.
 */
struct nbd_handle *
open_handle (void)
{
  struct nbd_handle *nbd = nbd_create ();

  if (nbd == NULL)
    die_nbd ();
  if (main_handle == NULL) {
    main_handle = nbd;
    atexit (close_main_handle);
  }
  /* A URI may name a TLS PSK file, as libnbd's own tools allow. */
  nbd_set_uri_allow_local_file (nbd, true);
  nbd_set_opt_mode (nbd, true);
  return nbd;
}

void
connect_handle (struct nbd_handle *nbd)
{
  int r;

  if (target_uri)
    r = nbd_connect_uri (nbd, target_uri);
  else
    r = nbd_connect_systemd_socket_activation (nbd, target_argv);
  if (r == -1)
    die_nbd ();

  /* Ask about the export named by the URI now.  A refusal is not an
   * error yet: --list goes on to other exports, and show_export
   * reports it with the export's name.
   */
  if (nbd_aio_is_negotiating (nbd))
    nbd_opt_info (nbd);
}

/* Say goodbye politely (a courtesy: failure does not matter), then
 * free the handle, which also reaps a subprocess.
 */
void
close_handle (struct nbd_handle *nbd)
{
  if (nbd == NULL)
    return;
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  if (nbd == main_handle)
    main_handle = NULL;
}
