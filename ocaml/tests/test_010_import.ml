(* The module loads (native and byte code) and its constants are
   libnbd's. *)
open Common

let () =
  let nbd = NBD.create () in
  check (NBD.get_package_name nbd = "libnbd") "package name";
  check (String.length (NBD.get_version nbd) > 0) "version";
  check (NBD.aio_direction_read = 1l && NBD.aio_direction_write = 2l
         && NBD.aio_direction_both = 3l) "aio_direction constants";
  check (NBD.read_data = 1l && NBD.read_hole = 2l && NBD.read_error = 3l)
    "read_* constants";
  check (NBD.context_base_allocation = "base:allocation")
    "context_base_allocation";
  check (NBD.namespace_qemu = "qemu:") "namespace_qemu";
  check (NBD.state_hole = 1l && NBD.state_zero = 2l
         && NBD.state_dirty = 1l) "state constants";
  check (List.length NBD.CMD_FLAG.mask = 6) "CMD_FLAG.mask";
  check (NBD.errno_of_unix_error Unix.EINVAL = 22) "errno_of_unix_error";
  NBD.close nbd
