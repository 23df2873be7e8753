(* Emitters of the Python bindings: python/methods.h, python/methods.c
   (one C function per call, the closure wrappers and the method table
   of the libnbdmod extension) and python/nbd.py, from the API table. *)

open Printf
open Types
open Utils

(* The functions of libnbdmod written by hand in python/handle.c. *)
let hand_written =
  [ "create"; "close"; "alloc_aio_buffer"; "aio_buffer_is_zero";
    "display_version" ]

(* Every call of the table has a method; the hand-written ones are
   the NBD class itself (create, close) and nbd.Error (get_error,
   get_errno). *)
let calls = API.handle_calls

let py_keywords = [
  "False"; "None"; "True"; "and"; "as"; "assert"; "async"; "await";
  "break"; "class"; "continue"; "def"; "del"; "elif"; "else"; "except";
  "finally"; "for"; "from"; "global"; "if"; "import"; "in"; "is";
  "lambda"; "nonlocal"; "not"; "or"; "pass"; "raise"; "return"; "try";
  "while"; "with"; "yield"; "self"
]

(* The Python name of an argument: a closure is named after itself. *)
let arg_name = function
  | Bool n | Enum (n, _) | Fd n | Flags (n, _) | Int n | Int64 n | Path n
  | SizeT n | String n | StringList n | UInt32 n | UInt64 n | UIntPtr n
  | BytesIn (n, _) | BytesPersistIn (n, _) | BytesPersistOut (n, _)
  | SockAddrAndLen (n, _) -> n
  | BytesOut (_, count) -> count   (* pread takes a count, returns bytes *)
  | Closure cl -> cl.cbname

let optarg_name = function
  | OClosure cl -> cl.cbname
  | OFlags (n, _, _) -> n

let optarg_default = function
  | OClosure _ -> "None"
  | OFlags _ -> "0"

let closure_has_buffer cl =
  List.exists (function CBBytesIn _ -> true | _ -> false) cl.cbargs

let closures_of c =
  filter_map (function Closure cl -> Some cl | _ -> None) c.args

let oclosures_of c =
  filter_map (function OClosure cl -> Some cl | _ -> None) c.optargs

(* The buffer argument whose memoryview closures keep alive: a
   persistent buffer (the completion closure holds it until the
   command retires) or a read buffer a chunk callback looks into. *)
let view_arg c =
  let pick = function
    | BytesPersistIn _ | BytesPersistOut _ as a -> Some a
    | BytesOut _ as a
         when List.exists closure_has_buffer (closures_of c) -> Some a
    | _ -> None in
  match filter_map pick c.args with
  | [] -> None
  | [ a ] -> Some a
  | _ -> failwith "Python: a call with two buffers"

(* Does closure [cl] of call [c] hold the view? *)
let holds_view c cl =
  view_arg c <> None &&
    (closure_has_buffer cl ||
       match view_arg c with
       | Some (BytesPersistIn _ | BytesPersistOut _) ->
          cl.cbname = "completion"
       | _ -> false)

(* GoLang.pr_wrapped, but a long head continues 4 columns in from
   where its statement starts. *)
let pr_wrapped head items tail =
  let n = String.length head in
  if n <= 40 then GoLang.pr_wrapped head items tail
  else (
    let lead = n - String.length (String.trim head) + 4 in
    let indent = String.make lead ' ' in
    let head = if String.ends_with ~suffix:" " head
               then String.sub head 0 (n - 1) else head in
    let col = ref (String.length head) in
    pr "%s" head;
    List.iteri (fun i it ->
      let it = if i = List.length items - 1 then it ^ tail else it ^ "," in
      if !col + 1 + String.length it > 80 then (
        pr "\n%s" indent; col := lead)
      else if i > 0 || head.[String.length head - 1] = ',' then (
        pr " "; incr col);
      pr "%s" it;
      col := !col + String.length it
    ) items
  )

let check_calls () =
  List.iter (fun (name, c) ->
    let names = List.map arg_name c.args @ List.map optarg_name c.optargs in
    List.iter (fun n ->
      if List.mem n py_keywords then
        failwithf "Python: %s: argument %s is a Python keyword" name n
    ) names;
    (match view_arg c with
     | Some (BytesPersistIn _ | BytesPersistOut _) ->
        if not (List.exists (fun cl -> cl.cbname = "completion")
                  (oclosures_of c)) then
          failwithf "Python: %s: a persistent buffer needs a completion" name
     | _ -> ())
  ) calls

(* ---- methods.h ---- *)

