# nbdsh.py: the NBD shell, a Python prompt with the nbd module and a handle h.
#
# sh/nbdsh runs shell (); "python3 -m nbdsh" does the same.  See
# sh/nbdsh.pod for the command line.

import argparse
import code
import os
import sys
import traceback

import nbd

SHORT_OPTIONS = ["-V", "-c", "-n", "-u", "-v"]
LONG_OPTIONS = ["--base-allocation", "--command", "--opt-mode", "--uri",
                "--verbose", "--version"]

# The options that need the handle h; -n refuses them.
HANDLE_STEPS = ("base_allocation", "opt_mode", "uri")


class Step(argparse.Action):
    """Appends (option, value) to args.steps, so that -c, -u,
    --base-allocation and --opt-mode run in command line order."""

    def __call__(self, parser, args, value, option_string=None):
        args.steps = args.steps + [(self.dest, value)]


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="nbdsh", description="Network Block Device (NBD) shell",
        epilog="Read the nbdsh(1) manual page for the full usage.")
    p.set_defaults(steps=[])
    p.add_argument("--base-allocation", action=Step, nargs=0,
                   help='ask for the "base:allocation" meta context')
    p.add_argument("-c", "--command", action=Step, metavar="COMMAND",
                   help="run Python code (repeatable; '-' reads stdin)")
    p.add_argument("-n", action="store_true",
                   help="do not create the handle h")
    p.add_argument("--opt-mode", action=Step, nargs=0,
                   help="stop in option mode when connecting")
    p.add_argument("-u", "--uri", action=Step, help="connect to an NBD URI")
    # --connect is an old name of --uri, left out of --help.
    p.add_argument("--connect", dest="uri", action=Step,
                   help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print libnbd debug messages")
    p.add_argument("-V", "--version", action="store_true",
                   help="print the versions of nbdsh and libnbd")
    # For bash completion.
    p.add_argument("--short-options", action="store_true",
                   help=argparse.SUPPRESS)
    p.add_argument("--long-options", action="store_true",
                   help=argparse.SUPPRESS)
    return p.parse_args(argv)


def print_version():
    # nbdsh is the library's own: both lines carry its --with-extra
    # string, as " (EXTRA)" after the version, like the C tools.
    h = nbd.NBD()
    version = h.get_version()
    extra = h.get_version_extra()
    if extra:
        version += " (%s)" % extra
    print("nbdsh", version)
    print(h.get_package_name(), version)


def print_lines(lines):
    """A reader that stops early (nbdsh --long-options | head -1) is
    not an error worth a traceback: end quietly, as a SIGPIPE would."""
    try:
        print("\n".join(lines), flush=True)
    except BrokenPipeError:
        # Python would flush stdout again at exit and fail once more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def informational(args):
    """Handles the options that print something and exit; True if one
    was given."""
    if args.version:
        print_version()
    elif args.short_options:
        print_lines(SHORT_OPTIONS)
    elif args.long_options:
        print_lines(LONG_OPTIONS)
    else:
        return False
    return True


def make_namespace(args):
    """The globals of the -c commands and the interactive shell: one
    dict, so a name set by one is seen by the next."""
    ns = {"__name__": "__main__", "nbd": nbd, "os": os, "sys": sys}
    if not args.n:
        h = nbd.NBD()
        h.set_handle_name("nbdsh")
        ns["h"] = h
    return ns


def run_step(kind, value, ns):
    if kind == "command":
        source = sys.stdin.read() if value == "-" else value
        exec(source, ns)
    elif kind == "uri":
        ns["h"].connect_uri(value)
    elif kind == "base_allocation":
        ns["h"].add_meta_context(nbd.CONTEXT_BASE_ALLOCATION)
    elif kind == "opt_mode":
        ns["h"].set_opt_mode(True)


def run_steps(steps, ns):
    """Runs the steps in order.  An nbd.Error ends nbdsh with exit 1:
    with its traceback when libnbd debugging is on, else in one line."""
    try:
        for kind, value in steps:
            run_step(kind, value, ns)
    except nbd.Error as e:
        # A new handle's debug flag says whether LIBNBD_DEBUG (or -v)
        # asked for debugging, whatever the commands did to h.
        if nbd.NBD().get_debug():
            traceback.print_exc()
        else:
            print("nbdsh: command line script failed: %s" % e.string,
                  file=sys.stderr)
        sys.exit(1)


def banner(have_handle):
    lines = ["",
             "Welcome to nbdsh, the shell for interacting with",
             "Network Block Device (NBD) servers.",
             ""]
    if have_handle:
        lines += ["The 'nbd' module is imported and 'h' is an NBD handle.",
                  ""]
    else:
        lines += ["The 'nbd' module is imported.  There is no handle:",
                  "",
                  "h = nbd.NBD()                # make one"]
    lines += ["h.connect_uri('nbd://host')  # connect to a server",
              "h.get_size()                 # size of the export",
              "h.pread(512, 0)              # read the first sector",
              "help(nbd)                    # the documentation",
              "exit() or Ctrl-D             # leave the shell",
              ""]
    return "\n".join(lines)


def shell(argv=None):
    args = parse_args(argv)
    # As in libnbd 1.22, -n with an option that needs h is refused even
    # beside -V, and the message has no "nbdsh: " in front.
    wants_handle = [k for k, _ in args.steps if k in HANDLE_STEPS]
    if args.n and wants_handle:
        print("error: -n option cannot be used with "
              "--base-allocation, --opt-mode or --uri", file=sys.stderr)
        sys.exit(1)
    if informational(args):
        sys.exit(0)
    if args.verbose:
        os.environ["LIBNBD_DEBUG"] = "1"

    ns = make_namespace(args)
    run_steps(args.steps, ns)
    # Without -c, the shell is interactive.
    if len(args.steps) == len(wants_handle):
        sys.ps1 = "nbd> "
        code.interact(banner=banner(not args.n), local=ns, exitmsg="")


if __name__ == "__main__":
    shell()
