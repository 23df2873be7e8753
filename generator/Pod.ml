(* POD, the markup of the descriptions in the API table: parsed into
   a tree (Pod.parse), which any backend can render, and rendered to
   troff for the man pages (Pod.pr_pod). *)

open Printf
open Utils

(* Escape text for troff.  In code, '-' is a minus so it is not
   hyphenated or turned into a dash. *)
let escape ?(code = false) s =
  let b = Buffer.create (String.length s + 8) in
  String.iter (function
    | '\\' -> Buffer.add_string b "\\e"
    | '-' when code -> Buffer.add_string b "\\-"
    | c -> Buffer.add_char b c) s;
  Buffer.contents b

(* A line starting with '.' or '\'' would be read as a request. *)
let protect_line l =
  if l <> "" && (l.[0] = '.' || l.[0] = '\'') then "\\&" ^ l else l

let pr_lines text =
  List.iter (fun l -> pr "%s\n" (protect_line l))
    (String.split_on_char '\n' text)

(* L<...>: a page, a section of a page, or text|target. *)
let pod_link where target =
  let target, text =
    match String.index_opt target '|' with
    | Some i -> String.sub target (i + 1) (String.length target - i - 1),
                Some (String.sub target 0 i)
    | None -> target, None in
  let unquote s =
    let n = String.length s in
    if n >= 2 && s.[0] = '"' && s.[n - 1] = '"' then String.sub s 1 (n - 2)
    else s in
  let section s = sprintf "\\(lq%s\\(rq" (escape (unquote s)) in
  let page p =
    match String.index_opt p '(' with
    | Some i when p.[String.length p - 1] = ')' && i > 0 ->
       sprintf "\\fB\\%%%s\\fR%s" (escape ~code:true (String.sub p 0 i))
         (String.sub p i (String.length p - i))
    | _ -> failwithf "%s: POD: L<%s>: not a man page reference" where p in
  match text with
  | Some t -> escape t
  | None ->
     if target <> "" && target.[0] = '/' then
       section (String.sub target 1 (String.length target - 1))
     else
       match String.index_opt target '/' with
       | Some i when i > 0 && target.[i - 1] = ')' ->
          sprintf "%s in %s"
            (section (String.sub target (i + 1) (String.length target - i - 1)))
            (page (String.sub target 0 i))
       | _ -> page target

(* Inline markup: C<> B<> I<> F<> L<> E<> S<> Z<> X<>, also in the
   C<< ... >> form.  Parsed into a tree, then rendered; fonts nest, so
   closing one returns to the enclosing font.  Anything unbalanced or
   unknown is an error. *)
type node = Text of string | Mark of char * node list

let parse where s =
  let n = String.length s in
  let fail fmt = ksprintf (fun m -> failwithf "%s: POD: %s" where m) fmt in
  let at i sub =
    let m = String.length sub in
    i + m <= n && String.sub s i m = sub in
  (* Nodes up to [close] (None: the end); returns them and the index
     after the closing delimiter. *)
  let rec nodes i close =
    let text = Buffer.create 16 in
    let acc = ref [] in
    let flush () =
      if Buffer.length text > 0 then (
        acc := Text (Buffer.contents text) :: !acc; Buffer.clear text
      ) in
    let rec loop i =
      match close with
      | Some c when at i c -> flush (); i + String.length c
      | _ when i >= n ->
         (match close with
          | Some _ -> fail "unterminated markup in %S" s
          | None -> flush (); i)
      | _ ->
         match s.[i] with
         | 'A' .. 'Z' as c when at (i + 1) "<" ->
            let k = ref 1 in
            while at (i + 1 + !k) "<" do incr k done;
            let start, closer =
              if !k = 1 then i + 2, ">"
              else (
                if not (at (i + 1 + !k) " ") then
                  fail "%c%s must be followed by a space" c
                    (String.make !k '<');
                let j = ref (i + 1 + !k) in
                while at !j " " do incr j done;
                !j, " " ^ String.make !k '>'
              ) in
            flush ();
            let children, j = nodes start (Some closer) in
            let children =
              (* In C<< x >> extra spaces before the closer are padding. *)
              if !k = 1 then children
              else match List.rev children with
                | Text t :: rest ->
                   let t' = String.trim t in
                   List.rev (if t' = "" then rest else Text t' :: rest)
                | _ -> children in
            acc := Mark (c, children) :: !acc;
            loop j
         | ch -> Buffer.add_char text ch; loop (i + 1) in
    let j = loop i in
    List.rev !acc, j in
  fst (nodes 0 None)

let rec pod_plain = function
  | [] -> ""
  | Text t :: rest -> t ^ pod_plain rest
  | Mark ('E', _) as e :: rest -> pod_entity "" e ^ pod_plain rest
  | Mark (_, ch) :: rest -> pod_plain ch ^ pod_plain rest
