/* show.c: the default mode: the connection, then each export. */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>

#include <libnbd.h>

#include "nbdinfo.h"

static size_t nr_shown;         /* exports printed so far */

static void
show_connection_text (const char *protocol, int tls, int sr, int eh)
{
  colour_on (COLOUR_GREY);
  fprintf (out, "protocol: %s", protocol);
  if (tls >= 0)
    fprintf (out, " %s TLS", tls ? "with" : "without");
  if (sr >= 0 && eh >= 0)
    fprintf (out, ", using %s packets",
             eh ? "extended" : sr ? "structured" : "simple");
  fprintf (out, "\n");
  colour_off ();
}

/* Opens the top-level object that show_end closes. */
static void
show_connection_json (const char *protocol, int tls, int sr, int eh)
{
  fprintf (out, "{\n");
  if (protocol) {
    fprintf (out, "\"protocol\": ");
    print_json_string (protocol);
    fprintf (out, ",\n");
  }
  if (tls >= 0)
    fprintf (out, "\"TLS\": %s,\n", tls ? "true" : "false");
  if (sr >= 0)
    fprintf (out, "\"structured\": %s,\n", sr ? "true" : "false");
  if (eh >= 0)
    fprintf (out, "\"extended\": %s,\n", eh ? "true" : "false");
}

void
show_connection (struct nbd_handle *nbd)
{
  const char *protocol = nbd_get_protocol (nbd);
  int tls = nbd_get_tls_negotiated (nbd);
  int sr = nbd_get_structured_replies_negotiated (nbd);
  int eh = nbd_get_extended_headers_negotiated (nbd);

  if (json_output)
    show_connection_json (protocol, tls, sr, eh);
  else if (protocol)
    show_connection_text (protocol, tls, sr, eh);
}

/* desc is the description from the export list, or NULL to ask the
 * server.  Returns false if the export could not be queried.
 */
bool
show_export (struct nbd_handle *nbd, const char *desc)
{
  struct export_facts facts;

  if (!gather_facts (nbd, desc, &facts))
    return false;
  if (json_output) {
    fprintf (out, nr_shown == 0 ? "\"exports\": [\n" : ",\n");
    show_facts_json (&facts);
  }
  else
    show_facts_text (&facts);
  nr_shown++;
  free_facts (&facts);
  return true;
}

/* Close the JSON array and object, valid even if no export answered. */
void
show_end (void)
{
  if (!json_output)
    return;
  fprintf (out, nr_shown == 0 ? "\"exports\": []\n" : " ]\n");
  fprintf (out, "}\n");
}
