(* The API table: every generated public call, with its enums, flags
   and closures.  Everything in include/libnbd.h, lib/api.c,
   lib/unlocked.h, lib/libnbd.syms and the man pages comes from here. *)

open Types

(* Closures. *)
let chunk_closure = {
  cbname = "chunk";
  cbargs = [ CBBytesIn ("subbuf", "count"); CBUInt64 "offset";
             CBUInt "status"; CBMutable "error" ]
}
let completion_closure = {
  cbname = "completion"; cbargs = [ CBMutable "error" ]
}
let debug_closure = {
  cbname = "debug"; cbargs = [ CBString "context"; CBString "msg" ]
}
let extent_closure = {
  cbname = "extent";
  cbargs = [ CBString "metacontext"; CBUInt64 "offset";
             CBArrayAndLen (ElemUInt32, "entries", "nr_entries");
             CBMutable "error" ]
}
let extent64_closure = {
  cbname = "extent64";
  cbargs = [ CBString "metacontext"; CBUInt64 "offset";
             CBArrayAndLen (ElemExtent64, "entries", "nr_entries");
             CBMutable "error" ]
}
let list_closure = {
  cbname = "list"; cbargs = [ CBString "name"; CBString "description" ]
}
let context_closure = { cbname = "context"; cbargs = [ CBString "name" ] }
let all_closures = [ chunk_closure; completion_closure; debug_closure;
                     extent_closure; extent64_closure; list_closure;
                     context_closure ]

(* Enums. *)
let tls_enum = {
  enum_prefix = "TLS";
  enums = [ "DISABLE", 0; "ALLOW", 1; "REQUIRE", 2 ]
}
let block_size_enum = {
  enum_prefix = "SIZE";
  enums = [ "MINIMUM", 0; "PREFERRED", 1; "MAXIMUM", 2; "PAYLOAD", 3 ]
}
let all_enums = [ tls_enum; block_size_enum ]

(* Flags. *)
let cmd_flags = {
  flag_prefix = "CMD_FLAG";
  flags = [ "FUA", 0x01; "NO_HOLE", 0x02; "DF", 0x04; "REQ_ONE", 0x08;
            "FAST_ZERO", 0x10; "PAYLOAD_LEN", 0x20 ];
  unknown = RefusedIfStrict 0xffff
}
let handshake_flags = {
  flag_prefix = "HANDSHAKE_FLAG";
  flags = [ "FIXED_NEWSTYLE", 0x01; "NO_ZEROES", 0x02 ];
  unknown = Refused
}
let strict_flags = {
  flag_prefix = "STRICT";
  flags = [ "COMMANDS", 0x01; "FLAGS", 0x02; "BOUNDS", 0x04;
            "ZERO_SIZE", 0x08; "ALIGN", 0x10; "PAYLOAD", 0x20;
            "AUTO_FLAG", 0x40 ];
  unknown = Refused
}
let allow_transport_flags = {
  flag_prefix = "ALLOW_TRANSPORT";
  flags = [ "TCP", 0x01; "UNIX", 0x02; "VSOCK", 0x04; "SSH", 0x08 ];
  unknown = Refused
}
let shutdown_flags = {
  flag_prefix = "SHUTDOWN";
  flags = [ "ABANDON_PENDING", 0x10000 ];
  unknown = Refused
}
let all_flags = [ cmd_flags; handshake_flags; strict_flags;
                  allow_transport_flags; shutdown_flags ]

(* Plain constants: name (after LIBNBD_), value. *)
let constants = [
  "AIO_DIRECTION_READ", 1;
  "AIO_DIRECTION_WRITE", 2;
  "AIO_DIRECTION_BOTH", 3;
  "READ_DATA", 1;
  "READ_HOLE", 2;
  "READ_ERROR", 3;
]

(* Meta context namespaces: namespace, its contexts, and the flag bits
   their block status entries carry. *)
let metadata_namespaces = [
  "base", [ "allocation", [ "STATE_HOLE", 1; "STATE_ZERO", 2 ] ];
  "qemu", [ "dirty-bitmap:", [ "STATE_DIRTY", 1 ];
            "allocation-depth", [] ];
]

(* The calls written by hand in lib/ (see Types.handwritten), in the
   order include/libnbd.h declares them: nbd_create's attribute names
   nbd_close. *)
let handwritten_calls = [
  { hw_name = "close";
    hw_arg = HWHandleOrNull; hw_ret = HWNothing;
    hw_shortdesc = "close a libnbd handle";
    hw_longdesc = "\
Close the connection to the server, if any, and free the handle and
everything it holds.  Commands that were not retired yet are
abandoned: the completion callback of each one still pending is called
with an error (C<ENOTCONN> unless the command had failed already),
then the C<free> functions of their callbacks, and of any other
callback the handle still holds, are called.  A subprocess started by
L<nbd_connect_command(3)> or
L<nbd_connect_systemd_socket_activation(3)> is waited for.

C<h> may be C<NULL>, in which case nothing happens.  The handle must
not be used again, and no other thread may be using it during the
call.";
    hw_retdesc = "This call returns nothing.";
    hw_first_version = (1, 0);
    hw_see_also = [ "create"; "shutdown" ] };

  { hw_name = "create";
    hw_arg = HWVoid; hw_ret = HWNewHandle;
    hw_shortdesc = "create a libnbd handle";
    hw_longdesc = "\
Create a new handle.  A handle holds the settings of one connection to
one NBD server and the state of that connection.  It starts
unconnected: change its settings with the C<nbd_set_*> calls, then
connect with one of the C<nbd_connect_*> or C<nbd_aio_connect_*>
calls.

If C<LIBNBD_DEBUG=1> is set in the environment, debugging is enabled
on the new handle (see L<nbd_set_debug(3)>).

Close the handle with L<nbd_close(3)> when it is no longer needed.";
    hw_retdesc = "\
Returns a new handle, or C<NULL> on error (only when memory runs
out).";
    hw_first_version = (1, 0);
    hw_see_also = [ "close"; "set_debug"; "set_handle_name"; "get_error" ] };

  { hw_name = "get_error";
    hw_arg = HWVoid; hw_ret = HWStaticString;
    hw_shortdesc = "return the text of the last error in this thread";
    hw_longdesc = "\
Return the message of the last error that a libnbd call reported in
the calling thread, prefixed with the name of the call that failed,
as in C<nbd_pread: ...>.  Errors are thread-local, so a failure in
one thread does not change what another thread sees.

Only look at the message right after a call has returned its error
value: calls that succeed do not always clear it.";
    hw_retdesc = "\
Returns the message, or C<NULL> if no error has been reported in this
thread.  The string belongs to the library: do not free it.  It stays
valid until the next libnbd call in the same thread.";
    hw_first_version = (1, 0);
    hw_see_also = [ "get_errno"; "create" ] };

  { hw_name = "get_errno";
    hw_arg = HWVoid; hw_ret = HWInt;
    hw_shortdesc = "return the errno of the last error in this thread";
    hw_longdesc = "\
Return the C<errno> value that goes with the last error reported by a
libnbd call in the calling thread, for example C<ENOTCONN> when a
call needs a connected handle.  Like the message from
L<nbd_get_error(3)>, it is thread-local and only meaningful right
after a call has returned its error value.";
    hw_retdesc = "\
Returns the error number, or 0 if none is known.  This call does not
fail.";
    hw_first_version = (1, 0);
    hw_see_also = [ "get_error"; "create" ] };
]

let handwritten_names = List.map (fun h -> h.hw_name) handwritten_calls

