(* Emitters of the OCaml bindings: ocaml/NBD.mli, ocaml/NBD.ml (the
   module NBD of the findlib package nbd), ocaml/nbd-c.c (one C stub
   per call and the closure trampolines) and the libnbd-ocaml(3) page,
   all from the API table.  The hand-written half is ocaml/nbd-c.h,
   handle.c, buffer.c and helpers.c. *)

open Printf
open Types
open Utils

(* Every call of the table is a function of NBD; the hand-written
   ones are NBD.create, NBD.close and NBD.with_handle, and the error
   calls become the exception NBD.Error. *)
let calls = API.handle_calls

let ocaml_keywords = [
  "and"; "as"; "assert"; "begin"; "class"; "constraint"; "do"; "done";
  "downto"; "else"; "end"; "exception"; "external"; "false"; "for";
  "fun"; "function"; "functor"; "if"; "in"; "include"; "inherit";
  "initializer"; "lazy"; "let"; "match"; "method"; "module"; "mutable";
  "new"; "nonrec"; "object"; "of"; "open"; "or"; "private"; "rec";
  "sig"; "struct"; "then"; "to"; "true"; "try"; "type"; "val";
  "virtual"; "when"; "while"; "with"
]

(* ---- OCaml types ---- *)

let cbarg_type = function
  | CBArrayAndLen (ElemUInt32, _, _) -> "int64 array"
  | CBArrayAndLen (ElemExtent64, _, _) -> "extent array"
  | CBBytesIn _ -> "bytes"
  | CBInt _ | CBUInt _ -> "int"
  | CBUInt64 _ -> "int64"
  | CBMutable _ -> "int ref"
  | CBString _ -> "string"

(* A callback returns an int to libnbd: -1 fails the command. *)
let closure_type cl =
  sprintf "(%s -> int)"
    (String.concat " -> " (List.map cbarg_type cl.cbargs))

let arg_type = function
  | Bool _ -> "bool"
  | BytesIn _ | BytesOut _ -> "bytes"
  | BytesPersistIn _ | BytesPersistOut _ -> "Buffer.t"
  | Closure cl -> closure_type cl
  | Enum (_, e) -> e.enum_prefix ^ ".t"
  | Fd _ -> "Unix.file_descr"
  | Flags (_, f) -> f.flag_prefix ^ ".t list"
  | Int _ | SizeT _ | UIntPtr _ -> "int"
  | Int64 _ | UInt64 _ -> "int64"
  | UInt32 _ -> "int64 (* uint32_t *)"
  | Path _ | String _ -> "string"
  | SockAddrAndLen _ -> "Unix.sockaddr"
  | StringList _ -> "string list"

let optarg_type = function
  | OClosure cl -> sprintf "?%s:%s" cl.cbname (closure_type cl)
  | OFlags (n, f, _) -> sprintf "?%s:%s.t list" n f.flag_prefix

let ret_type = function
  | RBool -> "bool"
  | RStaticString | RString -> "string"
  | RErr -> "unit"
  | RFd -> "Unix.file_descr"
  | RInt | RSizeT | RUInt | RUIntPtr -> "int"
  | RInt64 | RUInt64 -> "int64"
  | RCookie -> "cookie"
  | REnum e -> e.enum_prefix ^ ".t"
  | RFlags f -> f.flag_prefix ^ ".t list"

(* "?completion:... -> ?flags:... -> t -> arg -> ... -> ret" *)
let signature c =
  String.concat " -> "
    (List.map optarg_type c.optargs @ [ "t" ]
     @ List.map arg_type c.args @ [ ret_type c.ret ])

(* Values the stub takes: optargs first, the handle, then args. *)
let nr_values c = List.length c.optargs + 1 + List.length c.args

let stub_name name = "mlnbd_" ^ name

let check_calls () =
  List.iter (fun (name, c) ->
    if List.mem name ocaml_keywords then
      failwithf "OCaml: %s is an OCaml keyword" name;
    let persist = List.exists (function
      | BytesPersistIn _ | BytesPersistOut _ -> true | _ -> false) c.args in
    let completion = List.exists (function
      | OClosure { cbname = "completion"; _ } -> true | _ -> false)
      c.optargs in
    if persist && not completion then
      failwithf "OCaml: %s: a persistent buffer needs a completion" name
  ) calls

(* The header of a generated OCaml file. *)
let ml_header what =
  pr "(* %s\n" what;
  pr "   WARNING: THIS FILE IS GENERATED FROM\n";
  pr "   %s\n" generated_by;
  pr "   ANY CHANGES YOU MAKE TO THIS FILE WILL BE LOST. *)\n\n"

(* ---- documentation comments ---- *)

(* POD to the text of an OCaml comment: L<nbd_foo(3)> names NBD.foo.
   A comment must not close early or open a string it does not
   close, so quotes and comment brackets are defused. *)
