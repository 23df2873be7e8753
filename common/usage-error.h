/* usage-error.h: a bad command line ends a tool the same way each time. */
#ifndef COMMON_USAGE_ERROR_H
#define COMMON_USAGE_ERROR_H

/* Print "PROGRAM: MESSAGE" and where to find the usage on stderr, then
 * exit with EXIT_FAILURE.
 */
extern void usage_error (const char *program, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 2, 3)));

#endif /* COMMON_USAGE_ERROR_H */
