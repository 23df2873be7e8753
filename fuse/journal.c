/* journal.c: with --reconnect, the writes (and zeroed ranges) the
 * server acknowledged since the last flush.
 *
 * A server may acknowledge a write before it is durable, so a server
 * that restarts may lose every write since the last flush.  What the
 * kernel was told is written must then be written again: outage.c
 * replays these entries, oldest first, on the new connection and
 * flushes.  A flush that succeeds makes the entries acknowledged
 * before it was sent durable, and they are dropped.
 *
 * Entries are kept in the order acknowledged, overlaps and all:
 * replaying them in that order leaves what the kernel last wrote.
 */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbdfuse.h"

/* What an entry costs besides its data, counted against the bound so
 * that many small zeroed ranges are bounded too.
 */
#define ENTRY_COST 64

/* How many spare entries a write looks through for a buffer. */
#define SPARE_SCAN 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct journal_entry *oldest, **newest_next = &oldest;
static uint64_t next_seq = 1;
static uint64_t bytes;          /* against nf.replay_bound */

/* Entries dropped, kept with their buffers for the next writes: memory fresh from the kernel costs a page fault a page,
 * which more than doubled the CPU nbdfuse spends on a write.
 */
static struct journal_entry *spare;
static uint64_t spare_bytes;

/* Only a writable export that can flush is journalled: without flush
 * the server promises nothing more than an acknowledgement.
 */
bool
journal_on (void)
{
  return nf.policy.window > 0 && !nf.readonly && nf.can_flush;
}

static uint64_t
cost (const struct journal_entry *e)
{
  return ENTRY_COST + (e->data ? e->count : 0);
}

/* E is no longer needed, with the lock held. */
static void
release (struct journal_entry *e)
{
  /* The journal and the spares together stay within the bound. */
  if (e->data && bytes + spare_bytes + e->capacity <= nf.replay_bound) {
    e->next = spare;
    spare = e;
    spare_bytes += e->capacity;
    return;
  }
  free (e->data);
  free (e);
}

/* A spare entry whose buffer holds COUNT bytes, or NULL. */
static struct journal_entry *
take_spare (uint64_t count)
{
  struct journal_entry **p, *e = NULL;
  int n = 0;

  pthread_mutex_lock (&lock);
  for (p = &spare; *p != NULL && n < SPARE_SCAN; p = &(*p)->next, n++)
    if ((*p)->capacity >= count) {
      e = *p;
      *p = e->next;
      spare_bytes -= e->capacity;
      break;
    }
  pthread_mutex_unlock (&lock);
  return e;
}

static struct journal_entry *
new_entry (uint64_t count)
{
  struct journal_entry *e = malloc (sizeof *e);

  if (e == NULL || (e->data = malloc (count)) == NULL) {
    /* Nothing can be promised after this. */
    perror ("nbdfuse: malloc: journal");
    abort ();
  }
  e->capacity = count;
  return e;
}

/* Called when the server acknowledged OP (a write BUF, or a zeroed
 * range when BUF is NULL).  A copy is taken: the kernel's buffer goes
 * back as soon as the request is answered.
 */
void
journal_add (enum op op, const void *buf, uint64_t count, uint64_t offset)
{
  struct journal_entry *e;

  if (buf) {
    e = take_spare (count);
    if (e == NULL)
      e = new_entry (count);
    memcpy (e->data, buf, count);
  }
  else {
    e = malloc (sizeof *e);
    if (e == NULL) {
      perror ("nbdfuse: malloc: journal");
      abort ();
    }
    e->data = NULL;
    e->capacity = 0;
  }
  e->op = op;
  e->count = count;
  e->offset = offset;
  e->next = NULL;
  pthread_mutex_lock (&lock);
  e->seq = next_seq++;
  *newest_next = e;
  newest_next = &e->next;
  bytes += cost (e);
  pthread_mutex_unlock (&lock);
}

/* Before a flush is sent: the entries acknowledged so far are those
 * it will make durable.
 */
uint64_t
journal_mark (void)
{
  uint64_t mark;

  pthread_mutex_lock (&lock);
  mark = next_seq;
  pthread_mutex_unlock (&lock);
  return mark;
}

/* Drop the entries older than MARK, with the lock held. */
static void
drop_before (uint64_t mark)
{
  while (oldest && oldest->seq < mark) {
    struct journal_entry *e = oldest;

    oldest = e->next;
    bytes -= cost (e);
    release (e);
  }
  if (oldest == NULL)
    newest_next = &oldest;
}

/* A flush sent at MARK succeeded. */
void
journal_flushed (uint64_t mark)
{
  pthread_mutex_lock (&lock);
  drop_before (mark);
  pthread_mutex_unlock (&lock);
}

/* Whether a flush should go before the next write. */
bool
journal_full (void)
{
  bool full;

  pthread_mutex_lock (&lock);
  full = bytes >= nf.replay_bound;
  pthread_mutex_unlock (&lock);
  return full;
}

/* For outage.c, while no connection runs: the entries to replay. */
struct journal_entry *
journal_oldest (void)
{
  return oldest;
}

/* All replayed and flushed (or the outage was not survived). */
void
journal_clear (void)
{
  pthread_mutex_lock (&lock);
  drop_before (UINT64_MAX);
  pthread_mutex_unlock (&lock);
}