let comment_text where pod =
  let s = Python.doc_text where pod in
  let b = Buffer.create (String.length s) in
  let n = String.length s in
  String.iteri (fun i ch ->
    match ch with
    | '"' -> Buffer.add_char b '\''
    | '*' when i + 1 < n && s.[i + 1] = ')' -> Buffer.add_string b "* "
    | '(' when i + 1 < n && s.[i + 1] = '*' -> Buffer.add_string b "( "
    | '{' | '}' | '[' | ']' | '@' ->
       Buffer.add_char b '\\'; Buffer.add_char b ch
    | ch -> Buffer.add_char b ch) s;
  Buffer.contents b

let pr_doc_comment indent where shortdesc longdesc =
  pr "%s(** %s\n\n" indent (comment_text where shortdesc);
  List.iter (fun l ->
    if String.trim l = "" then pr "\n" else pr "%s    %s\n" indent l
  ) (String.split_on_char '\n' (comment_text where longdesc));
  pr "%s*)\n" indent

(* ---- the parts NBD.mli and NBD.ml share ---- *)

let flags_mask f = List.fold_left (fun m (_, v) -> m lor v) 0 f.flags

let pr_enum_type e =
  pr "  type t =\n";
  List.iter (fun (n, _) -> pr "  | %s\n" n) e.enums;
  pr "  | UNKNOWN of int\n"

let pr_flags_type f =
  pr "  type t =\n";
  List.iter (fun (n, _) -> pr "  | %s\n" n) f.flags;
  pr "  | UNKNOWN of int\n"

(* Constants are int32, as in libnbd 1.22; namespace and context names
   are strings. *)
let constants () =
  List.map (fun (n, v) -> String.lowercase_ascii n, `Int v) API.constants
  @ List.concat_map (fun (ns, ctxts) ->
      (sprintf "namespace_%s" ns, `Str (ns ^ ":"))
      :: List.concat_map (fun (ctxt, consts) ->
           (sprintf "context_%s" (String.lowercase_ascii
                                    (C.context_name ns ctxt)),
            `Str (ns ^ ":" ^ ctxt))
           :: List.map (fun (n, v) -> String.lowercase_ascii n, `Int v)
                consts
         ) ctxts
    ) API.metadata_namespaces

(* ---- NBD.mli ---- *)

let generate_ocaml_nbd_mli () =
  check_calls ();
  ml_header "ocaml/NBD.mli: OCaml bindings for libnbd.";
  pr "(** OCaml bindings for libnbd.\n\n";
  pr "    {[\n      NBD.with_handle (fun nbd ->\n";
  pr "        NBD.connect_uri nbd \"nbd+unix:///?socket=/tmp/sock\";\n";
  pr "        let buf = Bytes.create 512 in\n";
  pr "        NBD.pread nbd buf 0L)\n    ]}\n\n";
  pr "    Each C call nbd_X is the function [NBD.X]; see libnbd(3) and\n";
  pr "    libnbd-ocaml(3). *)\n\n";
  pr "exception Error of string * Unix.error option\n";
  pr "(** A failed call: the error message, and the errno as a\n";
  pr "    [Unix.error] when there is one. *)\n\n";
  pr "exception Closed of string\n";
  pr "(** A call on a handle after {!close}; the string names the call. *)\n\n";
  pr "type cookie = int64\n(** The cookie of an asynchronous command. *)\n\n";
  pr "type extent = int64 * int64\n";
  pr "(** A block status entry of 64 bits: length and flags. *)\n\n";
  List.iter (fun e ->
    pr "module %s : sig\n" e.enum_prefix;
    pr_enum_type e;
    pr "end\n\n") API.all_enums;
  List.iter (fun f ->
    pr "module %s : sig\n" f.flag_prefix;
    pr_flags_type f;
    pr "\n  val mask : t list\n  (** Every flag of the set. *)\nend\n\n"
  ) API.all_flags;
  List.iter (function
    | n, `Int _ -> pr "val %s : int32\n" n
    | n, `Str _ -> pr "val %s : string\n" n) (constants ());
  pr "\n";
  pr "module Buffer : sig\n";
  pr "  type t =\n";
  pr "    (char, Bigarray.int8_unsigned_elt, Bigarray.c_layout) \
      Bigarray.Array1.t\n";
  pr "  (** The buffer of an asynchronous read or write: a Bigarray, whose\n";
  pr "      bytes are outside the OCaml heap, so they stay where they are\n";
  pr "      until the command retires.  A command keeps its buffer alive\n";
  pr "      until then. *)\n\n";
  pr "  val alloc : int -> t\n  (** A buffer of this many bytes, not \
      initialised. *)\n\n";
  pr "  val to_bytes : t -> bytes\n  (** A copy of the buffer. *)\n\n";
  pr "  val to_string : t -> string\n  (** A copy of the buffer. *)\n\n";
  pr "  val of_bytes : bytes -> t\n  (** A new buffer holding a copy. *)\n\n";
  pr "  val of_string : string -> t\n  (** A new buffer holding a copy. *)\n\n";
  pr "  val size : t -> int\n  (** The size of the buffer in bytes. *)\n\n";
  pr "  val is_zero : ?sub:(int * int) -> t -> bool\n";
  pr "  (** Whether every byte of the buffer is zero; with\n";
  pr "      [~sub:(offset, len)], of those bytes only.  The range must\n";
  pr "      lie inside the buffer, or it raises [Invalid_argument]; an\n";
  pr "      empty range is all zero. *)\n";
  pr "end\n";
  pr "(** Buffers of asynchronous commands. *)\n\n";
  pr "val errno_of_unix_error : Unix.error -> int\n";
  pr "(** The C errno of a [Unix.error], to store in the [int ref] error\n";
  pr "    argument of a callback. *)\n\n";
  pr "type t\n(** The handle. *)\n\n";
  pr "val create : unit -> t\n";
  pr "(** A new handle; it is closed when it is garbage collected, or\n";
  pr "    earlier by {!close}. *)\n\n";
  pr "val close : t -> unit\n";
  pr "(** Close the handle.  Any later call on it raises {!Closed};\n";
  pr "    closing it again does nothing.  Calls already running on the\n";
  pr "    handle (in other threads, or the call whose callback closes\n";
  pr "    it) finish first: the last of them to return closes it. *)\n\n";
  pr "val with_handle : (t -> 'a) -> 'a\n";
  pr "(** [with_handle f] calls [f] with a new handle and closes the\n";
  pr "    handle when [f] returns or raises. *)\n\n";
  List.iter (fun (name, c) ->
    pr "val %s : %s\n" name (signature c);
    pr_doc_comment "" ("nbd_" ^ name) c.shortdesc c.longdesc;
    pr "\n") calls

