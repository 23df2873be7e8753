/* export-facts.c: read what a program relies on about an export, and
 * tell whether it changed across a reconnect (see reconnect.h).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reconnect.h"

int
export_facts_read (struct nbd_handle *h, struct export_facts *f)
{
  memset (f, 0, sizeof *f);
  f->export_name = nbd_get_export_name (h);
  f->size = nbd_get_size (h);
  if (f->export_name == NULL || f->size == -1)
    return -1;
  f->read_only = nbd_is_read_only (h);
  f->can_flush = nbd_can_flush (h);
  f->can_fua = nbd_can_fua (h);
  f->can_zero = nbd_can_zero (h);
  f->can_fast_zero = nbd_can_fast_zero (h);
  f->can_trim = nbd_can_trim (h);
  f->can_multi_conn = nbd_can_multi_conn (h);
  f->can_cache = nbd_can_cache (h);
  f->can_df = nbd_can_df (h);
  f->block_min = nbd_get_block_size (h, LIBNBD_SIZE_MINIMUM);
  f->block_pref = nbd_get_block_size (h, LIBNBD_SIZE_PREFERRED);
  f->block_max = nbd_get_block_size (h, LIBNBD_SIZE_MAXIMUM);
  f->structured = nbd_get_structured_replies_negotiated (h);
  f->extended = nbd_get_extended_headers_negotiated (h);
  f->base_allocation =
    nbd_can_meta_context (h, LIBNBD_CONTEXT_BASE_ALLOCATION);
  f->tls = nbd_get_tls_negotiated (h);
  return 0;
}

void
export_facts_free (struct export_facts *f)
{
  free (f->export_name);
  f->export_name = NULL;
}

/* The facts in the order they are checked, with their names for the
 * message.  A value of -1 (the server would not say) is a value like
 * any other: it must stay what it was.
 */
#define BOOL_FACTS(X) \
  X (read_only, "read-only") X (can_flush, "flush") X (can_fua, "FUA") \
  X (can_zero, "zero") X (can_fast_zero, "fast zero") \
  X (can_trim, "trim") X (can_multi_conn, "multi-conn") \
  X (can_cache, "cache") X (can_df, "DF (structured reads)") \
  X (structured, "structured replies") \
  X (extended, "extended headers") \
  X (base_allocation, "meta context base:allocation") X (tls, "TLS")

#define SIZE_FACTS(X) \
  X (size, "size") X (block_min, "minimum block size") \
  X (block_pref, "preferred block size") \
  X (block_max, "maximum block size")

static const char *
yes_no (int v)
{
  return v == 1 ? "yes" : v == 0 ? "no" : "unknown";
}

bool
export_facts_differ (const struct export_facts *before,
                     const struct export_facts *after,
                     char *why, size_t len)
{
  if (strcmp (before->export_name, after->export_name) != 0) {
    snprintf (why, len, "export name changed from '%s' to '%s'",
              before->export_name, after->export_name);
    return true;
  }
#define CHECK_SIZE(field, name)                                         \
  if (before->field != after->field) {                                  \
    snprintf (why, len, "%s changed from %" PRIi64 " to %" PRIi64,      \
              name, before->field, after->field);                       \
    return true;                                                        \
  }
  SIZE_FACTS (CHECK_SIZE)
#undef CHECK_SIZE
#define CHECK_BOOL(field, name)                                         \
  if (before->field != after->field) {                                  \
    snprintf (why, len, "%s changed from %s to %s", name,               \
              yes_no (before->field), yes_no (after->field));           \
    return true;                                                        \
  }
  BOOL_FACTS (CHECK_BOOL)
#undef CHECK_BOOL
  return false;
}