and pod_entity where = function
  | Mark (_, ch) ->
     (match pod_plain ch with
      | "lt" -> "<" | "gt" -> ">" | "sol" -> "/" | "verbar" -> "|"
      | "quot" -> "\"" | "amp" -> "&" | "apos" -> "'"
      | e -> failwithf "%s: POD: unknown E<%s>" where e)
  | Text t -> t

let pod_inline where s =
  let b = Buffer.create (String.length s + 16) in
  let rec render ~font ~code ~nbsp nodes =
    List.iter (function
      | Text t ->
         let t = escape ~code t in
         Buffer.add_string b
           (if nbsp then String.concat "\\ " (String.split_on_char ' ' t)
            else t)
      | Mark (c, ch) ->
         (* \% stops identifiers being hyphenated. *)
         let with_font f ~code =
           Buffer.add_string b ("\\f" ^ f ^ if code then "\\%" else "");
           render ~font:f ~code ~nbsp ch;
           Buffer.add_string b ("\\f" ^ font) in
         match c with
         | 'C' -> with_font "B" ~code:true
         | 'B' -> with_font "B" ~code
         | 'I' -> with_font "I" ~code
         | 'F' -> with_font "I" ~code:true
         | 'S' -> render ~font ~code ~nbsp:true ch
         | 'L' ->
            Buffer.add_string b (pod_link where (pod_plain ch));
            if font <> "R" then Buffer.add_string b ("\\f" ^ font)
         | 'E' ->
            Buffer.add_string b
              (escape ~code (pod_entity where (Mark (c, ch))))
         | 'Z' | 'X' -> ()
         | _ -> failwithf "%s: POD: unknown markup %c<...>" where c
    ) nodes in
  render ~font:"R" ~code:false ~nbsp:false (parse where s);
  Buffer.contents b

(* Block structure: paragraphs separated by blank lines; verbatim
   paragraphs start with a space; =over/=item/=back make a list. *)
let pr_pod where pod =
  let lines = String.split_on_char '\n' pod in
  let paras =
    let rec group cur acc = function
      | [] -> List.rev (if cur = [] then acc else List.rev cur :: acc)
      | l :: ls when String.trim l = "" ->
         group [] (if cur = [] then acc else List.rev cur :: acc) ls
      | l :: ls -> group (l :: cur) acc ls in
    group [] [] lines in
  let is_verbatim p = (List.hd p).[0] = ' ' || (List.hd p).[0] = '\t' in
  (* Consecutive verbatim paragraphs are one block with blank lines. *)
  let rec merge = function
    | a :: b :: rest when is_verbatim a && is_verbatim b ->
       merge ((a @ [ "" ] @ b) :: rest)
    | p :: rest -> p :: merge rest
    | [] -> [] in
  let paras = merge paras in
  let fail fmt = ksprintf (fun m -> failwithf "%s: POD: %s" where m) fmt in
  let over = ref None and after_item = ref false in
  let start_para () =
    if !after_item then after_item := false
    else if !over <> None then pr ".IP\n"
    else pr ".PP\n" in
  List.iter (fun p ->
    let first = List.hd p in
    if is_verbatim p then (
      start_para ();
      let indent l =
        let i = ref 0 in
        while !i < String.length l && l.[!i] = ' ' do incr i done;
        !i in
      let nonblank = List.filter (fun l -> String.trim l <> "") p in
      let strip = List.fold_left (fun m l -> min m (indent l)) max_int
                    nonblank in
      pr ".RS 4\n.nf\n";
      List.iter (fun l ->
        if String.trim l = "" then pr ".sp\n"
        else
          let l = String.sub l strip (String.length l - strip) in
          pr "%s\n" (protect_line (escape ~code:true l))
      ) p;
      pr ".fi\n.RE\n"
    )
    else if first.[0] = '=' then (
      if List.length p > 1 && not (string_starts_with ~prefix:"=item" first)
      then fail "text after %S must be a separate paragraph" first;
      let cmd, rest =
        match String.index_opt first ' ' with
        | Some i -> String.sub first 0 i,
                    String.trim (String.sub first i (String.length first - i))
        | None -> first, "" in
      match cmd with
      | "=over" ->
         if !over <> None then fail "nested =over is not supported";
         let n = if rest = "" then 4
           else try int_of_string rest
                with Failure _ -> fail "=over %S: not a number" rest in
         over := Some n
      | "=item" ->
         (match !over with
          | None -> fail "=item outside =over ... =back"
          | Some n ->
             pr ".TP %d\n" n;
             pr_lines (pod_inline where rest);
             (* Text right after the tag is the item's first paragraph. *)
             match List.tl p with
             | [] -> after_item := true
             | body ->
                pr_lines (pod_inline where
                            (String.concat "\n" (List.map String.trim body))))
      | "=back" ->
         if !over = None then fail "=back without =over";
         over := None; after_item := false
      | _ -> fail "unsupported POD command %S" cmd
    )
    else (
      start_para ();
      pr_lines (pod_inline where
                  (String.concat "\n" (List.map String.trim p)))
    )
  ) paras;
  if !over <> None then fail "=over without =back"
