/* fake-server.h: what fake-server.c shares with its script player. */
#ifndef FAKE_SERVER_H
#define FAKE_SERVER_H

#include <stdint.h>
#include <stddef.h>

#include "fake-wire.h"

extern unsigned char *disk;
extern void drain (void);
extern void serve_request (void);

/* What a script may refer to: the command or option it answers. */
struct script_ctx {
  uint64_t cookie, offset;
  uint32_t count, option;
  void (*good) (const struct script_ctx *);   /* the right answer */
  void *opaque;
};

/* Send the bytes TOKENS describe (see fake-script.c). */
extern void script_play (const char *tokens, const struct script_ctx *ctx);

#endif /* FAKE_SERVER_H */