(* ---- NBD.ml ---- *)

let generate_ocaml_nbd_ml () =
  ml_header "ocaml/NBD.ml: OCaml bindings for libnbd.";
  pr "exception Error of string * Unix.error option\n";
  pr "exception Closed of string\n";
  pr "type cookie = int64\n";
  pr "type extent = int64 * int64\n\n";
  pr "(* The C stubs raise these by name. *)\n";
  pr "let () =\n";
  pr "  Callback.register_exception \"mlnbd_error\" (Error (\"\", None));\n";
  pr "  Callback.register_exception \"mlnbd_closed\" (Closed \"\");\n";
  pr "  Callback.register_exception \"mlnbd_assert_failure\"\n";
  pr "    (Assert_failure (\"\", 0, 0))\n\n";
  List.iter (fun e ->
    pr "module %s = struct\n" e.enum_prefix;
    pr_enum_type e;
    pr "end\n\n") API.all_enums;
  List.iter (fun f ->
    pr "module %s = struct\n" f.flag_prefix;
    pr_flags_type f;
    pr "\n  let mask = [ %s ]\nend\n\n"
      (String.concat "; " (List.map fst f.flags))
  ) API.all_flags;
  List.iter (function
    | n, `Int v -> pr "let %s = %ldl\n" n (Int32.of_int v)
    | n, `Str s -> pr "let %s = %S\n" n s) (constants ());
  pr "\n";
  pr "module Buffer = struct\n";
  pr "  type t =\n";
  pr "    (char, Bigarray.int8_unsigned_elt, Bigarray.c_layout) \
      Bigarray.Array1.t\n\n";
  pr "  let alloc n = Bigarray.Array1.create Bigarray.char \
      Bigarray.c_layout n\n";
  pr "  let size = Bigarray.Array1.dim\n\n";
  pr "  external to_bytes : t -> bytes = \"mlnbd_buffer_to_bytes\"\n";
  pr "  external to_string : t -> string = \"mlnbd_buffer_to_bytes\"\n";
  pr "  external blit_from : string -> t -> unit = \
      \"mlnbd_buffer_blit_from\"\n";
  pr "  external is_zero : ?sub:(int * int) -> t -> bool =\n";
  pr "    \"mlnbd_buffer_is_zero\"\n\n";
  pr "  let of_string s =\n";
  pr "    let buf = alloc (String.length s) in\n";
  pr "    blit_from s buf;\n    buf\n\n";
  pr "  let of_bytes b = of_string (Bytes.unsafe_to_string b)\n";
  pr "end\n\n";
  pr "external errno_of_unix_error : Unix.error -> int =\n";
  pr "  \"mlnbd_errno_of_unix_error\"\n\n";
  pr "type t\n\n";
  pr "external create_handle : unit -> t = \"mlnbd_create\"\n";
  pr "external close : t -> unit = \"mlnbd_close\"\n\n";
  pr "(* A handle nobody closed is closed when it is collected: by an\n";
  pr "   OCaml finaliser, not the custom block's, because closing runs\n";
  pr "   OCaml callbacks (the .free of each closure). *)\n";
  pr "let create () =\n";
  pr "  let h = create_handle () in\n";
  pr "  Gc.finalise close h;\n  h\n\n";
  pr "let with_handle f =\n";
  pr "  let h = create () in\n";
  pr "  match f h with\n";
  pr "  | r -> close h; r\n";
  pr "  | exception e -> close h; raise e\n\n";
  List.iter (fun (name, c) ->
    pr "external %s : %s\n" name (signature c);
    if nr_values c > 5 then
      pr "  = \"%s_byte\" \"%s\"\n" (stub_name name) (stub_name name)
    else
      pr "  = \"%s\"\n" (stub_name name)
  ) calls

