(* Emitter of the API reference: one man page per call, from the API
   table, plus the libnbd(3) overview and the list of pages for make. *)

open Printf
open Types
open Utils

(* ---- pieces of the pages ---- *)

let all_names = API.handwritten_names @ List.map fst API.handle_calls

(* The "generated" warning, then the title. *)
let pr_title what title =
  pr ".\\\" %s\n" what;
  pr ".\\\" WARNING: THIS FILE IS GENERATED FROM %s\n" generated_by;
  pr ".\\\" ANY CHANGES YOU MAKE TO THIS FILE WILL BE LOST.\n";
  pr ".TH %s 3 \"\" \"libnbd\" \"LIBNBD\"\n" title

let pr_header name shortdesc =
  pr_title (sprintf "nbd_%s(3): %s" name shortdesc)
    ("NBD_" ^ String.uppercase_ascii name);
  pr ".SH NAME\n";
  pr "nbd_%s \\- %s\n" name (Pod.escape shortdesc)

let pr_synopsis pr_proto =
  pr ".SH SYNOPSIS\n.nf\n.ft B\n#include <libnbd.h>\n.sp\n";
  pr_proto ();
  pr ".ft R\n.fi\n"

let pr_version name (maj, min) =
  pr ".SH VERSION\n";
  pr "This function first appeared in libnbd %d.%d.\n" maj min;
  pr ".PP\n";
  pr "A program can test for it at compile time:\n";
  pr ".PP\n.RS 4\n.nf\n";
  pr "#ifdef LIBNBD_HAVE_NBD_%s\n" (String.uppercase_ascii name);
  pr "/* nbd_%s is available */\n" name;
  pr "#endif\n";
  pr ".fi\n.RE\n"

let pr_see_also name see_also =
  let rec uniq = function
    | [] -> []
    | x :: xs -> x :: uniq (List.filter (( <> ) x) xs) in
  let names = uniq (List.filter (( <> ) name) (see_also @ [ "create" ])) in
  pr ".SH SEE ALSO\n.ad l\n";
  List.iter (fun n -> pr "\\fB\\%%nbd_%s\\fR(3),\n" n) names;
  pr "\\fBlibnbd\\fR(3)\n"

let pr_errors_intro err_value =
  pr ".SH ERRORS\n";
  pr "On error this call returns \\fB%s\\fR; "
    (Pod.escape ~code:true err_value);
  pr "\\fBnbd_get_error\\fR(3) then gives the text of the error and\n";
  pr "\\fBnbd_get_errno\\fR(3) its \\fIerrno\\fR.\n";
  pr "Both are thread-local.\n"

(* ---- one page per table call ---- *)

let all_states = [ Created; Connecting; Negotiating; Connected; Closed; Dead ]

(* The errors lib/api.c checks before calling the work function; see
   C.pr_state_check and C.pr_arg_checks. *)
