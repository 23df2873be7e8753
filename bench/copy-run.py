#!/usr/bin/env python3
# copy-run.py: run copy commands side by side in interleaved rounds and
# print per-command medians and the median of per-round ratios.
#
# Usage: copy-run.py [--rounds N] [--warmup N] [--data FILE] NAME=CMD ...
#
# Every round runs every command once, in an order rotated by one each
# round.
#
# Each CMD runs under "bash -c" with $TIME set to a /usr/bin/time
# prefix: a command that puts "$TIME" in front of the copy tool reports
# that tool's own elapsed time, peak RSS and CPU time (timeit.py); otherwise the whole
# command's wall time is used and RSS is unknown.  Ratios are
# other/first (above 1: the first command is faster).  A command that
# fails stops the run: every copy must succeed (the workloads verify
# what they copy).
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def busy_jiffies():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields[:8]) - idle


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_one(cmd, timef):
    env = dict(os.environ)
    env["TIME"] = "python3 %s/timeit.py %s" % (
        os.path.dirname(os.path.abspath(__file__)), timef)
    if os.path.exists(timef):
        os.unlink(timef)
    t0 = time.monotonic()
    p = subprocess.run(["bash", "-c", cmd], env=env)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("command failed (status %d): %s" % (p.returncode, cmd))
    try:
        with open(timef) as f:
            last = f.read().split("\n")
            vals = [l for l in last if l.strip()][-1].split(",")
            return float(vals[0]), int(vals[1]), float(vals[2]) + float(vals[3])
    except (OSError, IndexError, ValueError):
        return wall, None, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--data", help="write name, median s, ratio per line")
    ap.add_argument("cmds", nargs="+")
    a = ap.parse_args()
    names, cmds = [], []
    for c in a.cmds:
        n, _, cmd = c.partition("=")
        names.append(n)
        cmds.append(cmd)
    timef = tempfile.mktemp(prefix="copy-run.")
    hz = os.sysconf("SC_CLK_TCK")
    ncpu = os.cpu_count()
    times = {n: [] for n in names}
    rss = {n: [] for n in names}
    cpu = {n: [] for n in names}
    for _ in range(a.warmup):
        for cmd in cmds:
            run_one(cmd, timef)
    b0, c0, w0 = busy_jiffies(), children_cpu(), time.monotonic()
    for r in range(a.rounds):
        row = []
        # Each round starts one command later, so no command always
        # runs first (after the previous round's last one).
        k = r % len(names)
        for n, cmd in list(zip(names, cmds))[k:] + list(zip(names, cmds))[:k]:
            t, m, c = run_one(cmd, timef)
            times[n].append(t)
            if m is not None:
                rss[n].append(m)
                cpu[n].append(c)
            row.append("%s %.3f" % (n, t))
        print("round %d: %s" % (r + 1, ", ".join(row)), flush=True)
    busy = (busy_jiffies() - b0) / hz
    ours = children_cpu() - c0
    wall = time.monotonic() - w0
    other = max(0.0, busy - ours) / (wall * ncpu) * 100
    base = names[0]
    print("\n%-24s %9s %9s %11s %9s  %s" % (
        "command", "median s", "ratio", "peak RSS MB", "CPU s",
        "(ratio = its time / %s's, per round, median)" % base))
    out = []
    for n in names:
        ratios = [t / b for t, b in zip(times[n], times[base])]
        med = statistics.median(times[n])
        ratio = statistics.median(ratios)
        m = "%.1f" % (max(rss[n]) / 1024) if rss[n] else "-"
        c = "%.2f" % statistics.median(cpu[n]) if cpu[n] else "-"
        print("%-24s %9.3f %9.3f %11s %9s" % (n, med, ratio, m, c))
        out.append("%s\t%.4f\t%.4f\t%s" % (n, med, ratio, m))
    print("other processes used %.1f%% of the CPU during the rounds%s"
          % (other, " (noisy: rerun when quiet)" if other > 10 else ""))
    if a.data:
        with open(a.data, "w") as f:
            f.write("\n".join(out) + "\n")


main()