(* ---- nbd-c.c: the closure trampolines ---- *)

let cb_c_params cl =
  List.concat_map (function
    | CBArrayAndLen (elt, a, l) ->
       [ C.c_array_elt elt ^ " *" ^ a; "size_t " ^ l ]
    | CBBytesIn (b, l) -> [ "const void *" ^ b; "size_t " ^ l ]
    | CBInt n -> [ "int " ^ n ]
    | CBUInt n -> [ "unsigned " ^ n ]
    | CBUInt64 n -> [ "uint64_t " ^ n ]
    | CBMutable n -> [ "int *" ^ n ]
    | CBString n -> [ "const char *" ^ n ]) cl.cbargs

let cb_c_names cl =
  List.concat_map (function
    | CBArrayAndLen (_, a, l) | CBBytesIn (a, l) -> [ a; l ]
    | CBInt n | CBUInt n | CBUInt64 n | CBMutable n | CBString n -> [ n ])
    cl.cbargs

(* The trampoline of a closure: libnbd calls it in a blocking section
   (every stub makes its call in one), so it takes the runtime lock,
   calls the OCaml function, and gives the lock back. *)
let pr_trampoline cl =
  let n = List.length cl.cbargs in
  let params = "void *user_data" :: cb_c_params cl in
  pr "static int\n";
  GoLang.pr_wrapped (sprintf "%s_locked (" cl.cbname) params ")\n";
  pr "{\n";
  pr "  CAMLparam0 ();\n";
  pr "  CAMLlocalN (args, %d);\n" n;
  pr "  CAMLlocal1 (rv);\n";
  pr "  struct mlnbd_closure *data = user_data;\n";
  pr "  int r;\n\n";
  List.iteri (fun i -> function
    | CBArrayAndLen (ElemUInt32, a, l) ->
       pr "  args[%d] = mlnbd_u32_array (%s, %s);\n" i a l
    | CBArrayAndLen (ElemExtent64, a, l) ->
       pr "  args[%d] = mlnbd_extent_array (%s, %s);\n" i a l
    | CBBytesIn (b, l) ->
       pr "  args[%d] = caml_alloc_initialized_string (%s, %s);\n" i l b
    | CBInt v | CBUInt v -> pr "  args[%d] = Val_int (%s);\n" i v
    | CBUInt64 v -> pr "  args[%d] = caml_copy_int64 (%s);\n" i v
    | CBMutable v ->
       pr "  args[%d] = caml_alloc (1, 0);    /* int ref */\n" i;
       pr "  Store_field (args[%d], 0, Val_int (*%s));\n" i v
    | CBString v -> pr "  args[%d] = caml_copy_string (%s);\n" i v
  ) cl.cbargs;
  pr "  rv = caml_callbackN_exn (data->fn, %d, args);\n" n;
  List.iteri (fun i -> function
    | CBMutable v -> pr "  *%s = Int_val (Field (args[%d], 0));\n" v i
    | _ -> ()) cl.cbargs;
  pr "  if (Is_exception_result (rv)) {\n";
  pr "    mlnbd_callback_raised (\"%s\", Extract_exception (rv));\n" cl.cbname;
  pr "    CAMLreturnT (int, -1);\n  }\n";
  pr "  r = Int_val (rv);\n";
  pr "  CAMLreturnT (int, r);\n";
  pr "}\n\n";
  pr "static int\n";
  GoLang.pr_wrapped (sprintf "%s_trampoline (" cl.cbname) params ")\n";
  pr "{\n  int r;\n\n";
  pr "  caml_leave_blocking_section ();\n";
  GoLang.pr_wrapped (sprintf "  r = %s_locked (" cl.cbname)
    ("user_data" :: cb_c_names cl) ");\n";
  pr "  caml_enter_blocking_section ();\n";
  pr "  return r;\n}\n\n"

(* ---- nbd-c.c: the stubs ---- *)

