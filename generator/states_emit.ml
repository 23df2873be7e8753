(* Emitters of the state machine: lib/states.h and lib/states.c, from
   State_machine.machine and the C bodies in generator/states-*.c. *)

open Printf
open Utils
open State_machine

let states = flatten machine

let group_of path = List.rev (List.tl (List.rev path))

let find_state path =
  List.find_opt (fun (p, _, _) -> p = path) states

(* Resolve a reference written in group [group]: "NAME" or "A.B" is
   relative to the group, "^A.B" to its parent, ".A.B" absolute.  A
   reference to a group means its START. *)
let resolve ~where group ref_ =
  let base, rest =
    if string_starts_with ~prefix:"." ref_ then
      [], String.sub ref_ 1 (String.length ref_ - 1)
    else if string_starts_with ~prefix:"^" ref_ then
      (match List.rev group with
       | _ :: parent -> List.rev parent
       | [] -> failwithf "%s: %%%s: no parent group" where ref_),
      String.sub ref_ 1 (String.length ref_ - 1)
    else group, ref_ in
  let path = base @ String.split_on_char '.' rest in
  let path =
    match find_state path with
    | Some _ -> path
    | None ->
       match find_state (path @ [ "START" ]) with
       | Some _ -> path @ [ "START" ]
       | None -> failwithf "%s: %%%s: no such state" where ref_ in
  (* Into another group only through its START; a group's own states
     and those of the groups around it may be reached directly. *)
  let target_group = group_of path in
  let rec is_prefix a b = match a, b with
    | [], _ -> true
    | x :: a', y :: b' -> x = y && is_prefix a' b'
    | _ -> false in
  if not (is_prefix target_group group)
     && List.nth path (List.length path - 1) <> "START"
  then failwithf "%s: %%%s: enters group %s other than through START"
         where ref_ (display_name target_group);
  path

let check_events () =
  List.iter (fun (path, s, _) ->
    List.iter (fun (_, target) ->
      ignore (resolve ~where:(display_name path) (group_of path) target)
    ) s.events
  ) states

(* ---- parsing generator/states-*.c ---- *)

