(* The state machine: groups and states, the external events each state
   accepts, and which public state (nbd_aio_is_X) each top-level group is.
   The C body of every state lives in generator/states-*.c. *)

type external_event =
  | NotifyRead                (* the socket is readable *)
  | NotifyWrite               (* the socket is writable *)
  | CmdConnectSockAddr        (* nbd_aio_connect *)
  | CmdConnectTCP             (* nbd_aio_connect_tcp *)
  | CmdConnectCommand         (* nbd_aio_connect_command *)
  | CmdConnectSA              (* systemd socket activation *)
  | CmdConnectSocket          (* nbd_aio_connect_socket *)
  | CmdIssue                  (* a command or option was queued *)

let all_events = [ NotifyRead; NotifyWrite; CmdConnectSockAddr;
                   CmdConnectTCP; CmdConnectCommand; CmdConnectSA;
                   CmdConnectSocket; CmdIssue ]

let string_of_event = function
  | NotifyRead -> "NotifyRead"
  | NotifyWrite -> "NotifyWrite"
  | CmdConnectSockAddr -> "CmdConnectSockAddr"
  | CmdConnectTCP -> "CmdConnectTCP"
  | CmdConnectCommand -> "CmdConnectCommand"
  | CmdConnectSA -> "CmdConnectSA"
  | CmdConnectSocket -> "CmdConnectSocket"
  | CmdIssue -> "CmdIssue"

(* What nbd_aio_is_X says about a top-level group. *)
type public = Created | Connecting | Negotiating | Ready | Processing
            | Dead | Closed

type state = {
  name : string;                        (* "START", "RECV_MAGIC" *)
  comment : string;                     (* one line *)
  events : (external_event * string) list;
    (* event -> target, a path as in the C bodies without the % *)
}

type node =
  | State of state
  | Group of string * public option * node list
      (* top-level groups give their public state; subgroups inherit *)

let st ?(events = []) name comment = State { name; comment; events }

(* How transmission replies are read: blocking in a REPLY state never
   keeps the machine there; the reply is parked and the machine goes
   back to READY, so new commands can still be issued. *)
