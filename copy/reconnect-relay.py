#!/usr/bin/env python3
# reconnect-relay.py: a TCP or Unix-socket relay that breaks connections
# on purpose, for the nbdcopy --reconnect tests.
#
# It listens, connects each client to the target and forwards bytes both
# ways.  The Kth connection it accepts (counting from 1) may meet a fault:
#
#   --cut-after-bytes=N[,M...]  connection 1 is closed (both sides) after
#                               N bytes forwarded (both directions
#                               counted), connection 2 after M, ...
#   --cut-random=SEED:MEAN      every connection is closed after a number
#                               of bytes drawn from an exponential
#                               distribution of mean MEAN (seeded, so a
#                               failing run can be repeated)
#   --stall-after=N[,M...]      like --cut-after-bytes, but the relay then
#                               stops forwarding in both directions and
#                               keeps both sockets open: a half-open peer,
#                               as behind a firewall that drops packets
#   --max-faults=K              at most K connections meet a fault
#
# Connections past the faults forward normally, so a client that
# reconnects gets through.  Each fault is logged on stderr as a line
# "reconnect-relay: connection K cut after N bytes" (or "stalled"), for
# the test to count.  The port (or the socket path) is written to
# --port-file once the relay listens; the file appears whole (written
# and renamed), so a test may wait for it to exist.
#
# Python's standard library only: one thread, a selectors loop.

import argparse
import os
import random
import selectors
import signal
import socket
import sys

CHUNK = 256 * 1024


def log(msg):
    print("reconnect-relay: " + msg, file=sys.stderr, flush=True)


def parse_host_port(s):
    host, sep, port = s.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError("expected HOST:PORT, got " + s)
    return (host or "127.0.0.1", int(port))


