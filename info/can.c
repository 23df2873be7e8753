/* can.c: --can, --is, --has and their negations: a flag as exit status. */

#include <config.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "nbdinfo.h"

/* Connecting already proved these. */
static int
always (struct nbd_handle *nbd)
{
  return 1;
}

static int
can_write (struct nbd_handle *nbd)
{
  int r = nbd_is_read_only (nbd);

  return r == -1 ? -1 : !r;
}

struct flag {
  const char *name;             /* lower case, words joined by '-' */
  int (*get) (struct nbd_handle *nbd);
};

static const struct flag flags[] = {
  { "connect", always },
  { "read", always },
  { "write", can_write },
  { "tls", nbd_get_tls_negotiated },
  { "sr", nbd_get_structured_replies_negotiated },
  { "structured", nbd_get_structured_replies_negotiated },
  { "structured-reply", nbd_get_structured_replies_negotiated },
  { "structured-replies", nbd_get_structured_replies_negotiated },
  { "eh", nbd_get_extended_headers_negotiated },
  { "extended-header", nbd_get_extended_headers_negotiated },
  { "extended-headers", nbd_get_extended_headers_negotiated },
  { "readonly", nbd_is_read_only },
  { "read-only", nbd_is_read_only },
  { "rotational", nbd_is_rotational },
  { "block-status-payload", nbd_can_block_status_payload },
  { "cache", nbd_can_cache },
  { "df", nbd_can_df },
  { "fastzero", nbd_can_fast_zero },
  { "fast-zero", nbd_can_fast_zero },
  { "flush", nbd_can_flush },
  { "fua", nbd_can_fua },
  { "multiconn", nbd_can_multi_conn },
  { "multi-conn", nbd_can_multi_conn },
  { "trim", nbd_can_trim },
  { "zero", nbd_can_zero },
};

/* "Read_Only", "read only" and "read-only" name the same flag. */
static bool
same_name (const char *given, const char *name)
{
  for (; *given && *name; given++, name++) {
    char c = tolower ((unsigned char) *given);

    if (c == ' ' || c == '_')
      c = '-';
    if (c != *name)
      return false;
  }
  return *given == '\0' && *name == '\0';
}

static const struct flag *
find_flag (const char *given)
{
  size_t i;

  for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (same_name (given, flags[i].name))
      return &flags[i];
  return NULL;
}

bool
can_flag_known (const char *given)
{
  return find_flag (given) != NULL;
}

/* Exit status: 0 when the (possibly negated) flag holds, 2 when not. */
int
do_can (struct nbd_handle *nbd)
{
  int r = find_flag (can_flag)->get (nbd);

  if (r == -1)
    die_nbd ();
  if (can_negated)
    r = !r;
  return r ? EXIT_SUCCESS : 2;
}
