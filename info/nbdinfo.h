/* nbdinfo.h: what the files of nbdinfo share (options, output, helpers). */

#ifndef NBDINFO_H
#define NBDINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libnbd.h>

/* Options from the command line, set once by main.c. */
extern const char *progname;
extern bool json_output;        /* --json */
extern bool probe_content;      /* --content, default unless --list */
extern bool list_all;           /* -L, --list */
extern const char *map_context; /* --map[=CONTEXT], NULL without --map */
extern bool map_totals;         /* --totals */
extern const char *can_flag;    /* --can/--is/--has FLAG, else NULL */
extern bool can_negated;        /* --cannot/--isnt/--hasnt */
extern bool colour;             /* --colour, default if stdout is a tty */

/* output.c: everything meant for stdout is spooled in out, then written
 * at once by out_flush, so that a failure prints nothing on stdout.
 */
extern FILE *out;
extern void out_open (void);
extern void out_flush (void);
extern void die_nbd (void) __attribute__ ((noreturn));
extern void die_errno (const char *what) __attribute__ ((noreturn));
extern void die_oom (void) __attribute__ ((noreturn));

/* colour.c: ANSI escapes, written only with --colour. */
#define COLOUR_BOLD "1"
#define COLOUR_GREY "90"
#define COLOUR_RED "31"
#define COLOUR_GREEN "32"
#define COLOUR_BRIGHT_WHITE "97"
#define COLOUR_BG_BLACK "40"
#define COLOUR_BG_GREY "47"
extern void colour_on (const char *code);
extern void colour_off (void);

/* connect.c */
extern void set_target_uri (const char *uri);
extern void set_target_command (char **argv);
extern bool uri_is_meaningful (void);
extern struct nbd_handle *open_handle (void);
extern void connect_handle (struct nbd_handle *nbd);
extern void close_handle (struct nbd_handle *nbd);

/* json-print.c */
extern void print_json_string (const char *str);
extern void print_json_bool (const char *key, int value);

/* can.c */
extern bool can_flag_known (const char *flag);
extern int do_can (struct nbd_handle *nbd);

/* size.c, uri.c */
extern void do_size (struct nbd_handle *nbd);
extern void do_uri (struct nbd_handle *nbd);

/* map.c collects the extents; map-print.c and totals.c print them. */
struct extent_list {
  nbd_extent *ptr;              /* adjacent extents of one type merged */
  size_t len, cap;
};
extern void do_map (struct nbd_handle *nbd);
extern void print_extents (const struct extent_list *list);
extern void print_totals (const struct extent_list *list, uint64_t size);
extern const char *extent_description (uint64_t type, char *buf, size_t n);
extern bool extent_colour_on (uint64_t type);

/* facts.c: what the default mode prints about one export. */
#define NR_EXPORT_FLAGS 11
struct export_facts {
  char *name;                   /* the server's name for it if it said */
  char *desc;                   /* NULL or "" when there is none */
  int64_t size;                 /* -1 if unavailable */
  char *content;                /* file(1) output, or NULL */
  char *uri;                    /* NULL for a subprocess */
  bool have_contexts;           /* the server answered the listing */
  char **contexts;
  size_t nr_contexts;
  int flags[NR_EXPORT_FLAGS];   /* -1 if unknown; see export_flag_names */
  int64_t block_size[3];        /* minimum, preferred, maximum; 0 unknown */
};
extern const char *const export_flag_names[NR_EXPORT_FLAGS];
extern const char *const block_size_names[3];
extern bool gather_facts (struct nbd_handle *nbd, const char *desc,
                          struct export_facts *facts);
extern void free_facts (struct export_facts *facts);

/* show-text.c, show-json.c */
extern void show_facts_text (const struct export_facts *facts);
extern void show_facts_json (const struct export_facts *facts);

/* show.c: the default mode's output, framed by show_connection and
 * show_end, with show_export once per export in between.
 */
extern void show_connection (struct nbd_handle *nbd);
extern bool show_export (struct nbd_handle *nbd, const char *desc);
extern void show_end (void);

/* content.c: file(1)'s verdict on the first sectors, or NULL. */
extern char *probe_export_content (struct nbd_handle *nbd, int64_t size);

/* list.c */
extern bool do_list (struct nbd_handle *nbd);

#endif /* NBDINFO_H */