let pr_checked_errors c =
  let pointers = List.concat_map (function
    | BytesIn (b, _) | BytesOut (b, _) | BytesPersistIn (b, _)
    | BytesPersistOut (b, _) | Path b | String b | StringList b
    | SockAddrAndLen (b, _) -> [ b ]
    | Closure cl -> [ C.closure_param cl ^ ".callback" ]
    | _ -> []) c.args in
  (* Some flags (Types.unknown_flags) are refused only in strict mode. *)
  let lax f =
    match f.unknown with RefusedIfStrict _ -> true | Refused -> false in
  let values = List.concat_map (function
    | Enum (n, _) | Flags (n, _) -> [ n ]
    | _ -> []) c.args
    @ List.concat_map (function
        | OFlags (n, f, _) when not (lax f) -> [ n ]
        | _ -> []) c.optargs in
  let lax_flags = List.concat_map (function
    | OFlags (n, f, _) when lax f -> [ n ]
    | _ -> []) c.optargs in
  (* How many bits fit under the bound: 16 for 0xffff. *)
  let lax_bits = List.fold_left (fun acc -> function
    | OFlags (_, { unknown = RefusedIfStrict max; _ }, _) ->
       let rec bits n = if n = 0 then 0 else 1 + bits (n lsr 1) in
       bits max
    | _ -> acc) 0 c.optargs in
  let forbidden =
    if c.permitted_states = [] then []
    else List.filter (fun s -> not (List.mem s c.permitted_states))
           all_states in
  let notconn, wrong_state =
    if List.mem Connected c.permitted_states then
      List.partition (fun s -> List.mem s [ Created; Dead; Closed ]) forbidden
    else [], forbidden in
  let code_list l =
    String.concat ", " (List.map (sprintf "\\fI\\%%%s\\fR") l) in
  if pointers <> [] || values <> [] || lax_flags <> [] || forbidden <> []
  then (
    pr ".PP\n";
    pr "These errors are detected before the call does anything:\n";
    if pointers <> [] then (
      pr ".TP\n.B EFAULT\n";
      pr "%s %s \\fBNULL\\fR.\n" (code_list pointers)
        (if List.length pointers = 1 then "is" else "is or are")
    );
    if values <> [] then (
      pr ".TP\n.B EINVAL\n";
      pr "%s %s a value the call does not accept.\n" (code_list values)
        (if List.length values = 1 then "has" else "has or have")
    );
    if lax_flags <> [] then (
      pr ".TP\n.B EINVAL\n";
      pr "%s holds a flag this call does not accept, unless\n"
        (code_list lax_flags);
      pr "\\fBnbd_set_strict_mode\\fR(3) cleared \\fBLIBNBD_STRICT_FLAGS\\fR\n";
      pr "(bits above the %d of the protocol are always refused).\n" lax_bits
    );
    if wrong_state <> [] then (
      pr ".TP\n.B EINVAL\n";
      pr "The handle is %s.\n" (C.describe_states wrong_state)
    );
    if notconn <> [] then (
      pr ".TP\n.B ENOTCONN\n";
      pr "The handle is %s.\n" (C.describe_states notconn)
    )
  )

let return_value c =
  let fails = c.may_set_error in
  let on_error = if fails then match C.c_err_value c.ret with
    | Some v -> sprintf ", or C<%s> on error" v
    | None -> ""
    else "" in
  match c.ret with
  | RErr -> "This call returns 0 on success" ^ on_error ^ "."
  | RBool ->
     "This call returns a boolean: 1 for true, 0 for false" ^ on_error ^ "."
  | RFd -> "This call returns a file descriptor" ^ on_error ^ "."
  | RInt -> "This call returns a non-negative integer" ^ on_error ^ "."
  | RInt64 ->
     "This call returns a non-negative 64-bit integer" ^ on_error ^ "."
  | RSizeT -> "This call returns a non-negative size" ^ on_error ^ "."
  | RCookie ->
     "This call returns the 64-bit cookie of the command (always at least
1)" ^ on_error ^ ".  The cookie identifies the command to
L<nbd_aio_command_completed(3)> and L<nbd_aio_peek_command_completed(3)>."
  | RString ->
     "This call returns a newly allocated string which the caller must
free with L<free(3)>" ^ on_error ^ "."
  | RStaticString ->
     "This call returns a string owned by the library: the caller must
not free it" ^ on_error ^ "."
  | RUInt -> "This call returns an unsigned integer."
  | RUIntPtr -> "This call returns a C<uintptr_t> value."
  | RUInt64 -> "This call returns a 64-bit unsigned integer."
  | REnum e ->
     sprintf "This call returns one of these values%s:\n\n%s" on_error
       (String.concat "\n"
          (List.map (fun (n, v) ->
             sprintf " LIBNBD_%s_%s = %d" e.enum_prefix n v) e.enums))
  | RFlags f ->
     sprintf "This call returns a bitmask of these flags:\n\n%s"
       (String.concat "\n"
          (List.map (fun (n, v) ->
             sprintf " LIBNBD_%s_%s = 0x%02x" f.flag_prefix n v) f.flags))

