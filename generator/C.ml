(* Emitters of the C side: include/libnbd.h, lib/unlocked.h, lib/api.c
   and lib/libnbd.syms, all from the API table. *)

open Printf
open Types
open Utils

let calls = API.handle_calls

(* C type of an array element of a callback. *)
let c_array_elt = function
  | ElemUInt32 -> "uint32_t"
  | ElemExtent64 -> "nbd_extent"

let closure_type cl = sprintf "nbd_%s_callback" cl.cbname
let closure_param cl = sprintf "%s_callback" cl.cbname

(* C parameters of an argument, as (type, name) pairs. *)
let c_params_of_arg = function
  | Bool n -> [ "bool", n ]
  | BytesIn (b, c) | BytesPersistIn (b, c) ->
     [ "const void *", b; "size_t", c ]
  | BytesOut (b, c) | BytesPersistOut (b, c) -> [ "void *", b; "size_t", c ]
  | Closure cl -> [ closure_type cl, closure_param cl ]
  | Enum (n, _) | Fd n | Int n -> [ "int", n ]
  | Flags (n, _) | UInt32 n -> [ "uint32_t", n ]
  | Int64 n -> [ "int64_t", n ]
  | Path n | String n -> [ "const char *", n ]
  | SizeT n -> [ "size_t", n ]
  | SockAddrAndLen (a, l) ->
     [ "const struct sockaddr *", a; "socklen_t", l ]
  | StringList n -> [ "char **", n ]
  | UInt64 n -> [ "uint64_t", n ]
  | UIntPtr n -> [ "uintptr_t", n ]

let c_params_of_optarg = function
  | OClosure cl -> [ closure_type cl, closure_param cl ]
  | OFlags (n, _, _) -> [ "uint32_t", n ]

(* Unlocked functions take closures by pointer, so they can take them. *)
let unlocked_params_of_arg a =
  match a with
  | Closure cl -> [ closure_type cl ^ " *", closure_param cl ]
  | _ -> c_params_of_arg a
let unlocked_params_of_optarg o =
  match o with
  | OClosure cl -> [ closure_type cl ^ " *", closure_param cl ]
  | _ -> c_params_of_optarg o

let c_ret_type = function
  | RBool | RErr | RFd | RInt | REnum _ -> "int"
  | RInt64 | RCookie -> "int64_t"
  | RSizeT -> "ssize_t"
  | RString -> "char *"
  | RStaticString -> "const char *"
  | RUInt -> "unsigned"
  | RUIntPtr -> "uintptr_t"
  | RUInt64 -> "uint64_t"
  | RFlags _ -> "uint32_t"

let c_err_value = function
  | RBool | RErr | RFd | RInt | REnum _ | RInt64 | RCookie | RSizeT -> Some "-1"
  | RString | RStaticString -> Some "NULL"
  | RUInt | RUIntPtr | RUInt64 | RFlags _ -> None

let is_pointer_type t = String.contains t '*'

(* Print "ret name (params)" wrapped at 80 columns. *)
let pr_prototype ?(semi = false) ?(extern = false) ?(newline = false)
      ret name params =
  let params = ("struct nbd_handle *", "h") :: params in
  let head =
    if newline then sprintf "%s\n%s (" ret name
    else sprintf "%s%s%s%s (" (if extern then "extern " else "") ret
           (if is_pointer_type ret && ret.[String.length ret - 1] = '*'
            then "" else " ") name in
  pr "%s" head;
  let indent =
    let last_line =
      match String.rindex_opt head '\n' with
      | Some i -> String.sub head (i + 1) (String.length head - i - 1)
      | None -> head in
    String.length last_line in
  let col = ref indent in
  List.iteri (fun i (t, n) ->
    let sep = if is_pointer_type t && t.[String.length t - 1] = '*'
              then "" else " " in
    let s = sprintf "%s%s%s" t sep n in
    let s = if i < List.length params - 1 then s ^ "," else s ^ ")" in
    if i > 0 then (
      if !col + 1 + String.length s > 78 then (
        pr "\n%s" (String.make indent ' '); col := indent
      ) else (pr " "; incr col)
    );
    pr "%s" s; col := !col + String.length s
  ) params;
  if semi then pr ";\n"