let generate_python_methods_h () =
  generated_header "python/methods.h: the functions of the libnbdmod \
                    extension.";
  pr "#ifndef LIBNBD_PYTHON_METHODS_H\n";
  pr "#define LIBNBD_PYTHON_METHODS_H\n\n";
  pr "#define PY_SSIZE_T_CLEAN 1\n#include <Python.h>\n\n";
  pr "#include <stddef.h>\n\n";
  pr "/* The Python function of a closure and what it keeps alive; the\n";
  pr "   closure's .free drops both, taking the GIL. */\n";
  pr "struct py_closure {\n";
  pr "  PyObject *fn;     /* NULL: no callback */\n";
  pr "  PyObject *view;   /* memoryview of the command's buffer, or NULL */\n";
  pr "};\n\n";
  pr "/* libnbdmod.c */\n";
  pr "extern PyObject *nbd_internal_py_Error;\n";
  pr "extern PyMethodDef nbd_internal_py_methods[];\n\n";
  pr "/* handle.c */\n";
  List.iter (fun n ->
    pr "extern PyObject *nbd_internal_py_%s (PyObject *self,\n" n;
    pr "                                     PyObject *args);\n"
  ) hand_written;
  pr "extern struct nbd_handle *nbd_internal_py_get_handle (PyObject *);\n";
  pr "extern void nbd_internal_py_raise_error (void);\n";
  pr "/* A locked call under way in this thread, innermost first. */\n";
  pr "struct py_call {\n";
  pr "  struct nbd_handle *h;\n";
  pr "  struct py_call *outer;\n";
  pr "};\n";
  pr "extern int nbd_internal_py_call_begin (struct py_call *,\n";
  pr "                                       struct nbd_handle *,\n";
  pr "                                       const char *);\n";
  pr "extern void nbd_internal_py_call_end (struct py_call *);\n\n";
  pr "/* utils.c */\n";
  pr "extern char **nbd_internal_py_get_string_list (PyObject *);\n";
  pr "extern void nbd_internal_py_free_string_list (char **);\n";
  pr "extern int nbd_internal_py_get_sockaddr (PyObject *,\n";
  pr "                                         struct sockaddr_storage *,\n";
  pr "                                         socklen_t *);\n";
  pr "extern PyObject *nbd_internal_py_buffer_view (PyObject *, int);\n";
  pr "extern PyObject *nbd_internal_py_subview (PyObject *, const void *,\n";
  pr "                                          size_t);\n";
  pr "extern struct py_closure *nbd_internal_py_new_closure (PyObject *,\n";
  pr "                                                       const char *,\n";
  pr "                                                       int);\n";
  pr "extern void nbd_internal_py_free_closure (void *);\n";
  pr "extern PyObject *nbd_internal_py_new_errptr (int);\n";
  pr "extern void nbd_internal_py_get_errptr (PyObject *, int *);\n";
  pr "extern int nbd_internal_py_call (PyObject *, PyObject *);\n\n";
  pr "/* methods.c */\n";
  List.iter (fun (name, _) ->
    pr_wrapped (sprintf "extern PyObject *nbd_internal_py_%s (" name)
      [ "PyObject *self"; "PyObject *args"; "PyObject *kwds" ] ");\n"
  ) calls;
  pr "\n#endif /* LIBNBD_PYTHON_METHODS_H */\n"

(* ---- methods.c: closure wrappers ---- *)

(* Statements building the Python object of a callback argument that
   needs one; each jumps to out on failure. *)
let pr_cb_object = function
  | CBArrayAndLen (ElemUInt32, a, l) ->
     pr "  py_%s = PyList_New (%s);\n" a l;
     pr "  if (py_%s == NULL)\n    goto out;\n" a;
     pr "  for (i = 0; i < %s; i++) {\n" l;
     pr "    PyObject *e = PyLong_FromUnsignedLong (%s[i]);\n\n" a;
     pr "    if (e == NULL)\n      goto out;\n";
     pr "    PyList_SET_ITEM (py_%s, i, e);\n  }\n" a
  | CBArrayAndLen (ElemExtent64, a, l) ->
     pr "  py_%s = PyList_New (%s);\n" a l;
     pr "  if (py_%s == NULL)\n    goto out;\n" a;
     pr "  for (i = 0; i < %s; i++) {\n" l;
     pr "    PyObject *e = Py_BuildValue (\"(KK)\",\n";
     pr "                                 (unsigned long long) %s[i].length,\n"
       a;
     pr "                                 (unsigned long long) \
         %s[i].flags);\n\n" a;
     pr "    if (e == NULL)\n      goto out;\n";
     pr "    PyList_SET_ITEM (py_%s, i, e);\n  }\n" a
  | CBBytesIn (b, l) ->
     pr "  py_%s = nbd_internal_py_subview (data->view, %s, %s);\n" b b l;
     pr "  if (py_%s == NULL)\n    goto out;\n" b
  | CBMutable n ->
     pr "  py_%s = nbd_internal_py_new_errptr (*%s);\n" n n;
     pr "  if (py_%s == NULL)\n    goto out;\n" n
  | CBInt _ | CBUInt _ | CBUInt64 _ | CBString _ -> ()

let cb_objects cl =
  filter_map (function
    | CBArrayAndLen (_, a, _) -> Some a
    | CBBytesIn (b, _) -> Some b
    | CBMutable n -> Some n
    | CBInt _ | CBUInt _ | CBUInt64 _ | CBString _ -> None) cl.cbargs

