/* colour-options.h: the spellings of --colour and --no-colour that
 * nbdinfo and nbddump accept, as libnbd's tools do.
 */
#ifndef COMMON_COLOUR_OPTIONS_H
#define COMMON_COLOUR_OPTIONS_H

/* Entries of a struct option table: ON and OFF are the values getopt
 * returns for turning colours on and off.
 */
#define COLOUR_LONG_OPTIONS(on, off)                                    \
  { "color", no_argument, NULL, (on) },                                 \
  { "colors", no_argument, NULL, (on) },                                \
  { "colour", no_argument, NULL, (on) },                                \
  { "colours", no_argument, NULL, (on) },                               \
  { "no-color", no_argument, NULL, (off) },                             \
  { "no-colors", no_argument, NULL, (off) },                            \
  { "no-colour", no_argument, NULL, (off) },                            \
  { "no-colours", no_argument, NULL, (off) }

#endif /* COMMON_COLOUR_OPTIONS_H */
