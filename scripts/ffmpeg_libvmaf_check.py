#!/usr/bin/env python3
"""Scores the conformance corpus through FFmpeg's libvmaf filter and compares each log with
libvmaf's golden run, as crates/vmafx-cli/tests/common.rs compare_logs does: the same frames,
the same metric names in libvmaf's order (the golden's; with n_threads >= 1 the features of
the extractors libvmaf runs on its reading thread first, see pool_order), model scores (`vmaf*`) within 1e-4, every other
metric equal when printed with 6 decimals.

Each golden run of manifest.json becomes a filter configuration:
  * a run with a single model (built-in `version=` or `path=`): `model=...`; compared in full
    (frames and, for JSON, pooled metrics);
  * a run with `-n --feature ...`: FFmpeg 5.1's filter always loads a model (the default
    vmaf_v0.6.1), so the features go in `feature=name=...|name=...` beside it and the log is
    compared on the golden's metrics (in the golden's order) only;
  * runs where libvmaf failed (an extractor refusing a small picture, or a crash): FFmpeg on
    the drop-in must refuse the pictures cleanly (an error exit, no signal);
  * skipped, with the reason printed: bootstrap collections (`vmaf_b_*`: libvmaf's
    vmaf_model_load refuses a collection and FFmpeg 5.1's `model=` only loads models; the run
    checks that FFmpeg refuses it too), and `-n` runs whose extractors are those of the default
    model with only `debug` changed (libvmaf keeps the model's extractor and drops the second).
Every configuration runs with n_threads 1 and 2 and log_fmt json, xml and csv.

FFmpeg 5.1 takes the distorted video first and the reference second. 8- and 10-bit inputs go to
the filter as they are (10-bit needs the copy_picture_data patch, see ffmpeg_libvmaf.sh). The
filter takes nothing deeper: FFmpeg would convert a 12-bit input to 10 bits, and its reference
would be the vmafx CLI on that conversion written to y4m by the same FFmpeg. The corpus has no
such clip, so that path is not implemented: a clip deeper than 10 bits fails the run, loudly.
"""

import argparse
import concurrent.futures
import csv
import json
import math
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FORMATS = ("json", "xml", "csv")
THREADS = (1, 2)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ffmpeg", required=True)
    p.add_argument("--corpus", required=True, help="the conformance folder (manifest.json)")
    p.add_argument("--out", required=True, help="folder for the logs")
    p.add_argument("--quick", action="store_true", help="one clip, one configuration")
    p.add_argument("--ld-library-path", help="LD_LIBRARY_PATH for FFmpeg")
    p.add_argument("--jobs", type=int, default=2)
    return p.parse_args()


def filter_config(golden, shared):
    """(model option, feature option, subset compare) of a golden run, or (None, reason)."""
    args = golden["args"]
    model, features, no_model = None, [], False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--model":
            model = args[i + 1]
            i += 1
        elif a == "--feature":
            features.append(args[i + 1])
            i += 1
        elif a == "-n":
            no_model = True
        i += 1
    if model == "version=vmaf_4k_v0.6.1neg":
        # Not built into vmafx (no package it takes models from ships it): the file, as the
        # CLI's conformance test loads it.
        model = "path=models/vmaf_4k_v0.6.1neg.json"
    if model and model.startswith("path="):
        model = "path=" + str(shared / model[len("path="):])
    if no_model:
        names = [f.split("=", 1)[0] for f in features]
        if set(names) <= {"vif", "adm", "motion"}:
            return None, "the default model's own extractors with debug only: libvmaf drops them"
        feature = "|".join(fmt_feature(f) for f in features)
        return ("version=vmaf_v0.6.1", feature, True), None
    return (model or "version=vmaf_v0.6.1", None, False), None


def fmt_feature(f):
    """`name=opt=value:opt2=v` (the CLI's form) as the filter's `name=NAME\\:opt=value`."""
    name, _, opts = f.partition("=")
    out = "name=" + name
    if opts:
        out += "".join("\\:" + kv for kv in opts.split(":"))
    return out


