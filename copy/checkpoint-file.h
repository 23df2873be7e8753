/* checkpoint-file.h: --checkpoint=FILE, what a killed nbdcopy leaves
 * behind so that the same command run again copies only what is not
 * yet durable on the destination.
 */
#ifndef NBDCOPY_CHECKPOINT_FILE_H
#define NBDCOPY_CHECKPOINT_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "durable-samples.h"
#include "range-log.h"

/* Whether FILE exists, so that this run resumes: asked before the
 * destination is opened, which then must not be emptied.
 */
extern bool ckfile_exists (const char *path);

/* With both ends open: check a file left by an earlier run against
 * them (refusing a changed source or destination), or write a new one.
 */
extern void ckfile_open (const char *path);

/* Whether --checkpoint is in use. */
extern bool ckfile_active (void);

/* Bytes of the image the file says are durable (for -v). */
extern uint64_t ckfile_durable_bytes (void);

/* Split [OFFSET, OFFSET+LEN) into pieces, calling FN with each and
 * whether it is durable already.
 */
typedef void (*ckfile_piece_fn) (void *opaque, uint64_t offset,
                                 uint64_t len, bool durable);
extern void ckfile_split (uint64_t offset, uint64_t len, ckfile_piece_fn fn,
                          void *opaque);

/* The ranges are now written and flushed, and DATA samples blocks of
 * them: keep the samples (durable-samples.h) and, with --checkpoint,
 * record both, crash-safely.
 */
extern void ckfile_durable (const struct range_log *ranges,
                            const struct sample_list *data);

/* The copy is complete: the file is no longer needed. */
extern void ckfile_finish (void);

#endif /* NBDCOPY_CHECKPOINT_FILE_H */
