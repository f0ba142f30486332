"""Scoring one video on a Dask cluster, exactly as one pass scores it.

``vmafx.dask.score(ref, dis, client=client, chunk_frames=500)`` plans the chunks
(:mod:`vmafx.chunks`), runs each as a Dask task that opens the files itself and reads
only its frame range and the frames its features reach (so the paths must be readable
from every worker: shared storage), gathers the chunk Results and merges them into the
one-pass Result. Needs ``dask[distributed]``.

``distorted`` may be a list of encodes of one reference (a bitrate ladder): one task per
chunk then scores every one of them on that chunk (``vmafx.score_many``), and a list of
merged Results comes back, one per distorted file, in their order.

A worker lost mid-run (its process killed, its machine gone) costs only its chunks: the
scheduler runs them again on another worker, and since a chunk's result depends only on
its frames, the merged Result is the same. A chunk that raises (a file briefly
unreadable on shared storage) is retried ``retries`` times before the run fails.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

from . import _vmafx, chunks as _chunks


def _score_chunk(reference, distorted, frames, options):
    from vmafx import _vmafx as core

    return core.score(reference, distorted, frames=tuple(frames), **options)


def _score_chunk_many(reference, distorted, frames, options):
    from vmafx import _vmafx as core

    return core.score_many(reference, list(distorted), frames=tuple(frames), **options)


def score(
    reference: str,
    distorted: Union[str, Sequence[str]],
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
) -> "Union[_vmafx.Result, List[_vmafx.Result]]":
    """Scores ``reference`` against ``distorted`` in chunks of ``chunk_frames`` frames on
    ``client`` (a ``distributed.Client``; the current default client when None) and
    returns the merged Result, identical to ``vmafx.score`` on the whole pair; for a list
    of distorted files, the list of their merged Results (each planned on its own pair
    where the lengths differ), identical to ``vmafx.score_many``."""
    if client is None:
        from distributed import default_client

        client = default_client()
    raw = dict(width=width, height=height, pixel_format=pixel_format, bitdepth=bitdepth)
    options = dict(model=model, features=features, threads=threads, subsample=subsample, **raw)
    if not isinstance(distorted, (str, bytes)) and hasattr(distorted, "__iter__"):
        return _score_list(reference, list(distorted), client, chunk_frames, options, raw, retries)
    plan = _chunks.plan_files(reference, distorted, chunk_frames, model=model, features=features, **raw)
    futures = [
        client.submit(_score_chunk, reference, distorted, c.frames, options, pure=False, retries=retries)
        for c in plan
    ]
    parts = client.gather(futures)
    if not parts:
        return _vmafx.score(reference, distorted, **options)
    return _chunks.merge(parts)


def _score_list(reference, distorted, client, chunk_frames, options, raw, retries):
    if not distorted:
        raise ValueError("distorted: expected a path or a non-empty list of paths")
    model, features = options["model"], options["features"]
    plans = [
        _chunks.plan_files(reference, d, chunk_frames, model=model, features=features, **raw)
        for d in distorted
    ]
    if any(not p for p in plans):
        return _vmafx.score_many(reference, distorted, **options)
    # Renditions of one length share their chunks' tasks; a shorter one is planned alone.
    groups = {}
    for k, p in enumerate(plans):
        groups.setdefault(tuple(c.frames for c in p), []).append(k)
    futures = []
    for chunk_frames_list, members in groups.items():
        names = [distorted[k] for k in members]
        for frames in chunk_frames_list:
            fut = client.submit(
                _score_chunk_many, reference, names, frames, options, pure=False, retries=retries
            )
            futures.append((members, fut))
    gathered = client.gather([f for _, f in futures])
    parts = [[] for _ in distorted]
    for (members, _), results in zip(futures, gathered):
        for k, r in zip(members, results):
            parts[k].append(r)
    return [_chunks.merge(p) for p in parts]
