/* checkpoint-file.c: --checkpoint=FILE (see checkpoint-file.h).
 *
 * The file is text:
 *   nbdcopy-checkpoint 1
 *   src IDENTITY          what the source is (kind, name, size, facts)
 *   dst IDENTITY          the same for the destination
 *   sample OFFSET LEN HASH   the source's data at a few places
 *   durable START END     ranges written and flushed, sorted, disjoint
 *   end
 * and is replaced whole (written, synced, renamed) at each checkpoint,
 * so that a crash leaves the old file or the new, never a mix.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "checkpoint-file.h"
#include "nbdcopy.h"

#define NR_SAMPLES 16
#define SAMPLE_SIZE 4096
#define LINE_MAX_LEN 4096

struct sample {
  uint64_t offset, len, hash;
};

static const char *file;        /* NULL: no --checkpoint */
static char src_id[LINE_MAX_LEN], dst_id[LINE_MAX_LEN];
static struct sample samples[NR_SAMPLES];
static size_t nr_samples;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct range_log durable;  /* sorted, merged; under lock */

static void __attribute__ ((noreturn))
die_file (const char *what)
{
  fprintf (stderr, "nbdcopy: --checkpoint: %s: %s: %s\n", file, what,
           strerror (errno));
  exit (EXIT_FAILURE);
}

static void __attribute__ ((noreturn, format (printf, 1, 2)))
refuse (const char *fmt, ...)
{
  va_list ap;

  fprintf (stderr, "nbdcopy: --checkpoint: %s: ", file);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, "\nnbdcopy: remove the file to copy everything "
           "again\n");
  exit (EXIT_EXPORT_CHANGED);
}

bool
ckfile_exists (const char *path)
{
  return access (path, F_OK) == 0;
}

bool
ckfile_active (void)
{
  return file != NULL;
}