(* The C name of the value of an argument. *)
let arg_value = function
  | Bool n | Enum (n, _) | Fd n | Flags (n, _) | Int n | Int64 n | Path n
  | SizeT n | String n | StringList n | UInt32 n | UInt64 n | UIntPtr n
  | BytesIn (n, _) | BytesOut (n, _) | BytesPersistIn (n, _)
  | BytesPersistOut (n, _) | SockAddrAndLen (n, _) -> n ^ "v"
  | Closure cl -> cl.cbname ^ "v"

let optarg_value = function
  | OClosure cl -> cl.cbname ^ "v"
  | OFlags (n, _, _) -> n ^ "v"

let flags_table f = sprintf "%s_bits" (String.lowercase_ascii f.flag_prefix)
let enum_table e = sprintf "%s_values" (String.lowercase_ascii e.enum_prefix)

let pr_tables () =
  List.iter (fun f ->
    pr "static const uint32_t %s[] = { %s };\n" (flags_table f)
      (String.concat ", " (List.map (fun (_, v) -> sprintf "0x%x" v)
                             f.flags))) API.all_flags;
  List.iter (fun e ->
    pr "static const int %s[] = { %s };\n" (enum_table e)
      (String.concat ", " (List.map (fun (_, v) -> string_of_int v)
                             e.enums))) API.all_enums;
  pr "#define NELEMS(a) (sizeof (a) / sizeof ((a)[0]))\n\n"

(* The persistent buffer of a call, if any: its completion closure
   holds it. *)
let persistent_buffer c =
  List.find_map (function
    | BytesPersistIn (n, _) | BytesPersistOut (n, _) -> Some (n ^ "v")
    | _ -> None) c.args

