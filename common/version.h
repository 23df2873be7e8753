/* version.h: --version for the tools. */
#ifndef COMMON_VERSION_H
#define COMMON_VERSION_H

/* Print "PROGRAM VERSION", then the name and version of the libnbd
 * actually loaded, each on a line.
 */
extern void print_version (const char *program);

#endif /* COMMON_VERSION_H */