type fragment = {
  file : string;
  prelude : string;           (* C before STATE_MACHINE { *)
  prelude_line : int;
  bodies : (string list * int * string list) list;
    (* state path, line of the first body line, body lines *)
}

let read_lines file =
  let ic = open_in file in
  let rec loop acc =
    match input_line ic with
    | l -> loop (l :: acc)
    | exception End_of_file -> close_in ic; List.rev acc in
  loop []

let label_re = Str.regexp "^ \\([A-Z_][A-Z0-9_.]*\\):[ ]*$"

let parse_fragment file =
  let lines = read_lines file in
  let rec split_prelude acc n = function
    | [] -> failwithf "%s: no STATE_MACHINE {" file
    | l :: rest when String.trim l = "STATE_MACHINE {" ->
       List.rev acc, n + 1, rest
    | l :: rest -> split_prelude (l :: acc) (n + 1) rest in
  let prelude, n, rest = split_prelude [] 0 lines in
  let bodies = ref [] in
  let cur = ref None in
  let flush () =
    match !cur with
    | Some (p, line, ls) -> bodies := (p, line, List.rev ls) :: !bodies
    | None -> () in
  let ended = ref false in
  List.iteri (fun i l ->
    let lineno = n + i + 1 in
    if !ended then ()
    else if string_starts_with ~prefix:"} /* END STATE MACHINE */" l then (
      flush (); cur := None; ended := true
    ) else if Str.string_match label_re l 0 then (
      flush ();
      let name = Str.matched_group 1 l in
      let path = String.split_on_char '.' name in
      (match find_state path with
       | Some _ -> ()
       | None -> failwithf "%s:%d: unknown state %s" file lineno name);
      cur := Some (path, lineno + 1, [])
    ) else
      match !cur with
      | Some (p, line, ls) -> cur := Some (p, line, l :: ls)
      | None ->
         if String.trim l <> "" then
           failwithf "%s:%d: code outside a state" file lineno
  ) rest;
  if not !ended then failwithf "%s: no END STATE MACHINE" file;
  { file; prelude = String.concat "\n" prelude; prelude_line = 1;
    bodies = List.rev !bodies }

(* Replace %REF by the resolved state's enum name. *)
let ref_re = Str.regexp "%\\([.^]?[A-Z_][A-Z0-9_.]*\\)"
let substitute ~where group line =
  Str.global_substitute ref_re (fun s ->
    let r = Str.matched_group 1 s in
    (* A trailing dot belongs to the sentence, not the name. *)
    let r, tail =
      if r.[String.length r - 1] = '.'
      then String.sub r 0 (String.length r - 1), "." else r, "" in
    c_name (resolve ~where group r) ^ tail
  ) line

(* Resolve every %REF and check each state has exactly one body, so a
   broken fragment stops the generator before it writes any file. *)
let check_fragments fragments =
  let defined = Hashtbl.create 64 in
  List.iter (fun fr ->
    let base = Filename.basename fr.file in
    List.iter (fun (path, _, body) ->
      if Hashtbl.mem defined path then
        failwithf "%s: state %s defined twice" base (display_name path);
      Hashtbl.add defined path ();
      let where = sprintf "%s: %s" base (display_name path) in
      List.iter (fun l -> ignore (substitute ~where (group_of path) l)) body
    ) fr.bodies
  ) fragments;
  List.iter (fun (p, _, _) ->
    if not (Hashtbl.mem defined p) then
      failwithf "state %s has no body in generator/states-*.c"
        (display_name p)
  ) states

(* ---- lib/states.h ---- *)

let public_name = function
  | Created -> "created" | Connecting -> "connecting"
  | Negotiating -> "negotiating" | Ready -> "ready"
  | Processing -> "processing" | Dead -> "dead" | Closed -> "closed"

let generate_lib_states_h () =
  generated_header "libnbd: the states of the state machine";
  pr "#ifndef LIBNBD_STATES_H\n#define LIBNBD_STATES_H\n\n";
  pr "#include <stdbool.h>\n\n";
  pr "enum state {\n";
  List.iter (fun (p, s, _) ->
    pr "  %s, /* %s: %s */\n" (c_name p) (display_name p) s.comment
  ) states;
  pr "};\n\n";
  pr "enum external_event {\n";
  List.iter (fun e -> pr "  %s,\n" (string_of_event e)) all_events;
  pr "};\n\n";
  List.iter (fun pub ->
    let these = List.filter (fun (_, _, p) -> p = Some pub) states in
    pr "/* aio_is_%s */\nstatic inline bool\n" (public_name pub);
    pr "nbd_internal_is_state_%s (enum state state)\n{\n" (public_name pub);
    (match these with
     | [] -> pr "  return false;\n"
     | _ ->
        let first, _, _ = List.hd these in
        let last, _, _ = List.nth these (List.length these - 1) in
        (* Groups are emitted contiguously, so a range test suffices
           when the states of this public state are adjacent. *)
        let idx p = let rec f i = function
                        | [] -> -1
                        | (q, _, _) :: r -> if q = p then i else f (i+1) r in
                      f 0 states in
        if idx last - idx first + 1 = List.length these then
          pr "  return state >= %s && state <= %s;\n" (c_name first)
            (c_name last)
        else (
          pr "  switch (state) {\n";
          List.iter (fun (p, _, _) -> pr "  case %s:\n" (c_name p)) these;
          pr "    return true;\n  default:\n    return false;\n  }\n"
        ));
    pr "}\n\n"
  ) [ Created; Connecting; Negotiating; Ready; Processing; Dead; Closed ];
  pr "#endif /* LIBNBD_STATES_H */\n"

(* ---- lib/states.c ---- *)

(* What a state waits for, as a LIBNBD_AIO_DIRECTION_* value: a state
   accepting NotifyRead waits to read, NotifyWrite to write; a state
   accepting neither never waits on the socket. *)
let direction s =
  let accepts e = List.mem_assoc e s.events in
  match accepts NotifyRead, accepts NotifyWrite with
  | true, true -> "LIBNBD_AIO_DIRECTION_BOTH"
  | true, false -> "LIBNBD_AIO_DIRECTION_READ"
  | false, true -> "LIBNBD_AIO_DIRECTION_WRITE"
  | false, false -> "0"

(* The name messages and debug lines give a state: libnbd's DEAD and
   CLOSED are states of their own, ours groups with a START state. *)
let table_name = function
  | [ ("DEAD" | "CLOSED") as g; "START" ] -> g
  | p -> display_name p

let generate_lib_states_c fragments =
  generated_header "libnbd: the state machine";
  pr "#include <config.h>\n\n";
  pr "#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n";
  pr "#include <inttypes.h>\n#include <string.h>\n#include <errno.h>\n";
  pr "#include <unistd.h>\n\n";
  pr "#include \"internal.h\"\n\n";
  pr "/* In a state body: choose the next state.  A body that leaves\n";
  pr " * the state unchanged is blocked, waiting for an event. */\n";
  pr "#define SET_NEXT_STATE(s) (*next_state = (s))\n";
  pr "/* Move to a state but wait for an event before running it. */\n";
  pr "#define SET_NEXT_STATE_AND_BLOCK(s) (*next_state = (s), *blocked = true)\n";
  pr "#define CURRENT_STATE (h->state)\n\n";
  List.iter (fun (p, _, _) ->
    pr "static int enter_%s (struct nbd_handle *h, enum state *next_state,\n                bool *blocked);\n"
      (c_name p)
  ) states;
  pr "\n";
  List.iter (fun fr ->
    let base = Filename.basename fr.file in
    pr "#line %d \"generator/%s\"\n%s\n" fr.prelude_line base fr.prelude;
    List.iter (fun (path, line, body) ->
      let where = sprintf "%s: %s" base (display_name path) in
      let group = group_of path in
      pr "/* %s */\nstatic int\nenter_%s (struct nbd_handle *h,\n"
        (display_name path) (c_name path);
      pr "         enum state *next_state, bool *blocked)\n{\n";
      pr "#line %d \"generator/%s\"\n" line base;
      List.iter (fun l -> pr "%s\n" (substitute ~where group l)) body;
      pr "}\n\n"
    ) fr.bodies
  ) fragments;
  (* Back to this file: the next line is line !lines + 2. *)
  pr "#line %d \"lib/states.c\"\n" (!lines + 2);
  pr "/* The state table: names, entry functions, and what each\n";
  pr " * state waits for on the socket, from the events it accepts. */\n";
  pr "static const struct {\n  const char *name;\n";
  pr "  int (*enter) (struct nbd_handle *h, enum state *next_state,\n";
  pr "                bool *blocked);\n";
  pr "  unsigned direction;\n";
  pr "} state_table[] = {\n";
  List.iter (fun (p, s, _) ->
    pr "  [%s] = { \"%s\",\n" (c_name p) (table_name p);
    pr "    enter_%s, %s },\n" (c_name p) (direction s)
  ) states;
  pr "};\n\n";
  pr "const char *\nnbd_internal_state_short_string (enum state state)\n{\n";
  pr "  return state_table[state].name;\n}\n\n";
  pr "unsigned\nnbd_internal_state_direction (enum state state)\n{\n";
  pr "  return state_table[state].direction;\n}\n\n";
  (* Event table: for each state, where each external event leads. *)
  pr "/* Where an external event leads from a state; -1: not accepted. */\n";
  pr "static int\nevent_target (enum state state, enum external_event ev)\n{\n";
  pr "  switch (state) {\n";
  List.iter (fun (p, s, _) ->
    if s.events <> [] then (
      pr "  case %s:\n    switch (ev) {\n" (c_name p);
      List.iter (fun (e, target) ->
        let t = resolve ~where:(display_name p) (group_of p) target in
        pr "    case %s: return %s;\n" (string_of_event e) (c_name t)
      ) s.events;
      pr "    default: return -1;\n    }\n"
    )
  ) states;
  pr "  default:\n    return -1;\n  }\n}\n\n";
  pr "static const char *\nevent_name (enum external_event ev)\n{\n";
  pr "  switch (ev) {\n";
  List.iter (fun e ->
    pr "  case %s: return \"%s\";\n" (string_of_event e) (string_of_event e)
  ) all_events;
  pr "  }\n  return \"?\";\n}\n\n";
  pr "\
/* Run states until one blocks (leaves the state unchanged).  A state
 * that fails sets the error and returns -1: the handle goes to DEAD,
 * whose body fails every command.
 */
static int
run (struct nbd_handle *h)
{
  for (;;) {
    enum state prev = h->state, next = prev;
    bool blocked = false;
    int r = state_table[prev].enter (h, &next, &blocked);

    if (r == -1) {
      if (prev != STATE_DEAD_START) {
        debug (h, \"state %%s failed, handle is dead\",
               state_table[prev].name);
        h->state = STATE_DEAD_START;
        next = STATE_DEAD_START;
        (void) state_table[STATE_DEAD_START].enter (h, &next, &blocked);
      }
      nbd_internal_set_public_state (h, h->state);
      return -1;
    }
    if (next != prev && h->debug)
      debug (h, \"transition: %%s -> %%s\", state_table[prev].name,
             state_table[next].name);
    h->state = next;
    if (next == prev || blocked) {
      nbd_internal_set_public_state (h, h->state);
      return 0;
    }
  }
}

/* Make the handle dead now, failing every command and the option
 * under way (the error already set stays the handle's), unless the
 * connection is over already.
 */
void
nbd_internal_go_dead (struct nbd_handle *h)
{
  enum state next = STATE_DEAD_START;
  bool blocked = false;

  if (nbd_internal_is_state_dead (h->state) ||
      nbd_internal_is_state_closed (h->state))
    return;
  debug (h, \"state %%s abandoned, handle is dead\",
         state_table[h->state].name);
  h->state = STATE_DEAD_START;
  (void) state_table[STATE_DEAD_START].enter (h, &next, &blocked);
  nbd_internal_set_public_state (h, h->state);
}

/* Post an external event: move to the state it leads to and run. */
int
nbd_internal_run (struct nbd_handle *h, enum external_event ev)
{
  int target = event_target (h->state, ev);

  if (target == -1) {
    set_error (EINVAL, \"external event %%s is invalid in state %%s\",
               event_name (ev), state_table[h->state].name);
    return -1;
  }
  if (h->debug)
    debug (h, \"event %%s: %%s -> %%s\", event_name (ev),
           state_table[h->state].name, state_table[target].name);
  h->state = target;
  return run (h);
}

/* The state lock-free calls see. */
enum state
nbd_internal_get_public_state (struct nbd_handle *h)
{
  return __atomic_load_n (&h->public_state, __ATOMIC_ACQUIRE);
}
"