let pr_stub (name, c) =
  let values = List.map optarg_value c.optargs @ [ "hv" ]
               @ List.map arg_value c.args in
  pr "value\n";
  GoLang.pr_wrapped (sprintf "%s (" (stub_name name))
    (List.map (fun v -> "value " ^ v) values) ")\n";
  pr "{\n";
  let rec params first = function
    | [] -> ()
    | vs ->
       let k = min 5 (List.length vs) in
       let now = List.filteri (fun i _ -> i < k) vs
       and rest = List.filteri (fun i _ -> i >= k) vs in
       pr "  CAML%sparam%d (%s);\n" (if first then "" else "x") k
         (String.concat ", " now);
       params false rest in
  params true values;
  pr "  CAMLlocal1 (rv);\n";
  pr "  struct mlnbd_call call;\n";
  pr "  struct nbd_handle *h;\n";
  (* Declarations, then the conversions that cannot fail for want of
     memory; then the call begins (see nbd-c.h: nothing may raise past
     it without ending it); everything allocated comes after, so that
     one failed allocation can release the others. *)
  let allocs = ref [] in
  List.iter (function
    | OClosure cl ->
       pr "  nbd_%s_callback %s_callback = { .callback = NULL };\n"
         cl.cbname cl.cbname;
       allocs := `Closure (cl, true) :: !allocs
    | OFlags (n, _, _) -> pr "  uint32_t %s = 0;\n" n
  ) c.optargs;
  List.iter (function
    | Bool n -> pr "  bool %s = Bool_val (%sv);\n" n n
    | BytesIn (n, l) ->
       pr "  size_t %s = caml_string_length (%sv);\n" l n;
       pr "  void *%s;\n" n;
       allocs := `BytesIn n :: !allocs
    | BytesOut (n, l) ->
       pr "  size_t %s = caml_string_length (%sv);\n" l n;
       pr "  void *%s;\n" n;
       allocs := `BytesOut n :: !allocs
    | BytesPersistIn (n, l) | BytesPersistOut (n, l) ->
       pr "  void *%s = Caml_ba_data_val (%sv);\n" n n;
       pr "  size_t %s = Caml_ba_array_val (%sv)->dim[0];\n" l n
    | Closure cl ->
       pr "  nbd_%s_callback %s_callback = { .callback = NULL };\n"
         cl.cbname cl.cbname;
       allocs := `Closure (cl, false) :: !allocs
    | Enum (n, e) ->
       GoLang.pr_wrapped (sprintf "  int %s = mlnbd_enum_val (" n)
         [ n ^ "v"; enum_table e; sprintf "NELEMS (%s)" (enum_table e) ]
         ");\n"
    | Fd n | Int n -> pr "  int %s = Int_val (%sv);\n" n n
    | Flags (n, f) ->
       GoLang.pr_wrapped (sprintf "  uint32_t %s = mlnbd_flags_val (" n)
         [ n ^ "v"; flags_table f;
           sprintf "NELEMS (%s)" (flags_table f) ] ");\n"
    | Int64 n -> pr "  int64_t %s = Int64_val (%sv);\n" n n
    | Path n | String n ->
       pr "  char *%s;\n" n;
       allocs := `String n :: !allocs
    | SizeT n -> pr "  size_t %s = mlnbd_size_val (%sv, \"%s\");\n" n n n
    | SockAddrAndLen (a, l) ->
       pr "  struct sockaddr_storage %s_ss;\n" a;
       pr "  socklen_t %s;\n" l;
       pr "  mlnbd_sockaddr_val (%sv, &%s_ss, &%s);\n" a a l
    | StringList n ->
       pr "  char **%s;\n" n;
       allocs := `StringList n :: !allocs
    | UInt32 n -> pr "  uint32_t %s = mlnbd_uint32_val (%sv, \"%s\");\n" n n n
    | UInt64 n -> pr "  uint64_t %s = Int64_val (%sv);\n" n n
    | UIntPtr n -> pr "  uintptr_t %s = (uintptr_t) Long_val (%sv);\n" n n
  ) c.args;
  pr "  %s r;\n" (C.c_ret_type c.ret);
  let allocs = List.rev !allocs in
  pr "\n";
  List.iter (function
    | OFlags (n, f, _) ->
       pr "  if (Is_some (%sv))\n" n;
       GoLang.pr_wrapped (sprintf "    %s = mlnbd_flags_val (" n)
         [ sprintf "Some_val (%sv)" n; flags_table f;
           sprintf "NELEMS (%s)" (flags_table f) ] ");\n"
    | OClosure _ -> ()
  ) c.optargs;
  GoLang.pr_wrapped "  h = mlnbd_call_begin ("
    [ "&call"; "hv"; sprintf "\"NBD.%s\"" name;
      if c.is_locked then "true" else "false" ] ");\n";
  (* Allocate.  Strings and bytes are copied out of the OCaml heap: a
     compaction in another thread may move them during the call. *)
  let buf = persistent_buffer c in
  List.iter (function
    | `BytesIn n -> pr "  %s = mlnbd_copy_bytes (%sv);\n" n n
    | `BytesOut n -> pr "  %s = mlnbd_alloc_bytes (%sv);\n" n n
    | `String n -> pr "  %s = mlnbd_strdup (%sv);\n" n n
    | `StringList n -> pr "  %s = mlnbd_string_list (%sv);\n" n n
    | `Closure (cl, optional) ->
       let fn = if optional then sprintf "mlnbd_optional_fn (%sv)" cl.cbname
                else sprintf "%sv" cl.cbname in
       let bufv = if cl.cbname = "completion" && buf <> None
                  then Option.get buf else "Val_unit" in
       pr "  %s_callback.user_data =\n" cl.cbname;
       pr "    mlnbd_closure_new (%s, %s);\n" fn bufv;
       pr "  if (%s_callback.user_data != NULL) {\n" cl.cbname;
       if optional then (
         pr "    if (Is_some (%sv))\n  " cl.cbname);
       pr "    %s_callback.callback = %s_trampoline;\n" cl.cbname cl.cbname;
       pr "    %s_callback.free = mlnbd_closure_free;\n" cl.cbname;
       pr "  }\n"
  ) allocs;
  let failed = List.map (function
    | `BytesIn n | `BytesOut n | `String n | `StringList n -> n ^ " == NULL"
    | `Closure (cl, _) -> cl.cbname ^ "_callback.user_data == NULL") allocs in
  let release () =
    List.iter (function
      | `BytesIn n | `BytesOut n | `String n -> pr "  free (%s);\n" n
      | `StringList n -> pr "  mlnbd_free_string_list (%s);\n" n
      | `Closure _ -> ()) allocs in
  if failed <> [] then (
    pr "  if (%s) {\n" (String.concat " ||\n      " failed);
    (* One failed: release the others (each takes NULL). *)
    if List.length allocs > 1 then
      List.iter (function
        | `BytesIn n | `BytesOut n | `String n -> pr "    free (%s);\n" n
        | `StringList n -> pr "    mlnbd_free_string_list (%s);\n" n
        | `Closure (cl, _) ->
           pr "    mlnbd_closure_release (%s_callback.user_data);\n"
             cl.cbname
      ) allocs;
    pr "    mlnbd_call_end (&call);\n";
    pr "    caml_raise_out_of_memory ();\n  }\n"
  );
  pr "\n";
  let c_args =
    "h"
    :: List.concat_map (function
         | Closure cl -> [ cl.cbname ^ "_callback" ]
         | SockAddrAndLen (a, l) ->
            [ sprintf "(struct sockaddr *) &%s_ss" a; l ]
         | a -> List.map snd (C.c_params_of_arg a)) c.args
    @ List.concat_map (fun o -> List.map snd (C.c_params_of_optarg o))
        c.optargs in
  (* libnbd owns the closures from here: it calls their .free, also
     when the call fails. *)
  pr "  caml_enter_blocking_section ();\n";
  GoLang.pr_wrapped (sprintf "  r = nbd_%s (" name) c_args ");\n";
  pr "  caml_leave_blocking_section ();\n";
  List.iter (function
    | `BytesOut n ->
       (match C.c_err_value c.ret with
        | Some e -> pr "  if (r != %s)\n  " e
        | None -> ());
       pr "  memcpy (Bytes_val (%sv), %s, caml_string_length (%sv));\n"
         n n n
    | _ -> ()) allocs;
  release ();
  (match C.c_err_value c.ret with
   | Some e ->
      pr "  if (r == %s)\n    mlnbd_call_fail (&call);\n" e
   | None -> ());
  pr "  mlnbd_call_end (&call);\n";
  (match c.ret with
   | RBool -> pr "  rv = Val_bool (r);\n"
   | RStaticString -> pr "  rv = caml_copy_string (r);\n"
   | RString -> pr "  rv = caml_copy_string (r);\n  free (r);\n"
   | RErr -> pr "  rv = Val_unit;\n"
   | RFd | RInt | RUInt -> pr "  rv = Val_int (r);\n"
   | RSizeT | RUIntPtr -> pr "  rv = Val_long (r);\n"
   | RInt64 | RCookie | RUInt64 -> pr "  rv = caml_copy_int64 (r);\n"
   | REnum e ->
      pr "  rv = mlnbd_val_enum (r, %s, NELEMS (%s));\n"
        (enum_table e) (enum_table e)
   | RFlags f ->
      pr "  rv = mlnbd_val_flags (r, %s, NELEMS (%s));\n"
        (flags_table f) (flags_table f));
  pr "  CAMLreturn (rv);\n";
  pr "}\n\n";
  let n = nr_values c in
  if n > 5 then (
    pr "value\n%s_byte (value *argv, int argn)\n{\n" (stub_name name);
    GoLang.pr_wrapped (sprintf "  return %s (" (stub_name name))
      (List.init n (sprintf "argv[%d]")) ");\n";
    pr "}\n\n"
  )

let generate_ocaml_nbd_c_c () =
  generated_header "ocaml/nbd-c.c: the C stubs of the OCaml bindings.";
  pr "#include <config.h>\n\n";
  pr "#include <stdbool.h>\n#include <stdint.h>\n#include <stdlib.h>\n";
  pr "#include <string.h>\n#include <sys/socket.h>\n\n";
  pr "#include <libnbd.h>\n\n#include \"nbd-c.h\"\n\n";
  pr_tables ();
  List.iter pr_trampoline API.all_closures;
  List.iter pr_stub calls

(* ---- libnbd-ocaml(3) ---- *)

let man_intro = "\
The module C<NBD> of the findlib package C<nbd> is the OCaml binding of
libnbd: each C call C<nbd_X> is the function C<NBD.X>, taking the
handle first (after any optional arguments).

 let () =
   NBD.with_handle (fun nbd ->
     NBD.connect_command nbd
       [\"nbdkit\"; \"-s\"; \"--exit-with-parent\"; \"memory\"; \"1M\"];
     let buf = Bytes.create 512 in
     NBD.pread nbd buf 0L;
     Printf.printf \"%Ld bytes\\n\" (NBD.get_size nbd))

Build and run it against an installed libnbd with:

 ocamlfind ocamlopt -package nbd -linkpkg prog.ml -o prog
 ./prog

C<make install> puts the package in ocamlfind's destdir (see
C<ocamlfind printconf destdir>), which ocamlfind searches before the
directory of a system package C<nbd> such as Debian's.  If you
installed it elsewhere, with C<make install OCAML_DESTDIR=dir>, put
F<dir> first in C<OCAMLPATH>.  The package tells the linker where
F<libnbd.so> was installed; if the dynamic linker does not look there
(a C<--prefix> of your own), set C<LD_LIBRARY_PATH> to run the
program.  Byte code (C<ocamlfind ocamlc>) needs the stubs
F<dllmlnbd.so> too, installed in the destdir's F<stublibs>: if
OCaml's F<ld.conf> does not list that directory, set
C<CAML_LD_LIBRARY_PATH> to it, to build and to run.

To use a libnbd build tree without installing it, run the same
commands under the tree's F<run> script:

 ../libnbd/run ocamlfind ocamlopt -package nbd -linkpkg prog.ml -o prog
 ../libnbd/run ./prog

F<run> puts the tree's package first in C<OCAMLPATH>, and the tree's
F<libnbd.so.0> and stubs first for the dynamic linker.  Started
without F<run>, the program looks for the system's F<libnbd.so.0>,
and does not start if that is older than the tree's."

(* "C<NBD.a>, C<NBD.b> and C<NBD.c>": the calls that take no lock. *)
let unlocked_calls () =
  let names = List.filter_map (fun (name, c) ->
    if c.is_locked then None else Some (sprintf "C<NBD.%s>" name)) calls in
  match List.rev names with
  | [] -> "none"
  | [ n ] -> n
  | last :: rest -> String.concat ", " (List.rev rest) ^ " and " ^ last

let man_sections () = [
  "Handles", "\
C<NBD.create ()> returns a new handle of type C<NBD.t>.  It is closed
when the garbage collector finds it unreachable, or earlier by
C<NBD.close>, after which every call on it raises C<NBD.Closed>.
C<NBD.with_handle f> calls C<f> with a new handle and closes it when
C<f> returns or raises.

C<NBD.close> is safe while calls are running on the handle, in other
threads or in the call whose callback closes it: no new call starts
(they raise C<NBD.Closed>), those running finish (a blocked
C<NBD.pread> still returns its data), and the last of them to return
closes the handle.  So C<NBD.close> may return before the connection
and any subprocess are gone, and a callback may close its own
handle.";
  "Errors", "\
A call that fails in C raises C<NBD.Error (msg, errno)>: the message
of L<nbd_get_error(3)> and the C<errno> of L<nbd_get_errno(3)> as a
C<Unix.error option>, C<None> when there is none.  C<NBD.errno_of_unix_error>
goes the other way, for the C<int ref> error argument of callbacks.";
  "Arguments", "\
Optional arguments of the C calls are OCaml optional arguments:
C<?flags> (a list such as C<[NBD.CMD_FLAG.FUA]>) and C<?completion>.
Enums are variants, flags lists of variants.  An enum value the
binding does not know is C<UNKNOWN n> with the value; a flag it does
not know is C<UNKNOWN n> with the bit's position (C<UNKNOWN 3> is
C<1 lsl 3>), as in libnbd 1.22.  Offsets and sizes are C<int64>; 32-bit
unsigned values, such as extent flags, are C<int64> as well.";
  "Buffers", "\
The asynchronous reads and writes take an C<NBD.Buffer.t>, a Bigarray
of bytes outside the OCaml heap; the command keeps it alive until it
retires.  C<NBD.Buffer.alloc>, C<of_bytes>, C<to_bytes> and C<size>
make, copy and measure them; C<NBD.Buffer.is_zero buf> tells whether
its bytes are all zero, C<NBD.Buffer.is_zero ~sub:(offset, len) buf>
whether those are.  The synchronous calls take C<bytes>.";
  "Callbacks", "\
Callbacks are OCaml closures.  A closure is kept alive by libnbd
until the call or command it belongs to is done with it, then released
to the garbage collector.  A callback returns an C<int>; for the
callbacks with an C<int ref> argument, C<-1> with the C<ref> set to an
errno fails the command.  An exception raised in a callback is printed
to stderr and fails the command as C<-1> would (C<Assert_failure>
aborts the program).

A callback runs while the call that runs it (C<NBD.poll>,
C<NBD.pread_structured>, C<NBD.aio_notify_read>, ...) holds the
handle's lock, so on its own handle it may call only C<NBD.close> and
the calls that skip the lock: " ^ unlocked_calls () ^ ".  Any other
call on its own handle raises C<NBD.Error> with C<EDEADLK> at once,
instead of waiting for ever for that lock.  The completions that
C<NBD.close> runs for commands still in flight find the handle closed:
every call on it raises C<NBD.Closed>.  Calls on other handles are not
limited.";
  "Threads", "\
Every call releases the OCaml runtime lock while libnbd runs, so other
threads (of the C<threads> library) run while one waits on the server;
callbacks take the lock again.  Threads may share a handle, and their
blocking calls on it run in parallel: N threads calling C<NBD.pread>
on one handle have up to N requests in flight, each thread waiting
for its own reply (unlike libnbd 1.22, where each waits for the
previous call's whole round trip; see L<libnbd(3)/HANDLES>).";
]

let generate_libnbd_ocaml_3 () =
  Man.pr_title "libnbd-ocaml(3): the OCaml bindings" "LIBNBD-OCAML";
  pr ".SH NAME\nlibnbd\\-ocaml \\- how to use libnbd from OCaml\n";
  pr ".SH DESCRIPTION\n";
  Pod.pr_pod "libnbd-ocaml(3)" man_intro;
  List.iter (fun (title, text) ->
    pr ".SS \"%s\"\n" title;
    Pod.pr_pod "libnbd-ocaml(3)" text
  ) (man_sections ());
  pr ".SH SEE ALSO\n.ad l\n";
  pr "\\fBlibnbd\\fR(3),\n\\fBocamlfind\\fR(1)\n"

let generate out =
  out "ocaml/NBD.mli" generate_ocaml_nbd_mli;
  out "ocaml/NBD.ml" generate_ocaml_nbd_ml;
  out "ocaml/nbd-c.c" generate_ocaml_nbd_c_c;
  out "docs/libnbd-ocaml.3" generate_libnbd_ocaml_3