let cb_format cl =
  String.concat "" (List.map (function
    | CBArrayAndLen _ | CBBytesIn _ | CBMutable _ -> "O"
    | CBInt _ -> "i"
    | CBUInt _ -> "I"
    | CBUInt64 _ -> "K"
    | CBString _ -> "z") cl.cbargs)

let cb_values cl =
  List.map (function
    | CBArrayAndLen (_, a, _) -> "py_" ^ a
    | CBBytesIn (b, _) -> "py_" ^ b
    | CBMutable n -> "py_" ^ n
    | CBInt n | CBUInt n | CBString n -> n
    | CBUInt64 n -> "(unsigned long long) " ^ n) cl.cbargs

(* The C callback of a closure: takes the GIL, builds the arguments,
   calls the Python function, copies a changed error back. *)
let pr_closure_wrapper cl =
  let name = cl.cbname in
  let objs = cb_objects cl in
  pr "static int\n";
  pr_wrapped (name ^ "_wrapper (")
    ("void *user_data" :: C.c_cb_params cl) ")\n{\n";
  pr "  struct py_closure *data = user_data;\n";
  pr "  PyGILState_STATE gil = PyGILState_Ensure ();\n";
  List.iter (fun o -> pr "  PyObject *py_%s = NULL;\n" o) objs;
  pr "  PyObject *py_args = NULL;\n";
  if List.exists (function CBArrayAndLen _ -> true | _ -> false) cl.cbargs
  then pr "  size_t i;\n";
  pr "  int ret = -1;\n\n";
  List.iter pr_cb_object cl.cbargs;
  pr_wrapped (sprintf "  py_args = Py_BuildValue (\"(%s)\", "
                       (cb_format cl))
    (cb_values cl) ");\n";
  pr "  if (py_args == NULL)\n    goto out;\n";
  pr "  ret = nbd_internal_py_call (data->fn, py_args);\n\n";
  pr " out:\n";
  pr "  if (PyErr_Occurred ())\n    PyErr_PrintEx (0);\n";
  List.iter (function
    | CBMutable n ->
       pr "  if (py_%s != NULL)\n" n;
       pr "    nbd_internal_py_get_errptr (py_%s, %s);\n" n n
    | _ -> ()) cl.cbargs;
  List.iter (fun o -> pr "  Py_XDECREF (py_%s);\n" o) objs;
  pr "  Py_XDECREF (py_args);\n";
  pr "  PyGILState_Release (gil);\n";
  pr "  return ret;\n}\n\n"

(* ---- methods.c: one function per call ---- *)

(* C locals of an argument: (declaration, parse format, parse targets). *)
let parse_of_arg = function
  | Bool n -> [ sprintf "int %s;" n ], "p", [ "&" ^ n ]
  | BytesIn (b, _) -> [ sprintf "Py_buffer %s = { .obj = NULL };" b ],
                      "y*", [ "&" ^ b ]
  | BytesOut (b, count) ->
     [ sprintf "Py_ssize_t %s;" count; sprintf "PyObject *%s = NULL;" b ],
     "n", [ "&" ^ count ]
  | BytesPersistIn (b, _) | BytesPersistOut (b, _) ->
     [ sprintf "PyObject *py_%s;" b ], "O", [ "&py_" ^ b ]
  | Closure cl ->
     [ sprintf "PyObject *py_%s;" cl.cbname ], "O", [ "&py_" ^ cl.cbname ]
  | Enum (n, _) | Fd n | Int n -> [ sprintf "int %s;" n ], "i", [ "&" ^ n ]
  | Flags (n, _) | UInt32 n ->
     [ sprintf "unsigned int %s;" n ], "I", [ "&" ^ n ]
  | Int64 n -> [ sprintf "long long %s;" n ], "L", [ "&" ^ n ]
  | Path n ->
     [ sprintf "PyObject *py_%s = NULL;" n ], "O&",
     [ "PyUnicode_FSConverter"; "&py_" ^ n ]
  | String n -> [ sprintf "const char *%s;" n ], "s", [ "&" ^ n ]
  | SizeT n -> [ sprintf "Py_ssize_t %s;" n ], "n", [ "&" ^ n ]
  | SockAddrAndLen (a, l) ->
     [ sprintf "PyObject *py_%s;" a;
       sprintf "struct sockaddr_storage %s;" a;
       sprintf "socklen_t %s;" l ], "O", [ "&py_" ^ a ]
  | StringList n ->
     [ sprintf "PyObject *py_%s;" n; sprintf "char **%s = NULL;" n ],
     "O", [ "&py_" ^ n ]
  | UInt64 n | UIntPtr n ->
     [ sprintf "unsigned long long %s;" n ], "K", [ "&" ^ n ]