let machine = [
  Group ("CREATED", Some Created, [
    st "START" "handle just created, not connected"
      ~events:[ CmdConnectSockAddr, ".CONNECT.START";
                CmdConnectTCP, ".CONNECT_TCP.START";
                CmdConnectCommand, ".CONNECT_COMMAND.START";
                CmdConnectSA, ".CONNECT_SA.START";
                CmdConnectSocket, ".MAGIC.START" ];
  ]);

  Group ("CONNECT", Some Connecting, [
    st "START" "start a non-blocking connect to h->connaddr";
    st "CONNECTING" "wait for the connect to finish"
      ~events:[ NotifyWrite, "CONNECTING" ];
  ]);

  Group ("CONNECT_TCP", Some Connecting, [
    st "START" "resolve the host name and port";
    st "CONNECT" "start connecting to the next address";
    st "CONNECTING" "wait for this address to connect"
      ~events:[ NotifyWrite, "CONNECTING" ];
    st "NEXT_ADDRESS" "this address failed, try the next";
  ]);

  Group ("CONNECT_COMMAND", Some Connecting, [
    st "START" "run the server as a child on a socketpair";
  ]);

  Group ("CONNECT_SA", Some Connecting, [
    st "START" "run the server with systemd socket activation";
  ]);

  Group ("MAGIC", Some Connecting, [
    st "START" "prepare to read the greeting";
    st "RECV_MAGIC" "read the 16 bytes of magic"
      ~events:[ NotifyRead, "RECV_MAGIC" ];
    st "CHECK_MAGIC" "oldstyle or newstyle?";
  ]);

  Group ("OLDSTYLE", Some Connecting, [
    st "START" "prepare to read the rest of the oldstyle greeting";
    st "RECV_REMAINING" "read size, flags and padding"
      ~events:[ NotifyRead, "RECV_REMAINING" ];
    st "CHECK" "record the export facts";
  ]);

  Group ("NEWSTYLE", Some Connecting, [
    st "START" "prepare to read the handshake flags";
    st "RECV_GFLAGS" "read the server's handshake flags"
      ~events:[ NotifyRead, "RECV_GFLAGS" ];
    st "CHECK_GFLAGS" "choose our client flags";
    st "SEND_CFLAGS" "send the client flags"
      ~events:[ NotifyWrite, "SEND_CFLAGS" ];
  ]);

  (* Options, in the order connect sends them.  Each group sends one
     option and reads its replies; in opt mode each returns to
     NEGOTIATING. *)
  Group ("OPT_STARTTLS", Some Connecting, [
    st "START" "ask for TLS, if wanted";
    st "SEND" "send NBD_OPT_STARTTLS"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read the option reply"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "start TLS, or fall back when allowed";
    st "RECV_TLS_HANDSHAKE" "TLS handshake: GnuTLS waits to read"
      ~events:[ NotifyRead, "RECV_TLS_HANDSHAKE" ];
    st "SEND_TLS_HANDSHAKE" "TLS handshake: GnuTLS waits to write"
      ~events:[ NotifyWrite, "SEND_TLS_HANDSHAKE" ];
    st "FINISH" "TLS is up";
  ]);

  Group ("OPT_EXTENDED_HEADERS", Some Connecting, [
    st "START" "ask for extended headers, if wanted";
    st "SEND" "send NBD_OPT_EXTENDED_HEADERS"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read the option reply"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "did the server agree?";
  ]);

  Group ("OPT_STRUCTURED_REPLY", Some Connecting, [
    st "START" "ask for structured replies, if wanted";
    st "SEND" "send NBD_OPT_STRUCTURED_REPLY"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read the option reply"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "did the server agree?";
  ]);

  Group ("OPT_META_CONTEXT", Some Connecting, [
    st "START" "set or list meta contexts, if wanted";
    st "SEND" "send the option with its queries"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read an option reply"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "record a context, or finish at ACK";
  ]);

  Group ("OPT_GO", Some Connecting, [
    st "START" "ask for the export with NBD_OPT_GO or NBD_OPT_INFO";
    st "SEND" "send the option, the name and the info requests"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read an option reply"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "record an info, or finish at ACK";
  ]);

  Group ("OPT_EXPORT_NAME", Some Connecting, [
    st "START" "the old way to choose an export";
    st "SEND" "send NBD_OPT_EXPORT_NAME"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read size and flags"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "record the export facts";
  ]);

  Group ("OPT_LIST", Some Connecting, [
    st "START" "ask the server to list its exports";
    st "SEND" "send NBD_OPT_LIST"
      ~events:[ NotifyWrite, "SEND" ];
    st "RECV_REPLY" "read an option reply"
      ~events:[ NotifyRead, "RECV_REPLY" ];
    st "CHECK_REPLY" "pass an export to the callback, or finish";
  ]);

  Group ("OPT_ABORT", Some Connecting, [
    st "START" "end negotiation";
    st "SEND" "send NBD_OPT_ABORT"
      ~events:[ NotifyWrite, "SEND" ];
  ]);

  Group ("NEGOTIATING", Some Negotiating, [
    st "START" "opt mode: waiting for the next nbd_opt_* call"
      ~events:[ CmdIssue, ".OPT_ISSUE.START" ];
  ]);

  Group ("OPT_ISSUE", Some Connecting, [
    st "START" "dispatch the option an nbd_opt_* call asked for";
  ]);

  Group ("READY", Some Ready, [
    st "START" "connected, nothing being sent or received"
      ~events:[ CmdIssue, "START";   (* its body decides when to send *)
                NotifyRead, ".REPLY.START" ];
  ]);

  Group ("ISSUE_COMMAND", Some Processing, [
    st "START" "gather queued requests, or resume a paused send";
    st "SEND" "send the gathered requests in one sendmsg"
      ~events:[ NotifyWrite, "SEND"; NotifyRead, "PAUSE_SEND" ];
    st "PAUSE_SEND" "the socket is full but readable: read replies";
    st "FINISH" "everything gathered was sent";
  ]);

  Group ("REPLY", Some Processing, [
    st "START" "start or resume reading a reply";
    st "RECV_REPLY" "read the common part of the reply header";
    st "CHECK_MAGIC" "simple or structured?";
    st "RECV_STRUCTURED_REST" "read the rest of a chunk header";
    Group ("SIMPLE_REPLY", None, [
      st "START" "match the command, check the error";
      st "RECV_READ_PAYLOAD" "read the data of a read";
    ]);
    Group ("CHUNK_REPLY", None, [
      st "START" "match the command, check the chunk header";
      st "RECV_OFFSET_DATA" "read the offset of a data chunk";
      st "CHECK_OFFSET_DATA" "check the data lies inside the request";
      st "RECV_OFFSET_DATA_DATA" "read the data into the caller's buffer";
      st "RECV_OFFSET_HOLE" "read a hole chunk";
      st "CHECK_OFFSET_HOLE" "check and zero the hole";
      st "RECV_PAYLOAD" "read a block status or error payload";
      st "CHECK_BLOCK_STATUS" "check the extents, call the callback";
      st "CHECK_ERROR" "record the server's error";
      st "RECV_DISCARD" "skip a payload we refuse to use";
      st "FINISH" "one chunk done";
    ]);
    st "FINISH_COMMAND" "complete the command if its reply is done";
  ]);

  Group ("DEAD", Some Dead, [
    st "START" "the connection failed: fail every command";
  ]);

  Group ("CLOSED", Some Closed, [
    st "START" "the connection was shut down cleanly";
  ]);
]

(* Flatten to (path, state, public) with paths like ["REPLY";
   "SIMPLE_REPLY"; "START"]. *)
let rec flatten ?(prefix = []) ?public nodes =
  List.concat_map (function
    | State s -> [ (prefix @ [ s.name ], s, public) ]
    | Group (g, p, nodes) ->
       let public = match p with Some _ -> p | None -> public in
       flatten ~prefix:(prefix @ [ g ]) ?public nodes
  ) nodes

let c_name path = "STATE_" ^ String.concat "_" path
let display_name path = String.concat "." path