(* The calls with a generated wrapper in lib/api.c. *)
let handle_calls = [
  "set_debug", {
    default_call with
    args = [ Bool "debug" ]; ret = RErr;
    shortdesc = "set or clear the debug flag";
    longdesc = "\
Set or clear the debug flag.  When debugging is enabled,
debugging messages from the library are printed to stderr,
unless a debugging callback has been defined too
(see L<nbd_set_debug_callback(3)>) in which case they are
sent to that function.  This flag defaults to false on
newly created handles, except if C<LIBNBD_DEBUG=1> is
set in the environment in which case it defaults to true.";
    see_also = [ "set_handle_name"; "set_debug_callback" ];
    first_version = (1, 0);
  };

  "get_debug", {
    default_call with
    args = []; ret = RBool;
    may_set_error = false;
    shortdesc = "return the state of the debug flag";
    longdesc = "\
Report whether debugging is currently enabled on this handle: true
if debug messages are being produced (either printed on stderr or
passed to the callback installed with L<nbd_set_debug_callback(3)>),
false otherwise.

The flag is changed with L<nbd_set_debug(3)>; its initial value
depends on whether C<LIBNBD_DEBUG=1> was present in the environment
when the handle was created.";
    see_also = [ "set_debug"; "set_debug_callback" ];
    first_version = (1, 0);
  };

  "set_debug_callback", {
    default_call with
    args = [ Closure debug_closure ]; ret = RErr;
    shortdesc = "set the debug callback";
    longdesc = "\
Install a function that receives the debug messages of this handle
instead of having them written to stderr.  Messages are only
generated while the debug flag is on (see L<nbd_set_debug(3)>).

Each time a message is emitted the callback is invoked with the
C<user_data> given here, C<context> (the name of the libnbd API that
produced the message) and C<msg> (the text of the message).
Installing a new callback replaces, and frees, any previous one.

The callback runs while the handle lock is held, so it must not call
any C<nbd_*> function on the same handle: libnbd deadlocks there,
and here the call fails with C<EDEADLK> (see L<libnbd(3)/CALLBACKS>).";
    see_also = [ "clear_debug_callback"; "set_debug"; "get_debug" ];
    first_version = (1, 0);
  };

  "clear_debug_callback", {
    default_call with
    args = []; ret = RErr;
    shortdesc = "clear the debug callback";
    longdesc = "\
Forget the debug callback previously installed with
L<nbd_set_debug_callback(3)>, calling its C<free> function if it has
one.  Afterwards, debug messages (when enabled) go to stderr again.

It is not an error to call this when no callback is installed; in
that case nothing happens.";
    see_also = [ "set_debug_callback"; "set_debug" ];
    first_version = (1, 0);
  };

  "stats_bytes_sent", {
    default_call with
    args = []; ret = RUInt64;
    is_locked = false; may_set_error = false;
    shortdesc = "statistics of bytes sent over connection so far";
    longdesc = "\
Return how many bytes of NBD protocol traffic this handle has sent
to the server so far, counting option requests during the handshake
as well as command headers and write payloads.

The figure counts the protocol bytes before any encryption, so when
TLS is in use it may differ from what actually crossed the network.
A newly created handle reports 0.";
    see_also = [ "stats_chunks_sent"; "stats_bytes_received";
                 "stats_chunks_received" ];
    first_version = (1, 16);
  };

  "stats_chunks_sent", {
    default_call with
    args = []; ret = RUInt64;
    is_locked = false; may_set_error = false;
    shortdesc = "statistics of chunks sent over connection so far";
    longdesc = "\
Return how many protocol chunks this handle has sent to the server.
A chunk is one self-contained protocol unit starting with a magic
number, such as an option request or a command request (together
with its payload, if any).

This count is not the same as the number of API calls made (one call
may send several chunks, or none) nor the number of network packets.";
    see_also = [ "stats_bytes_sent"; "stats_bytes_received";
                 "stats_chunks_received"; "set_strict_mode" ];
    first_version = (1, 16);
  };

  "stats_bytes_received", {
    default_call with
    args = []; ret = RUInt64;
    is_locked = false; may_set_error = false;
    shortdesc = "statistics of bytes received over connection so far";
    longdesc = "\
Return how many bytes of NBD protocol traffic this handle has read
from the server so far, including handshake replies, reply headers
and read payloads.

The figure counts the protocol bytes after any decryption, so when
TLS is in use it may differ from what actually crossed the network.
A newly created handle reports 0.";
    see_also = [ "stats_chunks_received"; "stats_bytes_sent";
                 "stats_chunks_sent" ];
    first_version = (1, 16);
  };

  "stats_chunks_received", {
    default_call with
    args = []; ret = RUInt64;
    is_locked = false; may_set_error = false;
    shortdesc = "statistics of chunks received over connection so far";
    longdesc = "\
Return how many protocol chunks this handle has received from the
server.  A chunk is one self-contained protocol unit starting with a
magic number: an option reply, a simple reply, or one piece of a
structured reply.

When structured replies are in use a single command may be answered
by many chunks, so this count is not the number of commands, nor the
number of network packets.";
    see_also = [ "stats_bytes_received"; "stats_bytes_sent";
                 "stats_chunks_sent"; "get_structured_replies_negotiated" ];
    first_version = (1, 16);
  };

  "set_handle_name", {
    default_call with
    args = [ String "handle_name" ]; ret = RErr;
    shortdesc = "set the handle name";
    longdesc = "\
Give this handle a name.  The name appears in debug messages, which
helps to tell handles apart when a program uses several of them.

Every handle already receives an automatic name when it is created,
of the form C<\"nbd1\">, C<\"nbd2\"> and so on; this call replaces it
with a name that means something to your application.  The string is
copied, so the caller may free it afterwards.";
    see_also = [ "get_handle_name"; "set_debug" ];
    first_version = (1, 0);
  };

  "get_handle_name", {
    default_call with
    args = []; ret = RString;
    shortdesc = "get the handle name";
    longdesc = "\
Return a copy of the name of this handle: either the name given with
L<nbd_set_handle_name(3)>, or the automatic name (such as
C<\"nbd1\">) assigned when the handle was created.

The caller must free the returned string.";
    see_also = [ "set_handle_name" ];
    first_version = (1, 0);
  };

  "set_private_data", {
    default_call with
    args = [ UIntPtr "private_data" ]; ret = RUIntPtr;
    is_locked = false; may_set_error = false;
    shortdesc = "set the per-handle private data";
    longdesc = "\
Every handle carries one field reserved for the application, which
libnbd itself never interprets.  This call stores C<private_data>
there and returns the value the field held before (0 if it had never
been set).

In C the field has type C<uintptr_t>, wide enough for either an
integer or a pointer.  Other language bindings may restrict it to an
unsigned integer.";
    see_also = [ "get_private_data" ];
    first_version = (1, 8);
  };

  "get_private_data", {
    default_call with
    args = []; ret = RUIntPtr;
    is_locked = false; may_set_error = false;
    shortdesc = "get the per-handle private data";
    longdesc = "\
Return the application value last stored in this handle with
L<nbd_set_private_data(3)>, or 0 if nothing was ever stored.

The field is never used by libnbd itself, and reading it does not
take the handle lock.";
    see_also = [ "set_private_data" ];
    first_version = (1, 8);
  };

  "get_handle_size", {
    default_call with
    args = []; ret = RSizeT;
    shortdesc = "return an estimate of the memory allocated for the handle";
    longdesc = "\
Return an estimate, in bytes, of the memory the handle holds: the
handle itself, its buffers, the strings of its settings and what the
server told it, and the commands queued or in flight with their
buffers owned by the library.  Buffers the caller passed in are not
counted.

The figure is a hint for language bindings with a garbage collector,
which can weigh a handle by it when deciding what to free; it changes
as the handle is used.";
    see_also = [ "create" ];
    first_version = (1, 24);
  };

  "set_export_name", {
    default_call with
    args = [ String "export_name" ]; ret = RErr;
    permitted_states = [ Created; Negotiating ];
    shortdesc = "set the export name";
    longdesc = "\
Choose which export of the server to use.  Servers that offer several
exports, or that insist on a name, select the content by this string.
The default is the empty string C<\"\">, which asks for the server's
default export.

Names only exist in the newstyle protocol; oldstyle servers ignore
them.  The NBD protocol caps names at 4096 bytes (a server may accept
less) and they are always encoded in UTF-8.

Outside option mode the name must be set before connecting.  With
L<nbd_set_opt_mode(3)> it may also be changed during negotiation,
before L<nbd_opt_info(3)> or L<nbd_opt_go(3)>, for instance after
discovering names with L<nbd_opt_list(3)>.  A URI passed to
L<nbd_connect_uri(3)> sets the export name too.";
    see_also = [ "get_export_name"; "connect_uri"; "set_opt_mode";
                 "opt_go"; "opt_list"; "opt_info";
                 "get_canonical_export_name" ];
    first_version = (1, 0);
  };

  "get_export_name", {
    default_call with
    args = []; ret = RString;
    shortdesc = "get the export name";
    longdesc = "\
Return a copy of the export name this handle asks the server for, as
set by L<nbd_set_export_name(3)> or parsed from a URI.  The caller
must free the string.

This is the name requested by the client.  The server may know the
export under a different, canonical name (typically when the default
export C<\"\"> was requested); see
L<nbd_get_canonical_export_name(3)>.";
    see_also = [ "set_export_name"; "connect_uri";
                 "get_canonical_export_name" ];
    first_version = (1, 0);
  };

  "set_request_block_size", {
    default_call with
    args = [ Bool "request" ]; ret = RErr;
    permitted_states = [ Created; Negotiating ];
    shortdesc = "control whether NBD_OPT_GO requests block size";
    longdesc = "\
Decide whether libnbd tells the server, when selecting an export with
C<NBD_OPT_GO> or C<NBD_OPT_INFO>, that it wants to hear about block
size constraints.  The default is true.

A server is allowed to report block sizes even when they were not
requested, and libnbd then makes them available through
L<nbd_get_block_size(3)>.  On the other hand a server may refuse a
client that did not ask, since such a client might send unaligned
requests.  Setting this to false imitates older clients, which is
mainly useful for testing servers.

Whatever sizes the server reports, libnbd checks the alignment of
requests against them unless that check is turned off with
L<nbd_set_strict_mode(3)>.";
    see_also = [ "get_request_block_size"; "set_full_info";
                 "get_block_size"; "set_strict_mode" ];
    first_version = (1, 12);
  };

  "get_request_block_size", {
    default_call with
    args = []; ret = RBool;
    shortdesc = "see if NBD_OPT_GO requests block size";
    longdesc = "\
Report whether this handle asks the server for block size constraints
during export selection, as controlled by
L<nbd_set_request_block_size(3)>.";
    see_also = [ "set_request_block_size"; "get_block_size" ];
    first_version = (1, 12);
  };

  "set_full_info", {
    default_call with
    args = [ Bool "request" ]; ret = RErr;
    permitted_states = [ Created; Negotiating ];
    shortdesc = "control whether NBD_OPT_GO requests extra details";
    longdesc = "\
Decide whether libnbd asks the server for optional details about the
export while selecting it.  By default (false) only the information
needed to perform I/O is requested.

With this set to true, libnbd also requests the export's canonical
name (see L<nbd_get_canonical_export_name(3)>) and its description
(see L<nbd_get_export_description(3)>).  A request is only a hint: the
server may still leave out any of these items, and libnbd ignores
items it does not understand.

Requesting block size constraints is a separate setting, see
L<nbd_set_request_block_size(3)>.";
    see_also = [ "get_full_info"; "get_canonical_export_name";
                 "get_export_description"; "set_request_block_size" ];
    first_version = (1, 4);
  };

  "get_full_info", {
    default_call with
    args = []; ret = RBool;
    shortdesc = "see if NBD_OPT_GO requests extra details";
    longdesc = "\
Report whether this handle asks the server for optional export
details (canonical name, description) when selecting an export, as
controlled by L<nbd_set_full_info(3)>.";
    see_also = [ "set_full_info" ];
    first_version = (1, 4);
  };

  "get_canonical_export_name", {
    default_call with
    args = []; ret = RString;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "return the canonical export name, if the server has one";
    longdesc = "\
Return a copy of the export name as reported by the server.  The NBD
protocol lets a server tell the client the canonical name of the
export it selected, which can differ from the requested name
(see L<nbd_set_export_name(3)>), especially when the default export
C<\"\"> was requested.

Many servers only send this item when the client asked for it with
L<nbd_set_full_info(3)>.  If the server sent nothing, the call fails.
The caller must free the returned string.";
    see_also = [ "set_full_info"; "get_export_name"; "opt_info" ];
    first_version = (1, 4);
  };

  "get_export_description", {
    default_call with
    args = []; ret = RString;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "return the export description, if the server has one";
    longdesc = "\
Return a copy of the human readable description of the export, if the
server supplied one.  The caller must free the returned string.  If
the server did not send a description the call fails.

Servers seldom send the description unless the client hinted that it
wants it, with L<nbd_set_full_info(3)>.  With L<qemu-nbd(8)> the
description is set using its I<-D> option.";
    see_also = [ "set_full_info"; "opt_info"; "opt_list" ];
    first_version = (1, 4);
  };

  "set_tls", {
    default_call with
    args = [ Enum ("tls", tls_enum) ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "enable or require TLS (authentication and encryption)";
    longdesc = "\
Select whether the connection to the server uses TLS, which both
encrypts the traffic and authenticates the peers.  C<tls> is one of:
C<LIBNBD_TLS_DISABLE> (never use TLS, the default unless a URI passed
to L<nbd_connect_uri(3)> says otherwise); C<LIBNBD_TLS_ALLOW> (try TLS
but fall back to a plain connection if the server does not offer it);
or C<LIBNBD_TLS_REQUIRE> (fail unless the connection is encrypted and
authenticated).

C<LIBNBD_TLS_ALLOW> is not secure, since an attacker may be able to
force the fallback; some servers also drop the connection when TLS
fails, so the fallback cannot happen.  Use C<LIBNBD_TLS_REQUIRE> when
encryption matters.

Depending on the authentication method you may also need
L<nbd_set_tls_certificates(3)>, L<nbd_set_tls_username(3)> or
L<nbd_set_tls_psk_file(3)>.  Values other than C<LIBNBD_TLS_DISABLE>
fail if the library was built without TLS support, which can be
tested with L<nbd_supports_tls(3)>.";
    see_also = [ "get_tls"; "get_tls_negotiated"; "supports_tls";
                 "set_tls_certificates"; "set_tls_username";
                 "set_tls_psk_file"; "set_tls_verify_peer" ];
    first_version = (1, 0);
  };

  "get_tls", {
    default_call with
    args = []; ret = REnum tls_enum;
    may_set_error = false;
    shortdesc = "get the TLS request setting";
    longdesc = "\
Return the TLS setting of this handle, one of the C<LIBNBD_TLS_*>
values, as chosen with L<nbd_set_tls(3)> or by a URI.

This is what the client asks for, not the outcome: to learn whether
a given connection really uses TLS call L<nbd_get_tls_negotiated(3)>.";
    see_also = [ "set_tls"; "get_tls_negotiated" ];
    first_version = (1, 0);
  };

  "get_tls_negotiated", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "find out if TLS was negotiated on a connection";
    longdesc = "\
Once the handshake has progressed, report whether the connection is
actually protected by TLS.

The answer is mostly interesting with C<LIBNBD_TLS_ALLOW> (see
L<nbd_set_tls(3)>), where libnbd silently falls back to a plain
connection when the server does not offer TLS.  With
C<LIBNBD_TLS_REQUIRE> a connection without TLS would already have
failed, and with C<LIBNBD_TLS_DISABLE> TLS is never attempted.";
    see_also = [ "set_tls"; "get_tls"; "opt_starttls" ];
    first_version = (1, 2);
  };

  "set_tls_certificates", {
    default_call with
    args = [ Path "dir" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the path to the TLS certificates directory";
    longdesc = "\
Name the directory holding the X.509 certificates and keys used for
TLS.  When this is not called, a built-in search is made: for root
F</etc/pki/libnbd>, for other users F<$HOME/.pki/libnbd> and then
F<$HOME/.config/pki/libnbd>; if none exists the system's trusted
certificate authorities are used.

The setting may be made even when TLS is not supported, but it only
matters if TLS is enabled with L<nbd_set_tls(3)>.";
    see_also = [ "set_tls"; "set_tls_verify_peer" ];
    first_version = (1, 0);
  };

  "set_tls_verify_peer", {
    default_call with
    args = [ Bool "verify" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set whether we verify the identity of the server";
    longdesc = "\
Decide whether libnbd checks the server's identity using its
certificate and the certificate authority.  By default the check is
made when connecting to a TCP server using TLS certificate
authentication, and skipped otherwise.

The setting may be made even when TLS is not supported, but it only
matters if TLS is enabled with L<nbd_set_tls(3)>.";
    see_also = [ "get_tls_verify_peer"; "set_tls";
                 "set_tls_certificates"; "set_tls_hostname" ];
    first_version = (1, 0);
  };

  "get_tls_verify_peer", {
    default_call with
    args = []; ret = RBool;
    may_set_error = false;
    shortdesc = "get whether we verify the identity of the server";
    longdesc = "\
Report whether the server's identity will be checked against its
certificate when TLS is used, as set by
L<nbd_set_tls_verify_peer(3)>.";
    see_also = [ "set_tls_verify_peer" ];
    first_version = (1, 0);
  };

  "set_tls_username", {
    default_call with
    args = [ String "username" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the TLS username";
    longdesc = "\
Set the user name presented to the server when authenticating with a
Pre-Shared Key over TLS.  If it is never set, the name of the local
user running the program is used.

The setting may be made even when TLS is not supported, but it only
matters if TLS is enabled with L<nbd_set_tls(3)>.";
    see_also = [ "get_tls_username"; "set_tls"; "set_tls_psk_file" ];
    first_version = (1, 0);
  };

  "get_tls_username", {
    default_call with
    args = []; ret = RString;
    shortdesc = "get the current TLS username";
    longdesc = "\
Return a copy of the user name that will be used for TLS Pre-Shared
Key authentication: the one given to L<nbd_set_tls_username(3)>, else
C<$LOGNAME> if it is set, else the login name from L<getlogin_r(3)>.
The caller must free the string.

Without a controlling terminal L<getlogin_r(3)> usually fails (with
C<ENOTTY> or C<ENXIO>), and so does this call, with that errno.";
    see_also = [ "set_tls_username" ];
    first_version = (1, 0);
  };

  "set_tls_hostname", {
    default_call with
    args = [ String "hostname" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the TLS hostname";
    longdesc = "\
Override the host name that libnbd expects to find in the server's
certificate when TLS certificate verification is enabled.  Normally
the name comes from the connection itself, for example the host
passed to L<nbd_connect_tcp(3)> or written in a URI.  Setting it is
useful when connecting through a Unix socket, a tunnel or a numeric
address, where that name is missing or does not match the
certificate.

The setting may be made even when TLS is not supported, but it only
matters if TLS is enabled with L<nbd_set_tls(3)>.";
    see_also = [ "get_tls_hostname"; "set_tls"; "set_tls_verify_peer";
                 "connect_tcp"; "connect_uri" ];
    first_version = (1, 22);
  };

  "get_tls_hostname", {
    default_call with
    args = []; ret = RString;
    shortdesc = "get the effective TLS hostname";
    longdesc = "\
Return a copy of the host name that is, or will be, compared with the
server's certificate: the value given to L<nbd_set_tls_hostname(3)>
if any, otherwise the host name learned from the connect call (an
empty string if none is known yet).  The caller must free the
returned string.";
    see_also = [ "set_tls_hostname"; "set_tls" ];
    first_version = (1, 22);
  };

  "set_tls_psk_file", {
    default_call with
    args = [ Path "filename" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the TLS Pre-Shared Keys (PSK) filename";
    longdesc = "\
Name the file holding Pre-Shared Keys, used to authenticate to the
server with a shared secret instead of certificates.  There is no
default: without this call PSK authentication is not attempted.

The setting may be made even when TLS is not supported, but it only
matters if TLS is enabled with L<nbd_set_tls(3)>.";
    see_also = [ "set_tls"; "set_tls_username" ];
    first_version = (1, 0);
  };

  "set_tls_priority", {
    default_call with
    args = [ String "priority" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the TLS priority string";
    longdesc = "\
Set the GnuTLS priority string of the TLS session: which protocol
versions, key exchanges, ciphers and MACs are offered, and in what
order (see I<Priority strings> in the GnuTLS manual,
C<https://gnutls.org/manual/html_node/Priority-Strings.html>).
The string is used exactly as given; with Pre-Shared Key
authentication (L<nbd_set_tls_psk_file(3)>) the key exchanges
C<:+ECDHE-PSK:+DHE-PSK:+PSK> are appended to it, as libnbd does.  It is
not checked here: a string GnuTLS refuses makes the connection fail
when TLS starts.

Without this call the default is used, which
L<nbd_get_tls_priority(3)> returns.  It is C<NORMAL> (or the string
given to C<./configure --with-tls-priority>), and, when it is
C<NORMAL>, where AES-GCM runs faster than ChaCha20-Poly1305 on this
machine (measured once per process, by encrypting a few kilobytes with
each), the same string with the ciphers of C<NORMAL> reordered so that
AES-GCM comes first: C<NORMAL:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:...>.
No cipher is added or removed.  If the system's default priorities
are not GnuTLS's C<NORMAL> (an administrator's or a distribution's
choice), C<NORMAL> is kept as it is.

Changing this is rarely needed, and a string from an untrusted source
is dangerous: it can weaken the encryption, and can make GnuTLS read
local configuration files.

The setting may be made even when TLS is not supported, but it only
matters if TLS is enabled with L<nbd_set_tls(3)>.";
    see_also = [ "get_tls_priority"; "set_tls";
                 "set_uri_allow_tls_priority" ];
    first_version = (1, 24);
  };

  "get_tls_priority", {
    default_call with
    args = []; ret = RString;
    shortdesc = "get the current TLS priority";
    longdesc = "\
Return a copy of the GnuTLS priority string that TLS sessions of this
handle use: the one given to L<nbd_set_tls_priority(3)> or by a URI's
C<tls-priority=> parameter, else the default described there (with
the cipher order chosen for this machine).  With Pre-Shared Key
authentication the PSK key exchanges are appended to it when the
session starts.  The caller must free the returned string.";
    see_also = [ "set_tls_priority" ];
    first_version = (1, 24);
  };

  "set_request_extended_headers", {
    default_call with
    args = [ Bool "request" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "control use of extended headers";
    longdesc = "\
Decide whether libnbd tries to negotiate extended headers with the
server during the handshake.  The default is true.  Extended headers
carry 64 bit lengths in requests and replies, and imply structured
replies, so once they are in use a separate structured reply request
is not needed.

Clearing the flag is chiefly useful for testing how servers cope
with older clients.  Whether the request succeeded can be checked
with L<nbd_get_extended_headers_negotiated(3)>.";
    see_also = [ "get_request_extended_headers";
                 "get_extended_headers_negotiated";
                 "set_request_structured_replies"; "opt_extended_headers";
                 "set_handshake_flags"; "set_strict_mode" ];
    first_version = (1, 18);
  };

  "get_request_extended_headers", {
    default_call with
    args = []; ret = RBool;
    may_set_error = false;
    shortdesc = "see if extended headers are attempted";
    longdesc = "\
Report whether this handle will ask the server for extended headers,
as set by L<nbd_set_request_extended_headers(3)>.

This is only the request; whether they were actually agreed on a
given connection is told by L<nbd_get_extended_headers_negotiated(3)>.";
    see_also = [ "set_request_extended_headers";
                 "get_extended_headers_negotiated" ];
    first_version = (1, 18);
  };

  "get_extended_headers_negotiated", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "see if extended headers are in use";
    longdesc = "\
After the handshake (or during option negotiation) report whether the
server agreed to use extended headers on this connection.  When they
are in use, structured replies are in use as well.";
    see_also = [ "set_request_extended_headers";
                 "get_request_extended_headers"; "opt_extended_headers";
                 "get_structured_replies_negotiated"; "get_protocol" ];
    first_version = (1, 18);
  };

  "set_request_structured_replies", {
    default_call with
    args = [ Bool "request" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "control use of structured replies";
    longdesc = "\
Decide whether libnbd tries to negotiate structured replies with the
server.  The default is true, because several features depend on
them: L<nbd_can_meta_context(3)> and L<nbd_can_df(3)> can only be
true once structured replies are in use.

Turning the request off is useful in integration tests, to see how a
server treats a client that does not support the extension, without
having to modify the server.";
    see_also = [ "get_request_structured_replies";
                 "get_structured_replies_negotiated";
                 "set_request_extended_headers"; "opt_structured_reply";
                 "set_handshake_flags"; "set_strict_mode";
                 "can_meta_context"; "can_df" ];
    first_version = (1, 2);
  };

  "get_request_structured_replies", {
    default_call with
    args = []; ret = RBool;
    may_set_error = false;
    shortdesc = "see if structured replies are attempted";
    longdesc = "\
Report whether this handle will ask the server for structured
replies, as set by L<nbd_set_request_structured_replies(3)>.

To find out whether structured replies were actually agreed on a
connection, use L<nbd_get_structured_replies_negotiated(3)>.";
    see_also = [ "set_request_structured_replies";
                 "get_structured_replies_negotiated" ];
    first_version = (1, 2);
  };

  "get_structured_replies_negotiated", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "see if structured replies are in use";
    longdesc = "\
After the handshake (or during option negotiation) report whether the
server agreed to send structured replies on this connection.  This is
also true when extended headers were negotiated, since they include
structured replies.";
    see_also = [ "set_request_structured_replies";
                 "get_request_structured_replies"; "opt_structured_reply";
                 "get_extended_headers_negotiated"; "get_protocol" ];
    first_version = (1, 2);
  };

  "set_request_meta_context", {
    default_call with
    args = [ Bool "request" ]; ret = RErr;
    permitted_states = [ Created; Negotiating ];
    shortdesc = "control whether connect automatically requests meta contexts";
    longdesc = "\
Decide whether libnbd automatically negotiates the meta contexts
added with L<nbd_add_meta_context(3)> while selecting an export.  The
default is true: during the connect calls, L<nbd_opt_go(3)> and
L<nbd_opt_info(3)>, an C<NBD_OPT_SET_META_CONTEXT> request is sent
when structured replies are in use and the list of contexts is not
empty.

Set it to false to take manual control in option mode: the client
then uses L<nbd_opt_set_meta_context(3)> itself, and the contexts
selected there remain in effect for the following L<nbd_opt_go(3)>.";
    see_also = [ "get_request_meta_context"; "add_meta_context";
                 "opt_set_meta_context"; "set_opt_mode"; "opt_go";
                 "opt_info"; "can_meta_context" ];
    first_version = (1, 16);
  };

  "get_request_meta_context", {
    default_call with
    args = []; ret = RBool;
    shortdesc = "see if connect automatically requests meta contexts";
    longdesc = "\
Report whether libnbd negotiates the requested meta contexts on its
own while selecting an export, as set by
L<nbd_set_request_meta_context(3)>.";
    see_also = [ "set_request_meta_context" ];
    first_version = (1, 16);
  };

  "set_handshake_flags", {
    default_call with
    args = [ Flags ("flags", handshake_flags) ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "control use of handshake flags";
    longdesc = "\
Choose which handshake flags the client is prepared to use.  By
default libnbd accepts every flag it knows and the server also
offers, because leaving one out can disable other features such as
TLS or structured replies.  Clearing bits lets a test suite check
how a server deals with clients written to older versions of the
protocol.

C<flags> is a bitmask of C<LIBNBD_HANDSHAKE_FLAG_FIXED_NEWSTYLE> (1:
the server copes with unknown options instead of dropping the
connection, without which the client cannot safely ask for any
extension) and C<LIBNBD_HANDSHAKE_FLAG_NO_ZEROES> (2: the server may
omit the zero padding after C<NBD_OPT_EXPORT_NAME>).

C<LIBNBD_HANDSHAKE_FLAG_MASK> covers all flags known to this library.
To turn off a single flag, start from L<nbd_get_handshake_flags(3)>
rather than a hard-coded value, since later versions may add flags.";
    see_also = [ "get_handshake_flags"; "set_request_structured_replies";
                 "set_strict_mode" ];
    first_version = (1, 2);
  };

  "get_handshake_flags", {
    default_call with
    args = []; ret = RFlags handshake_flags;
    may_set_error = false;
    shortdesc = "see which handshake flags are supported";
    longdesc = "\
Return the handshake flags of this handle.  Before the connection is
made (see L<nbd_aio_is_created(3)>) these are the flags the client is
willing to use if the server offers them; once the connection is
ready (see L<nbd_aio_is_ready(3)>) they are the flags that were
actually agreed.

A newer library may return bits that your program did not know of
when it was compiled.";
    see_also = [ "set_handshake_flags"; "get_protocol"; "set_strict_mode";
                 "aio_is_created"; "aio_is_ready" ];
    first_version = (1, 2);
  };

  "set_pread_initialize", {
    default_call with
    args = [ Bool "request" ]; ret = RErr;
    shortdesc = "control whether libnbd pre-initializes read buffers";
    longdesc = "\
Decide whether the read calls (such as L<nbd_pread(3)> and
L<nbd_aio_pread(3)>) clear the caller's buffer to zero before doing
anything else.  The default is true.

Clearing protects applications that ignore read errors from exposing
stale heap memory (this was the root of CVE-2022-0485, see
L<libnbd-security(3)>).  An application that never looks at the
buffer after a failed read, or initializes it itself, can set this to
false to avoid the extra cost.

As in libnbd, an asynchronous read (L<nbd_aio_pread(3)>,
L<nbd_aio_pread_structured(3)>) and any read with a chunk callback
(L<nbd_pread_structured(3)>) is cleared when the call is made; after
the call its buffer is written only by the server's data, even if the
read later fails or is dropped by L<nbd_close(3)>.  The synchronous
L<nbd_pread(3)> pays the cost only when it fails: it succeeds only when
the server sent every byte exactly once, so its buffer is not cleared
up front; if it fails, every byte that no reply filled is cleared
before the call returns.  Either way a caller sees what libnbd 1.22
leaves: zeroes wherever the server sent no data.

A program that issues many asynchronous reads and never looks at the
buffer of a failed one can set this to false to save the clearing, as
L<nbdcopy(1)> does.";
    see_also = [ "get_pread_initialize"; "set_strict_mode"; "pread";
                 "pread_structured"; "aio_pread"; "aio_pread_structured" ];
    first_version = (1, 12);
  };

  "get_pread_initialize", {
    default_call with
    args = []; ret = RBool;
    may_set_error = false;
    shortdesc = "see whether libnbd pre-initializes read buffers";
    longdesc = "\
Report whether the read calls zero the caller's buffer before they
start, as set by L<nbd_set_pread_initialize(3)>.  The default for new
handles is true.";
    see_also = [ "set_pread_initialize"; "pread"; "aio_pread" ];
    first_version = (1, 12);
  };

  "set_strict_mode", {
    default_call with
    args = [ Flags ("flags", strict_flags) ]; ret = RErr;
    shortdesc = "control how strictly to follow NBD protocol";
    longdesc = "\
Choose which protocol rules libnbd enforces on the client side.  By
default every check is on, so requests likely to provoke undefined
behaviour in the server are refused locally with no network traffic;
tests of server robustness can relax checks so that such requests are
really sent.  C<flags> is a bitmask of:

 LIBNBD_STRICT_COMMANDS  0x01  commands/flags the server did not offer
 LIBNBD_STRICT_FLAGS     0x02  flags unknown or not meant for a command
 LIBNBD_STRICT_BOUNDS    0x04  ranges beyond the end of the export
 LIBNBD_STRICT_ZERO_SIZE 0x08  requests of length 0
 LIBNBD_STRICT_ALIGN     0x10  misalignment to the minimum block size
 LIBNBD_STRICT_PAYLOAD   0x20  writes larger than LIBNBD_SIZE_PAYLOAD
 LIBNBD_STRICT_AUTO_FLAG 0x40  set LIBNBD_CMD_FLAG_PAYLOAD_LEN itself

Command flag bits beyond the 16 of the protocol are always refused.
C<LIBNBD_STRICT_MASK> covers every flag of this build.  Future flags
will probably be on by default, so to relax one check, modify the
value from L<nbd_get_strict_mode(3)> rather than a constant.";
    see_also = [ "get_strict_mode"; "set_handshake_flags";
                 "get_block_size"; "stats_bytes_sent";
                 "stats_bytes_received" ];
    first_version = (1, 6);
  };

  "get_strict_mode", {
    default_call with
    args = []; ret = RFlags strict_flags;
    may_set_error = false;
    shortdesc = "see which strictness flags are in effect";
    longdesc = "\
Return the bitmask of C<LIBNBD_STRICT_*> checks that libnbd currently
performs itself instead of leaving them to the server, as set with
L<nbd_set_strict_mode(3)>.  A newer library may return bits that were
not defined when your program was compiled.";
    see_also = [ "set_strict_mode" ];
    first_version = (1, 6);
  };

  "set_opt_mode", {
    default_call with
    args = [ Bool "enable" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "control option mode, for pausing during option negotiation";
    longdesc = "\
Turn option mode on or off (the default is off).  With option mode
on, the connect calls stop once the handshake reaches the option
negotiation phase of a newstyle server, leaving the handle in the
negotiating state (see L<nbd_aio_is_negotiating(3)>) instead of going
on to the ready state.  Oldstyle servers have no such phase, so the
setting makes no difference with them.

While negotiating, the client drives the handshake with the
C<nbd_opt_*> calls, for example to list exports or query one.  It
leaves option mode by a successful L<nbd_opt_go(3)>; if that fails the
handle returns to negotiating, so another export may be tried.
L<nbd_opt_abort(3)> ends the connection instead.

Note that TLS and structured replies or extended headers, when
requested, are negotiated before control is handed to the client.";
    see_also = [ "get_opt_mode"; "aio_is_negotiating"; "opt_go";
                 "opt_abort"; "opt_list"; "opt_info";
                 "opt_list_meta_context"; "opt_starttls";
                 "opt_structured_reply"; "opt_extended_headers";
                 "aio_connect" ];
    first_version = (1, 4);
  };

  "get_opt_mode", {
    default_call with
    args = []; ret = RBool;
    may_set_error = false;
    shortdesc = "return whether option mode was enabled";
    longdesc = "\
Report whether option mode has been turned on for this handle with
L<nbd_set_opt_mode(3)>, in which case the connect calls stop at the
option negotiation phase.";
    see_also = [ "set_opt_mode" ];
    first_version = (1, 4);
  };

  "opt_go", {
    default_call with
    args = []; ret = RErr;
    permitted_states = [ Negotiating ];
    shortdesc = "end negotiation and move on to using an export";
    longdesc = "\
Ask the server to conclude option negotiation and start serving the
export named by L<nbd_set_export_name(3)> (or by the URI given to
L<nbd_connect_uri(3)>).  It is only available in option mode (see
L<nbd_set_opt_mode(3)>).  When the call succeeds the handle is ready
for I/O.

If the server refuses, the call fails and the handle normally stays
in the negotiating state, so another export name may be tried; some
older servers close the connection instead.

Unless L<nbd_set_request_meta_context(3)> was set to false, the
contexts added with L<nbd_add_meta_context(3)> are negotiated first.";
    see_also = [ "set_opt_mode"; "aio_opt_go"; "opt_abort";
                 "set_export_name"; "connect_uri"; "opt_info";
                 "set_request_meta_context" ];
    first_version = (1, 4);
  };

  "opt_abort", {
    default_call with
    args = []; ret = RErr;
    permitted_states = [ Negotiating ];
    shortdesc = "end negotiation and close the connection";
    longdesc = "\
Give up on option negotiation: tell the server the client is leaving
(as cleanly as the server allows) and close the connection.  It is
only available in option mode (see L<nbd_set_opt_mode(3)>).  On return
the handle is closed.";
    see_also = [ "set_opt_mode"; "aio_opt_abort"; "opt_go"; "shutdown" ];
    first_version = (1, 4);
  };

  "opt_starttls", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating ];
    shortdesc = "request the server to initiate TLS";
    longdesc = "\
Send C<NBD_OPT_STARTTLS> so that the rest of the connection is
encrypted.  It is only available in option mode (see
L<nbd_set_opt_mode(3)>).  Note that when L<nbd_set_tls(3)> asks for
TLS, libnbd has already attempted it before option mode begins, so
this call is mostly for use with C<LIBNBD_TLS_DISABLE>.

The call returns true if TLS was set up, and false if the server
declined (the connection then continues unencrypted).  A failure
during the TLS handshake itself is usually fatal to the connection.
The call is rejected when TLS is unsupported by this build (see
L<nbd_supports_tls(3)>).  Certificates and keys are those configured
with the C<nbd_set_tls_*> calls.";
    see_also = [ "set_opt_mode"; "aio_opt_starttls"; "set_tls";
                 "get_tls_negotiated"; "supports_tls" ];
    first_version = (1, 16);
  };

  "opt_extended_headers", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating ];
    shortdesc = "request the server to enable extended headers";
    longdesc = "\
Send C<NBD_OPT_EXTENDED_HEADERS> to ask for extended headers.  It is
only available in option mode (see L<nbd_set_opt_mode(3)>); libnbd
already makes this request itself before entering option mode unless
L<nbd_set_request_extended_headers(3)> was set to false.

The call returns true if the server agreed, and false if it refused.
Extended headers include structured replies, so after success there
is no need for L<nbd_opt_structured_reply(3)>.  Some servers discard
the chosen meta contexts when the header mode changes.";
    see_also = [ "set_opt_mode"; "aio_opt_extended_headers";
                 "opt_structured_reply"; "set_request_extended_headers";
                 "get_extended_headers_negotiated" ];
    first_version = (1, 18);
  };

  "opt_structured_reply", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating ];
    shortdesc = "request the server to enable structured replies";
    longdesc = "\
Send C<NBD_OPT_STRUCTURED_REPLY> to ask for structured replies.  It is
only available in option mode (see L<nbd_set_opt_mode(3)>); libnbd
already makes this request itself before entering option mode unless
L<nbd_set_request_structured_replies(3)> was set to false.

The call returns true if the server agreed, and false if it refused;
it fails only if the server does not answer.  The option is sent even
when structured replies are already in use: a server may refuse a
repeated request, or one made after extended headers were agreed
(which bring structured replies with them), and structured replies
stay in use either way (see
L<nbd_get_structured_replies_negotiated(3)>).
Structured replies are needed for meta contexts and block status, and
for the C<LIBNBD_CMD_FLAG_DF> flag of reads.";
    see_also = [ "set_opt_mode"; "aio_opt_structured_reply";
                 "opt_extended_headers"; "set_request_structured_replies";
                 "get_structured_replies_negotiated" ];
    first_version = (1, 16);
  };

  "opt_list", {
    default_call with
    args = [ Closure list_closure ]; ret = RInt;
    permitted_states = [ Negotiating ];
    shortdesc = "request the server to list all exports during negotiation";
    longdesc = "\
Ask the server for the list of exports it offers.  It is only
available in option mode (see L<nbd_set_opt_mode(3)>).  On success the
call returns how many exports were listed.

The C<list> callback runs once for each export, receiving its
C<user_data>, the export C<name> and a C<description> (an empty
string when the server gives none).  The strings are only valid
during the callback, so copy any you need.  The callback must not
call libnbd on this handle; its return value is currently ignored.

Servers may not support the request, may deliberately return an
empty list, may fail after some entries, or may answer only once per
connection: so success does not imply a non-empty list, and a failure
may follow some callbacks.  Lists can be long.  L<nbd-server(1)> needs
C<allowlist=true> in its configuration to answer.";
    see_also = [ "set_opt_mode"; "aio_opt_list"; "opt_go";
                 "set_export_name" ];
    first_version = (1, 4);
  };

  "opt_info", {
    default_call with
    args = []; ret = RErr;
    permitted_states = [ Negotiating ];
    shortdesc = "request the server for information about an export";
    longdesc = "\
Ask the server about the export named by L<nbd_set_export_name(3)>
(or by a URI) without selecting it.  It is only available in option
mode (see L<nbd_set_opt_mode(3)>).

On success, calls such as L<nbd_get_size(3)>, L<nbd_is_read_only(3)>
and L<nbd_can_meta_context(3)> describe that export, and the handle
stays in the negotiating state.  A later L<nbd_opt_go(3)> for the
same name will usually succeed with the same details, but servers do
not promise that.  Not every server understands this request.";
    see_also = [ "set_opt_mode"; "aio_opt_info"; "opt_go";
                 "set_export_name"; "get_size"; "is_read_only" ];
    first_version = (1, 4);
  };

  "opt_list_meta_context", {
    default_call with
    args = [ Closure context_closure ]; ret = RInt;
    permitted_states = [ Negotiating ];
    shortdesc = "list available meta contexts, using implicit query list";
    longdesc = "\
Ask the server which meta contexts of the current export match the
queries already added with L<nbd_add_meta_context(3)> (use
L<nbd_opt_list_meta_context_queries(3)> to pass the queries
explicitly).  It is only available in option mode (see
L<nbd_set_opt_mode(3)>).  An empty query list usually makes the server
report all the contexts it has.

The C<context> callback runs once per reply with its C<user_data> and
the context C<name>; copy the name if needed, and do not call libnbd
on this handle from the callback.  On success the number of replies
is returned.  A reply may stand for several contexts, so
L<nbd_can_meta_context(3)> is still needed after connecting.

Servers may not support the request, may answer with an empty list,
or may fail after partial results.";
    see_also = [ "set_opt_mode"; "aio_opt_list_meta_context";
                 "opt_list_meta_context_queries"; "opt_set_meta_context";
                 "add_meta_context"; "clear_meta_contexts"; "opt_go";
                 "set_export_name" ];
    first_version = (1, 6);
  };

  "opt_list_meta_context_queries", {
    default_call with
    args = [ StringList "queries"; Closure context_closure ]; ret = RInt;
    permitted_states = [ Negotiating ];
    shortdesc = "list available meta contexts, using explicit query list";
    longdesc = "\
The same as L<nbd_opt_list_meta_context(3)>, except that the queries
sent to the server are the strings in C<queries> rather than the list
built with L<nbd_add_meta_context(3)>, which is left untouched.  An
empty C<queries> list usually makes the server report every context.

The C<context> callback is called once per reply and the number of
replies is returned on success.  Only available in option mode (see
L<nbd_set_opt_mode(3)>).";
    see_also = [ "set_opt_mode"; "aio_opt_list_meta_context_queries";
                 "opt_list_meta_context"; "opt_set_meta_context_queries";
                 "opt_go"; "set_export_name" ];
    first_version = (1, 16);
  };

  "opt_set_meta_context", {
    default_call with
    args = [ Closure context_closure ]; ret = RInt;
    permitted_states = [ Negotiating ];
    shortdesc = "select specific meta contexts, using implicit query list";
    longdesc = "\
Send C<NBD_OPT_SET_META_CONTEXT> for the current export, with the
queries added by L<nbd_add_meta_context(3)> (use
L<nbd_opt_set_meta_context_queries(3)> to pass them explicitly).  It
is only available in option mode (see L<nbd_set_opt_mode(3)>), and
needs structured replies to have been negotiated.

The C<context> callback runs once for each context the server selects,
and the number of selected contexts is returned.  The selection
replaces any earlier one and is what L<nbd_can_meta_context(3)> and
the block status calls use, until the export name or the header mode
changes.  With L<nbd_set_request_meta_context(3)> set to false it
carries over to L<nbd_opt_go(3)>; otherwise that call negotiates again.";
    see_also = [ "set_opt_mode"; "aio_opt_set_meta_context";
                 "opt_set_meta_context_queries"; "opt_list_meta_context";
                 "add_meta_context"; "set_request_meta_context";
                 "can_meta_context"; "opt_go" ];
    first_version = (1, 16);
  };

  "opt_set_meta_context_queries", {
    default_call with
    args = [ StringList "queries"; Closure context_closure ]; ret = RInt;
    permitted_states = [ Negotiating ];
    shortdesc = "select specific meta contexts, using explicit query list";
    longdesc = "\
The same as L<nbd_opt_set_meta_context(3)>, except that the contexts
requested are the strings in C<queries> rather than the list built
with L<nbd_add_meta_context(3)>, which is left untouched.

The C<context> callback is called once for each context the server
selects, and the number of selected contexts is returned on success.
Only available in option mode (see L<nbd_set_opt_mode(3)>).";
    see_also = [ "set_opt_mode"; "aio_opt_set_meta_context_queries";
                 "opt_set_meta_context"; "opt_list_meta_context_queries";
                 "set_request_meta_context"; "can_meta_context";
                 "opt_go" ];
    first_version = (1, 16);
  };

  "add_meta_context", {
    default_call with
    args = [ String "name" ]; ret = RErr;
    permitted_states = [ Created; Negotiating ];
    shortdesc = "ask server to negotiate metadata context";
    longdesc = "\
Append C<name> to the list of metadata contexts the client will ask
the server for.  Metadata contexts decide what L<nbd_block_status(3)>
reports; for example C<\"base:allocation\"> (the constant
C<LIBNBD_CONTEXT_BASE_ALLOCATION>) describes which blocks are
allocated, holes or zeroes.  Servers may offer their own contexts,
such as C<\"qemu:dirty-bitmap:NAME\"> and C<\"qemu:allocation-depth\">
from L<qemu-nbd(8)>.

The list starts empty and may hold any number of entries; see
L<nbd_get_nr_meta_contexts(3)>, L<nbd_get_meta_context(3)> and
L<nbd_clear_meta_contexts(3)>.  Names are UTF-8 and limited to 4096
bytes by the protocol.

A server need not support every context requested: after connecting,
L<nbd_can_meta_context(3)> says which were agreed.";
    see_also = [ "block_status"; "can_meta_context";
                 "get_nr_meta_contexts"; "get_meta_context";
                 "clear_meta_contexts"; "set_request_meta_context" ];
    first_version = (1, 0);
  };

  "get_nr_meta_contexts", {
    default_call with
    args = []; ret = RSizeT;
    shortdesc = "return the current number of requested meta contexts";
    longdesc = "\
Return how many metadata contexts are on the list of contexts to
request from the server, that is how many were added with
L<nbd_add_meta_context(3)> since the handle was created or the list
was last cleared.

This counts requests only; which contexts the server actually agreed
to is found with L<nbd_can_meta_context(3)>.";
    see_also = [ "add_meta_context"; "get_meta_context";
                 "clear_meta_contexts"; "can_meta_context" ];
    first_version = (1, 6);
  };

  "get_meta_context", {
    default_call with
    args = [ SizeT "i" ]; ret = RString;
    shortdesc = "return the i'th meta context request";
    longdesc = "\
Return a copy of entry C<i> (counting from 0) of the list of metadata
contexts to request, as built by L<nbd_add_meta_context(3)>.  C<i>
must be less than the value of L<nbd_get_nr_meta_contexts(3)>,
otherwise the call fails.  The caller must free the string.";
    see_also = [ "add_meta_context"; "get_nr_meta_contexts";
                 "clear_meta_contexts"; "can_meta_context" ];
    first_version = (1, 6);
  };

  "clear_meta_contexts", {
    default_call with
    args = []; ret = RErr;
    permitted_states = [ Created; Negotiating ];
    shortdesc = "reset the list of requested meta contexts";
    longdesc = "\
Empty the list of metadata contexts to request from the server, so
that it can be filled again with L<nbd_add_meta_context(3)>.

This is mostly useful in option mode (see L<nbd_set_opt_mode(3)>), to
try a different set of contexts from one query to the next.  It does
not change the contexts already agreed with the server.";
    see_also = [ "add_meta_context"; "get_nr_meta_contexts";
                 "get_meta_context"; "set_opt_mode"; "can_meta_context" ];
    first_version = (1, 6);
  };

  "set_uri_allow_transports", {
    default_call with
    args = [ Flags ("mask", allow_transport_flags) ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the allowed transports in NBD URIs";
    longdesc = "\
Restrict which transports a URI given to L<nbd_connect_uri(3)> or
L<nbd_aio_connect_uri(3)> may use; a URI asking for another transport
is refused.  By default all transports are allowed.

C<mask> is any combination of C<LIBNBD_ALLOW_TRANSPORT_TCP>,
C<LIBNBD_ALLOW_TRANSPORT_UNIX>, C<LIBNBD_ALLOW_TRANSPORT_VSOCK> and
C<LIBNBD_ALLOW_TRANSPORT_SSH>.  C<LIBNBD_ALLOW_TRANSPORT_MASK> stands
for all transports this build understands; more may be added later.";
    see_also = [ "connect_uri"; "aio_connect_uri"; "set_uri_allow_tls";
                 "set_uri_allow_local_file" ];
    first_version = (1, 2);
  };

  "set_uri_allow_tls", {
    default_call with
    args = [ Enum ("tls", tls_enum) ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the allowed TLS settings in NBD URIs";
    longdesc = "\
Restrict whether URIs may ask for TLS.  C<tls> is one of:

=over 4

=item C<LIBNBD_TLS_DISABLE>

Refuse URIs with a TLS scheme such as C<nbds://>.

=item C<LIBNBD_TLS_ALLOW>

Accept both kinds of URI (the default).

=item C<LIBNBD_TLS_REQUIRE>

Refuse URIs without TLS: only C<nbds> schemes are accepted.

=back";
    see_also = [ "connect_uri"; "aio_connect_uri";
                 "set_uri_allow_transports"; "set_tls" ];
    first_version = (1, 2);
  };

  "set_uri_allow_tls_priority", {
    default_call with
    args = [ Bool "allow" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set if 'tls-priority' is allowed in NBD URIs";
    longdesc = "\
Decide whether a URI may set the TLS priority string with the query
parameter C<tls-priority=PRIORITY> (see L<nbd_set_tls_priority(3)>).
It is forbidden by default, because a priority string can weaken the
encryption or make GnuTLS read local files: a URI with the parameter
then fails with C<EPERM>.";
    see_also = [ "connect_uri"; "aio_connect_uri"; "set_tls_priority";
                 "set_uri_allow_local_file" ];
    first_version = (1, 24);
  };

  "set_uri_allow_local_file", {
    default_call with
    args = [ Bool "allow" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set whether NBD URIs may read local files";
    longdesc = "\
Decide whether URIs may make libnbd read files of the local system.
It is forbidden by default.  The query parameters affected are
C<tls-certificates> and C<tls-psk-file>.";
    see_also = [ "connect_uri"; "aio_connect_uri";
                 "set_uri_allow_transports" ];
    first_version = (1, 2);
  };

  "connect_uri", {
    default_call with
    args = [ String "uri" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect to NBD URI";
    longdesc = "\
Parse the NBD URI C<uri>, apply the settings it contains (export name,
TLS, user name, certificates...) and connect synchronously over the
transport it names.  For instance:

 nbd://example.com/disk
 nbds+unix:///disk?socket=/tmp/nbd.sock
 nbd+vsock://2:10809/

The schemes C<nbd> and C<nbds> use TCP (default port 10809), the
C<+unix> forms need a C<socket=> query parameter, C<+vsock> takes a
numeric CID as host, and C<+ssh> runs the connection through
L<ssh(1)>.  An C<nbds> scheme makes TLS mandatory.  The URI features
accepted can be narrowed with L<nbd_set_uri_allow_transports(3)>,
L<nbd_set_uri_allow_tls(3)>, L<nbd_set_uri_allow_local_file(3)> and
L<nbd_set_uri_allow_tls_priority(3)>.

The query holds C<name=value> pairs separated by C<&>, or by C<;>
where no C<&> follows (so C<a=1;b=2&c=3> sets C<a> to C<1;b=2>), each
percent-decoded; names are case-insensitive and unknown ones are
ignored.  They are:

=over 4

=item C<socket=PATH>

The Unix socket: needed by C<+unix>, optional for C<+ssh>, refused
for the other transports.

=item C<tls-certificates=DIR>, C<tls-psk-file=FILE>

See L<nbd_set_tls_certificates(3)> and L<nbd_set_tls_psk_file(3)>;
refused (C<EPERM>) unless L<nbd_set_uri_allow_local_file(3)> allows
them.  A certificates directory that does not exist holds nothing, so
the system's certificate authorities are used.

=item C<tls-hostname=NAME>

See L<nbd_set_tls_hostname(3)>.

=item C<tls-priority=PRIORITY>

See L<nbd_set_tls_priority(3)>; refused (C<EPERM>) unless
L<nbd_set_uri_allow_tls_priority(3)> allows it.

=item C<tls-username=USER>

The TLS user, instead of C<user@> of the authority (for C<+ssh>,
where that user is the SSH user).

=item C<tls-verify-peer=BOOL>

See L<nbd_set_tls_verify_peer(3)>.  Booleans are C<true>/C<false>,
C<yes>/C<no>, C<on>/C<off>, C<1>/C<0>, C<t>/C<f>, C<y>/C<n>.

=item C<nbd-port=PORT>

The NBD server's port, instead of the authority's: for TCP a number
up to 65535 or a service name, for C<+vsock> any 32 bit port, for
C<+ssh> the port C<nc> connects to on the far side (a number).
Ignored by C<+unix>.

=item C<compress=BOOL>

For C<+ssh>, run L<ssh(1)> with C<-C> (compression).  Checked but
unused by the other transports.

=back

C<nbd+ssh://[user@]server[:port]/export[?socket=PATH]> runs
C<ssh [-C] -p PORT [-o User=USER] -- SERVER nc -U PATH>, or
C<nc localhost NBD-PORT> (10809 by default) without C<socket=>, and
talks NBD over its standard input and output; the port defaults to 22.
The user is the SSH user and, unless C<tls-username=> is given, the
TLS user.  A server, user or socket beginning with C<-> is refused
(C<EINVAL>), and so is a user with other characters than letters,
digits and C<._-@+> (libnbd 1.24 passes any), because ssh or nc would
read them otherwise; a socket path holding shell characters is quoted
for the remote shell.

A URI is checked in this order: its syntax, then the transport and TLS
policy (C<EPERM>), then C<socket=>, TLS support (C<ENOTSUP>), each query
parameter in turn, then the server and port.  Unlike libnbd, C<%00>
anywhere in the URI is refused (libnbd cuts the string there) and so
is a port above 65535, in the authority or C<nbd-port=> (libnbd wraps
it), or an empty C<nbd-port=>; a refused URI leaves the handle's
settings as they were.

The call returns once the connection is ready, or, in option mode
(see L<nbd_set_opt_mode(3)>), once negotiation can begin.  It fails if
URI support was not built in (see L<nbd_supports_uri(3)>).";
    see_also = [ "aio_connect_uri"; "set_export_name"; "set_tls";
                 "set_opt_mode"; "get_uri"; "is_uri"; "supports_uri";
                 "supports_vsock"; "set_uri_allow_transports";
                 "set_uri_allow_tls"; "set_uri_allow_local_file";
                 "set_uri_allow_tls_priority"; "set_tls_priority" ];
    first_version = (1, 0);
  };

  "connect_unix", {
    default_call with
    args = [ Path "unixsocket" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect to NBD server over a Unix domain socket";
    longdesc = "\
Connect synchronously to an NBD server on the local machine through
the Unix domain socket at path C<unixsocket>.

The call returns once the handshake is complete and the handle is
ready, or, in option mode (see L<nbd_set_opt_mode(3)>), once the
handle is waiting for options.";
    see_also = [ "aio_connect_unix"; "set_opt_mode"; "connect_uri" ];
    first_version = (1, 0);
  };

  "connect_vsock", {
    default_call with
    args = [ UInt32 "cid"; UInt32 "port" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect to NBD server over AF_VSOCK protocol";
    longdesc = "\
Connect synchronously over C<AF_VSOCK>, the socket family linking a
virtual machine and its host.  C<cid> and C<port> form the server
address; C<cid> is usually 2 (the host) and C<port> whatever port the
host administrator assigned, often 10809.

The call returns once the handle is ready, or, in option mode (see
L<nbd_set_opt_mode(3)>), once it is waiting for options.  Whether
this build supports vsock is reported by L<nbd_supports_vsock(3)>.";
    see_also = [ "aio_connect_vsock"; "set_opt_mode"; "supports_vsock";
                 "connect_uri" ];
    first_version = (1, 2);
  };

  "connect_tcp", {
    default_call with
    args = [ String "hostname"; String "port" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect to NBD server over a TCP port";
    longdesc = "\
Connect synchronously over TCP to the server at C<hostname> and
C<port>.  The port is a string: either a service name such as
C<\"nbd\"> or a number such as C<\"10809\">.  Every address the host
name resolves to is tried in turn until one accepts the connection.

The call returns once the handle is ready, or, in option mode (see
L<nbd_set_opt_mode(3)>), once it is waiting for options.";
    see_also = [ "aio_connect_tcp"; "set_opt_mode"; "connect_uri";
                 "set_tls_hostname" ];
    first_version = (1, 0);
  };

  "connect_socket", {
    default_call with
    args = [ Fd "sock" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect directly to a connected socket";
    longdesc = "\
Use C<sock>, a socket that the caller has already connected to an NBD
server by whatever means, and perform the NBD handshake over it.

Once the call has succeeded libnbd owns the socket: it will close it
together with the handle, and the caller must not touch it any more.

The call returns once the handle is ready, or, in option mode (see
L<nbd_set_opt_mode(3)>), once it is waiting for options.";
    see_also = [ "aio_connect_socket"; "connect_command"; "set_opt_mode" ];
    first_version = (1, 2);
  };

  "connect_command", {
    default_call with
    args = [ StringList "argv" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect to NBD server command";
    longdesc = "\
Start the server command C<argv> (a NULL-terminated argument list,
C<argv[0]> being the program) as a child process and talk to it
through a socket connected to its standard input and output.  This
suits servers that can serve a single client on stdin/stdout, such as
L<nbdkit(1)> with I<-s> or L<nbd-server(1)> with port 0.  For
L<qemu-nbd(8)> use L<nbd_connect_systemd_socket_activation(3)>.

The child is killed when the handle is closed (see also
L<nbd_kill_subprocess(3)>).  The call returns once the handle is
ready, or, in option mode (see L<nbd_set_opt_mode(3)>), once it is
waiting for options.";
    see_also = [ "aio_connect_command"; "connect_systemd_socket_activation";
                 "kill_subprocess"; "get_subprocess_pid"; "set_opt_mode" ];
    first_version = (1, 0);
  };

  "connect_systemd_socket_activation", {
    default_call with
    args = [ StringList "argv" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "connect using systemd socket activation";
    longdesc = "\
Start the server command C<argv> as a child process using the systemd
socket activation protocol: libnbd creates a listening socket, hands
it to the child as file descriptor 3 with the C<LISTEN_PID> and
C<LISTEN_FDS> environment variables set (and C<LISTEN_FDNAMES>, see
L<nbd_set_socket_activation_name(3)>), then connects to it.

This is the usual way to run L<qemu-nbd(8)> under libnbd, for example
to open a qcow2 image; L<nbdkit(1)> works too, while
L<nbd-server(1)> does not and needs L<nbd_connect_command(3)>.

The child is killed when the handle is closed.  The call returns once
the handle is ready, or, in option mode (see L<nbd_set_opt_mode(3)>),
once it is waiting for options.";
    see_also = [ "aio_connect_systemd_socket_activation";
                 "set_socket_activation_name"; "connect_command";
                 "kill_subprocess"; "get_subprocess_pid"; "set_opt_mode" ];
    first_version = (1, 2);
  };

  "set_socket_activation_name", {
    default_call with
    args = [ String "socket_name" ]; ret = RErr;
    permitted_states = [ Created ];
    shortdesc = "set the socket activation name";
    longdesc = "\
Choose the name given to the socket passed to a server started by
L<nbd_connect_systemd_socket_activation(3)>.  When the name is not
empty it is exported to the child in the C<LISTEN_FDNAMES> environment
variable, which some servers use to identify their sockets.  The
default is the empty string, meaning no name is passed.

The name must be short (at most 255 bytes) and made of printable
ASCII characters without colons, as the protocol requires; other
names are refused.";
    see_also = [ "get_socket_activation_name";
                 "connect_systemd_socket_activation";
                 "aio_connect_systemd_socket_activation" ];
    first_version = (1, 16);
  };

  "get_socket_activation_name", {
    default_call with
    args = []; ret = RString;
    shortdesc = "get the socket activation name";
    longdesc = "\
Return a copy of the socket name that socket activation will pass to
the server, as set by L<nbd_set_socket_activation_name(3)> (an empty
string by default).  The caller must free the string.";
    see_also = [ "set_socket_activation_name";
                 "connect_systemd_socket_activation" ];
    first_version = (1, 16);
  };

  "is_read_only", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "is the NBD export read-only?";
    longdesc = "\
Report whether the server declared the export read-only, in which case
write, trim and zero requests will fail.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "pwrite"; "trim"; "zero" ];
    first_version = (1, 0);
  };

  "can_flush", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the flush command?";
    longdesc = "\
Report whether the server accepts the flush command, used by
L<nbd_flush(3)> and L<nbd_aio_flush(3)>.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "flush"; "aio_flush" ];
    first_version = (1, 0);
  };

  "can_fua", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the FUA flag?";
    longdesc = "\
Report whether the server honours the Forced Unit Access flag
C<LIBNBD_CMD_FLAG_FUA>, which makes a write, trim or zero request
complete only once the data is on stable storage.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "pwrite"; "zero"; "trim" ];
    first_version = (1, 0);
  };

  "is_rotational", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "is the NBD disk rotational (like a disk)?";
    longdesc = "\
Report whether the server says the export behaves like a spinning
disk, where seeking is expensive.  False means random access costs
little, as with solid state or memory backed storage.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info" ];
    first_version = (1, 0);
  };

  "can_trim", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the trim command?";
    longdesc = "\
Report whether the server accepts the trim (discard) command, used by
L<nbd_trim(3)> and L<nbd_aio_trim(3)>.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "trim"; "aio_trim" ];
    first_version = (1, 0);
  };

  "can_zero", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the zero command?";
    longdesc = "\
Report whether the server accepts the write zeroes command, used by
L<nbd_zero(3)> and L<nbd_aio_zero(3)>.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "zero"; "aio_zero"; "can_fast_zero" ];
    first_version = (1, 0);
  };

  "can_fast_zero", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the fast zero flag?";
    longdesc = "\
Report whether the server understands C<LIBNBD_CMD_FLAG_FAST_ZERO> on
zero requests (see L<nbd_zero(3)>): with that flag the server fails
at once, instead of writing slowly, when zeroing would be no quicker
than an ordinary write.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "zero"; "aio_zero"; "can_zero" ];
    first_version = (1, 2);
  };

  "can_block_status_payload", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the block status payload flag?";
    longdesc = "\
Report whether the server accepts block status requests that carry a
payload, which is how L<nbd_block_status_filter(3)> restricts a query
to some of the negotiated meta contexts.  This can only be true when
extended headers are in use (see
L<nbd_get_extended_headers_negotiated(3)>).

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "block_status_filter";
                 "aio_block_status_filter";
                 "get_extended_headers_negotiated" ];
    first_version = (1, 18);
  };

  "can_df", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the don't fragment flag to pread?";
    longdesc = "\
Report whether the server can honour C<LIBNBD_CMD_FLAG_DF> on reads,
asking it to send the data as one piece instead of several chunks (see
L<nbd_pread_structured(3)>).  This is always false if structured
replies are not in use.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "pread_structured"; "aio_pread_structured";
                 "get_structured_replies_negotiated" ];
    first_version = (1, 0);
  };

  "can_multi_conn", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support multi-conn?";
    longdesc = "\
Report whether the server advertises multi-conn, the promise that
several connections to this export see a consistent view of the data
(a flush on one connection covers writes made on the others).