let all_params c =
  List.concat_map c_params_of_arg c.args
  @ List.concat_map c_params_of_optarg c.optargs
let all_unlocked_params c =
  List.concat_map unlocked_params_of_arg c.args
  @ List.concat_map unlocked_params_of_optarg c.optargs

(* 1-based positions of pointer parameters that must not be NULL. *)
let nonnull_positions c =
  let pos = ref 1 in
  let acc = ref [ 1 ] in
  let add nonnull = incr pos; if nonnull then acc := !pos :: !acc in
  List.iter (function
    | BytesIn _ | BytesOut _ | BytesPersistIn _ | BytesPersistOut _ ->
       add true; add false
    | Path _ | String _ | StringList _ -> add true
    | SockAddrAndLen _ -> add true; add false
    | _ -> add false
  ) c.args;
  List.rev !acc

(* ---- the hand-written calls ---- *)

let hw_ret_type = function
  | HWNewHandle -> "struct nbd_handle *"
  | HWNothing -> "void"
  | HWStaticString -> "const char *"
  | HWInt -> "int"

let hw_params = function
  | HWVoid -> "void"
  | HWHandleOrNull -> "struct nbd_handle *h"

(* "const char *nbd_get_error (void)", without the semicolon. *)
let hw_prototype h =
  let ret = hw_ret_type h.hw_ret in
  sprintf "%s%snbd_%s (%s)" ret
    (if is_pointer_type ret then "" else " ") h.hw_name (hw_params h.hw_arg)

(* A new handle is freed by nbd_close; a handle argument may be NULL. *)
let pr_handwritten_decl h =
  pr "extern %s" (hw_prototype h);
  (match h.hw_ret, h.hw_arg with
   | HWNewHandle, _ -> pr "\n    LIBNBD_ATTRIBUTE_ALLOC_DEALLOC(nbd_close);\n"
   | _, HWHandleOrNull -> pr "; /* h can be NULL */\n"
   | _, HWVoid -> pr ";\n");
  pr "#define LIBNBD_HAVE_NBD_%s 1\n\n" (String.uppercase_ascii h.hw_name)

(* ---- include/libnbd.h ---- *)

(* "base", "allocation" -> "BASE_ALLOCATION": the name of a meta
   context's constant (LIBNBD_CONTEXT_..., nbd.CONTEXT_..., Go's
   CONTEXT_...), without a trailing '_' from a name ending in ':'. *)
let context_name ns ctxt =
  let s = String.uppercase_ascii ns ^ "_" ^
            String.uppercase_ascii
              (String.map (function '-' | ':' -> '_' | c -> c) ctxt) in
  if s.[String.length s - 1] = '_' then String.sub s 0 (String.length s - 1)
  else s

