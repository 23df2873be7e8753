/* opt-callbacks.h: counting callbacks for the tests of the opt calls. */
#ifndef OPT_CALLBACKS_H
#define OPT_CALLBACKS_H

#include <stdbool.h>
#include <string.h>

#include <libnbd.h>

/* What the callbacks of one call saw; each closure frees once. */
struct seen {
  int names;                    /* list callback calls */
  bool a, b;                    /* exports "a" and "b" listed */
  bool described;               /* an export came as "the disk" */
  int contexts;                 /* context callback calls */
  bool base_allocation;         /* base:allocation among the contexts */
  int completions;              /* completion callback calls */
  int error;                    /* *error seen by the last completion */
  int frees;
};

static inline int
list_cb (void *opaque, const char *name, const char *description)
{
  struct seen *s = opaque;

  s->names++;
  s->a |= strcmp (name, "a") == 0;
  s->b |= strcmp (name, "b") == 0;
  s->described |= strcmp (description, "the disk") == 0;
  return 0;
}

static inline int
context_cb (void *opaque, const char *name)
{
  struct seen *s = opaque;

  s->contexts++;
  s->base_allocation |= strcmp (name, LIBNBD_CONTEXT_BASE_ALLOCATION) == 0;
  return 0;
}

static inline int
completion_cb (void *opaque, int *error)
{
  struct seen *s = opaque;

  s->completions++;
  s->error = *error;
  return 1;
}

static inline void
free_cb (void *opaque)
{
  ((struct seen *) opaque)->frees++;
}

#define COMPLETION(s) \
  ((nbd_completion_callback) { .callback = completion_cb, \
                               .user_data = (s), .free = free_cb })
#define LIST(s) \
  ((nbd_list_callback) { .callback = list_cb, .user_data = (s), \
                         .free = free_cb })
#define CONTEXT(s) \
  ((nbd_context_callback) { .callback = context_cb, .user_data = (s), \
                            .free = free_cb })

#endif /* OPT_CALLBACKS_H */