let parse_of_optarg = function
  | OClosure cl ->
     [ sprintf "PyObject *py_%s = Py_None;" cl.cbname ], "O",
     [ "&py_" ^ cl.cbname ]
  | OFlags (n, _, _) -> [ sprintf "unsigned int %s = 0;" n ], "I", [ "&" ^ n ]

(* Statements after parsing, before the call; each jumps to out. *)
let pr_conversion c = function
  | BytesOut (b, count) ->
     pr "  if (%s < 0) {\n" count;
     pr "    PyErr_SetString (PyExc_ValueError, \"%s must not be \
         negative\");\n" count;
     pr "    goto out;\n  }\n";
     pr "  %s = PyByteArray_FromStringAndSize (NULL, %s);\n" b count;
     pr "  if (%s == NULL)\n    goto out;\n" b;
     if view_arg c <> None then (
       pr "  view = nbd_internal_py_buffer_view (%s, PyBUF_WRITE);\n" b;
       pr "  if (view == NULL)\n    goto out;\n")
  | BytesPersistIn (b, _) ->
     pr "  view = nbd_internal_py_buffer_view (py_%s, PyBUF_READ);\n" b;
     pr "  if (view == NULL)\n    goto out;\n"
  | BytesPersistOut (b, _) ->
     pr "  view = nbd_internal_py_buffer_view (py_%s, PyBUF_WRITE);\n" b;
     pr "  if (view == NULL)\n    goto out;\n"
  | SockAddrAndLen (a, l) ->
     pr "  if (nbd_internal_py_get_sockaddr (py_%s, &%s, &%s) == -1)\n" a a l;
     pr "    goto out;\n"
  | StringList n ->
     pr "  %s = nbd_internal_py_get_string_list (py_%s);\n" n n;
     pr "  if (%s == NULL)\n    goto out;\n" n
  | Bool _ | BytesIn _ | Closure _ | Enum _ | Fd _ | Flags _ | Int _
  | Int64 _ | Path _ | String _ | SizeT _ | UInt32 _ | UInt64 _
  | UIntPtr _ -> ()

let pr_closure_setup c ~optional cl =
  let n = cl.cbname in
  pr_wrapped (sprintf "  %s_data = nbd_internal_py_new_closure (" n)
    [ "py_" ^ n; sprintf "%S" n; if optional then "1" else "0" ] ");\n";
  pr "  if (%s_data == NULL)\n    goto out;\n" n;
  pr "  %s_cb.user_data = %s_data;\n" n n;
  if optional then
    pr "  if (%s_data->fn == NULL)\n    %s_cb.callback = NULL;\n" n n;
  if holds_view c cl then
    pr "  %s_data->view = view;\n  Py_INCREF (view);\n" n

(* C arguments of the library call. *)
let call_args c =
  List.concat_map (function
    | Bool n | Enum (n, _) | Fd n | Int n | String n | SizeT n
    | StringList n -> [ n ]
    | Flags (n, _) | UInt32 n -> [ sprintf "(uint32_t) %s" n ]
    | Int64 n -> [ sprintf "(int64_t) %s" n ]
    | UInt64 n -> [ sprintf "(uint64_t) %s" n ]
    | UIntPtr n -> [ sprintf "(uintptr_t) %s" n ]
    | BytesIn (b, _) -> [ b ^ ".buf"; sprintf "(size_t) %s.len" b ]
    | BytesOut (b, count) ->
       [ sprintf "PyByteArray_AS_STRING (%s)" b; sprintf "(size_t) %s" count ]
    | BytesPersistIn _ | BytesPersistOut _ ->
       [ "PyMemoryView_GET_BUFFER (view)->buf";
         "(size_t) PyMemoryView_GET_BUFFER (view)->len" ]
    | Path n -> [ sprintf "PyBytes_AS_STRING (py_%s)" n ]
    | SockAddrAndLen (a, l) -> [ sprintf "(struct sockaddr *) &%s" a; l ]
    | Closure cl -> [ cl.cbname ^ "_cb" ]
  ) c.args
  @ List.map (function
      | OClosure cl -> cl.cbname ^ "_cb"
      | OFlags (n, _, _) -> sprintf "(uint32_t) %s" n) c.optargs

(* The Python result from the C result "ret". *)
let py_result c =
  match List.find_opt (function BytesOut _ -> true | _ -> false) c.args with
  | Some (BytesOut (b, _)) ->
     sprintf "py_ret = %s;\n  %s = NULL;\n" b b
  | _ ->
     match c.ret with
     | RErr -> "py_ret = Py_None;\n  Py_INCREF (py_ret);\n"
     | RBool -> "py_ret = PyBool_FromLong (ret);\n"
     | RStaticString -> "py_ret = PyUnicode_FromString (ret);\n"
     | RString -> "py_ret = PyUnicode_FromString (ret);\n  free (ret);\n"
     | RFd | RInt | REnum _ -> "py_ret = PyLong_FromLong (ret);\n"
     | RInt64 | RCookie -> "py_ret = PyLong_FromLongLong (ret);\n"
     | RSizeT -> "py_ret = PyLong_FromSsize_t (ret);\n"
     | RUInt | RFlags _ -> "py_ret = PyLong_FromUnsignedLong (ret);\n"
     | RUIntPtr | RUInt64 ->
        "py_ret = PyLong_FromUnsignedLongLong (ret);\n"

