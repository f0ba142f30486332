#!/usr/bin/env python3
"""Tries every extractor option at a few values in vmafx and in a libvmaf `vmaf` tool, both
its SIMD code and its C code (`--cpumask 255`), and lists where they part: vmafx refusing
what libvmaf scores, libvmaf printing nulls, no frame or disagreeing with itself, libvmaf
failing (a crash, or an extractor it lacks) where vmafx scores, or different numbers
(`DIFFERS`). Rows where all three agree are counted, not listed.

libvmaf is not part of this repository: build it by hand from its public source (see
docs/PERFORMANCE.md, "Reproducing") and pass its `vmaf` binary.

    cargo run --release --example extractor_options > /tmp/options.tsv
    scripts/option_sweep.py --vmafx target/release/vmafx --libvmaf PATH/vmaf \\
        --options /tmp/options.tsv -r REF.y4m -d DIS.y4m [--frames 8] [--only adm,psnr]

Each option is set alone: booleans to the other value, numbers to their least, middle and
greatest value, strings to the values listed in STRINGS.
"""

import argparse
import json
import math
import os
import subprocess
import tempfile

# Values tried for the string options (their defaults are left out).
STRINGS = {
    "eotf": ["pq"],
    "cambi_eotf": ["pq"],
    "vif_prescale_method": ["bilinear", "bicubic", "lanczos4"],
    "speed_prescale_method": ["bilinear", "bicubic", "lanczos4"],
}
# Options that name files or only add debug output.
SKIPPED = {"debug", "heatmaps_path"}


def values(kind, default, lo, hi):
    """The values an option is tried at, as the option strings write them."""
    if kind == "bool":
        return ["false" if default == "true" else "true"]
    lo, hi = float(lo), min(float(hi), 1e6)
    out = {lo, hi, (lo + hi) / 2}
    if kind == "int":
        out = {int(x) for x in out}
        out.discard(int(default))
    else:
        out.discard(float(default))
    return ["%g" % x for x in sorted(out)]


def run(cmd):
    """('OK', [per-frame metrics], aggregate metrics) of a run writing a JSON log, or
    ('ERR', its last line)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "log.json")
        p = subprocess.run(cmd + ["--json", "-o", log], capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0:
            lines = p.stderr.strip().splitlines() or [f"exit {p.returncode}"]
            return ("ERR", lines[-1][:160])
        with open(log) as f:
            out = json.load(f)
        return ("OK", [frame["metrics"] for frame in out["frames"]],
                out.get("aggregate_metrics", {}))


def nulls(result):
    return result[0] == "OK" and any(
        v is None or (isinstance(v, float) and math.isnan(v))
        for frame in result[1] for v in frame.values())


def verdict(x, simd, c):
    """How vmafx (`x`) and libvmaf's SIMD and C runs compare."""
    if x == simd == c and not nulls(x):
        return "same"
    if x[0] == simd[0] == c[0] == "ERR":
        return "all refuse"
    empty = any(r[0] == "OK" and not r[1] for r in (simd, c))
    garbage = nulls(simd) or nulls(c) or simd != c or empty
    if x[0] == "ERR":
        return "vmafx refuses, libvmaf garbage" if garbage else "VMAFX REFUSES ONLY"
    if simd[0] == c[0] == "ERR":
        return "vmafx scores, libvmaf fails"
    if x == c and simd != c:
        return "vmafx = libvmaf C, libvmaf SIMD differs"
    if x == simd == c:
        return "same, with nulls"
    return "DIFFERS"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vmafx", required=True)
    ap.add_argument("--libvmaf", required=True)
    ap.add_argument("--options", required=True, help="extractor_options' output")
    ap.add_argument("-r", "--reference", required=True)
    ap.add_argument("-d", "--distorted", required=True)
    ap.add_argument("--frames", default="8", help="frames scored a run")
    ap.add_argument("--only", help="extractors to try, comma-separated")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    same = 0
    with open(a.options) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for extractor, name, kind, default, lo, hi in rows:
        if name in SKIPPED or (only and extractor not in only):
            continue
        tried = STRINGS.get(name, []) if kind == "str" else values(kind, default, lo, hi)
        for v in tried:
            feature = f"{extractor}={name}={v}"
            args = ["-r", a.reference, "-d", a.distorted, "--feature", feature,
                    "--no_prediction", "--threads", "1", "-q", "--frame_cnt", a.frames]
            x, simd = run([a.vmafx] + args), run([a.libvmaf] + args)
            c = run([a.libvmaf] + args + ["--cpumask", "255"])
            v_ = verdict(x, simd, c)
            if v_ == "same":
                same += 1
                continue
            show = lambda r: r[1] if r[0] == "ERR" else json.dumps(r[1][:1])[:160]
            print(f"{v_:40s} {feature}\n    vmafx: {show(x)}\n    libvmaf: {show(simd)}"
                  f"\n    libvmaf C: {show(c)}")
    print(f"{same} option values gave the same scores in all three")


if __name__ == "__main__":
    main()