/* FNV-1a: enough to see that data changed by accident. */
static uint64_t
fnv1a (const unsigned char *p, size_t len)
{
  uint64_t h = 0xcbf29ce484222325ULL;

  while (len--) {
    h ^= *p++;
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* One line naming an end: whatever a change of it would change. */
static void
identity (const struct rw *rw, char *buf, size_t len)
{
  const struct export_facts *f = &rw->facts;

  struct stat st;

  /* A local source that was written to has a new modification time
   * (the destination's changes with every run, so it has none).
   */
  if (rw->kind != RW_NBD && rw->is_source && fstat (rw->fd, &st) == 0) {
    snprintf (buf, len, "%s size=%" PRIi64 " ino=%ju mtime=%jd.%09ld "
              "name=%s", rw_ops_name (rw->kind), rw->size,
              (uintmax_t) st.st_ino, (intmax_t) st.st_mtim.tv_sec,
              st.st_mtim.tv_nsec, rw->name);
    return;
  }
  if (rw->kind != RW_NBD) {
    snprintf (buf, len, "%s size=%" PRIi64 " name=%s",
              rw_ops_name (rw->kind), rw->size, rw->name);
    return;
  }
  snprintf (buf, len, "nbd size=%" PRIi64 " export=%s ro=%d flush=%d "
            "fua=%d zero=%d fastzero=%d trim=%d multiconn=%d "
            "minblock=%" PRIi64 " tls=%d uri=%s", f->size,
            f->export_name, f->read_only, f->can_flush, f->can_fua,
            f->can_zero, f->can_fast_zero, f->can_trim, f->can_multi_conn,
            f->block_min, f->tls, rw->name);
}

static uint64_t
read_hash (struct rw *rw, uint64_t offset, uint64_t len)
{
  unsigned char buf[SAMPLE_SIZE];

  rw_pread (rw, 0, buf, len, offset);
  return fnv1a (buf, len);
}

/* Places spread over the source, each a whole number of units. */
static void
take_samples (void)
{
  uint64_t size = src.size, step, off, len, unit = opt.unit;
  size_t i;

  nr_samples = 0;
  if (size == 0)
    return;
  len = SAMPLE_SIZE / unit * unit;
  if (len == 0)
    return;                     /* units too big to sample cheaply */
  step = size / NR_SAMPLES;
  for (i = 0; i < NR_SAMPLES; i++) {
    off = (i * step) / unit * unit;
    if (off >= size)
      break;
    samples[nr_samples].offset = off;
    samples[nr_samples].len = size - off < len ? size - off : len;
    samples[nr_samples].hash = read_hash (&src, off, samples[nr_samples].len);
    nr_samples++;
  }
}

/* Insert [START, END) into the durable set, merging neighbours. */
static void
durable_add (uint64_t start, uint64_t end)
{
  struct range_log *d = &durable;
  size_t i = 0, j;

  while (i < d->len && d->v[i].offset + d->v[i].length < start)
    i++;
  j = i;
  while (j < d->len && d->v[j].offset <= end) {
    if (d->v[j].offset < start)
      start = d->v[j].offset;
    if (d->v[j].offset + d->v[j].length > end)
      end = d->v[j].offset + d->v[j].length;
    j++;
  }
  if (j == i) {                 /* make room at i */
    range_log_add (d, 0, 0);
    memmove (&d->v[i + 1], &d->v[i], (d->len - 1 - i) * sizeof *d->v);
  }
  else if (j > i + 1) {         /* i..j-1 become one */
    memmove (&d->v[i + 1], &d->v[j], (d->len - j) * sizeof *d->v);
    d->len -= j - i - 1;
  }
  d->v[i] = (struct range) { start, end - start };
}

static bool
is_durable (uint64_t offset, uint64_t len)
{
  size_t i;

  for (i = 0; i < durable.len; i++)
    if (durable.v[i].offset <= offset &&
        offset + len <= durable.v[i].offset + durable.v[i].length)
      return true;
  return false;
}

uint64_t
ckfile_durable_bytes (void)
{
  uint64_t n = 0;
  size_t i;

  for (i = 0; i < durable.len; i++)
    n += durable.v[i].length;
  return n;
}

static void
sync_directory (void)
{
  const char *slash = strrchr (file, '/');
  char *dir = slash ? strndup (file, slash == file ? 1 : slash - file)
                    : strdup (".");
  int fd = dir ? open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

  /* Only the rename's own durability is at stake: best effort. */
  if (fd >= 0) {
    (void) fsync (fd);
    close (fd);
  }
  free (dir);
}

/* Replace the file with the current state.  Called with LOCK held. */
static void
save (void)
{
  char *tmp;
  FILE *fp;
  size_t i;

  if (asprintf (&tmp, "%s.tmp", file) == -1)
    die_file ("asprintf");
  fp = fopen (tmp, "w");
  if (fp == NULL)
    die_file ("create");
  fprintf (fp, "nbdcopy-checkpoint 1\nsrc %s\ndst %s\n", src_id, dst_id);
  for (i = 0; i < nr_samples; i++)
    fprintf (fp, "sample %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n",
             samples[i].offset, samples[i].len, samples[i].hash);
  for (i = 0; i < durable.len; i++)
    fprintf (fp, "durable %" PRIu64 " %" PRIu64 "\n", durable.v[i].offset,
             durable.v[i].offset + durable.v[i].length);
  fprintf (fp, "end\n");
  if (fflush (fp) == EOF || fsync (fileno (fp)) == -1)
    die_file ("write");
  if (fclose (fp) == EOF)
    die_file ("close");
  if (rename (tmp, file) == -1)
    die_file ("rename");
  free (tmp);
  sync_directory ();
}

/* One line of an earlier run's file; false at "end". */
static bool
load_line (const char *line)
{
  struct sample s;
  uint64_t a, b;

  if (strncmp (line, "src ", 4) == 0 && strcmp (line + 4, src_id) != 0)
    refuse ("the source is not the one checkpointed\n  then: %s\n  now:  %s",
            line + 4, src_id);
  if (strncmp (line, "dst ", 4) == 0 && strcmp (line + 4, dst_id) != 0)
    refuse ("the destination is not the one checkpointed\n  then: %s\n"
            "  now:  %s", line + 4, dst_id);
  if (sscanf (line, "sample %" SCNu64 " %" SCNu64 " %" SCNx64,
              &s.offset, &s.len, &s.hash) == 3) {
    if (s.len == 0 || s.len > SAMPLE_SIZE || nr_samples == NR_SAMPLES ||
        s.offset + s.len > (uint64_t) src.size)
      refuse ("a sample line is out of place");
    if (read_hash (&src, s.offset, s.len) != s.hash)
      refuse ("the source's data changed since it was checkpointed "
              "(at %" PRIu64 ")", s.offset);
    samples[nr_samples++] = s;
  }
  if (sscanf (line, "durable %" SCNu64 " %" SCNu64, &a, &b) == 2) {
    if (a >= b || b > (uint64_t) src.size)
      refuse ("a durable range is out of place");
    durable_add (a, b);
  }
  return strcmp (line, "end") != 0;
}

/* The destination must still hold what was made durable there. */
static void
check_destination_samples (void)
{
  size_t i;

  if (dst.kind == RW_NULL)
    return;
  for (i = 0; i < nr_samples; i++)
    if (is_durable (samples[i].offset, samples[i].len) &&
        read_hash (&dst, samples[i].offset, samples[i].len) !=
        samples[i].hash)
      refuse ("the destination changed since it was checkpointed "
              "(at %" PRIu64 ")", samples[i].offset);
}

static void
load (void)
{
  FILE *fp = fopen (file, "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  bool first = true, ended = false;

  if (fp == NULL)
    die_file ("open");
  while (!ended && (n = getline (&line, &cap, fp)) != -1) {
    if (n > 0 && line[n - 1] == '\n')
      line[n - 1] = '\0';
    if (first && strcmp (line, "nbdcopy-checkpoint 1") != 0)
      refuse ("not a checkpoint file of this nbdcopy");
    first = false;
    ended = !load_line (line);
  }
  free (line);
  fclose (fp);
  if (!ended)
    refuse ("the file is incomplete");
  check_destination_samples ();
}

void
ckfile_open (const char *path)
{
  file = path;
  identity (&src, src_id, sizeof src_id);
  identity (&dst, dst_id, sizeof dst_id);
  if (ckfile_exists (path)) {
    load ();
    fprintf (stderr, "nbdcopy: resuming from %s: %" PRIu64 " of %" PRIi64
             " bytes are copied already\n", path, ckfile_durable_bytes (),
             src.size);
    return;
  }
  take_samples ();
  pthread_mutex_lock (&lock);
  save ();
  pthread_mutex_unlock (&lock);
}

void
ckfile_split (uint64_t offset, uint64_t len, ckfile_piece_fn fn,
              void *opaque)
{
  uint64_t end = offset + len, a, b;
  size_t i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < durable.len && offset < end; i++) {
    a = durable.v[i].offset;
    b = a + durable.v[i].length;
    if (b <= offset || a >= end)
      continue;
    if (a > offset)
      fn (opaque, offset, a - offset, false);
    if (a < offset)
      a = offset;
    if (b > end)
      b = end;
    fn (opaque, a, b - a, true);
    offset = b;
  }
  if (offset < end)
    fn (opaque, offset, end - offset, false);
  pthread_mutex_unlock (&lock);
}

void
ckfile_durable (const struct range_log *ranges)
{
  size_t i;

  if (file == NULL || ranges->len == 0)
    return;
  pthread_mutex_lock (&lock);
  for (i = 0; i < ranges->len; i++)
    durable_add (ranges->v[i].offset,
                 ranges->v[i].offset + ranges->v[i].length);
  save ();
  pthread_mutex_unlock (&lock);
}

void
ckfile_finish (void)
{
  if (file && unlink (file) == -1 && errno != ENOENT)
    die_file ("unlink");
}
