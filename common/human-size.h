/* human-size.h: parse sizes such as "256k" or "32M" from the command line. */
#ifndef COMMON_HUMAN_SIZE_H
#define COMMON_HUMAN_SIZE_H

#include <stdint.h>

/* Parse STR as a non-negative size: a decimal number optionally
 * followed by one of the binary suffixes b k M G T P E (upper or lower
 * case, optionally with "B" or "iB" after it: "4k", "4K", "4KiB").
 * Returns the size, or -1 with *ERROR set to a static message.
 */
extern int64_t human_size_parse (const char *str, const char **error);

#endif /* COMMON_HUMAN_SIZE_H */
