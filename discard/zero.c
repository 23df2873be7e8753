/* zero.c: the program nbdzero, nbddiscard with -z always on. */
#include <config.h>

#include "nbddiscard.h"

const char *progname = "nbdzero";
const bool zero_by_default = true;
