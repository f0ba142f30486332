"""A long run through the numpy frame API with flat memory: 64x64 frames pushed one by
one, the process's resident memory sampled from /proc as they go, and every frame in the
result. 10,000 frames by default; VMAFX_SOAK_FRAMES=100000 for the long soak whose figures
docs/RELIABILITY.md gives."""

import os
import sys

import numpy as np
import pytest

import vmafx

W = H = 64
PICTURES = 16
SLACK_KIB = 4 << 10


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def pictures():
    rng = np.random.default_rng(7)
    refs, diss = [], []
    y, x = np.mgrid[0:H, 0:W]
    for k in range(PICTURES):
        luma = np.where(((x + 2 * k) // 4 + y // 4) % 2 == 0, 190, 60).astype(np.uint8)
        noisy = np.clip(luma.astype(int) + rng.integers(-15, 16, luma.shape), 0, 255).astype(np.uint8)
        chroma = np.full((H // 2, W // 2), 128, np.uint8)
        refs.append((luma, chroma, chroma))
        diss.append((noisy, chroma, chroma))
    return refs, diss


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_long_run_of_pushed_frames_keeps_memory_flat():
    frames = int(os.environ.get("VMAFX_SOAK_FRAMES", "10000"))
    refs, diss = pictures()
    scorer = vmafx.Scorer()
    every = max(frames // 100, 1)
    samples = []
    for i in range(frames):
        scorer.push(refs[i % PICTURES], diss[i % PICTURES])
        if (i + 1) % every == 0:
            samples.append((i + 1, rss_kib()))
    result = scorer.finish()

    def tenth(lo, hi):
        return max(k for n, k in samples if lo < n <= hi)

    first, last = tenth(0, frames // 10), tenth(frames - frames // 10, frames)
    print(f"python soak: {frames} frames, first tenth peak {first} KiB, last tenth peak {last} KiB, "
          f"run peak {max(k for _, k in samples)} KiB; samples {samples}")
    # What legitimately grows: the score table, ~15 scores of 16 bytes a frame.
    scores_kib = frames * 15 * 16 // 1024
    assert last <= first + SLACK_KIB + scores_kib, (first, last)
    assert result.frame_range == (0, frames)
    assert len(result["vmaf"]) == frames
