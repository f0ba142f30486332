#!/usr/bin/env python3
"""Replays libvmaf's golden runs of chosen configs from the conformance manifest with a
vmafx binary (optionally through a runner such as qemu-aarch64) and compares every
per-frame value and every pooled value at libvmaf's 6 printed decimals.

    conformance_subset.py --bin PATH [--runner "qemu-aarch64 -L /"] [--corpus DIR]
                          [--config NAME ...] [--jobs N]

Where libvmaf failed (rc != 0), vmafx must fail too, with exit status 1 and no log.
Prints one line per run and a tally; exits 1 on any difference.
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile

DEFAULT_CONFIGS = ["vmaf_v0.6.1", "vmaf_v1.0.16_3d0h", "extra_features"]


def vmafx_args(args, out):
    """libvmaf's arguments with the output redirected and models named by version."""
    res, it = [], iter(args)
    for a in it:
        if a in ("-o", "--output"):
            next(it)
            res += ["-o", out]
        elif a.startswith("path=models/"):
            res.append("version=" + a[len("path=models/"):].removesuffix(".json"))
        else:
            res.append(a)
    return res + ["-q"]


def six(v):
    return None if v is None else f"{v:.6f}"


def compare(got, want):
    """The differences between two JSON logs, as lines (empty when identical)."""
    bad = []
    gf, wf = got["frames"], want["frames"]
    if len(gf) != len(wf):
        return [f"frame count {len(gf)} != {len(wf)}"], 0
    values = 0
    for i, (g, w) in enumerate(zip(gf, wf)):
        gm, wm = g["metrics"], w["metrics"]
        if list(gm) != list(wm):
            bad.append(f"frame {i}: names {list(gm)} != {list(wm)}")
            continue
        for k, wv in wm.items():
            values += 1
            if six(gm[k]) != six(wv):
                bad.append(f"frame {i} {k}: vmafx {six(gm[k])} libvmaf {six(wv)}")
    for k, wp in want.get("pooled_metrics", {}).items():
        gp = got.get("pooled_metrics", {}).get(k)
        if gp is None:
            bad.append(f"pooled {k}: missing")
            continue
        for s, wv in wp.items():
            values += 1
            if six(gp.get(s)) != six(wv):
                bad.append(f"pooled {k} {s}: vmafx {six(gp.get(s))} libvmaf {six(wv)}")
    return bad, values


def run_one(job):
    root, runner, binary, tmp, n, clip, g = job
    out = os.path.join(tmp, f"{n}.json")
    cmd = runner + [binary] + vmafx_args(g["args"], out)
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    label = f"{clip} {g['config']} ({os.path.basename(g['args'][1])})"
    if g.get("rc", 0) != 0:
        ok = p.returncode == 1 and "error:" in p.stderr and not os.path.exists(out)
        return label, ok, 0, [] if ok else [f"libvmaf failed; vmafx rc {p.returncode}: {p.stderr[-300:]}"]
    if p.returncode != 0:
        return label, False, 0, [f"rc {p.returncode}: {p.stderr[-500:]}"]
    with open(out) as f:
        got = json.load(f)
    with open(os.path.join(root, g["file"])) as f:
        want = json.load(f)
    bad, values = compare(got, want)
    return label, not bad, values, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runner", default="")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--corpus", default=os.environ.get(
        "VMAFX_CONFORMANCE", os.path.join(here, "..", "..", "shared", "conformance")))
    ap.add_argument("--config", action="append")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    configs = a.config or DEFAULT_CONFIGS
    corpus = os.path.abspath(a.corpus)
    root = os.path.dirname(corpus)
    with open(os.path.join(corpus, "manifest.json")) as f:
        manifest = json.load(f)
    binary = os.path.abspath(a.bin)
    runner = shlex.split(a.runner)
    with tempfile.TemporaryDirectory(prefix="vmafx-conf-") as tmp:
        jobs = []
        for clip in manifest["clips"]:
            for g in clip["goldens"]:
                if g["config"] in configs:
                    jobs.append((root, runner, binary, tmp, len(jobs), clip["id"], g))
        failed = values = 0
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            for label, ok, n, bad in ex.map(run_one, jobs):
                values += n
                print(f"{'ok  ' if ok else 'FAIL'} {label}: {n} values", flush=True)
                for line in bad[:10]:
                    print(f"     {line}")
                failed += not ok
    print(f"{len(jobs)} runs of {', '.join(configs)}: {values} values compared, {failed} runs differ")
    if not jobs:
        print("no golden matched the configs", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
