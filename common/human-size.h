/* human-size.h: sizes such as "256k" or "32M", parsed from the command
 * line and printed.
 */
#ifndef COMMON_HUMAN_SIZE_H
#define COMMON_HUMAN_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* Parse STR as a non-negative size: a decimal number optionally
 * followed by one of the binary suffixes b k M G T P E (upper or lower
 * case, optionally with "B" or "iB" after it: "4k", "4K", "4KiB").
 * Returns the size, or -1 with *ERROR set to a static message.
 */
extern int64_t human_size_parse (const char *str, const char **error);

/* Print BYTES with the largest binary unit that divides it exactly:
 * "1M" for 1048576, "3K" for 3072, "1536" for 1536.  BUF holds at
 * least HUMAN_SIZE_MAX bytes.  Returns true when a unit was added.
 */
#define HUMAN_SIZE_MAX 32
extern bool human_size (char *buf, uint64_t bytes);

#endif /* COMMON_HUMAN_SIZE_H */
