/* list-options.h: --long-options and --short-options for the tools. */
#ifndef COMMON_LIST_OPTIONS_H
#define COMMON_LIST_OPTIONS_H

#include <getopt.h>

/* Print each option on a line ("--name" or "-c"), as bash completion
 * wants, leaving out --long-options and --short-options themselves and
 * the ':' of getopt's syntax; then exit successfully.
 */
extern void list_long_options (const struct option *options)
  __attribute__ ((noreturn));
extern void list_short_options (const char *options)
  __attribute__ ((noreturn));

#endif /* COMMON_LIST_OPTIONS_H */
