/* checkpoint-file.c: --checkpoint=FILE (see checkpoint-file.h).
 *
 * The file is text, its lines in this order:
 *   nbdcopy-checkpoint 2
 *   src IDENTITY             what the source is (kind, name, size, facts)
 *   dst IDENTITY             the same for the destination
 *   sample OFFSET LEN HASH   the source's data at 16 fixed places
 *   data OFFSET LEN HASH     blocks of data made durable on the
 *                            destination (durable-samples.h)
 *   durable START END        ranges written and flushed, sorted, apart
 *   end CHECKSUM             FNV-1a of every byte before this line
 * and is replaced whole (written, synced, renamed) at each checkpoint,
 * so that a crash leaves the old file or the new, never a mix.  A file
 * with a line missing, unknown, out of place or not exactly as written
 * here, or whose checksum does not match, is refused.
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
#include "durable-samples.h"
#include "nbdcopy.h"

#define HEADER "nbdcopy-checkpoint 2"
#define NR_SAMPLES 16
#define ID_MAX_LEN 4096
#define LINE_MAX_LEN (ID_MAX_LEN + 16)
/* A sample line, as written: KEY OFFSET LEN HASH. */
#define SAMPLE_FORMAT "%s %" PRIu64 " %" PRIu64 " %016" PRIx64

static const char *file;        /* NULL: no --checkpoint */
static char src_id[ID_MAX_LEN], dst_id[ID_MAX_LEN];
static struct sample samples[NR_SAMPLES];   /* the fixed places */
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
  return sample_hash (buf, len);
}

/* How many fixed places are sampled: none in an empty source, or
 * when units are too big to sample cheaply.
 */
static size_t
expected_samples (void)
{
  return src.size > 0 && SAMPLE_SIZE / opt.unit > 0 ? NR_SAMPLES : 0;
}