(* The C parameters of a closure's callback after its user_data, as
   libnbd.h declares them; the bindings' trampolines use them too. *)
let c_cb_params cl =
  List.concat_map (function
    | CBArrayAndLen (t, a, l) ->
       [ sprintf "%s *%s" (c_array_elt t) a; sprintf "size_t %s" l ]
    | CBBytesIn (b, c) -> [ sprintf "const void *%s" b; sprintf "size_t %s" c ]
    | CBInt n -> [ "int " ^ n ]
    | CBUInt n -> [ "unsigned " ^ n ]
    | CBUInt64 n -> [ "uint64_t " ^ n ]
    | CBMutable n -> [ "int *" ^ n ]
    | CBString n -> [ "const char *" ^ n ]
  ) cl.cbargs

let pr_closure_typedef cl =
  pr "typedef struct {\n";
  let params = c_cb_params cl in
  pr "  int (*callback) (%s);\n"
    (String.concat ", " ("void *user_data" :: params));
  pr "  void *user_data;\n";
  pr "  void (*free) (void *user_data);\n";
  pr "} %s;\n" (closure_type cl);
  pr "#define LIBNBD_HAVE_%s 1\n\n" (String.uppercase_ascii (closure_type cl))

let generate_include_libnbd_h () =
  generated_header "NBD client library in userspace";
  pr "#ifndef LIBNBD_H\n#define LIBNBD_H\n\n";
  pr "/* The public interface of libnbd, a client library for Network\n";
  pr " * Block Device (NBD) servers.  See libnbd(3).\n */\n\n";
  pr "#include <stdbool.h>\n#include <stdint.h>\n#include <sys/socket.h>\n";
  pr "#include <sys/types.h>\n\n";
  pr "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  pr "#if defined(__GNUC__)\n";
  pr "#define LIBNBD_GCC_VERSION \\\n";
  pr "    (__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)\n";
  pr "#endif\n\n";
  pr "#ifndef LIBNBD_ATTRIBUTE_NONNULL\n";
  pr "#if defined(__GNUC__) && LIBNBD_GCC_VERSION >= 120000 /* gcc >= 12.0 */\n";
  pr "#define LIBNBD_ATTRIBUTE_NONNULL(...) __attribute__((__nonnull__(__VA_ARGS__)))\n";
  pr "#else\n#define LIBNBD_ATTRIBUTE_NONNULL(...)\n#endif\n";
  pr "#endif /* ! defined LIBNBD_ATTRIBUTE_NONNULL */\n\n";
  pr "#if defined(__GNUC__) && LIBNBD_GCC_VERSION >= 120000 /* gcc >= 12.0 */\n";
  pr "#define LIBNBD_ATTRIBUTE_ALLOC_DEALLOC(fn) \\\n";
  pr "  __attribute__((__malloc__, __malloc__(fn, 1)))\n";
  pr "#else\n#define LIBNBD_ATTRIBUTE_ALLOC_DEALLOC(fn)\n#endif\n\n";
  pr "struct nbd_handle;\n\n";
  List.iter (fun e ->
    List.iter (fun (n, v) ->
      pr "#define LIBNBD_%-36s %d\n" (e.enum_prefix ^ "_" ^ n) v
    ) e.enums;
    pr "\n"
  ) API.all_enums;
  List.iter (fun f ->
    let mask = List.fold_left (fun m (_, v) -> m lor v) 0 f.flags in
    List.iter (fun (n, v) ->
      pr "#define LIBNBD_%-36s 0x%02xU\n" (f.flag_prefix ^ "_" ^ n) v
    ) f.flags;
    pr "#define LIBNBD_%-36s 0x%02xU\n\n" (f.flag_prefix ^ "_MASK") mask
  ) API.all_flags;
  List.iter (fun (n, v) -> pr "#define LIBNBD_%-36s %d\n" n v) API.constants;
  pr "\n";
  List.iter pr_handwritten_decl API.handwritten_calls;
  pr "/* A block status extent of the 64-bit callback. */\n";
  pr "typedef struct {\n  uint64_t length;\n  uint64_t flags;\n} nbd_extent;\n\n";
  pr "/* Callbacks are passed by value, not by reference.  See CALLBACKS\n";
  pr " * in libnbd(3).\n */\n";
  List.iter pr_closure_typedef API.all_closures;
  pr "/* NBD_NULL_* exist for the callbacks that are optional. */\n";
  pr "#define NBD_NULL_COMPLETION ((nbd_completion_callback) { .callback = NULL })\n\n";
  List.iter (fun (name, c) ->
    pr_prototype ~extern:true (c_ret_type c.ret) ("nbd_" ^ name)
      (all_params c);
    pr "\n";
    if c.ret = RString then
      pr "    LIBNBD_ATTRIBUTE_ALLOC_DEALLOC(__builtin_free)\n";
    pr "    LIBNBD_ATTRIBUTE_NONNULL(%s);\n"
      (String.concat "," (List.map string_of_int (nonnull_positions c)));
    pr "#define LIBNBD_HAVE_NBD_%s 1\n\n" (String.uppercase_ascii name)
  ) calls;
  List.iter (fun (ns, ctxts) ->
    pr "/* \"%s\" namespace */\n" ns;
    pr "#define LIBNBD_NAMESPACE_%s \"%s:\"\n\n" (String.uppercase_ascii ns) ns;
    List.iter (fun (ctxt, consts) ->
      pr "#define LIBNBD_CONTEXT_%s \"%s:%s\"\n"
        (context_name ns ctxt) ns ctxt;
      List.iter (fun (n, v) -> pr "#define LIBNBD_%-30s %d\n" n v) consts;
      pr "\n"
    ) ctxts
  ) API.metadata_namespaces;
  pr "#ifdef __cplusplus\n}\n#endif\n\n#endif /* LIBNBD_H */\n"

(* ---- lib/unlocked.h ---- *)

let generate_lib_unlocked_h () =
  generated_header "libnbd: the work functions behind the public calls";
  pr "#ifndef LIBNBD_UNLOCKED_H\n#define LIBNBD_UNLOCKED_H\n\n";
  pr "/* nbd_unlocked_X implements nbd_X with the handle already locked\n";
  pr " * and the state and arguments checked.  Closures come by pointer:\n";
  pr " * a function that keeps one copies it and clears the caller's.\n */\n\n";
  List.iter (fun (name, c) ->
    pr_prototype ~extern:true (c_ret_type c.ret) ("nbd_unlocked_" ^ name)
      (all_unlocked_params c) ~semi:true
  ) calls;
  pr "\n#endif /* LIBNBD_UNLOCKED_H */\n"

(* ---- lib/libnbd.syms ---- *)

let generate_lib_libnbd_syms () =
  generated_header ~comment:"#" "libnbd: the ELF symbol versions";
  let versions =
    List.sort_uniq compare
      (List.map (fun (_, c) -> c.first_version) calls
       @ List.map (fun h -> h.hw_first_version) API.handwritten_calls) in
  let prev = ref None in
  List.iter (fun (maj, min) ->
    pr "LIBNBD_%d.%d {\n  global:\n" maj min;
    let names =
      List.filter_map (fun (n, c) ->
        if c.first_version = (maj, min) then Some ("nbd_" ^ n) else None
      ) calls
      @ List.filter_map (fun h ->
          if h.hw_first_version = (maj, min) then Some ("nbd_" ^ h.hw_name)
          else None
        ) API.handwritten_calls in
    List.iter (pr "    %s;\n") (List.sort compare names);
    if !prev = None then pr "  local: *;\n";
    (match !prev with
     | None -> pr "};\n\n"
     | Some (a, b) -> pr "} LIBNBD_%d.%d;\n\n" a b);
    prev := Some (maj, min)
  ) versions

(* ---- lib/api.c ---- *)

let permitted_name = function
  | Created -> "created" | Connecting -> "connecting"
  | Negotiating -> "negotiating" | Connected -> "connected"
  | Closed -> "closed" | Dead -> "dead"

let state_test = function
  | Created -> [ "nbd_internal_is_state_created (state)" ]
  | Connecting -> [ "nbd_internal_is_state_connecting (state)" ]
  | Negotiating -> [ "nbd_internal_is_state_negotiating (state)" ]
  | Connected -> [ "nbd_internal_is_state_ready (state)";
                   "nbd_internal_is_state_processing (state)" ]
  | Closed -> [ "nbd_internal_is_state_closed (state)" ]
  | Dead -> [ "nbd_internal_is_state_dead (state)" ]

let describe_states states =
  let words = List.map (function
    | Created -> "newly created"
    | Connecting -> "connecting"
    | Negotiating -> "negotiating"
    | Connected -> "connected with the server"
    | Closed -> "shut down"
    | Dead -> "dead") states in
  match List.rev words with
  | [] -> ""
  | [ w ] -> w
  | last :: rest -> String.concat ", " (List.rev rest) ^ " or " ^ last

let pr_state_check name c =
  pr "static inline bool\n%s_in_permitted_state (struct nbd_handle *h)\n{\n"
    name;
  pr "  const enum state state = nbd_internal_get_public_state (h);\n\n";
  let tests = List.concat_map state_test c.permitted_states in
  pr "  if (!(%s)) {\n" (String.concat " ||\n        " tests);
  (* Not connected yet: ENOTCONN; any other wrong state: EINVAL. *)
  pr "    int err = nbd_internal_is_state_created (state)\n";
  pr "              ? ENOTCONN : EINVAL;\n";
  pr "    set_error (err, \"invalid state: %%s: the handle must be %%s\",\n";
  pr "               nbd_internal_state_short_string (state),\n";
  (* libnbd's words: the states joined by ", or ". *)
  pr "               \"%s\");\n"
    (String.concat ", or " (List.map (fun s -> describe_states [ s ])
                              c.permitted_states));
  pr "    return false;\n  }\n  return true;\n}\n\n"

(* The bound of RefusedIfStrict, as the C limit it is. *)
let c_max_name = function
  | 0xffff -> "UINT16_MAX"
  | n -> sprintf "0x%xU" n

let flags_mask f allowed =
  List.fold_left (fun m (n, v) ->
    match allowed with
    | None -> m lor v
    | Some l -> if List.mem n l then m lor v else m
  ) 0 f.flags

let pr_arg_checks name c errcode =
  let fail () = pr "    ret = %s;\n    goto out;\n  }\n" errcode in
  List.iter (function
    | BytesIn (b, _) | BytesOut (b, _)
    | BytesPersistIn (b, _) | BytesPersistOut (b, _)
    | Path b | String b | StringList b | SockAddrAndLen (b, _) ->
       pr "  if (%s == NULL) {\n" b;
       pr "    set_error (EFAULT, \"%%s cannot be NULL\", \"%s\");\n" b;
       fail ()
    | Closure cl ->
       (* A closure is NULL only when both its callback and its free
          function are. *)
       pr "  if (%s.callback == NULL && %s.free == NULL) {\n"
         (closure_param cl) (closure_param cl);
       pr "    set_error (EFAULT, \"%%s cannot be NULL\", \"%s\");\n"
         cl.cbname;
       fail ()
    | Enum (n, e) ->
       pr "  switch (%s) {\n" n;
       List.iter (fun (en, _) ->
         pr "  case LIBNBD_%s_%s:\n" e.enum_prefix en) e.enums;
       pr "    break;\n  default:\n";
       pr "    set_error (EINVAL, \"%%s: invalid value for parameter: %%d\",\n";
       pr "               \"%s\", %s);\n" n n;
       pr "    ret = %s;\n    goto out;\n  }\n" errcode
    | Flags (n, f) ->
       pr "  if (unlikely ((%s & ~0x%xU) != 0)) {\n" n (flags_mask f None);
       pr "    set_error (EINVAL, \"%%s: invalid value for flag: %%u\",\n";
       pr "               \"%s\", %s);\n" n n;
       fail ()
    | _ -> ()
  ) c.args;
  List.iter (function
    | OFlags (n, f, allowed) ->
       let mask = flags_mask f allowed in
       (match f.unknown with
        | RefusedIfStrict max ->
           pr "  if (unlikely ((%s & ~0x%xU) != 0) &&\n" n mask;
           pr "      ((h->strict & LIBNBD_STRICT_FLAGS) || %s > %s)) {\n" n
             (c_max_name max)
        | Refused ->
           pr "  if (unlikely ((%s & ~0x%xU) != 0)) {\n" n mask);
       pr "    set_error (EINVAL, \"%%s: invalid value for flag: %%u\",\n";
       pr "               \"%s\", %s);\n" n n;
       fail ()
    | OClosure _ -> ()
  ) c.optargs;
  ignore name

(* Arguments as passed to the unlocked function. *)
let unlocked_call_args c =
  let of_arg = function
    | Closure cl -> [ "&" ^ closure_param cl ]
    | a -> List.map snd (c_params_of_arg a) in
  let of_optarg = function
    | OClosure cl -> [ "&" ^ closure_param cl ]
    | o -> List.map snd (c_params_of_optarg o) in
  List.concat_map of_arg c.args @ List.concat_map of_optarg c.optargs

let closures_of c =
  List.filter_map (function Closure cl -> Some cl | _ -> None) c.args
  @ List.filter_map (function OClosure cl -> Some cl | _ -> None) c.optargs

(* Debug trace of the arguments: a format and its values. *)
let debug_args c =
  let parts = List.concat_map (function
    | Bool n -> [ n ^ "=%s", sprintf "%s ? \"true\" : \"false\"" n ]
    | BytesIn (b, cn) | BytesPersistIn (b, cn)
    | BytesOut (b, cn) | BytesPersistOut (b, cn) ->
       [ b ^ "=<buf>", ""; cn ^ "=%zu", cn ]
    | Closure cl -> [ closure_param cl ^ "=<fun>", "" ]
    | Enum (n, _) | Fd n | Int n -> [ n ^ "=%d", n ]
    | Flags (n, _) | UInt32 n -> [ n ^ "=0x%x", n ]
    | Int64 n -> [ n ^ "=%\" PRIi64 \"", n ]
    | Path n | String n ->
       [ n ^ "=\\\"%s\\\"", n ]
    | SizeT n -> [ n ^ "=%zu", n ]
    | SockAddrAndLen (a, _) -> [ a ^ "=<sockaddr>", "" ]
    | StringList n -> [ n ^ "=<list>", "" ]
    | UInt64 n -> [ n ^ "=%\" PRIu64 \"", n ]
    | UIntPtr n -> [ n ^ "=0x%\" PRIxPTR \"", n ]
  ) c.args @ List.concat_map (function
    | OClosure cl -> [ closure_param cl ^ "=<fun>", "" ]
    | OFlags (n, _, _) -> [ n ^ "=0x%x", n ]
  ) c.optargs in
  let fmt = String.concat " " (List.map fst parts) in
  let vals = List.filter (fun v -> v <> "") (List.map snd parts) in
  fmt, vals

let pr_debug_leave c =
  match c.ret with
  | RBool | RErr | RFd | RInt | REnum _ ->
     pr "    debug (h, \"leave: ret=%%d\", ret);\n"
  | RInt64 | RCookie -> pr "    debug (h, \"leave: ret=%%\" PRIi64, ret);\n"
  | RSizeT -> pr "    debug (h, \"leave: ret=%%zd\", ret);\n"
  | RString | RStaticString ->
     pr "    debug (h, \"leave: ret=%%s\", ret ? \"<string>\" : \"NULL\");\n"
  | RUInt | RFlags _ -> pr "    debug (h, \"leave: ret=%%u\", ret);\n"
  | RUIntPtr -> pr "    debug (h, \"leave: ret=%%\" PRIuPTR, ret);\n"
  | RUInt64 -> pr "    debug (h, \"leave: ret=%%\" PRIu64, ret);\n"

(* Does the wrapper check any argument (and so possibly fail)? *)
let has_arg_checks c =
  List.exists (function
    | BytesIn _ | BytesOut _ | BytesPersistIn _ | BytesPersistOut _
    | Path _ | String _ | StringList _ | SockAddrAndLen _ | Closure _
    | Enum _ | Flags _ -> true
    | _ -> false) c.args
  || List.exists (function OFlags _ -> true | _ -> false) c.optargs

(* pread_initialize: the read buffer a call zeroes.  An aio read
   (BytesPersistOut), or one with a chunk callback (which may look at
   the whole buffer), is zeroed first, even if the call then fails, as
   in libnbd: after the call only the server's data writes it.  The
   synchronous read without one is zeroed only if the call fails
   before reaching lib/, which zeroes what a failed read did not fill
   before the call returns (lib/commands.c).  Returns (eager, late)
   buffer and count. *)
let zeroed_read_buffers c =
  let has_chunk_cb = List.exists (function
    | Closure { cbname = "chunk"; _ } -> true | _ -> false) c.args in
  let eager = List.filter_map (function
    | BytesOut (b, cn) when has_chunk_cb -> Some (b, cn)
    | BytesPersistOut (b, cn) -> Some (b, cn)
    | _ -> None) c.args in
  let late = List.filter_map (function
    | BytesOut (b, cn) when not has_chunk_cb -> Some (b, cn)
    | _ -> None) c.args in
  eager, late

let pr_zero_buffers ?(indent = "  ") bufs =
  List.iter (fun (b, cn) ->
    pr "%sif (h->pread_initialize && %s != NULL)\n" indent b;
    pr "%s  memset (%s, 0, %s);\n" indent b cn) bufs

(* Take the handle lock (an error-checking mutex, lib/handle.c).  If
   this thread holds it already, the call comes from a callback of the
   same handle, which with libnbd's plain mutex waits for ever.  A call
   that can fail fails with EDEADLK, its buffers zeroed and closures
   freed as for any failure.  The getters that cannot fail read under
   the hold the callback's caller has, untraced (a debug callback that
   asks nbd_get_debug would be called again): true if the wrapper must
   then leave the lock alone ("nested"). *)
let pr_lock c eager late errcode =
  match c_err_value c.ret with
  | Some _ when c.may_set_error ->
     pr "  if (unlikely (pthread_mutex_lock (&h->lock) != 0)) {\n";
     pr "    nbd_internal_refuse_nested_call ();\n";
     pr_zero_buffers ~indent:"    " (eager @ late);
     List.iter (fun cl -> pr "    FREE_CALLBACK (%s);\n" (closure_param cl))
       (closures_of c);
     pr "    return %s;\n  }\n" errcode;
     false
  | _ ->
     pr "  bool nested = pthread_mutex_lock (&h->lock) != 0;\n";
     true

let pr_wrapper (name, c) =
  let ret_t = c_ret_type c.ret in
  let has_states = c.permitted_states <> [] in
  if has_states then pr_state_check name c;
  pr_prototype ~newline:true ret_t ("nbd_" ^ name) (all_params c);
  pr "\n{\n";
  pr "  %s%sret;\n" ret_t (if ret_t.[String.length ret_t - 1] = '*' then ""
                           else " ");
  let eager, late = zeroed_read_buffers c in
  if late <> [] then pr "  bool reached = false;\n";
  let errcode = match c_err_value c.ret with Some e -> e | None -> "0" in
  (* Argument checks can fail even in calls that otherwise cannot. *)
  if c.may_set_error || has_arg_checks c then
    pr "\n  nbd_internal_set_error_context (\"nbd_%s\");\n" name;
  let nested = c.is_locked && pr_lock c eager late errcode in
  let fmt, vals = debug_args c in
  if c.is_locked then (
    pr "  if (h->debug%s) {\n" (if nested then " && !nested" else "");
    if vals = [] then pr "    debug (h, \"enter:%s%s\");\n"
                        (if fmt = "" then "" else " ") fmt
    else pr "    debug (h, \"enter: %s\", %s);\n" fmt (String.concat ", " vals);
    pr "  }\n"
  );
  pr_zero_buffers eager;
  pr "\n";
  if has_states then (
    pr "  if (unlikely (!%s_in_permitted_state (h))) {\n" name;
    pr "    ret = %s;\n    goto out;\n  }\n" errcode
  );
  pr_arg_checks name c errcode;
  if late <> [] then pr "  reached = true;\n";
  pr "  ret = nbd_unlocked_%s (%s);\n" name
    (String.concat ", " ("h" :: unlocked_call_args c));
  if has_states || has_arg_checks c then pr "\n out:\n";
  if late <> [] then (
    pr "  if (!reached) {\n";
    pr_zero_buffers ~indent:"    " late;
    pr "  }\n"
  );
  (* Free what the implementation did not take. *)
  List.iter (fun cl -> pr "  FREE_CALLBACK (%s);\n" (closure_param cl))
    (closures_of c);
  if c.is_locked then (
    pr "  if (h->debug%s) {\n" (if nested then " && !nested" else "");
    (match c_err_value c.ret with
     | Some e when c.may_set_error ->
        pr "    if (ret == %s)\n" e;
        pr "      debug (h, \"leave: error=\\\"%%s\\\"\", nbd_get_error ());\n";
        pr "    else\n  ";
     | _ -> ());
    pr_debug_leave c;
    pr "  }\n";
    pr "  %spthread_mutex_unlock (&h->lock);\n"
      (if nested then "if (!nested)\n    " else "")
  );
  pr "  return ret;\n}\n\n"

let generate_lib_api_c () =
  generated_header "libnbd: the public calls (locking, checks, tracing)";
  pr "#include <config.h>\n\n#include <stdio.h>\n#include <stdlib.h>\n";
  pr "#include <stdint.h>\n#include <inttypes.h>\n#include <string.h>\n";
  pr "#include <errno.h>\n#include <pthread.h>\n\n";
  pr "#include \"internal.h\"\n\n";
  pr "/* Each call: error context, lock, read-buffer zeroing, state check,\n";
  pr " * argument checks, the unlocked call, freeing closures it did not\n";
  pr " * take, unlock.  Hand-written code never repeats any of these.\n */\n\n";
  List.iter pr_wrapper calls
