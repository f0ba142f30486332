#!/usr/bin/env python3
"""Times each feature alone (`--feature NAME --no_prediction`, no model) in vmafx against a
libvmaf `vmaf` tool on the same pair, alternating the two programs, and prints per feature
the median CPU time (user + system) of each and the median of the per-pair speed-ups
(libvmaf / vmafx) with their range. The values themselves are held to libvmaf's by the
conformance tests, not here.

    VMAFX_CPU=avx2 scripts/features_alone.py --vmafx target/release/vmafx \
        --libvmaf ./vmaf-avx2 -r ref.y4m -d dis.y4m --features vif,adm,motion --pairs 5
"""

import argparse
import os
import statistics
import subprocess
import sys


def cpu_seconds(cmd):
    """Runs `cmd`, discarding its output; returns its user + system CPU seconds."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(cmd)} failed ({code}): {err.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vmafx", required=True)
    ap.add_argument("--libvmaf", required=True)
    ap.add_argument("-r", "--reference", required=True)
    ap.add_argument("-d", "--distorted", required=True)
    ap.add_argument("--features", required=True, help="comma-separated feature names")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=5)
    a = ap.parse_args()
    for feature in a.features.split(","):
        args = ["-r", a.reference, "-d", a.distorted, "--feature", feature,
                "--no_prediction", "--threads", str(a.threads), "-o", os.devnull, "-q"]
        mine, theirs, ups = [], [], []
        for _ in range(a.pairs):
            x = cpu_seconds([a.vmafx] + args)
            y = cpu_seconds([a.libvmaf] + args)
            mine.append(x)
            theirs.append(y)
            ups.append(y / x)
        print(f"{feature}: vmafx {statistics.median(mine):.3f} s, libvmaf "
              f"{statistics.median(theirs):.3f} s CPU, speed-up {statistics.median(ups):.2f}x "
              f"({min(ups):.2f}..{max(ups):.2f})", flush=True)


if __name__ == "__main__":
    main()
