(* Types of the API table: one record per public call. *)

(* A C argument of a call, as the caller writes it. *)
type arg =
  | Bool of string                      (* bool *)
  | BytesIn of string * string          (* const void *buf, size_t count *)
  | BytesOut of string * string         (* void *buf, size_t count *)
  | BytesPersistIn of string * string   (* as BytesIn, buffer outlives the call *)
  | BytesPersistOut of string * string  (* as BytesOut, buffer outlives the call *)
  | Closure of closure                  (* struct nbd_<name>_callback, by value *)
  | Enum of string * enum               (* int, one of the enum's values *)
  | Fd of string                        (* int file descriptor *)
  | Flags of string * flags             (* uint32_t, a subset of the flags *)
  | Int of string                       (* int *)
  | Int64 of string                     (* int64_t *)
  | Path of string                      (* const char *, a file name *)
  | SizeT of string                     (* size_t *)
  | SockAddrAndLen of string * string   (* const struct sockaddr *, socklen_t *)
  | String of string                    (* const char *, not NULL *)
  | StringList of string                (* char **, NULL-terminated *)
  | UInt32 of string                    (* uint32_t *)
  | UInt64 of string                    (* uint64_t *)
  | UIntPtr of string                   (* uintptr_t *)

(* Optional arguments: still positional in C, optional in bindings. *)
and optarg =
  | OClosure of closure                 (* completion callback, may be empty *)
  | OFlags of string * flags * string list option
      (* uint32_t flags; Some names = the subset this call allows,
         None = every flag of the set *)

and ret =
  | RBool                 (* int: 0 false, 1 true, -1 error *)
  | RStaticString         (* const char *, owned by the library *)
  | RErr                  (* int: 0 ok, -1 error *)
  | RFd                   (* int: fd, or -1 error *)
  | RInt                  (* int >= 0, or -1 error *)
  | RInt64                (* int64_t >= 0, or -1 error *)
  | RCookie               (* int64_t cookie >= 1, or -1 error *)
  | RSizeT                (* ssize_t >= 0, or -1 error *)
  | RString               (* char *, caller frees; NULL error *)
  | RUInt                 (* unsigned, cannot fail *)
  | RUIntPtr              (* uintptr_t, cannot fail *)
  | RUInt64               (* uint64_t, cannot fail *)
  | REnum of enum         (* int, one of the values, or -1 error *)
  | RFlags of flags       (* uint32_t, cannot fail *)

(* A callback passed as { callback, user_data, free }. *)
and closure = {
  cbname : string;          (* "chunk" -> struct nbd_chunk_callback *)
  cbargs : cbarg list;      (* after the leading void *user_data *)
}

and cbarg =
  | CBArrayAndLen of array_elt * string * string
      (* element, array name, length name: T *arr, size_t len *)
  | CBBytesIn of string * string     (* const void *buf, size_t count *)
  | CBInt of string                  (* int *)
  | CBUInt of string                 (* unsigned *)
  | CBUInt64 of string               (* uint64_t *)
  | CBMutable of string              (* int *name: the error in-out *)
  | CBString of string               (* const char * *)

(* The element type of a callback's array argument. *)
and array_elt =
  | ElemUInt32            (* uint32_t: extents as (length, flags) pairs *)
  | ElemExtent64          (* nbd_extent: { uint64_t length, flags } *)

and enum = {
  enum_prefix : string;              (* "TLS" -> LIBNBD_TLS_* *)
  enums : (string * int) list;
}

and flags = {
  flag_prefix : string;              (* "CMD_FLAG" -> LIBNBD_CMD_FLAG_* *)
  flags : (string * int) list;
  unknown : unknown_flags;           (* what lib/api.c does with others *)
}

(* What the wrapper does with bits outside the flags a call allows. *)
and unknown_flags =
  | Refused               (* always EINVAL *)
  | RefusedIfStrict of int
      (* EINVAL only under LIBNBD_STRICT_FLAGS, so programs can send
         unknown flags on purpose (to test servers); a value above the
         int does not fit the protocol and is always refused *)

(* Handle states a call may be made in; [] in the table means any. *)
and permitted_state =
  | Created        (* not yet connected *)
  | Connecting     (* connecting or handshaking *)
  | Negotiating    (* opt mode, waiting for nbd_opt_* *)
  | Connected      (* ready or processing commands *)
  | Closed         (* shut down cleanly *)
  | Dead           (* failed *)

and async_kind =
  | WithCompletionCallback  (* completes through a completion closure *)
  | ChangesState of string * bool
      (* aio_is_<name> returns <bool> when the operation has finished *)

and call = {
  args : arg list;
  optargs : optarg list;
  ret : ret;
  shortdesc : string;           (* one line, for the NAME section *)
  longdesc : string;            (* the DESCRIPTION section *)
  see_also : string list;       (* other calls, without nbd_ *)
  permitted_states : permitted_state list;
  is_locked : bool;             (* false: reads atomic state, no mutex *)
  may_set_error : bool;         (* false: cannot fail, no error context *)
  async_kind : async_kind option;
  first_version : int * int;    (* (1, 0) -> LIBNBD_1.0 *)
}

(* The calls written by hand in lib/: they take no handle lock, or no
   handle at all, so lib/api.c has no wrapper for them.  C.ml emits
   their prototypes and symbols, Man.ml their pages. *)
and handwritten = {
  hw_name : string;
  hw_arg : hw_arg;
  hw_ret : hw_ret;
  hw_shortdesc : string;
  hw_longdesc : string;
  hw_retdesc : string;          (* the RETURN VALUE section, POD *)
  hw_see_also : string list;
  hw_first_version : int * int;
}

and hw_arg =
  | HWVoid                (* (void) *)
  | HWHandleOrNull        (* struct nbd_handle *h, which may be NULL *)

and hw_ret =
  | HWNewHandle           (* struct nbd_handle *, NULL on error *)
  | HWNothing             (* void *)
  | HWStaticString        (* const char *, owned by the library *)
  | HWInt                 (* int, cannot fail *)

(* A default record: entries override what differs. *)
let default_call = {
  args = []; optargs = []; ret = RErr;
  shortdesc = ""; longdesc = ""; see_also = [];
  permitted_states = []; is_locked = true; may_set_error = true;
  async_kind = None; first_version = (0, 0);
}
