/* noop-callbacks.h: callbacks that accept whatever the server sends. */
/* Only the public API of libnbd 1.14 on: bench/worst-case-client.c
 * includes this too and is built against Debian's library.
 */
#ifndef NOOP_CALLBACKS_H
#define NOOP_CALLBACKS_H

#include <stddef.h>
#include <stdint.h>

#include <libnbd.h>

static inline int
noop_extent_cb (void *user_data, const char *metacontext, uint64_t offset,
                uint32_t *entries, size_t nr_entries, int *error)
{
  (void) user_data; (void) metacontext; (void) offset; (void) entries;
  (void) nr_entries; (void) error;
  return 0;
}

static inline int
noop_list_cb (void *user_data, const char *name, const char *description)
{
  (void) user_data; (void) name; (void) description;
  return 0;
}

static inline int
noop_context_cb (void *user_data, const char *name)
{
  (void) user_data; (void) name;
  return 0;
}

#endif /* NOOP_CALLBACKS_H */