let pr_cleanup c =
  List.iter (function
    | BytesIn (b, _) ->
       pr "  if (%s.obj != NULL)\n    PyBuffer_Release (&%s);\n" b b
    | BytesOut (b, _) -> pr "  Py_XDECREF (%s);\n" b
    | Path n -> pr "  Py_XDECREF (py_%s);\n" n
    | StringList n -> pr "  nbd_internal_py_free_string_list (%s);\n" n
    | _ -> ()) c.args;
  List.iter (fun cl ->
    pr "  nbd_internal_py_free_closure (%s_data);\n" cl.cbname
  ) (closures_of c @ oclosures_of c);
  if view_arg c <> None then pr "  Py_XDECREF (view);\n"

let pr_method (name, c) =
  let parses =
    List.map parse_of_arg c.args @ List.map parse_of_optarg c.optargs in
  let decls = List.concat_map (fun (d, _, _) -> d) parses in
  let fmt =
    String.concat "" (List.map (fun (_, f, _) -> f)
                        (List.map parse_of_arg c.args))
    ^ (if c.optargs = [] then ""
       else "|" ^ String.concat ""
                    (List.map (fun (_, f, _) -> f)
                       (List.map parse_of_optarg c.optargs))) in
  let targets = List.concat_map (fun (_, _, t) -> t) parses in
  let kw =
    "\"\"" :: List.map (fun a -> sprintf "%S" (arg_name a)) c.args
    @ List.map (fun o -> sprintf "%S" (optarg_name o)) c.optargs
    @ [ "NULL" ] in
  pr "PyObject *\n";
  pr_wrapped (sprintf "nbd_internal_py_%s (" name)
    [ "PyObject *self"; "PyObject *args"; "PyObject *kwds" ] ")\n";
  pr "{\n";
  GoLang.pr_wrapped "  static char *kwlist[] = { " kw " };\n";
  pr "  PyObject *py_h;\n  struct nbd_handle *h;\n";
  if c.is_locked then pr "  struct py_call call;\n";
  let t = C.c_ret_type c.ret in
  pr "  %s%sret;\n" t (if C.is_pointer_type t then "" else " ");
  pr "  PyObject *py_ret = NULL;\n";
  List.iter (pr "  %s\n") decls;
  if view_arg c <> None then pr "  PyObject *view = NULL;\n";
  List.iter (fun cl ->
    pr "  struct py_closure *%s_data = NULL;\n" cl.cbname;
    pr "  nbd_%s_callback %s_cb = {\n" cl.cbname cl.cbname;
    pr "    .callback = %s_wrapper, .free = nbd_internal_py_free_closure\n"
      cl.cbname;
    pr "  };\n"
  ) (closures_of c @ oclosures_of c);
  pr "\n";
  pr_wrapped "  if (!PyArg_ParseTupleAndKeywords ("
    ("args" :: "kwds" :: sprintf "\"O%s:%s\"" fmt name :: "kwlist"
     :: "&py_h" :: targets) "))\n";
  pr "    return NULL;\n";
  pr "  h = nbd_internal_py_get_handle (py_h);\n";
  pr "  if (h == NULL)\n    goto out;\n";
  List.iter (pr_conversion c) c.args;
  List.iter (pr_closure_setup c ~optional:false) (closures_of c);
  List.iter (pr_closure_setup c ~optional:true) (oclosures_of c);
  if c.is_locked then
    pr "  if (nbd_internal_py_call_begin (&call, h, %S) == -1)\n    goto out;\n"
      name;
  pr "\n  Py_BEGIN_ALLOW_THREADS\n";
  pr_wrapped (sprintf "  ret = nbd_%s (" name) ("h" :: call_args c)
    ");\n";
  pr "  Py_END_ALLOW_THREADS\n";
  if c.is_locked then pr "  nbd_internal_py_call_end (&call);\n";
  (* The library owns the closures now, even if the call failed. *)
  List.iter (fun cl -> pr "  %s_data = NULL;\n" cl.cbname)
    (closures_of c @ oclosures_of c);
  (match C.c_err_value c.ret with
   | Some v when c.may_set_error ->
      pr "  if (ret == %s) {\n" v;
      pr "    nbd_internal_py_raise_error ();\n    goto out;\n  }\n"
   | Some "NULL" ->
      pr "  if (ret == NULL) {\n    py_ret = Py_None;\n";
      pr "    Py_INCREF (py_ret);\n    goto out;\n  }\n"
   | _ -> ());
  pr "  %s" (py_result c);
  pr "\n out:\n";
  pr_cleanup c;
  pr "  return py_ret;\n}\n\n"