A client that writes must not open more than one connection to the
same export unless this is true.  The safe way is to connect once,
check this flag, and only then open more connections.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "flush" ];
    first_version = (1, 0);
  };

  "can_cache", {
    default_call with
    args = []; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support the cache command?";
    longdesc = "\
Report whether the server accepts the cache (prefetch) command, used
by L<nbd_cache(3)> and L<nbd_aio_cache(3)>.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "cache"; "aio_cache" ];
    first_version = (1, 0);
  };

  "can_meta_context", {
    default_call with
    args = [ String "metacontext" ]; ret = RBool;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "does the server support a specific meta context?";
    longdesc = "\
Report whether the server agreed to the metadata context named
C<metacontext>, for example C<LIBNBD_CONTEXT_BASE_ALLOCATION>, so that
block status replies will include it.  Contexts are requested with
L<nbd_add_meta_context(3)>.

The call fails if contexts were requested but the negotiation of meta
contexts was skipped or failed.  The answer was recorded during the
handshake (or by L<nbd_opt_info(3)> or
L<nbd_opt_set_meta_context(3)>), so this call never waits for the
server.";
    see_also = [ "opt_info"; "add_meta_context"; "opt_set_meta_context";
                 "block_status"; "aio_block_status" ];
    first_version = (1, 0);
  };

  "get_protocol", {
    default_call with
    args = []; ret = RStaticString;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "return the NBD protocol variant";
    longdesc = "\
Return which variant of the NBD handshake the server used: currently
C<\"oldstyle\">, C<\"newstyle\"> or C<\"newstyle-fixed\"> (the one
used by nearly all current servers).  Other strings may appear in
future versions.

