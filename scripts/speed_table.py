#!/usr/bin/env python3
"""Measures issue 22's speed table on this machine: vmafx against a libvmaf `vmaf` tool, the
five model rows (wall and CPU speed-up, peak-memory ratio) and every feature alone (CPU
speed-up), each row one alternating run (A B A B ...) of the two programs in this command.

libvmaf is not part of this repository: build it by hand from its public source (see
"Reproducing" in docs/PERFORMANCE.md) and pass its `vmaf` binary. The clips are made once
with ffmpeg from the conformance corpus (bbb_384x216_420p8_scenecut upscaled to 1080p and
2160p, and the 1080p pair at 10 bits) into `--clips`. Every model row first checks that the
two programs log identical per-frame scores, and stops if they do not.

    scripts/speed_table.py --vmafx target/release/vmafx --libvmaf PATH/vmaf
    scripts/speed_table.py ... --level avx2     # both capped at AVX2 (`--cpumask 48`)
    scripts/speed_table.py ... --rows 1 --pairs 21 --features ''   # one row, more pairs

Prints a Markdown table, a row as soon as it is measured.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys

from compare_with_libvmaf import check_identical, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = "bbb_384x216_420p8_scenecut"

# (label, clip prefix, model, threads)
MODEL_ROWS = [
    ("vmaf_v0.6.1 1080p 8-bit, 1 thread", "1080", "vmaf_v0.6.1", 1),
    ("vmaf_v0.6.1 1080p 8-bit, 2 threads", "1080", "vmaf_v0.6.1", 2),
    ("vmaf_v0.6.1 1080p 10-bit, 1 thread", "1080_10", "vmaf_v0.6.1", 1),
    ("vmaf_v0.6.1 2160p 8-bit, 2 threads", "2160", "vmaf_v0.6.1", 2),
    ("vmaf_v1.0.16_3d0h 1080p 8-bit, 1 thread", "1080", "vmaf_v1.0.16_3d0h", 1),
]

FEATURES = ("vif,adm,motion,psnr,psnr_hvs,ciede,cambi,speed_chroma,speed_temporal,"
            "float_vif,float_adm,float_motion,float_ansnr,float_psnr,float_moment,"
            "float_ssim,float_ms_ssim")


def clip(clips, prefix, side):
    """The path of a clip: `1080_ref.y4m`, `1080_10_dis.y4m`, ..."""
    if prefix.endswith("_10"):
        return os.path.join(clips, f"{prefix[:-3]}_{side}_10.y4m")
    return os.path.join(clips, f"{prefix}_{side}.y4m")


def model_rows(text):
    """The model rows named by `--rows` (numbers 1.. of MODEL_ROWS, comma-separated)."""
    try:
        picked = sorted({int(r) for r in text.split(",") if r.strip()})
    except ValueError:
        picked = [0]
    if not picked or any(not 1 <= r <= len(MODEL_ROWS) for r in picked):
        raise argparse.ArgumentTypeError(f"row numbers 1..{len(MODEL_ROWS)}, not {text!r}")
    return [MODEL_ROWS[r - 1] for r in picked]


def make_clips(clips, corpus):
    """Makes the missing clips with ffmpeg from the corpus pair."""
    os.makedirs(clips, exist_ok=True)
    y4m = ["-strict", "-1", "-f", "yuv4mpegpipe", "-y", "-loglevel", "error"]
    for side in ("ref", "dis"):
        src = os.path.join(corpus, f"{SOURCE}_{side}.y4m")
        for size, prefix in (("1920:1080", "1080"), ("3840:2160", "2160")):
            out = clip(clips, prefix, side)
            if not os.path.exists(out):
                if not os.path.exists(src):
                    sys.exit(f"speed_table: {src} is missing (pass --corpus)")
                subprocess.run(["ffmpeg", "-i", src, "-vf", f"scale={size}:flags=bicubic",
                                "-pix_fmt", "yuv420p"] + y4m + [out], check=True)
        out = clip(clips, "1080_10", side)
        if not os.path.exists(out):
            subprocess.run(["ffmpeg", "-i", clip(clips, "1080", side),
                            "-pix_fmt", "yuv420p10le"] + y4m + [out], check=True)


def alternate(vmafx, libvmaf, args, pairs):
    """`pairs` alternating runs after one warm-up each: the medians of the per-pair wall
    and CPU speed-ups (libvmaf / vmafx), their CPU ranges, the speed-up of each program's
    least CPU time (its least disturbed run: on a shared host a pair's ratio spreads
    widely), and the peak-memory ratio."""
    run([vmafx] + args), run([libvmaf] + args)
    xs, ys = [], []
    for _ in range(pairs):
        xs.append(run([vmafx] + args))
        ys.append(run([libvmaf] + args))
    walls = [y[0] / x[0] for x, y in zip(xs, ys)]
    cpus = [y[1] / x[1] for x, y in zip(xs, ys)]
    least = min(y[1] for y in ys) / min(x[1] for x in xs)
    mems = [x[2] / y[2] for x, y in zip(xs, ys)]
    return statistics.median(walls), statistics.median(cpus), cpus, least, statistics.median(mems)


def machine():
    """The processor's name and whether it has AVX-512 (Linux), else the platform."""
    try:
        info = open("/proc/cpuinfo").read()
    except OSError:
        return platform.processor() or platform.machine()
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines()
                 if line.startswith("model name")), platform.machine())
    level = "AVX-512" if " avx512f" in info else "AVX2" if " avx2" in info else "no AVX2"
    return f"{name}, {os.cpu_count()} CPUs, {level}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vmafx", required=True)
    ap.add_argument("--libvmaf", required=True)
    ap.add_argument("--clips", default=os.path.join(ROOT, "target", "speed-clips"))
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "conformance"))
    ap.add_argument("--level", choices=("native", "avx2"), default="native",
                    help="avx2: both programs capped at AVX2 (--cpumask 48)")
    ap.add_argument("--pairs", type=int, default=7, help="alternating pairs a model row")
    ap.add_argument("--feature-pairs", type=int, default=5, help="pairs a feature alone")
    ap.add_argument("--features", default=FEATURES, help="comma-separated; '' for none")
    ap.add_argument("--no-models", action="store_true", help="features alone only")
    ap.add_argument("--rows", type=model_rows, default=MODEL_ROWS,
                    help=f"comma-separated model rows to measure, 1..{len(MODEL_ROWS)} "
                    "(default: all)")
    a = ap.parse_args()

    make_clips(a.clips, a.corpus)
    cap = ["--cpumask", "48"] if a.level == "avx2" else []
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"Machine: {machine()}; level: {a.level}; vmafx {commit or '?'}; "
          f"{a.pairs} pairs a model row, {a.feature_pairs} a feature alone\n", flush=True)

    if not a.no_models:
        print("| work | speed-up, wall | speed-up, CPU (range) | least CPU | "
              "peak memory vmafx / libvmaf |")
        print("|---|---|---|---|---|", flush=True)
        for label, prefix, model, threads in a.rows:
            args = ["-r", clip(a.clips, prefix, "ref"), "-d", clip(a.clips, prefix, "dis"),
                    "--model", f"version={model}", "--threads", str(threads), "-q"] + cap
            check_identical([a.vmafx] + args, [a.libvmaf] + args)
            wall, cpu, cpus, least, mem = alternate(a.vmafx, a.libvmaf,
                                                    args + ["-o", os.devnull], a.pairs)
            print(f"| {label} | {wall:.2f}x | {cpu:.2f}x ({min(cpus):.2f}..{max(cpus):.2f}) "
                  f"| {least:.2f}x | {mem:.2f} |", flush=True)
        print()

    features = [f for f in a.features.split(",") if f]
    if features:
        print("| feature alone, 1080p 8-bit, 1 thread | speed-up, CPU (range) | least CPU |")
        print("|---|---|---|", flush=True)
        for feature in features:
            args = ["-r", clip(a.clips, "1080", "ref"), "-d", clip(a.clips, "1080", "dis"),
                    "--feature", feature, "--no_prediction", "--threads", "1", "-q",
                    "-o", os.devnull] + cap
            _, cpu, cpus, least, _ = alternate(a.vmafx, a.libvmaf, args, a.feature_pairs)
            print(f"| {feature} | {cpu:.2f}x ({min(cpus):.2f}..{max(cpus):.2f}) "
                  f"| {least:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