/* Places spread over the source, each a whole number of units. */
static void
take_samples (void)
{
  uint64_t size = src.size, step = size / NR_SAMPLES, off;
  uint64_t len = SAMPLE_SIZE / opt.unit * opt.unit;

  for (nr_samples = 0; nr_samples < expected_samples (); nr_samples++) {
    off = (nr_samples * step) / opt.unit * opt.unit;
    samples[nr_samples].offset = off;
    samples[nr_samples].len = size - off < len ? size - off : len;
    samples[nr_samples].hash =
      read_hash (&src, off, samples[nr_samples].len);
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

static void
print_sample (FILE *fp, const char *key, const struct sample *s)
{
  fprintf (fp, SAMPLE_FORMAT "\n", key, s->offset, s->len, s->hash);
}

/* Every line but the last, which is their checksum. */
static void
print_lines (FILE *fp)
{
  struct sample data[MAX_DURABLE_SAMPLES];
  size_t i, n = durable_samples_get (data);

  fprintf (fp, HEADER "\nsrc %s\ndst %s\n", src_id, dst_id);
  for (i = 0; i < nr_samples; i++)
    print_sample (fp, "sample", &samples[i]);
  for (i = 0; i < n; i++)
    print_sample (fp, "data", &data[i]);
  for (i = 0; i < durable.len; i++)
    fprintf (fp, "durable %" PRIu64 " %" PRIu64 "\n", durable.v[i].offset,
             durable.v[i].offset + durable.v[i].length);
}

/* Replace the file with the current state.  Called with LOCK held. */
static void
save (void)
{
  char *text = NULL, *tmp;
  size_t len = 0;
  FILE *fp = open_memstream (&text, &len);

  if (fp == NULL)
    die_file ("open_memstream");
  print_lines (fp);
  if (fclose (fp) == EOF)
    die_file ("open_memstream");
  if (asprintf (&tmp, "%s.tmp", file) == -1)
    die_file ("asprintf");
  fp = fopen (tmp, "w");
  if (fp == NULL)
    die_file ("create");
  if (fwrite (text, 1, len, fp) != len ||
      fprintf (fp, "end %016" PRIx64 "\n", sample_hash (text, len)) < 0 ||
      fflush (fp) == EOF || fsync (fileno (fp)) == -1)
    die_file ("write");
  if (fclose (fp) == EOF)
    die_file ("close");
  if (rename (tmp, file) == -1)
    die_file ("rename");
  free (tmp);
  free (text);
  sync_directory ();
}

/* The kinds of line, in the order they must come. */
enum line_kind {
  L_HEADER, L_SRC, L_DST, L_SAMPLE, L_DATA, L_DURABLE, L_END, L_UNKNOWN
};

static enum line_kind
line_kind (const char *line)
{
  static const char *const keys[] = {
    [L_SRC] = "src", [L_DST] = "dst", [L_SAMPLE] = "sample",
    [L_DATA] = "data", [L_DURABLE] = "durable", [L_END] = "end",
  };
  size_t n = strcspn (line, " ");
  int k;

  for (k = L_SRC; k <= L_END; k++)
    if (strlen (keys[k]) == n && strncmp (line, keys[k], n) == 0)
      return k;
  return L_UNKNOWN;
}

/* What an earlier run's file says, once its form is checked. */
struct loaded {
  char src[LINE_MAX_LEN], dst[LINE_MAX_LEN];     /* identities */
  struct sample data[MAX_DURABLE_SAMPLES];
  size_t nr_data;
  size_t lineno;
  enum line_kind last;          /* the kind of the line before */
  uint64_t sum;                 /* of the lines so far */
  bool ended;
};

/* A sample line exactly as print_sample writes it. */
static bool
parse_sample (const char *line, const char *key, struct sample *s)
{
  char again[LINE_MAX_LEN];

  if (sscanf (line + strlen (key), " %" SCNu64 " %" SCNu64 " %" SCNx64,
              &s->offset, &s->len, &s->hash) != 3)
    return false;
  snprintf (again, sizeof again, SAMPLE_FORMAT, key, s->offset, s->len,
            s->hash);
  return strcmp (again, line) == 0;
}

/* A durable line exactly as print_lines writes it, after the last. */
static bool
parse_durable (struct loaded *f, const char *line)
{
  char again[LINE_MAX_LEN];
  uint64_t a, b, last_end = 0;

  if (sscanf (line, "durable %" SCNu64 " %" SCNu64, &a, &b) != 2)
    return false;
  snprintf (again, sizeof again, "durable %" PRIu64 " %" PRIu64, a, b);
  if (strcmp (again, line) != 0)
    return false;
  if (durable.len > 0)
    last_end = durable.v[durable.len - 1].offset +
      durable.v[durable.len - 1].length;
  if (a >= b || b > (uint64_t) src.size || (durable.len > 0 && a <= last_end))
    refuse ("line %zu: the durable ranges are out of place", f->lineno);
  durable_add (a, b);
  return true;
}

static void
check_checksum (struct loaded *f, const char *line)
{
  char again[64];
  uint64_t sum;

  if (sscanf (line, "end %" SCNx64, &sum) != 1 ||
      (snprintf (again, sizeof again, "end %016" PRIx64, sum),
       strcmp (again, line) != 0))
    refuse ("line %zu is malformed: %.80s", f->lineno, line);
  if (sum != f->sum)
    refuse ("the checksum does not match the file's lines: it was "
            "changed or damaged");
  f->ended = true;
}

/* Lines may only come in order, src and dst once each, and none of
 * src, dst and the fixed samples may be left out.
 */
static void
check_order (struct loaded *f, enum line_kind k)
{
  if (f->ended)
    refuse ("line %zu follows the end line", f->lineno);
  if (k < f->last || (k == f->last && k != L_SAMPLE && k != L_DATA &&
                      k != L_DURABLE))
    refuse ("line %zu is out of place", f->lineno);
  if (f->last < L_SRC && k > L_SRC)
    refuse ("the src line is missing");
  if (f->last < L_DST && k > L_DST)
    refuse ("the dst line is missing");
  if (f->last <= L_SAMPLE && k > L_SAMPLE &&
      nr_samples != expected_samples ())
    refuse ("sample lines are missing: %zu of %zu", nr_samples,
            expected_samples ());
}

/* One line of an earlier run's file, without its newline. */
static void
parse_line (struct loaded *f, const char *line)
{
  enum line_kind k = line_kind (line);
  bool ok = true;

  if (k == L_UNKNOWN)
    refuse ("line %zu is not one nbdcopy writes: %.80s", f->lineno, line);
  check_order (f, k);
  switch (k) {
  case L_SRC: case L_DST:
    ok = line[3] == ' ';
    if (ok)
      strcpy (k == L_SRC ? f->src : f->dst, line + 4);
    break;
  case L_SAMPLE:
    ok = nr_samples < NR_SAMPLES &&
      parse_sample (line, "sample", &samples[nr_samples]);
    nr_samples++;
    break;
  case L_DATA:
    ok = f->nr_data < MAX_DURABLE_SAMPLES &&
      parse_sample (line, "data", &f->data[f->nr_data]);
    f->nr_data++;
    break;
  case L_DURABLE:
    ok = parse_durable (f, line);
    break;
  case L_END:
    check_checksum (f, line);
    break;
  default:
    abort ();
  }
  if (!ok)
    refuse ("line %zu is malformed: %.80s", f->lineno, line);
  f->last = k;
}

/* Read the file and check its form: every line, their order and the
 * checksum.
 */
static void
read_file (struct loaded *f)
{
  FILE *fp = fopen (file, "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;

  if (fp == NULL)
    die_file ("open");
  while ((n = getline (&line, &cap, fp)) != -1) {
    f->lineno++;
    if (line[n - 1] != '\n' && f->ended)
      refuse ("line %zu follows the end line", f->lineno);
    if (line[n - 1] != '\n')
      refuse ("the file is incomplete");
    line[n - 1] = '\0';
    if ((size_t) n - 1 != strlen (line) || n >= LINE_MAX_LEN)
      refuse ("line %zu is malformed", f->lineno);
    if (f->lineno > 1)
      parse_line (f, line);
    else if (strcmp (line, HEADER) != 0)
      refuse ("not a checkpoint file of this nbdcopy");
    if (!f->ended) {
      line[n - 1] = '\n';
      f->sum = sample_hash_more (f->sum, line, n);
    }
  }
  free (line);
  if (ferror (fp))
    die_file ("read");
  fclose (fp);
  if (!f->ended)
    refuse ("the file is incomplete");
}

/* The places sampled must still read as they did then: the fixed ones
 * on the source (and on the destination where durable), the blocks of
 * data made durable on both.
 */
static void
check_samples (const struct loaded *f)
{
  const struct sample *s;
  size_t i;

  for (i = 0; i < nr_samples + f->nr_data; i++) {
    s = i < nr_samples ? &samples[i] : &f->data[i - nr_samples];
    if (s->len == 0 || s->len > SAMPLE_SIZE ||
        s->offset > (uint64_t) src.size ||
        s->len > (uint64_t) src.size - s->offset ||
        (i >= nr_samples && !is_durable (s->offset, s->len)))
      refuse ("a %s line is out of place",
              i < nr_samples ? "sample" : "data");
    if (read_hash (&src, s->offset, s->len) != s->hash)
      refuse ("the source's data changed since it was checkpointed "
              "(at %" PRIu64 ")", s->offset);
    if (dst.kind != RW_NULL && is_durable (s->offset, s->len) &&
        read_hash (&dst, s->offset, s->len) != s->hash)
      refuse ("the destination changed since it was checkpointed "
              "(at %" PRIu64 "): it does not hold the data made durable "
              "there", s->offset);
  }
}

static void
load (void)
{
  struct loaded *f = calloc (1, sizeof *f);

  if (f == NULL)
    die_file ("calloc");
  f->sum = SAMPLE_HASH_INIT;
  read_file (f);
  if (strcmp (f->src, src_id) != 0)
    refuse ("the source is not the one checkpointed\n  then: %s\n  now:  %s",
            f->src, src_id);
  if (strcmp (f->dst, dst_id) != 0)
    refuse ("the destination is not the one checkpointed\n  then: %s\n"
            "  now:  %s", f->dst, dst_id);
  check_samples (f);
  durable_samples_add (f->data, f->nr_data);
  free (f);
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
ckfile_durable (const struct range_log *ranges,
                const struct sample_list *data)
{
  size_t i;

  /* Under the lock, so that no file is saved with the samples and
   * without their ranges.
   */
  pthread_mutex_lock (&lock);
  durable_samples_add (data->v, data->len);
  if (file && ranges->len > 0) {
    for (i = 0; i < ranges->len; i++)
      durable_add (ranges->v[i].offset,
                   ranges->v[i].offset + ranges->v[i].length);
    save ();
  }
  pthread_mutex_unlock (&lock);
}

void
ckfile_finish (void)
{
  if (file && unlink (file) == -1 && errno != ENOENT)
    die_file ("unlink");
}