let generate_man_page name c =
  let where = "nbd_" ^ name in
  pr_header name c.shortdesc;
  pr_synopsis (fun () ->
    C.pr_prototype ~semi:true (C.c_ret_type c.ret) ("nbd_" ^ name)
      (C.all_params c));

  pr ".SH DESCRIPTION\n";
  Pod.pr_pod where c.longdesc;
  (* Say how lib/api.c treats read buffers, unless the text does. *)
  let mentions sub = index_from c.longdesc 0 sub <> None in
  if not (mentions "pread_initialize") then
  List.iter (function
    | BytesOut (b, _) | BytesPersistOut (b, _) ->
       Pod.pr_pod where (sprintf "\
Unless L<nbd_set_pread_initialize(3)> turned it off, C<%s> is zeroed
before anything else happens, so it never holds stale data, even if
the call fails." b)
    | _ -> ()) c.args;
  let closures = C.closures_of c in
  if closures <> [] then
    Pod.pr_pod where (sprintf "\
The C<free> function of %s, if set, is called exactly once, after
the last call of the callback, even if this call fails.  Callbacks
run with the handle locked and must not call libnbd on the same
handle.  See L<libnbd(3)/CALLBACKS>."
      (String.concat " and "
         (List.map (fun cl -> sprintf "C<%s>" (C.closure_param cl))
            closures)));

  pr ".SH RETURN VALUE\n";
  Pod.pr_pod where (return_value c);
  if not c.may_set_error then Pod.pr_pod where "This call does not fail.";

  if c.may_set_error then (
    (match C.c_err_value c.ret with
     | Some v -> pr_errors_intro v
     | None -> failwithf "nbd_%s: may fail but has no error value" name);
    pr_checked_errors c
  );

  if c.permitted_states <> [] then (
    pr ".SH HANDLE STATE\n";
    pr "The handle must be %s, otherwise this call fails.\n"
      (C.describe_states c.permitted_states)
  );

  pr_version name c.first_version;
  pr_see_also name c.see_also

let generate_handwritten_page h =
  let where = "nbd_" ^ h.hw_name in
  pr_header h.hw_name h.hw_shortdesc;
  pr_synopsis (fun () -> pr "%s;\n" (C.hw_prototype h));
  pr ".SH DESCRIPTION\n";
  Pod.pr_pod where h.hw_longdesc;
  pr ".SH RETURN VALUE\n";
  Pod.pr_pod where h.hw_retdesc;
  (match h.hw_ret with
   | HWNewHandle -> pr_errors_intro "NULL"
   | HWNothing | HWStaticString | HWInt -> ());
  pr_version h.hw_name h.hw_first_version;
  pr_see_also h.hw_name h.hw_see_also

(* ---- libnbd(3) ---- *)

let overview = "\
libnbd is a client library for the Network Block Device (NBD)
protocol.  It connects to NBD servers such as L<nbdkit(1)>,
L<qemu-nbd(8)> or L<nbd-server(1)> and reads, writes, trims, zeroes
and queries their exports, either with simple blocking calls or
asynchronously from an event loop.

Link with C<-lnbd>, or use C<pkg-config libnbd>."

let sections = [
  "HANDLES", "\
All work happens through a handle, a C<struct nbd_handle *>, created by
L<nbd_create(3)> and freed by L<nbd_close(3)>:

 struct nbd_handle *h = nbd_create ();
 if (h == NULL) goto error;
 if (nbd_connect_uri (h, \"nbd://localhost/\") == -1) goto error;
 if (nbd_pread (h, buf, sizeof buf, 0, 0) == -1) goto error;
 nbd_close (h);

A new handle holds settings only.  Connecting (the C<nbd_connect_*>
calls, or C<nbd_aio_connect_*> followed by polling) performs the
handshake; the handle then accepts commands until it is shut down
(L<nbd_shutdown(3)>) or dies (a protocol or connection error).  Each
call page lists the states its handle must be in, and
L<nbd_connection_state(3)> and the C<nbd_aio_is_*> calls report the
current state.

A handle may be used from several threads: each call takes the
handle's lock.  Unlike libnbd 1.22, a thread waiting for the reply to
its synchronous command (L<nbd_pread(3)>, L<nbd_pwrite(3)>, ...) or
inside L<nbd_poll(3)> waits with the lock released, so N threads
making synchronous calls on one handle have up to N requests in flight
together, sent in batches as asynchronous ones are; a command issued
meanwhile leaves at once, and a thread in L<nbd_poll(3)> is woken to
see it.  A synchronous call with a callback
(L<nbd_pread_structured(3)>, L<nbd_block_status(3)>, ...) still runs
its callbacks in its own thread, before it returns: while it waits, no
other thread polls the handle.  As in 1.22, another thread sees nothing
of a synchronous call under way: L<nbd_aio_in_flight(3)> does not count
its command, L<nbd_aio_peek_command_completed(3)> never returns it, and
L<nbd_aio_command_completed(3)> treats its cookie as unknown; and
L<nbd_aio_disconnect(3)> or L<nbd_shutdown(3)> from another thread
waits until such calls have their replies before sending the
disconnect, refusing new commands meanwhile.  Negotiation waits with
the lock held.
No thread is created and no descriptor but the handle's socket is
polled by the program's own event loop.";

  "ERRORS", "\
A failing call returns C<-1> (or C<NULL> for calls returning a
pointer).  Then L<nbd_get_error(3)> returns a message naming the call,
and L<nbd_get_errno(3)> the matching C<errno> value.  Both are
thread-local: another thread's failures do not change them.

 if (nbd_pread (h, buf, sizeof buf, 0, 0) == -1) {
   fprintf (stderr, \"%s\\n\", nbd_get_error ());
   exit (EXIT_FAILURE);
 }";

  "CALLBACKS", "\
Callbacks are passed by value, as a struct of three fields: the
C<callback> function, an opaque C<user_data> pointer passed to it,
and an optional C<free> function.

 nbd_debug_callback cb = { .callback = my_debug, .user_data = data,
                           .free = my_free };

Callbacks run with the handle locked, so they must not call libnbd on
the same handle.  Here such a call fails at once with C<EDEADLK>,
where libnbd waits for ever; the getters that cannot fail, such as
L<nbd_get_debug(3)>, answer, and L<nbd_close(3)> leaves the handle
open.

The C<free> function, if set, is called with C<user_data> exactly
once, after the last possible call of C<callback>, even when the API
call that received the struct fails.  This is the place to release
C<user_data>.";

  "Completion callbacks", "\
Asynchronous commands (C<nbd_aio_*>) return a cookie and take an
optional completion callback, called once when the command has
finished, with C<*error> set to its errno (0 on success).  If the
callback returns 1 the command is retired at once; otherwise retire
it with L<nbd_aio_command_completed(3)>.  Pass
C<NBD_NULL_COMPLETION> for no callback.";

  "READ BUFFERS", "\
Calls that read into a caller's buffer first zero it, so the buffer
never exposes stale data even when the call fails.  Programs that
always check for errors can turn this off with
L<nbd_set_pread_initialize(3)>.";

  "ENVIRONMENT", "\
=over 4

=item C<LIBNBD_DEBUG=1>

Enable debugging on every new handle (see L<nbd_set_debug(3)>).
Messages go to stderr, or to the callback installed with
L<nbd_set_debug_callback(3)>.

=back";

  "ENCRYPTION AND AUTHENTICATION", "\
TLS (through GnuTLS) encrypts the connection and authenticates the
server, and optionally the client.  It is off unless asked for:

 nbd_set_tls (h, LIBNBD_TLS_REQUIRE);

C<LIBNBD_TLS_REQUIRE> fails to connect unless TLS is set up: a server
that refuses C<NBD_OPT_STARTTLS>, answers it wrongly, or fails the
handshake never gets a request in plaintext.  C<LIBNBD_TLS_ALLOW>
tries TLS and goes on unencrypted only when the server refuses it;
L<nbd_get_tls_negotiated(3)> tells which happened.  An attacker able
to change the traffic can make that refusal happen, so prefer
C<LIBNBD_TLS_REQUIRE>.  C<nbds://> URIs require TLS.

With X.509 certificates (the default), the server's certificate is
checked against the CA in C<ca-cert.pem> of the certificates
directory, or against the system's trusted CAs, and its name against
the host connected to (or the name given to
L<nbd_set_tls_hostname(3)>).  The certificates directory is the one
given to L<nbd_set_tls_certificates(3)>, else the first of
F</etc/pki/libnbd> (for root) or F<$HOME/.pki/libnbd> and
F<$HOME/.config/pki/libnbd> (for other users); only a directory
holding C<ca-cert.pem> counts, and without one the system's CAs are
used and no client certificate.  C<client-cert.pem> and
C<client-key.pem> in that directory, if both are present, identify
the client; so do C<client-cert-0.pem> and C<client-key-0.pem>,
C<client-cert-1.pem> and C<client-key-1.pem>, and so on up to the
first number missing either file.  GnuTLS sends the server the one
certificate its request fits (the CAs it accepts, the signature
algorithms it takes), so one directory can hold, say, an RSA and an
ECDSA certificate, or a post-quantum and a classical one.  A key that
does not match its certificate fails the connection.
C<ca-crl.pem>, if present, lists revoked certificates.
L<nbd_set_tls_verify_peer(3)> turns the server check off.

The key exchange groups are those of the TLS priorities in use, as
GnuTLS and the system's configuration give them: where GnuTLS offers a
hybrid post-quantum group such as C<X25519-MLKEM768> (a GnuTLS 3.8
recent enough and built with liboqs or leancrypto), a server that
prefers it gets it.  C<LIBNBD_DEBUG=1> tells after each handshake which group was used
and which post-quantum groups this GnuTLS knows.

With pre-shared keys, L<nbd_set_tls_psk_file(3)> names a file of
C<username:hexkey> lines such as L<psktool(1)> writes:

 psktool -u alice -p keys.psk

and L<nbd_set_tls_username(3)> picks the line (the default is the
login name).

Kernel TLS is used when GnuTLS is configured to enable it and the
kernel supports it, on TCP connections; C<LIBNBD_DEBUG=1> shows after
the handshake whether it engaged.";
]

let generate_libnbd_3 () =
  pr_title "libnbd(3): the overview page" "LIBNBD";
  pr ".SH NAME\nlibnbd \\- NBD client library in userspace\n";
  pr ".SH SYNOPSIS\n.nf\n.ft B\n#include <libnbd.h>\n.ft R\n.fi\n";
  pr ".PP\n.nf\ncc prog.c \\-lnbd\n.fi\n";
  pr ".SH DESCRIPTION\n";
  Pod.pr_pod "libnbd(3)" overview;
  List.iter (fun (title, text) ->
    if String.uppercase_ascii title = title then pr ".SH %s\n" title
    else pr ".SS \"%s\"\n" title;
    Pod.pr_pod "libnbd(3)" text
  ) sections;
  pr ".SH CALLS\n";
  let short =
    List.map (fun h -> h.hw_name, h.hw_shortdesc) API.handwritten_calls
    @ List.map (fun (n, c) -> n, c.shortdesc) API.handle_calls in
  List.iter (fun (n, s) ->
    pr ".TP\n\\fB\\%%nbd_%s\\fR(3)\n%s\n" n (Pod.protect_line (Pod.escape s))
  ) (List.sort compare short);
  pr ".SH SEE ALSO\n.ad l\n";
  pr "\\fBnbd_create\\fR(3),\n\\fBnbdkit\\fR(1),\n\\fBqemu\\-nbd\\fR(8)\n"

(* ---- docs/man-pages.mk ---- *)

let page_files =
  "libnbd.3" :: "libnbd-ocaml.3" :: "libnbd-python.3" :: "libnbd-rust.3"
  :: List.map (fun n -> sprintf "nbd_%s.3" n) (List.sort compare all_names)

let generate_man_pages_mk () =
  generated_header ~comment:"#" "docs/man-pages.mk: the list of man pages";
  pr "man_pages =";
  List.iter (pr " \\\n\t%s") page_files;
  pr "\n"

(* Write every page and the list with [out]. *)
let generate_man_pages out =
  List.iter (fun (name, c) ->
    out (sprintf "docs/nbd_%s.3" name) (fun () -> generate_man_page name c)
  ) API.handle_calls;
  List.iter (fun h ->
    out (sprintf "docs/nbd_%s.3" h.hw_name)
      (fun () -> generate_handwritten_page h)
  ) API.handwritten_calls;
  out "docs/libnbd.3" generate_libnbd_3;
  out "docs/man-pages.mk" generate_man_pages_mk