def is_collection(model, shared):
    if model.startswith("version="):
        return model[len("version="):].startswith(("vmaf_b_", "vmaf_float_b_"))
    path = Path(model[len("path="):])
    try:
        return "model_dict" not in json.loads(path.read_text())
    except (OSError, ValueError):
        return False


def run_ffmpeg(ffmpeg, dis, ref, model, feature, threads, fmt, log, env):
    opts = [f"model={model}", f"n_threads={threads}", f"log_fmt={fmt}", f"log_path={log}"]
    if feature:
        opts.append(f"feature='{feature}'")
    cmd = [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
           "-i", str(dis), "-i", str(ref), "-lavfi", "libvmaf=" + ":".join(opts), "-f", "null", "-"]
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def read_log(path, fmt):
    """(frames as [(frameNum, {metric: value})], pooled {metric: {method: value}} or None)."""
    if fmt == "json":
        d = json.loads(Path(path).read_text())
        frames = [(f["frameNum"], f["metrics"]) for f in d["frames"]]
        return frames, d.get("pooled_metrics")
    if fmt == "xml":
        root = ET.parse(path).getroot()
        frames = []
        for f in root.find("frames"):
            attrs = dict(f.attrib)
            num = int(attrs.pop("frameNum"))
            frames.append((num, {k: float(v) for k, v in attrs.items()}))
        return frames, None
    rows = list(csv.reader(Path(path).read_text().splitlines()))
    header = [h for h in rows[0]]
    frames = []
    for r in rows[1:]:
        if not r:
            continue
        vals = dict(zip(header, r))
        num = int(vals.pop("Frame"))
        frames.append((num, {k: float(v) for k, v in vals.items() if k and v != ""}))
    return frames, None


def f32_step(x):
    """One single-precision step at x's magnitude."""
    f = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", f + 1))[0] - struct.unpack("<f", struct.pack("<I", f))[0]


def close(config, k, a, b):
    """The CLI conformance test's rule (crates/vmafx-cli/tests/manifest_conformance.rs)."""
    if b is None:
        # JSON writes a non-finite score as null; XML and CSV print it (inf, nan).
        return a is None or not math.isfinite(a)
    if a is None:
        return False
    d = abs(a - b)
    if k.startswith("vmaf"):
        return d <= 1e-4
    if config.startswith("vmaf_float") or config == "float_features_debug" or k.startswith("float_"):
        if k.startswith("adm_num") and d > 1e-5:
            # libvmaf divides float ADM's numerators with the CPU's approximate reciprocal.
            return d <= 2.0 * f32_step(b) + 1e-6
        return d <= 1e-5
    return f"{a:.6f}" == f"{b:.6f}"


def on_reading_thread(name):
    """Whether libvmaf's collector gets feature `name` from an extractor it runs on the
    thread reading the pictures when it has a pool (those it flags temporal: psnr,
    float_motion, speed_temporal)."""
    base = name.split("_egl_")[0]
    return (name in ("psnr_y", "psnr_cb", "psnr_cr")
            or base in ("motion", "motion2", "motion3")
            or name.startswith("Speed_temporal") or name.startswith("speed_temporal"))


def pool_order(keys):
    """The goldens' order (libvmaf without a thread pool) as libvmaf lists it with one
    (n_threads >= 1): the reading thread's features first, each group in its order."""
    return [k for k in keys if on_reading_thread(k)] + [k for k in keys if not on_reading_thread(k)]


def compare(config, got, want, subset, threads=0):
    """Differences between two logs (empty when they agree); count of values checked."""
    (gf, gp), (wf, wp) = got, want
    errs, n = [], 0
    if len(gf) != len(wf):
        return [f"frame count {len(gf)} vs golden {len(wf)}"], 0
    for (gi, gm), (wi, wm) in zip(gf, wf):
        if gi != wi:
            errs.append(f"frame number {gi} vs golden {wi}")
            continue
        keys = pool_order(list(wm)) if threads else list(wm)
        gkeys = [k for k in gm if k in wm] if subset else list(gm)
        if gkeys != keys:
            errs.append(f"frame {wi}: metrics {gkeys} vs golden {keys}")
            continue
        for k in keys:
            n += 1
            if not close(config, k, gm[k], wm[k]):
                errs.append(f"frame {wi} {k}: {gm[k]} vs golden {wm[k]}")
    if gp is not None and wp is not None and not subset:
        for k, methods in wp.items():
            for m, v in methods.items():
                n += 1
                if not close(config, k, gp.get(k, {}).get(m), v):
                    errs.append(f"pooled {k} {m}: {gp.get(k, {}).get(m)} vs golden {v}")
    return errs, n


