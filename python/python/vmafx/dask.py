"""Scoring one video on a Dask cluster, exactly as one pass scores it.

``vmafx.dask.score(ref, dis, client=client, chunk_frames=500)`` plans the chunks
(:mod:`vmafx.chunks`), runs each as a Dask task that opens the files itself and reads
only its frame range and the frames its features reach (so the paths must be readable
from every worker: shared storage), gathers the chunk Results and merges them into the
one-pass Result. Needs ``dask[distributed]``.

A worker lost mid-run (its process killed, its machine gone) costs only its chunks: the
scheduler runs them again on another worker, and since a chunk's result depends only on
its frames, the merged Result is the same. A chunk that raises (a file briefly
unreadable on shared storage) is retried ``retries`` times before the run fails.
"""

from __future__ import annotations

from typing import Optional, Sequence

from . import _vmafx, chunks as _chunks


def _score_chunk(reference, distorted, frames, options):
    from vmafx import _vmafx as core

    return core.score(reference, distorted, frames=tuple(frames), **options)


def score(
    reference: str,
    distorted: str,
    client=None,
    chunk_frames: int = 500,
    model="vmaf_v0.6.1",
    features: Optional[Sequence] = None,
    threads: int = 0,
    subsample: int = 1,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
    retries: int = 2,
) -> "_vmafx.Result":
    """Scores ``reference`` against ``distorted`` in chunks of ``chunk_frames`` frames on
    ``client`` (a ``distributed.Client``; the current default client when None) and
    returns the merged Result, identical to ``vmafx.score`` on the whole pair."""
    if client is None:
        from distributed import default_client

        client = default_client()
    raw = dict(width=width, height=height, pixel_format=pixel_format, bitdepth=bitdepth)
    options = dict(model=model, features=features, threads=threads, subsample=subsample, **raw)
    plan = _chunks.plan_files(reference, distorted, chunk_frames, model=model, features=features, **raw)
    futures = [
        client.submit(_score_chunk, reference, distorted, c.frames, options, pure=False, retries=retries)
        for c in plan
    ]
    parts = client.gather(futures)
    if not parts:
        return _vmafx.score(reference, distorted, **options)
    return _chunks.merge(parts)
