#!/usr/bin/env python3
"""Times vmafx against a libvmaf `vmaf` tool on the same pair, alternating the two programs
(A B A B ...), and checks that every per-frame score they log is identical.

libvmaf is not part of this repository: build it by hand from its public source and pass
its `vmaf` binary. Prints, for each program, the median wall time, CPU time (user + system)
and peak RSS, then the median of the per-pair wall ratios (vmafx / libvmaf).

    scripts/compare_with_libvmaf.py --vmafx target/release/vmafx --libvmaf PATH/vmaf \
        -r ref.y4m -d dis.y4m --threads 1 --pairs 7
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """Runs `cmd` discarding its output; returns (wall s, CPU s of user + system, peak RSS
    MiB), all of that one process, from its own resource usage."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{cmd[0]} failed ({code}): {err.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def frames(path):
    """Every frame's metrics of a libvmaf-style JSON log, as {frameNum: {name: value}}."""
    with open(path) as f:
        log = json.load(f)
    return {fr["frameNum"]: fr["metrics"] for fr in log["frames"]}


def check_identical(vmafx_cmd, libvmaf_cmd):
    """Runs both commands with a JSON log each and exits unless every per-frame score is
    the same; returns (frames, metrics per frame)."""
    with tempfile.TemporaryDirectory() as tmp:
        jx, jl = os.path.join(tmp, "vmafx.json"), os.path.join(tmp, "libvmaf.json")
        run(vmafx_cmd + ["--json", "-o", jx])
        run(libvmaf_cmd + ["--json", "-o", jl])
        fx, fl = frames(jx), frames(jl)
    if fx != fl:
        bad = [k for k in sorted(set(fx) | set(fl)) if fx.get(k) != fl.get(k)]
        sys.exit(f"per-frame scores differ at frames {bad[:10]} ({' '.join(vmafx_cmd[1:])})")
    return len(fx), len(next(iter(fx.values())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vmafx", required=True)
    ap.add_argument("--libvmaf", required=True)
    ap.add_argument("-r", "--reference", required=True)
    ap.add_argument("-d", "--distorted", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=7)
    a = ap.parse_args()

    common = ["-r", a.reference, "-d", a.distorted, "--threads", str(a.threads)]
    vx = [a.vmafx] + common + ["-q"]
    lv = [a.libvmaf] + common + ["-q"]

    n, m = check_identical(vx, lv)
    lv += ["-o", "/dev/null"]
    print(f"per-frame scores identical: {n} frames, {m} metrics each")

    rows = {"vmafx": [], "libvmaf": []}
    ratios = []
    run(vx), run(lv)  # warm the page cache
    for _ in range(a.pairs):
        x, l = run(vx), run(lv)
        rows["vmafx"].append(x)
        rows["libvmaf"].append(l)
        ratios.append(x[0] / l[0])
    for name in ("vmafx", "libvmaf"):
        walls, cpus, rss = zip(*rows[name])
        print(f"{name:8} wall {statistics.median(walls):.3f} s  cpu {statistics.median(cpus):.3f} s"
              f"  peak RSS {statistics.median(rss):.1f} MiB  (wall min {min(walls):.3f} max {max(walls):.3f})")
    r = statistics.median(ratios)
    print(f"median per-pair wall ratio vmafx/libvmaf {r:.3f} = {1 / r:.2f}x  (pairs: "
          + " ".join(f"{x:.2f}" for x in ratios) + ")")


if __name__ == "__main__":
    main()
