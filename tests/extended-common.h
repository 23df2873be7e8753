/* extended-common.h: connecting to ext-server, for the extended-*.c tests. */
#ifndef EXTENDED_COMMON_H
#define EXTENDED_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <libgen.h>

#include <libnbd.h>

#include "test-common.h"

#define EXT_SIZE (UINT64_C (8) << 30)   /* ext-server's export */
#define GiB (UINT64_C (1) << 30)
#define MiB (UINT64_C (1) << 20)

/* Where ext-server is: $builddir, else next to this program. */
static inline const char *
ext_server_path (const char *argv0)
{
  static char path[4096];
  const char *dir = getenv ("builddir");
  char *copy = strdup (argv0);

  CHECK (copy != NULL);
  snprintf (path, sizeof path, "%s/ext-server",
            dir && *dir ? dir : dirname (copy));
  free (copy);
  if (access (path, X_OK) != 0)
    FAIL ("%s is not built", path);
  return path;
}

/* A handle asking for both of ext-server's contexts. */
static inline struct nbd_handle *
ext_handle (void)
{
  struct nbd_handle *h = nbd_create ();

  CHECK (h != NULL);
  CHECK (nbd_add_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0);
  CHECK (nbd_add_meta_context (h, "x-ext:inverse") == 0);
  return h;
}

/* Run ext-server SCENARIO as H's server. */
static inline void
ext_connect (struct nbd_handle *h, const char *argv0, const char *scenario)
{
  char *args[] = { (char *) ext_server_path (argv0), (char *) scenario,
                   NULL };

  if (nbd_connect_command (h, args) == -1)
    FAIL ("connecting to ext-server %s: %s", scenario, nbd_get_error ());
}

/* Store the completion's error in *USER_DATA (which starts at -1). */
static inline int
ext_completion (void *user_data, int *error)
{
  int *err = user_data;

  if (*err != -1)
    FAIL ("completion callback called twice");
  *err = *error;
  return 0;
}

#endif /* EXTENDED_COMMON_H */