let pr_method_table () =
  pr "/* Functions taking keywords have a third parameter. */\n";
  pr "#define KW(f) ((PyCFunction) (void (*) (void)) (f))\n\n";
  pr "PyMethodDef nbd_internal_py_methods[] = {\n";
  List.iter (fun n ->
    pr "  { %S, nbd_internal_py_%s,\n    METH_VARARGS, NULL },\n" n n
  ) hand_written;
  List.iter (fun (name, _) ->
    pr "  { %S,\n    KW (nbd_internal_py_%s),\n" name name;
    pr "    METH_VARARGS | METH_KEYWORDS, NULL },\n"
  ) calls;
  pr "  { NULL, NULL, 0, NULL }\n};\n"

let generate_python_methods_c () =
  generated_header "python/methods.c: the generated functions of the \
                    libnbdmod extension.";
  pr "#include <config.h>\n\n";
  pr "#define PY_SSIZE_T_CLEAN 1\n#include <Python.h>\n\n";
  pr "#include <stdint.h>\n#include <stdlib.h>\n#include <stdbool.h>\n";
  pr "#include <sys/socket.h>\n\n";
  pr "#include <libnbd.h>\n\n#include \"methods.h\"\n\n";
  List.iter pr_closure_wrapper API.all_closures;
  List.iter pr_method calls;
  pr_method_table ()

(* ---- nbd.py ---- *)

(* POD to plain text for docstrings: L<nbd_foo(3)> names the method. *)
let doc_text where s =
  let rec render = function
    | Pod.Text t -> t
    | Pod.Mark ('L', ch) ->
       let t = Pod.pod_plain ch in
       if Str.string_match (Str.regexp "nbd_\\([a-z0-9_]+\\)(3)$") t 0
       then "NBD." ^ Str.matched_group 1 t
       else t
    | Pod.Mark ('E', _) as e -> Pod.pod_entity where e
    | Pod.Mark (('Z' | 'X'), _) -> ""
    | Pod.Mark (_, ch) -> String.concat "" (List.map render ch) in
  let lines =
    String.split_on_char '\n' s
    |> List.filter (fun l -> not (string_starts_with ~prefix:"=" l)) in
  String.concat "\n"
    (List.map (fun l ->
       String.concat "" (List.map render (Pod.parse where l))) lines)

let py_docstring text =
  let b = Buffer.create (String.length text) in
  String.iter (function
    | '\\' -> Buffer.add_string b "\\\\"
    | '\'' -> Buffer.add_string b "\\'"
    | c -> Buffer.add_char b c) text;
  Buffer.contents b

let pr_py_method (name, c) =
  let where = "nbd_" ^ name in
  let params =
    List.map arg_name c.args
    @ List.map (fun o -> optarg_name o ^ "=" ^ optarg_default o) c.optargs in
  pr_wrapped (sprintf "    def %s(" name) ("self" :: params) "):\n";
  pr "        '''%s\n\n" (py_docstring (doc_text where c.shortdesc));
  List.iter (fun l ->
    if l = "" then pr "\n" else pr "        %s\n" (py_docstring l)
  ) (String.split_on_char '\n' (doc_text where c.longdesc));
  pr "        '''\n";
  pr "        self._check_not_closed()\n";
  pr_wrapped (sprintf "        return libnbdmod.%s(" name)
    ("self._o" :: List.map arg_name c.args
     @ List.map optarg_name c.optargs) ")\n";
  pr "\n"

let pr_py_constants () =
  List.iter (fun e ->
    List.iter (fun (n, v) -> pr "%s_%s = %d\n" e.enum_prefix n v) e.enums;
    pr "\n") API.all_enums;
  List.iter (fun f ->
    let mask = List.fold_left (fun m (_, v) -> m lor v) 0 f.flags in
    List.iter (fun (n, v) -> pr "%s_%s = 0x%02x\n" f.flag_prefix n v) f.flags;
    pr "%s_MASK = 0x%02x\n\n" f.flag_prefix mask) API.all_flags;
  List.iter (fun (n, v) -> pr "%s = %d\n" n v) API.constants;
  List.iter (fun (ns, ctxts) ->
    pr "NAMESPACE_%s = %S\n" (String.uppercase_ascii ns) (ns ^ ":");
    List.iter (fun (ctxt, consts) ->
      pr "CONTEXT_%s = %S\n" (C.context_name ns ctxt) (ns ^ ":" ^ ctxt);
      List.iter (fun (n, v) -> pr "%s = %d\n" n v) consts
    ) ctxts
  ) API.metadata_namespaces;
  pr "\n"

