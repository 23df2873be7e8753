/* discard.c: the program nbddiscard, which trims unless told -z. */
#include <config.h>

#include "nbddiscard.h"

const char *progname = "nbddiscard";
const bool zero_by_default = false;