def main():
    a = parse_args()
    corpus = Path(a.corpus).resolve()
    shared = corpus.parent
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((corpus / "manifest.json").read_text())
    env = dict(os.environ)
    if a.ld_library_path:
        env["LD_LIBRARY_PATH"] = a.ld_library_path

    jobs, skipped = [], []
    for clip in manifest["clips"]:
        for g in clip["goldens"]:
            # The y4m pair as the libvmaf CLI read it; the legacy reader is the reference where
            # the CLI cannot read the y4m directly (odd sizes), and it copies the top-left
            # region of each plane just as FFmpeg's filter does.
            if not g.get("input", "").startswith("the .y4m pair"):
                continue
            cfg, reason = filter_config(g, shared)
            if cfg is None:
                skipped.append((clip["id"], g["config"], reason))
                continue
            model, feature, subset = cfg
            if is_collection(model, shared):
                jobs.append((clip, g, model, feature, subset, 1, "json", "collection"))
                continue
            if g["rc"] != 0:
                # libvmaf failed on this input (too small for an extractor, or crashed):
                # FFmpeg on the drop-in must fail too, cleanly.
                jobs.append((clip, g, model, feature, subset, 1, "json", "refused"))
                continue
            for t in THREADS:
                for fmt in FORMATS:
                    jobs.append((clip, g, model, feature, subset, t, fmt, False))
    if a.quick:
        jobs = [j for j in jobs if not j[7]][:1]

    def work(job):
        clip, g, model, feature, subset, t, fmt, refused = job
        dis, ref = shared / clip["dis"], shared / clip["ref"]
        name = f"{clip['id']}.{g['config']}.t{t}.{fmt}"
        log = out / name
        if log.exists():
            log.unlink()
        if clip["bitdepth"] > 10:
            return name, ["inputs deeper than 10 bits: no reference implemented (see the module doc)"], 0
        r = run_ffmpeg(a.ffmpeg, dis, ref, model, feature, t, fmt, log, env)
        if refused == "collection":
            ok = r.returncode > 0 and "could not load libvmaf model" in r.stderr
            return name + " (collection refused)", [] if ok else [f"rc {r.returncode}: {r.stderr[-300:]}"], 0
        if refused:
            ok = r.returncode > 0 and "problem during vmaf_read_pictures" in r.stderr
            return name + " (refused as libvmaf)", [] if ok else [f"rc {r.returncode}: {r.stderr[-300:]}"], 0
        if r.returncode != 0:
            return name, [f"ffmpeg rc {r.returncode}: {r.stderr[-500:]}"], 0
        want = read_log(shared / g["file"], "json")
        errs, n = compare(g["config"], read_log(log, fmt), want, subset, t)
        return name, errs, n

    kinds = {}
    for j in jobs:
        kind = j[7] or ("feature subset" if j[4] else "full log")
        kinds[kind] = kinds.get(kind, 0) + 1
    passed = failed = values = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for name, errs, n in ex.map(work, jobs):
            values += n
            if errs:
                failed += 1
                print(f"FAIL {name}: " + "; ".join(errs[:5]), flush=True)
            else:
                passed += 1
    for clip, config, reason in skipped:
        print(f"skipped {clip} {config}: {reason}")
    print(f"ffmpeg libvmaf runs compared: {len(jobs)}, passed: {passed}, failed: {failed}, "
          f"values checked: {values}, golden runs skipped: {len(skipped)}; runs by kind: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    return 1 if failed or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())
