"""Exact chunk plans and merges, in plain Python: any scheduler can run the chunks.

vmafx splits a video exactly: each chunk is scored with the frames its features reach
before and after it (motion reads the previous frame, motion2 the next), keeping its own
rows only, and the merged rows give the one-pass per-frame and pooled values. Plan with
:func:`plan` (or :func:`plan_files`), score each chunk anywhere with
``vmafx.score(ref, dis, frames=chunk.frames, ...)`` (each call reads only its frame range
and pre-roll from the files), and join the Results with :func:`merge`. Dask users call
``vmafx.dask.score``; Ray, Spark or a process pool can use these functions directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple

from . import _vmafx


@dataclass(frozen=True)
class Chunk:
    """One chunk: the frames it scores, and the frames it reads for them."""

    frames: Tuple[int, int]
    """Frames ``[start, end)`` whose scores the chunk gives."""
    fed: Tuple[int, int]
    """Frames ``[start, end)`` it reads: ``frames`` widened by the features' reach."""


def plan(frames: int, chunk_frames: int, reach: Tuple[int, int] = (0, 0)) -> List[Chunk]:
    """Splits frames ``[0, frames)`` into chunks of ``chunk_frames`` (the last shorter).

    ``reach`` is ``(before, after)`` from :func:`vmafx.reach`; it only widens ``fed``
    (scoring a chunk adds its pre- and post-roll by itself).
    """
    if chunk_frames < 1:
        raise ValueError(f"chunk_frames: a chunk holds at least 1 frame, got {chunk_frames}")
    if frames < 0:
        raise ValueError(f"frames: {frames} is negative")
    before, after = reach
    out = []
    for start in range(0, frames, chunk_frames):
        end = min(start + chunk_frames, frames)
        out.append(Chunk((start, end), (max(0, start - before), min(frames, end + after))))
    return out


def plan_files(
    reference: str,
    distorted: str,
    chunk_frames: int,
    model="vmaf_v0.6.1",
    features: Optional[Sequence] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
    **_ignored,
) -> List[Chunk]:
    """:func:`plan` for a pair of files: counts the frames (the shorter file rules, as a
    one-pass run stops there) and takes the reach of ``model`` and ``features``, given as
    to :func:`vmafx.score`."""
    raw = dict(width=width, height=height, pixel_format=pixel_format, bitdepth=bitdepth)
    n = min(_vmafx.frame_count(reference, **raw), _vmafx.frame_count(distorted, **raw))
    return plan(n, chunk_frames, _vmafx.reach(model=model, features=features))


def merge(parts: Iterable["_vmafx.Result"]) -> "_vmafx.Result":
    """Joins the Results of consecutive chunks of one video (any order) into the Result
    of one pass: rows kept as scored, pooled values recomputed over all frames (never from
    chunk means). Gaps, overlaps, mixed picture sizes, parts of other settings or another
    pair of files, and parts that stop before the end of the video raise VmafxError."""
    return _vmafx.merge(list(parts))
