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

from compare_with_libvmaf import run


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
            x = run([a.vmafx] + args)[1]
            y = run([a.libvmaf] + args)[1]
            mine.append(x)
            theirs.append(y)
            ups.append(y / x)
        print(f"{feature}: vmafx {statistics.median(mine):.3f} s, libvmaf "
              f"{statistics.median(theirs):.3f} s CPU, speed-up {statistics.median(ups):.2f}x "
              f"({min(ups):.2f}..{max(ups):.2f})", flush=True)


if __name__ == "__main__":
    main()