let generate_python_nbd_py () =
  check_calls ();
  generated_header ~comment:"#" "python/nbd.py: Python bindings for libnbd.";
  pr "'''Python bindings for libnbd.\n\n";
  pr "import nbd\nh = nbd.NBD()\n";
  pr "h.connect_uri(\"nbd+unix:///?socket=/tmp/s\")\n";
  pr "buf = h.pread(512, 0)\n\n";
  pr "See libnbd(3) for the calls; each nbd_X is the method NBD.X.\n'''\n\n";
  (* The hand-written half: Error, ClosedHandle, Buffer, NBDBase. *)
  let ic = open_in_bin "python/nbd-head.py" in
  pr "%s\n" (really_input_string ic (in_channel_length ic));
  close_in ic;
  pr_py_constants ();
  pr "\nclass NBD(NBDBase):\n";
  pr "    '''An NBD handle: one connection to one NBD server.'''\n\n";
  List.iter pr_py_method calls;
  pr "\npackage_name = NBD().get_package_name()\n";
  pr "__version__ = NBD().get_version()\n";
  (* "python3 -m nbd" is the shell, as in libnbd 1.22, where the nbdsh
     script runs exactly that. *)
  pr "\nif __name__ == \"__main__\":\n";
  pr "    import nbdsh\n";
  pr "    nbdsh.shell()\n"

(* ---- libnbd-python(3) ---- *)

