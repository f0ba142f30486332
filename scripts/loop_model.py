#!/usr/bin/env python3
"""Predicts how a profiled run's hot loops would fare on another processor, without one.

Takes a binary and a `perf record` of it on this machine, finds the innermost loops of every
function holding at least 1% of the samples, and asks llvm-mca (LLVM's static model of each
processor's pipelines) for the cycles per iteration of each loop on two CPU models. Each
loop's ratio is weighted by its samples here; samples outside such loops count at 1.0. The
result is a model, not a measurement: use it to find the loops whose cost moves most
between two processors (an AVX2-only AMD core against the Intel core the profile was taken
on, say), and to compare two programs' profiles under the same model; confirm on the
processor itself. A loop's ratio marked `?` holds an instruction one of the two models has
no entry for (see TWINS below): read it as unknown.

    perf record -F 4000 -o p.data target/release/vmafx -r REF -d DIS --threads 1 -o /dev/null
    scripts/loop_model.py target/release/vmafx p.data --from icelake-server --to znver3

Needs perf, objdump and llvm-mca (Debian: linux-perf, binutils, llvm). The binary may be
position-independent: samples are mapped back through the profile's mmap records.
"""

import argparse
import bisect
import collections
import re
import shutil
import subprocess
import sys

JUMP = re.compile(r"j\w+\s+([0-9a-f]+)$")


def run(args, text_in=None):
    return subprocess.run(args, input=text_in, capture_output=True, text=True, check=True).stdout


def samples(binary, perf_data):
    """(count of all samples, Counter of the binary's samples by link-time address)."""
    name = binary.rsplit("/", 1)[-1]
    # The executable segment's link address less its file offset.
    seg = next(l.split() for l in run(["readelf", "-lW", binary]).splitlines()
               if "LOAD" in l and " R E " in l)
    delta = int(seg[2], 16) - int(seg[1], 16)
    out = run(["perf", "script", "-i", perf_data, "--show-mmap-events", "-F", "ip,dso"])
    base, total, by_ip = None, 0, collections.Counter()
    for line in out.splitlines():
        if "MMAP" in line and "r-xp" in line and line.rstrip().endswith("/" + name):
            m = re.search(r"\[0x([0-9a-f]+)\(0x[0-9a-f]+\) @ 0x([0-9a-f]+) ", line)
            base = int(m[1], 16) - int(m[2], 16) - delta
            continue
        parts = line.split()
        if len(parts) != 2:
            continue
        try:
            ip = int(parts[0], 16)
        except ValueError:
            continue
        total += 1
        if base is not None and name in parts[1]:
            by_ip[ip - base] += 1
    return total, by_ip


# Instructions a CPU model of LLVM 14 has no entry for (llvm-mca then gives them a latency
# of 100 cycles), each costed as a twin the model does know: the same operation on the
# same pipes on that core (the float and integer forms of a lane-crossing permute or a
# broadcast). Gathers have no such twin and are left as they are: a loop holding one is
# marked `?` (both programs gather in ADM's decoupling).
TWINS = {
    "znver2": [(re.compile(r"^vpermpd\b"), "vpermq"),
               (re.compile(r"^vperm2f128\b"), "vperm2i128"),
               (re.compile(r"^vbroadcastsd(\s+%xmm)"), r"vpbroadcastq\1")],
}
GAP = 100


def cycles(cpu, body):
    """llvm-mca's cycles per iteration of `body` (instruction lines) on `cpu`, and whether
    it holds an instruction that the model has no entry for (after the twins above)."""
    for ins, twin in TWINS.get(cpu, []):
        body = [ins.sub(twin, line) for line in body]
    out = run(["llvm-mca", f"-mcpu={cpu}", "-iterations=300"], "\n".join(body) + "\n")
    info = out.split("Instructions:")[2].split("Resource")[0]
    gap = any(len(f) > 2 and f[1] == str(GAP) for f in (l.split() for l in info.splitlines()))
    return int(re.search(r"Total Cycles:\s+(\d+)", out)[1]) / 300, gap


def instructions(binary, start, end):
    """[(address, instruction text)] of `start..end`, jump targets' symbol names dropped."""
    out = run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
               f"--stop-address={end:#x}", binary])
    found = []
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
        if m and m[2].strip():
            found.append((int(m[1], 16), m[2].split("<")[0].strip()))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("perf_data")
    ap.add_argument("--from", dest="cpu_from", default="icelake-server",
                    help="llvm-mca CPU model of the profiled machine")
    ap.add_argument("--to", dest="cpu_to", default="znver3", help="the CPU model to predict")
    ap.add_argument("--min-share", type=float, default=0.01,
                    help="functions below this share of the samples are left out")
    a = ap.parse_args()
    for tool in ("perf", "objdump", "readelf", "nm", "llvm-mca"):
        if shutil.which(tool) is None:
            sys.exit(f"loop_model: {tool} not found")
    total, by_ip = samples(a.binary, a.perf_data)
    if not by_ip:
        sys.exit(f"loop_model: no samples of {a.binary} in {a.perf_data}")
    ips = sorted(by_ip)

    def within(lo, end):
        """The sampled addresses in `lo..end`."""
        return ips[bisect.bisect_left(ips, lo):bisect.bisect_left(ips, end)]
    funcs = []
    for line in run(["nm", "-C", "-S", a.binary]).splitlines():
        p = line.split(maxsplit=3)
        if len(p) == 4 and p[2] in "tT":
            start, size = int(p[0], 16), int(p[1], 16)
            n = sum(by_ip[ip] for ip in within(start, start + size))
            if n >= a.min_share * total:
                funcs.append((n, start, size, p[3]))
    covered, weighted = 0, 0.0
    print(f"{a.cpu_to} / {a.cpu_from} cycles per iteration of each hot innermost loop, "
          f"with its share of all samples")
    for n, start, size, name in sorted(funcs, reverse=True):
        code = instructions(a.binary, start, start + size)
        loops = {(int(m[1], 16), at) for at, ins in code
                 if (m := JUMP.match(ins)) and not ins.startswith("jmp") and int(m[1], 16) < at}
        taken, parts = set(), []
        # Smallest loops first: a sample belongs to the innermost loop holding it.
        for lo, hi in sorted(loops, key=lambda l: l[1] - l[0]):
            own = [ip for ip in within(lo, hi + 1) if ip not in taken]
            taken.update(own)
            k = sum(by_ip[ip] for ip in own)
            if k < 0.002 * total:
                continue
            body = [ins for at, ins in code if lo <= at <= hi and not JUMP.match(ins)]
            (to, gap_to), (frm, gap_from) = cycles(a.cpu_to, body), cycles(a.cpu_from, body)
            r = to / frm
            covered += k
            weighted += k * r
            parts.append(f"{100 * k / total:.1f}%: {r:.2f}" + ("?" if gap_to or gap_from else ""))
        print(f"{100 * n / total:5.1f}%  {name[:70]:70s}  " + ", ".join(parts))
    print(f"loops: {100 * covered / total:.1f}% of the samples, {a.cpu_to} / {a.cpu_from} "
          f"{weighted / max(covered, 1):.3f}; whole run (the rest at 1.0) "
          f"{(weighted + total - covered) / total:.3f}")


if __name__ == "__main__":
    main()