def parse_byte_list(s):
    try:
        values = [int(w) for w in s.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("expected N[,M...], got " + s)
    if any(v < 0 for v in values):
        raise argparse.ArgumentTypeError("byte counts must be >= 0")
    return values


def parse_seed_mean(s):
    seed, sep, mean = s.partition(":")
    if not sep or not seed.isdigit() or not mean.isdigit() or \
       int(mean) == 0:
        raise argparse.ArgumentTypeError("expected SEED:MEAN_BYTES, got " + s)
    return (int(seed), int(mean))


class FaultPlan:
    """Which fault the Kth connection meets: (kind, bytes) or None."""

    def __init__(self, args):
        self.cuts = args.cut_after_bytes or []
        self.stalls = args.stall_after or []
        self.random = None
        if args.cut_random:
            seed, self.mean = args.cut_random
            self.random = random.Random(seed)
        self.max_faults = args.max_faults
        self.given = 0

    def next(self, k):
        if self.max_faults is not None and self.given >= self.max_faults:
            return None
        fault = None
        if k <= len(self.cuts):
            fault = ("cut", self.cuts[k - 1])
        elif k <= len(self.stalls):
            fault = ("stall", self.stalls[k - 1])
        elif self.random is not None:
            fault = ("cut", int(self.random.expovariate(1.0 / self.mean)))
        if fault is not None:
            self.given += 1
        return fault


class Pair:
    """One client and its connection to the target.

    Bytes are read from one side only while the buffer towards the other
    side is empty, so a slow reader slows the writer (as TCP would) and
    memory stays bounded.
    """

    def __init__(self, relay, k, client, server, fault):
        self.relay, self.k = relay, k
        self.client, self.server = client, server
        self.fault = fault
        self.forwarded = 0
        self.stopped = False            # the fault point was reached
        self.closed = False
        self.out = {client: bytearray(), server: bytearray()}
        self.peer = {client: server, server: client}
        for s in (client, server):
            s.setblocking(False)
            relay.sel.register(s, selectors.EVENT_READ, self)

    def budget(self):
        """How many bytes may still be read before the fault."""
        if self.fault is None:
            return CHUNK
        return min(CHUNK, self.fault[1] - self.forwarded)

    def update_events(self):
        for s in (self.client, self.server):
            events = 0
            if not self.stopped and not self.out[self.peer[s]]:
                events |= selectors.EVENT_READ
            if self.out[s]:
                events |= selectors.EVENT_WRITE
            self.watch(s, events)

    def watch(self, s, events):
        """Watch S for EVENTS; none at all (a stalled pair) unregisters it
        but keeps it open."""
        sel = self.relay.sel
        try:
            key = sel.get_key(s)
        except KeyError:
            key = None
        if events == 0:
            if key is not None:
                sel.unregister(s)
        elif key is None:
            sel.register(s, events, self)
        elif key.events != events:
            sel.modify(s, events, self)

    def on_event(self, s, events):
        if events & selectors.EVENT_WRITE:
            self.flush(s)
        if not self.closed and events & selectors.EVENT_READ:
            self.receive(s)
        if not self.closed:
            self.check_fault()
        if not self.closed:
            self.update_events()

    def receive(self, s):
        n = self.budget()
        if n <= 0:
            return
        try:
            data = s.recv(n)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self.forwarded += len(data)
        self.out[self.peer[s]] += data
        self.flush(self.peer[s])

    def flush(self, s):
        buf = self.out[s]
        if not buf:
            return
        try:
            sent = s.send(buf)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.close()
            return
        del buf[:sent]

    def check_fault(self):
        if self.fault is None or self.stopped:
            return
        if self.forwarded < self.fault[1]:
            return
        if any(self.out.values()):
            return                      # forward what was counted first
        self.stopped = True
        kind = self.fault[0]
        if kind == "cut":
            log("connection %d cut after %d bytes" % (self.k, self.forwarded))
            self.close()
        else:
            log("connection %d stalled after %d bytes" %
                (self.k, self.forwarded))
            self.relay.stalled.append(self)

    def close(self):
        if self.closed:
            return
        self.closed = True
        for s in (self.client, self.server):
            try:
                self.relay.sel.unregister(s)
            except (KeyError, ValueError):
                pass
            s.close()


class Relay:
    def __init__(self, args):
        self.args = args
        self.plan = FaultPlan(args)
        self.sel = selectors.DefaultSelector()
        self.accepted = 0
        self.stalled = []               # kept open until the relay ends
        self.listener = self.listen()
        self.sel.register(self.listener, selectors.EVENT_READ, None)

    def listen(self):
        a = self.args
        if a.listen_unix:
            try:
                os.unlink(a.listen_unix)
            except FileNotFoundError:
                pass
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(a.listen_unix)
            where = a.listen_unix
        else:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(a.listen)
            where = str(s.getsockname()[1])
        s.listen(64)
        s.setblocking(False)
        if a.port_file:
            tmp = a.port_file + ".tmp"
            with open(tmp, "w") as f:
                f.write(where + "\n")
            os.rename(tmp, a.port_file)
        return s

    def connect_target(self):
        a = self.args
        if a.target_unix:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(a.target_unix)
        else:
            s = socket.create_connection(a.target)
        if s.family == socket.AF_INET:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s

    def accept(self):
        try:
            client, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        self.accepted += 1
        k = self.accepted
        try:
            server = self.connect_target()
        except OSError as e:
            # The target is down (being restarted): the client sees the
            # connection close at once, as it would with no relay.
            log("connection %d: target: %s" % (k, e))
            client.close()
            return
        if client.family == socket.AF_INET:
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        Pair(self, k, client, server, self.plan.next(k))

    def run(self):
        while True:
            for key, events in self.sel.select():
                if key.fileobj is self.listener:
                    self.accept()
                else:
                    key.data.on_event(key.fileobj, events)


def main():
    p = argparse.ArgumentParser(description="relay that breaks connections")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--listen", type=parse_host_port,
                   default=("127.0.0.1", 0), help="HOST:PORT (port 0: any)")
    g.add_argument("--listen-unix", metavar="PATH")
    t = p.add_mutually_exclusive_group(required=True)
    t.add_argument("--target", type=parse_host_port, metavar="HOST:PORT")
    t.add_argument("--target-unix", metavar="PATH")
    p.add_argument("--port-file", metavar="FILE")
    f = p.add_mutually_exclusive_group()
    f.add_argument("--cut-after-bytes", type=parse_byte_list)
    f.add_argument("--cut-random", type=parse_seed_mean)
    p.add_argument("--stall-after", type=parse_byte_list)
    p.add_argument("--max-faults", type=int)
    args = p.parse_args()
    if args.stall_after and (args.cut_after_bytes or args.cut_random):
        p.error("--stall-after does not combine with the cut options")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        Relay(args).run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