The string is static and must not be freed.  This call never waits
for the server.";
    see_also = [ "get_handshake_flags"; "get_structured_replies_negotiated";
                 "get_extended_headers_negotiated"; "get_tls_negotiated" ];
    first_version = (1, 2);
  };

  "get_size", {
    default_call with
    args = []; ret = RInt64;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "return the export size";
    longdesc = "\
Return the size of the export in bytes, as announced by the server.

The answer was recorded during the handshake (or by
L<nbd_opt_info(3)>), so this call never waits for the server.";
    see_also = [ "opt_info"; "get_block_size" ];
    first_version = (1, 0);
  };

  "get_block_size", {
    default_call with
    args = [ Enum ("size_type", block_size_enum) ]; ret = RInt64;
    permitted_states = [ Negotiating; Connected; Closed ];
    shortdesc = "return a specific server block size constraint";
    longdesc = "\
Return one of the block size constraints of the export, or 0 when it
is not known.  C<size_type> is one of:

 LIBNBD_SIZE_MINIMUM   (0)  required alignment, a power of 2 <= 64K
 LIBNBD_SIZE_PREFERRED (1)  power of 2 size for efficient I/O
 LIBNBD_SIZE_MAXIMUM   (2)  largest read or write the server accepts
 LIBNBD_SIZE_PAYLOAD   (3)  largest write payload libnbd will send

The first three are advertised by the server, which is more likely to
do so if asked (see L<nbd_set_request_block_size(3)>).  libnbd checks
requests against the minimum unless C<LIBNBD_STRICT_ALIGN> is cleared
(see L<nbd_set_strict_mode(3)>).  Without a minimum, 512 is a safe
guess; without a maximum, some servers drop clients that send more
than 32M at once.

The payload limit is computed by libnbd itself: it is never 0, lies
between 1M and 64M, and is enforced unless C<LIBNBD_STRICT_PAYLOAD> is
cleared.  This call never waits for the server.";
    see_also = [ "get_size"; "set_request_block_size"; "set_strict_mode";
                 "opt_info"; "get_protocol" ];
    first_version = (1, 4);
  };

  "pread", {
    default_call with
    args = [ BytesOut ("buf", "count"); UInt64 "offset" ];
    optargs = [ OFlags ("flags", cmd_flags, Some []) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "read from the NBD server";
    longdesc = "\
Read C<count> bytes starting at C<offset> of the export into C<buf>,
and wait until the read has finished.  The read either succeeds
entirely or fails; use L<nbd_pread_structured(3)> to see the pieces
of the server's answer.

libnbd refuses reads larger than 64M (C<ERANGE>), and the server may
impose a smaller maximum (see L<nbd_get_block_size(3)>).  No flags are
defined for reads, so C<flags> must be 0.

Unless L<nbd_set_pread_initialize(3)> turned it off, C<buf> is zeroed
before the request, so after a failure it holds zeroes or partial
data, never stale memory.  Invalid requests are normally caught
before sending; see L<nbd_set_strict_mode(3)>.";
    see_also = [ "aio_pread"; "pread_structured"; "get_block_size";
                 "set_strict_mode"; "set_pread_initialize" ];
    first_version = (1, 0);
  };

  "pread_structured", {
    default_call with
    args = [ BytesOut ("buf", "count"); UInt64 "offset";
             Closure chunk_closure ];
    optargs = [ OFlags ("flags", cmd_flags, Some [ "DF" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "read from the NBD server";
    longdesc = "\
Like L<nbd_pread(3)>, but C<chunk> is called for each piece of the
server's reply as it arrives (pieces may come in any order).  It gets
C<subbuf> and C<count>, the part of C<buf> just filled, the absolute
export C<offset> of that part, C<status> and C<error>.  C<status> is
C<LIBNBD_READ_DATA> (1: C<subbuf> holds data), C<LIBNBD_READ_HOLE>
(2: the range is a hole and C<subbuf> was zeroed) or
C<LIBNBD_READ_ERROR> (3: the server reported, in C<*error>, an error
at C<offset>; C<count> is 0).  For data and holes C<*error> holds any
earlier error, or 0.

If the callback returns -1 the whole read fails, with the errno it
stored in C<*error> (C<EPROTO> if none); later chunks are still
delivered.  A buggy server may cause unexpected calls, and the
callback may not be called at all for errors not tied to an offset.
It must not call libnbd on this handle.

C<flags> may contain C<LIBNBD_CMD_FLAG_DF> to ask the server to send
the data as a single chunk (see L<nbd_can_df(3)>).";
    see_also = [ "pread"; "aio_pread_structured"; "can_df";
                 "get_block_size"; "set_strict_mode";
                 "set_pread_initialize" ];
    first_version = (1, 0);
  };

  "pwrite", {
    default_call with
    args = [ BytesIn ("buf", "count"); UInt64 "offset" ];
    optargs = [ OFlags ("flags", cmd_flags, Some [ "FUA"; "PAYLOAD_LEN" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "write to the NBD server";
    longdesc = "\
Write the C<count> bytes of C<buf> to the export starting at
C<offset>, and wait until the server has acknowledged the write.  The
write either succeeds entirely or fails; it will normally fail when
L<nbd_is_read_only(3)> is true.

libnbd refuses payloads larger than its limit (see
C<LIBNBD_SIZE_PAYLOAD> in L<nbd_get_block_size(3)>), and the server
may impose a smaller maximum.

C<flags> may contain C<LIBNBD_CMD_FLAG_FUA>, so that the server only
replies once the data is on stable storage (see L<nbd_can_fua(3)>),
and C<LIBNBD_CMD_FLAG_PAYLOAD_LEN>, which with extended headers says
that the header carries the payload length; libnbd normally manages
that flag itself (see C<LIBNBD_STRICT_AUTO_FLAG>).  Invalid requests
are normally refused before sending; see L<nbd_set_strict_mode(3)>.";
    see_also = [ "aio_pwrite"; "can_fua"; "is_read_only";
                 "get_block_size"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "shutdown", {
    default_call with
    args = [];
    optargs = [ OFlags ("flags", shutdown_flags, None) ];
    ret = RErr;
    permitted_states = [ Negotiating; Connected ];
    shortdesc = "disconnect from the NBD server";
    longdesc = "\
Tell the server that the client is going away and close the
connection cleanly, waiting until it is closed.  In option mode this
ends negotiation like L<nbd_opt_abort(3)>; once connected it sends the
disconnect command (see L<nbd_aio_disconnect(3)> for finer control).
The server gains little compared with simply closing the handle with
L<nbd_close(3)>, but it is the polite way to leave.

Normally commands that were queued but not yet sent are sent first.
C<flags> may contain:

=over 4

=item C<LIBNBD_SHUTDOWN_ABANDON_PENDING> = 0x10000

Drop the commands not yet sent to the server instead (they fail).

=back

C<LIBNBD_SHUTDOWN_MASK> covers all the flags of this build.";
    see_also = [ "close"; "aio_disconnect"; "opt_abort"; "aio_in_flight" ];
    first_version = (1, 0);
  };

  "flush", {
    default_call with
    args = [];
    optargs = [ OFlags ("flags", cmd_flags, Some []) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send flush command to the NBD server";
    longdesc = "\
Ask the server to commit to stable storage every write that has
already completed, and wait for its reply.  The command will usually
fail if L<nbd_can_flush(3)> is false.

No flags are defined for this command, so C<flags> must be 0.
Invalid requests are normally refused before sending; see
L<nbd_set_strict_mode(3)>.";
    see_also = [ "aio_flush"; "can_flush"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "trim", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset" ];
    optargs = [ OFlags ("flags", cmd_flags, Some [ "FUA" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send trim command to the NBD server";
    longdesc = "\
Tell the server that the C<count> bytes starting at C<offset> are no
longer needed, so it may punch a hole in its storage, and wait for the
reply.  Afterwards the contents of the range are unspecified.  It
normally fails if L<nbd_can_trim(3)> is false or
L<nbd_is_read_only(3)> is true.

Some servers cannot handle a C<count> of 4G or more.  C<flags> may
contain C<LIBNBD_CMD_FLAG_FUA>, to have the server reply only once the
change is on stable storage (see L<nbd_can_fua(3)>).  Invalid requests
are normally refused before sending; see L<nbd_set_strict_mode(3)>.";
    see_also = [ "aio_trim"; "can_trim"; "can_fua"; "is_read_only";
                 "set_strict_mode" ];
    first_version = (1, 0);
  };

  "cache", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset" ];
    optargs = [ OFlags ("flags", cmd_flags, Some []) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send cache (prefetch) command to the NBD server";
    longdesc = "\
Suggest that the server load the C<count> bytes starting at C<offset>
into faster storage, so that a later read of them is quicker, and
wait for the reply.  The server is free to do nothing.  The command
normally fails if L<nbd_can_cache(3)> is false.

Some servers cannot handle a C<count> of 4G or more.  No flags are
defined, so C<flags> must be 0.  Invalid requests are normally refused
before sending; see L<nbd_set_strict_mode(3)>.";
    see_also = [ "aio_cache"; "can_cache"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "zero", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset" ];
    optargs = [ OFlags ("flags", cmd_flags,
                        Some [ "FUA"; "NO_HOLE"; "FAST_ZERO" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send write zeroes command to the NBD server";
    longdesc = "\
Ask the server to make the C<count> bytes starting at C<offset> read
as zeroes, without sending the zeroes over the network, and wait for
the reply.  It normally fails if L<nbd_can_zero(3)> is false or
L<nbd_is_read_only(3)> is true.  Some servers cannot handle a
C<count> of 4G or more without C<LIBNBD_CMD_FLAG_FAST_ZERO>.

C<flags> may combine C<LIBNBD_CMD_FLAG_FUA> (reply only once the
zeroes are on stable storage, see L<nbd_can_fua(3)>),
C<LIBNBD_CMD_FLAG_NO_HOLE> (allocate the zeroes rather than punching
a hole) and C<LIBNBD_CMD_FLAG_FAST_ZERO> (fail quickly, typically with
C<ENOTSUP>, if zeroing would not be faster than writing, see
L<nbd_can_fast_zero(3)>).  Invalid requests are normally refused
before sending; see L<nbd_set_strict_mode(3)>.";
    see_also = [ "aio_zero"; "can_zero"; "can_fast_zero"; "can_fua";
                 "is_read_only"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "block_status", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset"; Closure extent_closure ];
    optargs = [ OFlags ("flags", cmd_flags, Some [ "REQ_ONE" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send block status command, with 32-bit callback";
    longdesc = "\
Ask the server for the status of the blocks starting at C<offset>, in
every meta context negotiated (see L<nbd_add_meta_context(3)> and
L<nbd_can_meta_context(3)>), and wait for the answer.  C<count> is
only a hint: the reply may cover less, or run past it.

C<extent> is called once per context with C<metacontext> (such as
C<\"base:allocation\">), the starting C<offset> and an array of
C<nr_entries> 32 bit integers forming pairs: the length of an extent,
then its flags (see the C<LIBNBD_STATE_*> constants).  C<*error> holds
any earlier error.  Returning -1 makes the command fail with the errno
stored in C<*error> (default C<EPROTO>).  Buggy servers may call it
more often than expected, and a context may be skipped entirely.  The
callback must not call libnbd on this handle.

C<LIBNBD_CMD_FLAG_REQ_ONE> asks for a single extent per context.  With
extended headers prefer L<nbd_block_status_64(3)>, as 32 bits may
truncate lengths.";
    see_also = [ "block_status_64"; "block_status_filter";
                 "aio_block_status"; "add_meta_context";
                 "can_meta_context"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "block_status_64", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset"; Closure extent64_closure ];
    optargs = [ OFlags ("flags", cmd_flags, Some [ "REQ_ONE" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send block status command, with 64-bit callback";
    longdesc = "\
The same request as L<nbd_block_status(3)>, but the C<extent64>
callback receives an array of C<nr_entries> C<nbd_extent> structures,
each holding a 64 bit C<length> and 64 bit C<flags>, so that large
extents reported with extended headers are not truncated.

The callback is called once per negotiated meta context with the
context name and the starting C<offset>; returning -1 makes the
command fail with the errno stored in C<*error>.  It must not call
libnbd on this handle.  C<LIBNBD_CMD_FLAG_REQ_ONE> asks for a single
extent per context.";
    see_also = [ "block_status"; "block_status_filter";
                 "aio_block_status_64"; "add_meta_context";
                 "can_meta_context"; "set_strict_mode" ];
    first_version = (1, 18);
  };

  "block_status_filter", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset"; StringList "contexts";
             Closure extent64_closure ];
    optargs = [ OFlags ("flags", cmd_flags,
                        Some [ "REQ_ONE"; "PAYLOAD_LEN" ]) ];
    ret = RErr;
    permitted_states = [ Connected ];
    shortdesc = "send filtered block status command, with 64-bit callback";
    longdesc = "\
Like L<nbd_block_status_64(3)>, but only the meta contexts named in
C<contexts> are asked about.  Each of them must be one of the
contexts negotiated on the connection, and the server must accept a
block status payload (see L<nbd_can_block_status_payload(3)>), which
requires extended headers.

The list is sent to the server as the payload of the command, so
C<LIBNBD_CMD_FLAG_PAYLOAD_LEN> is set on the request automatically;
C<flags> may also contain C<LIBNBD_CMD_FLAG_REQ_ONE>.  The callback
behaves as for L<nbd_block_status_64(3)>.";
    see_also = [ "block_status_64"; "aio_block_status_filter";
                 "can_block_status_payload"; "can_meta_context";
                 "set_strict_mode" ];
    first_version = (1, 18);
  };

  "poll", {
    default_call with
    args = [ Int "timeout" ]; ret = RInt;
    shortdesc = "poll the handle once";
    longdesc = "\
Wait once, using L<poll(2)>, for the handle's socket to be ready in
the direction the state machine needs, then let the state machine
make progress.  This is the loop used by the synchronous calls.

C<timeout> is in milliseconds, or -1 to wait without limit (which can
block forever if nothing is expected from the server, for example
when no command is in flight).  The result is 1 if progress was made
and 0 if the timeout expired.

It is mostly an example of how libnbd can be tied into a main loop;
real programs usually use their own loop with L<nbd_aio_get_fd(3)>
and L<nbd_aio_get_direction(3)>.";
    see_also = [ "poll2"; "aio_get_fd"; "aio_get_direction";
                 "aio_notify_read"; "aio_notify_write" ];
    first_version = (1, 0);
  };

  "poll2", {
    default_call with
    args = [ Fd "fd"; Int "timeout" ]; ret = RInt;
    shortdesc = "poll the handle once, with fd";
    longdesc = "\
Like L<nbd_poll(3)>, but also wait for the extra file descriptor
C<fd> to become readable (C<POLLIN>).  This lets another thread wake
the caller up, for example by writing to an L<eventfd(2)> or a pipe.
If C<fd> is -1 it is ignored and the call is the same as
L<nbd_poll(3)>.

The result is 1 if the handle or C<fd> had activity and 0 if the
timeout expired.";
    see_also = [ "poll"; "aio_get_fd"; "aio_get_direction" ];
    first_version = (1, 16);
  };

  "aio_connect", {
    default_call with
    args = [ SockAddrAndLen ("addr", "addrlen") ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect to the NBD server";
    longdesc = "\
Start connecting to the NBD server listening at the socket address
C<addr> of length C<addrlen> (any family supported by
L<connect(2)>), without waiting.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true.
Afterwards the handle is ready (L<nbd_aio_is_ready(3)>), or, in option
mode (see L<nbd_set_opt_mode(3)>), negotiating
(L<nbd_aio_is_negotiating(3)>); if the attempt failed the handle is
dead.";
    see_also = [ "aio_is_connecting"; "aio_is_ready"; "set_opt_mode";
                 "connect_tcp" ];
    first_version = (1, 0);
  };

  "aio_connect_uri", {
    default_call with
    args = [ String "uri" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect to an NBD URI";
    longdesc = "\
Start connecting to the NBD URI C<uri>, without waiting.  The URI is
interpreted exactly as by L<nbd_connect_uri(3)>.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_uri"; "aio_is_connecting"; "set_opt_mode" ];
    first_version = (1, 0);
  };

  "aio_connect_unix", {
    default_call with
    args = [ Path "unixsocket" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect to the NBD server over a Unix domain socket";
    longdesc = "\
Start connecting to the server at the Unix domain socket
C<unixsocket>, without waiting; see L<nbd_connect_unix(3)>.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_unix"; "aio_is_connecting"; "set_opt_mode" ];
    first_version = (1, 0);
  };

  "aio_connect_vsock", {
    default_call with
    args = [ UInt32 "cid"; UInt32 "port" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect to the NBD server over AF_VSOCK socket";
    longdesc = "\
Start connecting over C<AF_VSOCK> to C<cid>:C<port>, without waiting;
see L<nbd_connect_vsock(3)>.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_vsock"; "aio_is_connecting"; "set_opt_mode";
                 "supports_vsock" ];
    first_version = (1, 2);
  };

  "aio_connect_tcp", {
    default_call with
    args = [ String "hostname"; String "port" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect to the NBD server over a TCP port";
    longdesc = "\
Start connecting over TCP to C<hostname> and C<port>, without
waiting; see L<nbd_connect_tcp(3)>.  The addresses of the host are
tried one after another as the state machine runs.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_tcp"; "aio_is_connecting"; "set_opt_mode" ];
    first_version = (1, 0);
  };

  "aio_connect_socket", {
    default_call with
    args = [ Fd "sock" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect directly to a connected socket";
    longdesc = "\
Start the NBD handshake over C<sock>, a socket the caller has already
connected, without waiting; see L<nbd_connect_socket(3)>.  On success
libnbd owns the socket.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_socket"; "aio_is_connecting"; "set_opt_mode" ];
    first_version = (1, 2);
  };

  "aio_connect_command", {
    default_call with
    args = [ StringList "argv" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect to the NBD server";
    longdesc = "\
Start the server command C<argv> as a child process talking over its
standard input and output, and begin the handshake without waiting;
see L<nbd_connect_command(3)>.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_command"; "aio_is_connecting"; "set_opt_mode";
                 "kill_subprocess" ];
    first_version = (1, 0);
  };

  "aio_connect_systemd_socket_activation", {
    default_call with
    args = [ StringList "argv" ]; ret = RErr;
    permitted_states = [ Created ];
    async_kind = Some (ChangesState ("connecting", false));
    shortdesc = "connect using systemd socket activation";
    longdesc = "\
Start the server command C<argv> as a child process using systemd
socket activation, and begin the handshake without waiting; see
L<nbd_connect_systemd_socket_activation(3)>.

The attempt is in progress while L<nbd_aio_is_connecting(3)> is true;
it then ends ready, negotiating (in option mode, see
L<nbd_set_opt_mode(3)>) or dead.";
    see_also = [ "connect_systemd_socket_activation"; "aio_is_connecting";
                 "set_socket_activation_name"; "set_opt_mode" ];
    first_version = (1, 2);
  };

  "aio_opt_go", {
    default_call with
    args = [];
    optargs = [ OClosure completion_closure ];
    ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "end negotiation and move on to using an export";
    longdesc = "\
Start the request of L<nbd_opt_go(3)> without waiting for the answer.
Only available in option mode (see L<nbd_set_opt_mode(3)>).

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false: the handle is then ready on success, or back to negotiating if
the server refused.  The optional C<completion> callback is called at
that point with C<*error> telling the outcome; it is retired
automatically whatever it returns.";
    see_also = [ "opt_go"; "set_opt_mode"; "aio_is_connecting";
                 "aio_is_negotiating" ];
    first_version = (1, 4);
  };

  "aio_opt_abort", {
    default_call with
    args = []; ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some (ChangesState ("closed", true));
    shortdesc = "end negotiation and close the connection";
    longdesc = "\
Start ending option negotiation as L<nbd_opt_abort(3)> does, without
waiting.  Only available in option mode (see L<nbd_set_opt_mode(3)>).

The request is finished when L<nbd_aio_is_closed(3)> becomes true.";
    see_also = [ "opt_abort"; "set_opt_mode"; "aio_is_closed" ];
    first_version = (1, 4);
  };

  "aio_opt_starttls", {
    default_call with
    args = [];
    optargs = [ OClosure completion_closure ];
    ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request the server to initiate TLS";
    longdesc = "\
Start the request of L<nbd_opt_starttls(3)> without waiting.  Only
available in option mode (see L<nbd_set_opt_mode(3)>).

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false.  The outcome (TLS set up, refused, or an error) can then be
checked with L<nbd_get_tls_negotiated(3)> or through the optional
C<completion> callback, which is retired automatically.";
    see_also = [ "opt_starttls"; "set_opt_mode"; "aio_is_connecting";
                 "get_tls_negotiated" ];
    first_version = (1, 16);
  };

  "aio_opt_extended_headers", {
    default_call with
    args = [];
    optargs = [ OClosure completion_closure ];
    ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request the server to enable extended headers";
    longdesc = "\
Start the request of L<nbd_opt_extended_headers(3)> without waiting.
Only available in option mode (see L<nbd_set_opt_mode(3)>).

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false; L<nbd_get_extended_headers_negotiated(3)> then tells whether
the server agreed.  The optional C<completion> callback, if given, is
called at that point and retired automatically.  Its C<*error> is 0
if the server agreed, C<ENOTSUP> if it refused (C<EINVAL> if it found
the request invalid): a refusal is not a failure of the call.";
    see_also = [ "opt_extended_headers"; "set_opt_mode";
                 "aio_is_connecting"; "get_extended_headers_negotiated" ];
    first_version = (1, 18);
  };

  "aio_opt_structured_reply", {
    default_call with
    args = [];
    optargs = [ OClosure completion_closure ];
    ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request the server to enable structured replies";
    longdesc = "\
Start the request of L<nbd_opt_structured_reply(3)> without waiting.
Only available in option mode (see L<nbd_set_opt_mode(3)>).

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false; L<nbd_get_structured_replies_negotiated(3)> then tells whether
the server agreed.  The optional C<completion> callback, if given, is
called at that point and retired automatically.";
    see_also = [ "opt_structured_reply"; "set_opt_mode";
                 "aio_is_connecting"; "get_structured_replies_negotiated" ];
    first_version = (1, 16);
  };

  "aio_opt_list", {
    default_call with
    args = [ Closure list_closure ];
    optargs = [ OClosure completion_closure ];
    ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request the server to list all exports during negotiation";
    longdesc = "\
Start the request of L<nbd_opt_list(3)> without waiting.  Only
available in option mode (see L<nbd_set_opt_mode(3)>).  The C<list>
callback is called for each export as replies arrive.

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false.  Whether the server reported an error can only be learned from
the optional C<completion> callback, which is retired automatically.";
    see_also = [ "opt_list"; "set_opt_mode"; "aio_is_connecting" ];
    first_version = (1, 4);
  };

  "aio_opt_info", {
    default_call with
    args = [];
    optargs = [ OClosure completion_closure ];
    ret = RErr;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request the server for information about an export";
    longdesc = "\
Start the request of L<nbd_opt_info(3)> without waiting.  Only
available in option mode (see L<nbd_set_opt_mode(3)>).

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false, after which calls like L<nbd_get_size(3)> describe the export
if the server answered.  Whether the server reported an error can
only be learned from the optional C<completion> callback, which is
retired automatically.";
    see_also = [ "opt_info"; "set_opt_mode"; "aio_is_connecting";
                 "get_size"; "is_read_only" ];
    first_version = (1, 4);
  };

  "aio_opt_list_meta_context", {
    default_call with
    args = [ Closure context_closure ];
    optargs = [ OClosure completion_closure ];
    ret = RInt;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request list of available meta contexts, using implicit query";
    longdesc = "\
Start the request of L<nbd_opt_list_meta_context(3)> without waiting,
using the query list built by L<nbd_add_meta_context(3)>.  Only
available in option mode (see L<nbd_set_opt_mode(3)>).  The
C<context> callback is called for each reply as it arrives.

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false.  Whether the server reported an error can only be learned from
the optional C<completion> callback, which is retired automatically.";
    see_also = [ "opt_list_meta_context"; "aio_opt_list_meta_context_queries";
                 "set_opt_mode"; "aio_is_connecting" ];
    first_version = (1, 6);
  };

  "aio_opt_list_meta_context_queries", {
    default_call with
    args = [ StringList "queries"; Closure context_closure ];
    optargs = [ OClosure completion_closure ];
    ret = RInt;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "request list of available meta contexts, using explicit query";
    longdesc = "\
Start the request of L<nbd_opt_list_meta_context_queries(3)> without
waiting, sending the queries in C<queries>.  Only available in option
mode (see L<nbd_set_opt_mode(3)>).  The C<context> callback is called
for each reply as it arrives.

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false.  Whether the server reported an error can only be learned from
the optional C<completion> callback, which is retired automatically.";
    see_also = [ "opt_list_meta_context_queries";
                 "aio_opt_list_meta_context"; "set_opt_mode";
                 "aio_is_connecting" ];
    first_version = (1, 16);
  };

  "aio_opt_set_meta_context", {
    default_call with
    args = [ Closure context_closure ];
    optargs = [ OClosure completion_closure ];
    ret = RInt;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "select specific meta contexts, with implicit query list";
    longdesc = "\
Start the request of L<nbd_opt_set_meta_context(3)> without waiting,
using the list built by L<nbd_add_meta_context(3)>.  Only available in
option mode (see L<nbd_set_opt_mode(3)>).  The C<context> callback is
called for each context the server selects.

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false.  Whether the server reported an error can only be learned from
the optional C<completion> callback, which is retired automatically.";
    see_also = [ "opt_set_meta_context"; "aio_opt_set_meta_context_queries";
                 "set_opt_mode"; "aio_is_connecting" ];
    first_version = (1, 16);
  };

  "aio_opt_set_meta_context_queries", {
    default_call with
    args = [ StringList "queries"; Closure context_closure ];
    optargs = [ OClosure completion_closure ];
    ret = RInt;
    permitted_states = [ Negotiating ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "select specific meta contexts, with explicit query list";
    longdesc = "\
Start the request of L<nbd_opt_set_meta_context_queries(3)> without
waiting, asking for the contexts in C<queries>.  Only available in
option mode (see L<nbd_set_opt_mode(3)>).  The C<context> callback is
called for each context the server selects.

The request is finished when L<nbd_aio_is_connecting(3)> becomes
false.  Whether the server reported an error can only be learned from
the optional C<completion> callback, which is retired automatically.";
    see_also = [ "opt_set_meta_context_queries";
                 "aio_opt_set_meta_context"; "set_opt_mode";
                 "aio_is_connecting" ];
    first_version = (1, 16);
  };

  "aio_pread", {
    default_call with
    args = [ BytesPersistOut ("buf", "count"); UInt64 "offset" ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some []) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "read from the NBD server";
    longdesc = "\
Queue a read command, like L<nbd_pread(3)>, and return its cookie
without waiting for the data.

C<buf> must stay valid until the command completes.  Completion is
detected with L<nbd_aio_command_completed(3)> using the cookie, or by
the optional C<completion> callback (see
L<libnbd(3)/Completion callbacks>).  If the read fails, C<buf> holds
zeroes or partial data when L<nbd_get_pread_initialize(3)> is true,
and undefined contents otherwise.";
    see_also = [ "pread"; "aio_pread_structured"; "aio_command_completed";
                 "set_pread_initialize"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_pread_structured", {
    default_call with
    args = [ BytesPersistOut ("buf", "count"); UInt64 "offset";
             Closure chunk_closure ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some [ "DF" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "read from the NBD server";
    longdesc = "\
Queue a read command whose reply chunks are passed to C<chunk>, like
L<nbd_pread_structured(3)>, and return its cookie without waiting.

C<buf> must stay valid until the command completes.  Completion is
detected with L<nbd_aio_command_completed(3)> or by the optional
C<completion> callback, which runs after the last C<chunk> call.  On
failure C<buf> holds zeroes or partial data when
L<nbd_get_pread_initialize(3)> is true.";
    see_also = [ "pread_structured"; "aio_pread"; "aio_command_completed";
                 "can_df"; "set_pread_initialize"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_pwrite", {
    default_call with
    args = [ BytesPersistIn ("buf", "count"); UInt64 "offset" ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some [ "FUA"; "PAYLOAD_LEN" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "write to the NBD server";
    longdesc = "\
Queue a write command, like L<nbd_pwrite(3)>, and return its cookie
without waiting for the server.

C<buf> must stay valid and unchanged until the command completes,
which is detected with L<nbd_aio_command_completed(3)> or by the
optional C<completion> callback.  The flags are those of
L<nbd_pwrite(3)>.";
    see_also = [ "pwrite"; "aio_command_completed"; "can_fua";
                 "is_read_only"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_disconnect", {
    default_call with
    args = [];
    optargs = [ OFlags ("flags", cmd_flags, Some []) ];
    ret = RErr;
    permitted_states = [ Connected ];
    async_kind = Some (ChangesState ("closed", true));
    shortdesc = "disconnect from the NBD server";
    longdesc = "\
Queue the disconnect command.  The server sends no reply to it, so
instead of a cookie the caller waits for L<nbd_aio_is_closed(3)> to
become true.  No other command may be issued afterwards.

Commands still in flight are not waited for; the protocol recommends
waiting until L<nbd_aio_in_flight(3)> is 0 before disconnecting, and
commands the server abandons fail with C<ENOTCONN>.  C<flags> must be
0.  L<nbd_shutdown(3)> is the synchronous way to disconnect.";
    see_also = [ "shutdown"; "aio_in_flight"; "aio_is_closed" ];
    first_version = (1, 0);
  };

  "aio_flush", {
    default_call with
    args = [];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some []) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send flush command to the NBD server";
    longdesc = "\
Queue a flush command, like L<nbd_flush(3)>, and return its cookie
without waiting.  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback.  C<flags> must be 0.";
    see_also = [ "flush"; "can_flush"; "aio_command_completed";
                 "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_trim", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset" ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some [ "FUA" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send trim command to the NBD server";
    longdesc = "\
Queue a trim command, like L<nbd_trim(3)>, and return its cookie
without waiting.  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback.  C<flags> may contain C<LIBNBD_CMD_FLAG_FUA>.";
    see_also = [ "trim"; "can_trim"; "aio_command_completed";
                 "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_cache", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset" ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some []) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send cache (prefetch) command to the NBD server";
    longdesc = "\
Queue a cache (prefetch) command, like L<nbd_cache(3)>, and return its
cookie without waiting.  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback.  C<flags> must be 0.";
    see_also = [ "cache"; "can_cache"; "aio_command_completed";
                 "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_zero", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset" ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags,
                        Some [ "FUA"; "NO_HOLE"; "FAST_ZERO" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send write zeroes command to the NBD server";
    longdesc = "\
Queue a write zeroes command, like L<nbd_zero(3)>, and return its
cookie without waiting.  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback.  The flags are those of L<nbd_zero(3)>.";
    see_also = [ "zero"; "can_zero"; "can_fast_zero";
                 "aio_command_completed"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_block_status", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset"; Closure extent_closure ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some [ "REQ_ONE" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send block status command, with 32-bit callback";
    longdesc = "\
Queue a block status command, like L<nbd_block_status(3)>, and return
its cookie without waiting.  The C<extent> callback is called as the
replies arrive.  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback, which runs after the last C<extent> call.";
    see_also = [ "block_status"; "aio_block_status_64"; "can_meta_context";
                 "aio_command_completed"; "set_strict_mode" ];
    first_version = (1, 0);
  };

  "aio_block_status_64", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset"; Closure extent64_closure ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags, Some [ "REQ_ONE" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send block status command, with 64-bit callback";
    longdesc = "\
Queue a block status command, like L<nbd_block_status_64(3)>, and
return its cookie without waiting.  The C<extent64> callback is
called as the replies arrive.  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback, which runs after the last C<extent64> call.";
    see_also = [ "block_status_64"; "aio_block_status";
                 "aio_block_status_filter"; "can_meta_context";
                 "aio_command_completed"; "set_strict_mode" ];
    first_version = (1, 18);
  };

  "aio_block_status_filter", {
    default_call with
    args = [ UInt64 "count"; UInt64 "offset"; StringList "contexts";
             Closure extent64_closure ];
    optargs = [ OClosure completion_closure;
                OFlags ("flags", cmd_flags,
                        Some [ "REQ_ONE"; "PAYLOAD_LEN" ]) ];
    ret = RCookie;
    permitted_states = [ Connected ];
    async_kind = Some WithCompletionCallback;
    shortdesc = "send filtered block status command to the NBD server";
    longdesc = "\
Queue a block status command restricted to the meta contexts in
C<contexts>, like L<nbd_block_status_filter(3)>, and return its cookie
without waiting.  The server must support block status payloads (see
L<nbd_can_block_status_payload(3)>).  Completion is detected with
L<nbd_aio_command_completed(3)> or by the optional C<completion>
callback, which runs after the last C<extent64> call.";
    see_also = [ "block_status_filter"; "aio_block_status_64";
                 "can_block_status_payload"; "aio_command_completed";
                 "set_strict_mode" ];
    first_version = (1, 18);
  };

  "aio_get_fd", {
    default_call with
    args = []; ret = RFd;
    shortdesc = "return file descriptor associated with this connection";
    longdesc = "\
Return the file descriptor of the socket (or pipe) used by this
handle, so that an application's own event loop can watch it.  Check
L<nbd_aio_get_direction(3)> for the events to wait for, then call
L<nbd_aio_notify_read(3)> or L<nbd_aio_notify_write(3)>.

The descriptor belongs to libnbd: do not read, write or close it.  The
call fails when the handle has no descriptor, for instance before a
connection was started.";
    see_also = [ "aio_get_direction"; "aio_notify_read"; "aio_notify_write";
                 "poll" ];
    first_version = (1, 0);
  };

  "aio_get_direction", {
    default_call with
    args = []; ret = RUInt;
    is_locked = false; may_set_error = false;
    shortdesc = "return the read or write direction";
    longdesc = "\
Return which way the state machine next needs to talk to the server,
to help an application's own event loop:

 0                           nothing to wait for on the descriptor
 LIBNBD_AIO_DIRECTION_READ   wait for POLLIN, then nbd_aio_notify_read
 LIBNBD_AIO_DIRECTION_WRITE  wait for POLLOUT, then nbd_aio_notify_write
 LIBNBD_AIO_DIRECTION_BOTH   wait for either

With 0, progress can only come from another call, such as starting a
connection.  When both directions are ready, notify the read only,
since handling the reply may change what needs writing.  A ready
handle reports the read direction even if no command is in flight, so
a single-threaded program should only poll after issuing a command.
The direction can change when a command is issued, so a polling
thread must be woken when another thread queues one.

This call only reads what the state machine last recorded: it takes
no lock, changes nothing and can be made from anywhere, callbacks
included.  Commands queued while others are in flight wait to leave
together: then the direction includes writing, and
L<nbd_aio_notify_write(3)> (or L<nbd_poll(3)>, or the end of
L<nbd_aio_notify_read(3)>) sends them in one system call.";
    see_also = [ "aio_get_fd"; "aio_notify_read"; "aio_notify_write";
                 "aio_in_flight"; "poll" ];
    first_version = (1, 0);
  };

  "aio_notify_read", {
    default_call with
    args = []; ret = RErr;
    shortdesc = "notify that the connection is readable";
    longdesc = "\
Tell the state machine that the handle's file descriptor is readable,
so that it reads and processes as much as it can without blocking.
An application's main loop calls this after L<poll(2)> or similar
reported the descriptor from L<nbd_aio_get_fd(3)> as readable.  Before
returning it sends the commands that callbacks queued meanwhile.

One call may complete several commands, running the completion
callback of each, because this library reads replies ahead while the
socket has them; libnbd 1.22 completes at most one per call.  So a
callback must not count on other commands still being in flight when
it runs, and code that issues commands in a loop must give each
callback its own copy of any loop variable the callback keeps (a
closure that captures the variable itself sees only its last value by
the time the callbacks run).";
    see_also = [ "aio_notify_write"; "aio_get_fd"; "aio_get_direction" ];
    first_version = (1, 0);
  };

  "aio_notify_write", {
    default_call with
    args = []; ret = RErr;
    shortdesc = "notify that the connection is writable";
    longdesc = "\
Tell the state machine that the handle's file descriptor is writable,
so that it sends as much pending data as it can without blocking.  An
application's main loop calls this after L<poll(2)> or similar
reported the descriptor from L<nbd_aio_get_fd(3)> as writable.  It
fails with C<EINVAL> when the handle has nothing to write, for example
when it is ready with no command waiting to be sent.

As with L<nbd_aio_notify_read(3)>, one call may complete several
commands, since replies already read ahead are processed as well;
libnbd 1.22 completes at most one.  Give each completion callback its
own copy of any loop variable it keeps.";
    see_also = [ "aio_notify_read"; "aio_get_fd"; "aio_get_direction" ];
    first_version = (1, 0);
  };

  "aio_is_created", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if the connection has just been created";
    longdesc = "\
Return true if the handle is still in its initial state: no
connection has been started yet.  This is where settings are made and
where a connect call, such as L<nbd_aio_connect(3)>, may be issued.";
    see_also = [ "aio_is_connecting"; "connection_state" ];
    first_version = (1, 0);
  };

  "aio_is_connecting", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if the connection is connecting or handshaking";
    longdesc = "\
Return true while the handle is establishing the connection or
exchanging handshake messages with the server, that is before it is
ready for commands (L<nbd_aio_is_ready(3)>) or waiting for options in
option mode (L<nbd_aio_is_negotiating(3)>).";
    see_also = [ "aio_is_ready"; "aio_is_negotiating"; "aio_connect" ];
    first_version = (1, 0);
  };

  "aio_is_negotiating", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if connection is ready to send handshake option";
    longdesc = "\
Return true if the handle is in option mode, waiting for the client
to send the next handshake option with one of the C<nbd_opt_*> calls.
Sending an option returns the handle to the connecting state (see
L<nbd_aio_is_connecting(3)>) until the reply is processed.

This state only occurs when L<nbd_set_opt_mode(3)> was used and the
server speaks the newstyle protocol; oldstyle servers go directly to
L<nbd_aio_is_ready(3)>.";
    see_also = [ "set_opt_mode"; "aio_is_connecting"; "aio_is_ready" ];
    first_version = (1, 4);
  };

  "aio_is_ready", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if the connection is in the ready state";
    longdesc = "\
Return true if the handshake is complete and the handle is idle, with
no request or reply being transferred at this moment (commands may
still be in flight on the server).  New commands can be issued in
this state.";
    see_also = [ "aio_is_processing"; "aio_is_connecting";
                 "aio_in_flight" ];
    first_version = (1, 0);
  };

  "aio_is_processing", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if the connection is processing a command";
    longdesc = "\
Return true if the handshake is complete and libnbd is in the middle
of sending a request or receiving a reply.

This does not include the ready state (L<nbd_aio_is_ready(3)>), where
commands may be in flight on the server but libnbd is not busy with
them.";
    see_also = [ "aio_is_ready"; "aio_in_flight" ];
    first_version = (1, 0);
  };

  "aio_is_dead", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if the connection is dead";
    longdesc = "\
Return true if the handle hit a fatal error, such as a failed
connection or a protocol violation.  A dead handle cannot be
recovered; all that remains is to close it with L<nbd_close(3)>.";
    see_also = [ "aio_is_closed"; "close"; "get_error" ];
    first_version = (1, 0);
  };

  "aio_is_closed", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "check if the connection is closed";
    longdesc = "\
Return true if the connection was shut down cleanly.  A closed
connection cannot be reopened; close the handle and create a new one
to connect again.";
    see_also = [ "aio_is_dead"; "aio_disconnect"; "shutdown"; "close" ];
    first_version = (1, 0);
  };

  "aio_command_completed", {
    default_call with
    args = [ UInt64 "cookie" ]; ret = RBool;
    shortdesc = "check if the command completed";
    longdesc = "\
Check the command identified by C<cookie>, the value returned by the
call that issued it (such as L<nbd_aio_pread(3)>).  Return false if it
is still in flight.  Otherwise the command is retired, and the call
returns true if it succeeded or fails with the command's error.

A command is retired only once, either by this call or by its
completion callback returning 1; checking an unknown or already
retired cookie is an error.";
    see_also = [ "aio_peek_command_completed"; "aio_in_flight";
                 "aio_pread"; "aio_pwrite" ];
    first_version = (1, 0);
  };

  "aio_peek_command_completed", {
    default_call with
    args = []; ret = RInt64;
    shortdesc = "check if any command has completed";
    longdesc = "\
Return the cookie of a command that has completed but has not yet been
retired, without retiring it.  Return 0 if commands are in flight but
none has completed, and fail if there are no commands at all.

The cookie must still be passed to L<nbd_aio_command_completed(3)> to
retire the command and learn its result.";
    see_also = [ "aio_command_completed"; "aio_in_flight" ];
    first_version = (1, 0);
  };

  "aio_in_flight", {
    default_call with
    args = []; ret = RInt;
    is_locked = false;
    permitted_states = [ Connected; Closed; Dead ];
    shortdesc = "check how many aio commands are still in flight";
    longdesc = "\
Return the number of commands that have been issued but cannot be
retired yet because their reply is still awaited (including commands
queued but not yet sent).

Disconnecting (L<nbd_aio_disconnect(3)> or L<nbd_shutdown(3)>) while
this is not 0 does not wait for those commands; if the server drops
them, L<nbd_aio_command_completed(3)> reports them as failed with
C<ENOTCONN>.";
    see_also = [ "aio_disconnect"; "shutdown"; "aio_command_completed";
                 "aio_peek_command_completed" ];
    first_version = (1, 0);
  };

  "connection_state", {
    default_call with
    args = []; ret = RStaticString;
    is_locked = false; may_set_error = false;
    shortdesc = "return string describing the state of the connection";
    longdesc = "\
Return a short text describing the current state of the handle's
state machine, for debugging and troubleshooting.  The string is
static and must not be freed.

The set of states and their names are internal details that may change
in any release; programs must not depend on them and should use the
C<nbd_aio_is_*> calls instead.";
    see_also = [ "aio_is_created"; "aio_is_connecting"; "aio_is_ready";
                 "aio_is_dead"; "aio_is_closed" ];
    first_version = (1, 0);
  };

  "get_package_name", {
    default_call with
    args = []; ret = RStaticString;
    is_locked = false; may_set_error = false;
    shortdesc = "return the name of the library";
    longdesc = "\
Return the name of the library, normally C<\"libnbd\"> unless the
build renamed it.  The string is static: it stays valid for the life
of the process and must not be freed.";
    see_also = [ "get_version" ];
    first_version = (1, 0);
  };

  "get_version", {
    default_call with
    args = []; ret = RStaticString;
    is_locked = false; may_set_error = false;
    shortdesc = "return the version of the library";
    longdesc = "\
Return the version of the library as a static string of the form
C<\"MAJOR.MINOR.RELEASE\">, for example C<\"1.22.0\">.  It must not be
freed.

The major number is 1 for every release with the stable API (0 was
used by early experimental versions).  An even minor number denotes a
stable branch and an odd one a development branch, whose new calls
may still change before the next stable release.  The release number
counts the releases within a branch.";
    see_also = [ "get_package_name" ];
    first_version = (1, 0);
  };

  "get_version_extra", {
    default_call with
    args = []; ret = RStaticString;
    is_locked = false; may_set_error = false;
    shortdesc = "return the extra version of the library";
    longdesc = "\
Return the free-form string given to C<./configure --with-extra=...>
when the library was built, meant for packagers to name their own
build (a distribution's package version, for instance).  It is the
empty string C<\"\"> when none was given.  The string is static: it
stays valid for the life of the process and must not be freed.";
    see_also = [ "get_version"; "get_package_name" ];
    first_version = (1, 24);
  };

  "kill_subprocess", {
    default_call with
    args = [ Int "signum" ]; ret = RErr;
    shortdesc = "kill server running as a subprocess";
    longdesc = "\
Send a signal to the server process started by
L<nbd_connect_command(3)> or L<nbd_connect_systemd_socket_activation(3)>.
C<signum> is the signal number (see L<signal(7)>); 0 means C<SIGTERM>.

This is rarely needed: it only helps with servers that do not exit by
themselves when their socket is closed.  The call fails if the handle
has no subprocess.";
    see_also = [ "connect_command"; "connect_systemd_socket_activation";
                 "get_subprocess_pid" ];
    first_version = (1, 0);
  };

  "get_subprocess_pid", {
    default_call with
    args = []; ret = RInt64;
    shortdesc = "get the process ID of the subprocess";
    longdesc = "\
Return the process ID of the server started as a child by
L<nbd_connect_command(3)> or L<nbd_connect_systemd_socket_activation(3)>
(or their asynchronous versions).  The call fails if the handle did
not start a subprocess.

The process is owned by libnbd, which will reap it; use this for
information or monitoring, and L<nbd_kill_subprocess(3)> to signal it.";
    see_also = [ "kill_subprocess"; "connect_command";
                 "connect_systemd_socket_activation" ];
    first_version = (1, 22);
  };

  "supports_tls", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "true if libnbd was compiled with support for TLS";
    longdesc = "\
Return true if this build of libnbd includes TLS support (through
GnuTLS), which is needed for L<nbd_set_tls(3)> and
L<nbd_opt_starttls(3)> to enable encryption.";
    see_also = [ "set_tls"; "opt_starttls" ];
    first_version = (1, 0);
  };

  "supports_vsock", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "true if libnbd was compiled with support for AF_VSOCK";
    longdesc = "\
Return true if this build of libnbd can use C<AF_VSOCK> sockets, as
needed by L<nbd_connect_vsock(3)> and C<nbd+vsock> URIs.

This only reflects support at build time; the running kernel may
still lack some features (for example, connecting to the local CID
requires the I<vsock_loopback> module on Linux).";
    see_also = [ "connect_vsock"; "aio_connect_vsock"; "connect_uri" ];
    first_version = (1, 16);
  };

  "supports_uri", {
    default_call with
    args = []; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "true if libnbd was compiled with support for NBD URIs";
    longdesc = "\
Return true if this build of libnbd can parse NBD URIs, as needed by
L<nbd_connect_uri(3)>, L<nbd_aio_connect_uri(3)> and
L<nbd_get_uri(3)>.";
    see_also = [ "connect_uri"; "aio_connect_uri"; "get_uri"; "is_uri" ];
    first_version = (1, 0);
  };

  "get_uri", {
    default_call with
    args = []; ret = RString;
    permitted_states = [ Connecting; Negotiating; Connected; Closed; Dead ];
    shortdesc = "construct an NBD URI for a connection";
    longdesc = "\
Build, as well as possible, an NBD URI that would connect to the same
server and export again with L<nbd_connect_uri(3)>.  The caller must
free the returned string.

Every part is percent-encoded where needed (a user C<a@b> is written
C<a%40b>) and every TLS setting made is written, so the URI reads back
to the same export, TLS user, hostname, certificates, PSK file, peer
checking and priority string (C<tls-priority=>, written as libnbd
1.24 does: when a string other than the build's default was set and
L<nbd_set_uri_allow_tls_priority(3)> allows it in URIs).  After
an C<nbd+ssh://> URI it is an C<nbd+ssh://> URI again, with its SSH
user, C<nbd-port=>, C<compress=true> and a C<tls-username=> that
differs from the SSH user (libnbd fails there).

The handle does not always know enough to do this, for example after
L<nbd_connect_socket(3)>; the call then fails.  Even a returned URI
is not guaranteed to work, nor to be the best choice.";
    see_also = [ "connect_uri"; "aio_connect_uri"; "supports_uri";
                 "is_uri" ];
    first_version = (1, 8);
  };

  "is_uri", {
    default_call with
    args = [ String "uri" ]; ret = RBool;
    is_locked = false; may_set_error = false;
    shortdesc = "detect if a string could be an NBD URI";
    longdesc = "\
Return true if C<uri> looks like an NBD URI, that is it begins with
one of the schemes libnbd knows, such as C<nbd:>, C<nbds:> or
C<nbd+unix:>.  This is a quick test of the form only: the rest of
the string is not checked, so connecting may still fail.

It is meant for programs that accept either a URI or something else
(like a file name) in the same place.  The answer does not depend on
the state of the handle.";
    see_also = [ "connect_uri"; "get_uri"; "supports_uri" ];
    first_version = (1, 22);
  };
]

(* Consistency checks of the table above.  Raises Failure with a
   message naming the faulty call. *)
let check_table () =
  let fail fmt = Printf.ksprintf failwith fmt in
  let hand_written = handwritten_names in
  let names = List.map fst handle_calls in
  let is_call n = List.mem n names || List.mem n hand_written in
  let starts_with p s =
    String.length s >= String.length p
    && String.sub s 0 (String.length p) = p in
  let ends_with p s =
    let n = String.length s and m = String.length p in
    n >= m && String.sub s (n - m) m = p in
  let rec dups = function
    | [] -> []
    | x :: xs -> if List.mem x xs then x :: dups xs else dups xs in
  let valid_ident s =
    s <> ""
    && (match s.[0] with 'a' .. 'z' -> true | _ -> false)
    && String.for_all
         (function 'a' .. 'z' | '0' .. '9' | '_' -> true | _ -> false) s in
  (* Names of "L<nbd_NAME(3)>" links in a POD string. *)
  let pod_links pod =
    let rec loop acc i =
      match String.index_from_opt pod i 'L' with
      | None -> List.rev acc
      | Some j ->
         if starts_with "L<nbd_" (String.sub pod j (String.length pod - j))
         then (
           let k = j + 6 in
           let e = ref k in
           while !e < String.length pod
                 && (match pod.[!e] with
                     | 'a' .. 'z' | '0' .. '9' | '_' -> true
                     | _ -> false) do
             incr e
           done;
           loop (String.sub pod k (!e - k) :: acc) !e
         )
         else loop acc (j + 1)
    in
    loop [] 0 in
  let closure_known c = List.exists (fun c' -> c' = c) all_closures in
  let is_completion = function
    | OClosure { cbname = "completion"; _ } -> true
    | _ -> false in
  let states_known = [ "created"; "connecting"; "negotiating"; "ready";
                       "processing"; "dead"; "closed" ] in

  (* What every call, generated or hand-written, must get right: a
     stable version, descriptions the man pages can use, links and
     see-also entries naming calls that exist. *)
  let check_doc ~version ~shortdesc ~longdesc ~see_also name =
    let err fmt = Printf.ksprintf (fun s -> fail "API: %s: %s" name s) fmt in
    (* Version. *)
    (match version with
     | (1, minor) when minor >= 0 && minor mod 2 = 0 -> ()
     | (major, minor) ->
        err "first_version (%d, %d) is not a stable 1.<even> release"
          major minor);

    (* Descriptions. *)
    let sd = shortdesc in
    if String.trim sd = "" then err "shortdesc is empty";
    if String.contains sd '\n' then err "shortdesc contains a newline";
    if ends_with "." sd then err "shortdesc ends with a period";
    if String.trim sd <> sd then
      err "shortdesc has leading or trailing white space";
    if String.trim longdesc = "" then err "longdesc is empty";
    if String.contains longdesc '\t' then err "longdesc contains a tab";
    if ends_with "\n" longdesc then
      err "longdesc ends with a newline";
    List.iter (
      fun l ->
        if not (is_call l) then
          err "longdesc links to L<nbd_%s(3)> which does not exist" l
    ) (pod_links longdesc);

    (* See also. *)
    List.iter (
      fun s ->
        if starts_with "nbd_" s then
          err "see_also %S must not have the nbd_ prefix" s;
        if not (is_call s) then
          err "see_also %S is not a known call" s;
        if s = name then err "see_also refers to the call itself"
    ) see_also;
    (match dups see_also with
     | [] -> ()
     | d -> err "duplicate see_also: %s" (String.concat ", " d)) in

  (* The hand-written calls. *)
  List.iter (
    fun h ->
      let err fmt =
        Printf.ksprintf (fun s -> fail "API: %s: %s" h.hw_name s) fmt in
      if not (valid_ident h.hw_name) then
        err "name must match [a-z][a-z0-9_]*";
      check_doc ~version:h.hw_first_version ~shortdesc:h.hw_shortdesc
        ~longdesc:h.hw_longdesc ~see_also:h.hw_see_also h.hw_name
  ) handwritten_calls;
  (match dups hand_written with
   | [] -> ()
   | d ->
      fail "API: duplicate hand-written calls: %s" (String.concat ", " d));

  (* Whole table. *)
  if names = [] then fail "API: handle_calls is empty";
  (match dups names with
   | [] -> ()
   | d -> fail "API: duplicate calls: %s" (String.concat ", " d));

  List.iter (
    fun (name, c) ->
      let err fmt = Printf.ksprintf (fun s -> fail "API: %s: %s" name s) fmt in

      (* Name. *)
      if not (valid_ident name) then
        err "name must match [a-z][a-z0-9_]*";
      if List.mem name hand_written then
        err "this call is hand-written and must not be in the table";

      check_doc ~version:c.first_version ~shortdesc:c.shortdesc
        ~longdesc:c.longdesc ~see_also:c.see_also name;

      (* States. *)
      (match dups c.permitted_states with
       | [] -> ()
       | _ -> err "duplicate entries in permitted_states");

      (* Arguments: known closures/enums/flags, unique C names. *)
      List.iter (
        function
        | Closure cl when not (closure_known cl) ->
           err "closure %s is not in all_closures" cl.cbname
        | Enum (n, e) when not (List.memq e all_enums) ->
           err "enum of argument %s is not in all_enums" n
        | Flags (n, f) when not (List.memq f all_flags) ->
           err "flags of argument %s are not in all_flags" n
        | _ -> ()
      ) c.args;
      let arg_names =
        List.concat_map (
          function
          | Bool n | Enum (n, _) | Fd n | Flags (n, _) | Int n | Int64 n
          | Path n | SizeT n | String n | StringList n | UInt32 n
          | UInt64 n | UIntPtr n -> [ n ]
          | BytesIn (n, m) | BytesOut (n, m) | BytesPersistIn (n, m)
          | BytesPersistOut (n, m) | SockAddrAndLen (n, m) -> [ n; m ]
          | Closure cl -> [ cl.cbname ^ "_callback" ]
        ) c.args
        @ List.map (
            function
            | OClosure cl -> cl.cbname ^ "_callback"
            | OFlags (n, _, _) -> n
          ) c.optargs in
      List.iter (
        fun n ->
          if not (valid_ident n) then err "bad argument name %S" n;
          if n = "h" then err "argument name h is reserved for the handle"
      ) arg_names;
      (match dups arg_names with
       | [] -> ()
       | d -> err "duplicate argument names: %s" (String.concat ", " d));

      (* Optional arguments. *)
      List.iter (
        function
        | OClosure cl ->
           if cl.cbname <> "completion" then
             err "only the completion closure may be optional (got %s)"
               cl.cbname
        | OFlags (n, f, subset) ->
           if not (List.memq f all_flags) then
             err "flags of optional argument %s are not in all_flags" n;
           (match subset with
            | None -> ()
            | Some l ->
               List.iter (
                 fun fl ->
                   if not (List.mem_assoc fl f.flags) then
                     err "OFlags %s: %s is not a %s_* flag" n fl
                       f.flag_prefix
               ) l;
               (match dups l with
                | [] -> ()
                | d -> err "OFlags %s: duplicate flags %s" n
                         (String.concat ", " d)))
      ) c.optargs;
      if List.length (List.filter is_completion c.optargs) > 1 then
        err "more than one completion closure";
      (* Optional arguments come last and completion precedes flags,
         matching the C prototypes. *)
      let rec optorder = function
        | OFlags _ :: OClosure _ :: _ ->
           err "the completion closure must come before the flags"
        | _ :: rest -> optorder rest
        | [] -> () in
      optorder c.optargs;

      (* Persistent buffers need a completion callback to be freed. *)
      let persist =
        List.filter
          (function BytesPersistIn _ | BytesPersistOut _ -> true
                  | _ -> false) c.args in
      if List.length persist > 1 then err "more than one persistent buffer";
      if persist <> [] && not (List.exists is_completion c.optargs) then
        err "a persistent buffer needs an optional completion closure";

      (* Error and locking rules. *)
      (* Without the lock, only the state check may fail: it reads the
         published state, which needs no lock (as nbd_aio_in_flight in
         libnbd). *)
      if not c.is_locked && c.may_set_error && c.permitted_states = [] then
        err "a call that does not take the lock must not set the error";
      if not c.may_set_error && c.permitted_states <> [] then
        err "a call that cannot fail must be allowed in every state";
      (match c.ret with
       | RUInt | RUInt64 | RUIntPtr | RFlags _ when c.may_set_error ->
          err "this return type cannot signal errors, \
               so may_set_error must be false"
       | _ -> ());
      if not c.may_set_error then (
        if List.exists
             (function Closure _ | Enum _ | Flags _ -> true | _ -> false)
             c.args
        then err "closure, enum or flags arguments are validated, \
                  so the call may fail";
        if List.exists (function OFlags _ -> true | _ -> false) c.optargs
        then err "flags arguments are validated, so the call may fail";
        match c.ret with
        | RString | RCookie | RFd | RSizeT | RErr ->
           err "this return type implies the call may fail"
        | _ -> ()
      );

      (* Asynchronous calls. *)
      let is_aio = starts_with "aio_" name in
      if c.ret = RCookie then (
        if not (is_aio || List.exists is_completion c.optargs) then
          err "RCookie needs a completion closure or an aio_ name";
        if is_aio && c.async_kind <> Some WithCompletionCallback then
          err "aio call returning a cookie must be WithCompletionCallback"
      );
      (match c.async_kind with
       | None -> ()
       | Some WithCompletionCallback ->
          if not (List.exists is_completion c.optargs) then
            err "WithCompletionCallback needs an optional completion closure"
       | Some (ChangesState (st, _)) ->
          if not (List.mem st states_known) then
            err "ChangesState %S is not an aio_is_* state" st;
          if not (List.mem ("aio_is_" ^ st) names) then
            err "ChangesState %S: aio_is_%s is not in the table" st st);
      if c.async_kind <> None && not is_aio then
        err "only aio_* calls may have an async_kind"
  ) handle_calls