(* \032 is a space: a verbatim block starts the string. *)
let man_synopsis = "\
\032import nbd

 h = nbd.NBD()
 h.connect_command([\"nbdkit\", \"-s\", \"--exit-with-parent\",
                    \"memory\", \"1M\"])
 h.pwrite(b\"hello\", 0)
 print(h.get_size(), bytes(h.pread(5, 0)))
 h.close()"

let man_intro = "\
The module C<nbd> is the Python 3 binding of libnbd.  The handle is
the class C<nbd.NBD>, and each C call C<nbd_X> is its method C<X>,
taking the same arguments in the same order, without the handle:
L<nbd_pread(3)> is C<h.pread(count, offset)>, which returns the bytes
read as a C<bytearray>.  Optional arguments are keywords with defaults: C<flags=0>
(such as C<nbd.CMD_FLAG_FUA>) and C<completion=None>.  The
constants of libnbd(3) are those of the module without the C<LIBNBD_>
prefix: C<nbd.TLS_REQUIRE>, C<nbd.READ_DATA>,
C<nbd.CONTEXT_BASE_ALLOCATION>.  Every method's docstring is the
description of its C call, so C<help(nbd.NBD.pread)> shows the same
text as L<nbd_pread(3)>.  C<nbd.__version__> is the version of the
library.

L<nbdsh(1)> is the Python shell with a handle C<h> ready made, for
trying the calls interactively.

C<make install> puts F<nbd.py> and the extension F<libnbdmod> in the
platform library directory of the Python that configure found (what
C<sysconfig.get_paths()[\"platlib\"]> says); C<make install
PYTHON_INSTALLDIR=dir> puts them in F<dir>, which then goes in
C<PYTHONPATH>.  To use a libnbd build tree without installing it, run
the program under the tree's F<run> script, which puts the tree's
module and F<libnbd.so.0> first:

 ../libnbd/run python3 prog.py"

(* "C<h.a>, C<h.b> and C<h.c>": the methods that take no lock. *)
let unlocked_methods () =
  let names = filter_map (fun (name, c) ->
    if c.is_locked then None else Some (sprintf "C<h.%s>" name)) calls in
  match List.rev names with
  | [] -> "none"
  | [ n ] -> n
  | last :: rest -> String.concat ", " (List.rev rest) ^ " and " ^ last

let man_sections () = [
  "HANDLES", "\
C<nbd.NBD()> makes a new handle, which holds settings until one of
the C<connect_*> methods connects it.  It is closed, its connection
shut and any server subprocess waited for, when the last reference to
it goes, or earlier by C<h.close()>.  After C<h.close()> every
method, C<close> itself included, raises C<nbd.ClosedHandle> (a
C<ValueError>).

A C<with> block closes the handle at its end, whether the block
returns or raises:

 with nbd.nbd() as h:
     h.connect_uri(\"nbd+unix:///?socket=/tmp/sock\")
     data = h.pread(512, 0)

C<with nbd.NBD() as h:> does the same here, but not with libnbd
1.24, whose C<nbd.NBD> is no context manager.";
  "ERRORS", "\
A call that fails in libnbd raises C<nbd.Error>, a subclass of
C<Exception>, with:

=over 4

=item C<e.string>

the message of L<nbd_get_error(3)>, which starts with the name of the
C call that failed, such as C<nbd_pread: invalid state: ...>;

=item C<e.errnum>

the errno of L<nbd_get_errno(3)>, a number to compare with those of
Python's C<errno> module (C<errno.ENOTCONN>), C<0> when the error has
none;

=item C<e.errno>

the name of that errno, such as C<\"ENOTCONN\">, or C<None>.

=back

C<str(e)> is the message followed by the errno's name in brackets.
An argument Python cannot convert is refused before libnbd sees it,
with Python's own exceptions: C<TypeError> for a value of the wrong
type, C<ValueError> for a negative count, C<OverflowError> for a
number too big for the C type.";
  "BUFFERS", "\
Synchronous calls take any bytes-like object to write
(C<h.pwrite(b\"...\", offset)>) and return a new C<bytearray> for what
they read.

Asynchronous reads and writes (C<h.aio_pread>, C<h.aio_pwrite>, ...)
return at once, so they take a buffer that outlives the call:
C<nbd.Buffer>.  The command holds a reference to its buffer until the
command retires, so dropping it meanwhile is safe.  While the command
holds it, its size cannot change (an attempt raises C<BufferError>).

=over 4

=item C<nbd.Buffer(n)>

a buffer of C<n> bytes, initialised only when something can see it:
it reads as zeroes, and is zeroed before a command uses it;

=item C<nbd.Buffer.from_bytearray(b)>

a buffer holding a copy of C<b> (or of C<bytearray(b)>);

=item C<nbd.Buffer.from_buffer(obj)>

a buffer sharing the memory of C<obj>, any object with the buffer
protocol: what C<h.aio_pread> reads into it appears in C<obj>;

=item C<buf.to_bytearray()>, C<buf.to_bytes()>

a copy of the contents; C<buf.to_buffer()> the object underneath,
shared;

=item C<len(buf)>, C<buf.size()>

its size in bytes;

=item C<buf.is_zero(offset=0, size=-1)>

whether the bytes from C<offset>, C<size> of them (C<-1>: up to the
end), are all zero; a range outside the buffer raises C<IndexError>;

=item C<buf[i]>, C<buf[i:j]>, C<buf[i] = v>, C<buf[i:j] = b>

indexing and slicing, as on a C<bytearray> (negative indices and
steps included): an index is an C<int> from 0 to 255, a slice a new
C<bytearray>, an index out of range an C<IndexError>.

=back";
  "CALLBACKS", "\
A callback is any Python callable.  It gets the arguments of the C
callback but its C<user_data>, in the same order: a chunk of a
structured read (L<nbd_pread_structured(3)>) as a read-only
C<memoryview> into the read buffer, valid during the call only; the
extents of L<nbd_block_status(3)> as a flat list of C<int>s (length,
flags, length, flags, ...), those of
L<nbd_block_status_64(3)> as a list of C<(length, flags)> pairs; the
C<int *error> argument as a C<ctypes.c_int>, whose C<.value> the
callback reads and may set to an errno.  A callback returns an
C<int>, as in C: C<-1> (with C<error.value> set) fails the command, a
completion callback's C<1> retires its command at once.  Any other
result counts as C<0>.

An exception raised in a callback is printed to stderr and counts as
C<-1>, so a chunk or extent callback that raises fails its command;
a completion callback runs once its command is done, and raising there
leaves the command's result as it was.  A failed
C<assert> in a callback is a bug: it prints the traceback and aborts
the program.

libnbd holds a reference to the callable until it has no more use for
it: the command has retired, the callback was replaced or cleared, or
the handle was closed.

A callback runs while the call that runs it (C<h.poll>,
C<h.pread_structured>, C<h.aio_notify_read>, ...) holds the handle's
lock, so on its own handle it may call only the methods that skip the
lock: " ^ unlocked_methods () ^ ".  Any other method on its own handle
raises C<nbd.Error> with C<errno.EDEADLK> at once, where libnbd's
module waits for ever for the lock its own thread holds; so does
C<h.close()>, which there frees the handle under the call running the
callback.  Methods of other handles are not limited.";
  "THREADS AND THE GIL", "\
Every method releases the global interpreter lock while libnbd runs,
so other Python threads run while one waits for the server, and a
callback takes the lock back while it runs.  Threads may share a
handle: the blocking calls of several threads on one handle run
together, each waiting for its own reply (see L<libnbd(3)/HANDLES>).
The library starts no thread of its own: callbacks run in the thread
of the call that runs them.";
]

let generate_libnbd_python_3 () =
  Man.pr_title "libnbd-python(3): the Python bindings" "LIBNBD-PYTHON";
  pr ".SH NAME\nlibnbd\\-python \\- how to use libnbd from Python\n";
  pr ".SH SYNOPSIS\n";
  Pod.pr_pod "libnbd-python(3)" man_synopsis;
  pr ".SH DESCRIPTION\n";
  Pod.pr_pod "libnbd-python(3)" man_intro;
  List.iter (fun (title, text) ->
    pr ".SH %s\n" title;
    Pod.pr_pod "libnbd-python(3)" text
  ) (man_sections ());
  pr ".SH SEE ALSO\n.ad l\n";
  pr "\\fBlibnbd\\fR(3),\n\\fBnbdsh\\fR(1),\n\\fBpython3\\fR(1)\n"

let generate out =
  out "docs/libnbd-python.3" generate_libnbd_python_3;
  out "python/methods.h" generate_python_methods_h;
  out "python/methods.c" generate_python_methods_c;
  out "python/nbd.py" generate_python_nbd_py
