"""vmafx: video quality scores exactly as libvmaf computes them.

Score two files::

    import vmafx
    result = vmafx.score("ref.y4m", "dis.y4m")           # model vmaf_v0.6.1
    result.pooled["vmaf"].mean                            # 73.343961...
    result["vmaf"]                                        # per-frame numpy array
    result.frames                                         # pandas DataFrame (with pandas)
    result.write_json("log.json")                         # libvmaf's log formats

Raw .yuv needs ``width``, ``height``, ``pixel_format`` ("420", "422", "444", "400") and
``bitdepth``. ``model`` takes a built-in name (``"vmaf_4k_v0.6.1"``), a JSON path, a
libvmaf ``--model`` spec string, a list of those, or None (features only); ``features``
takes libvmaf extractor names, with options as ``"psnr=enable_chroma=false"`` or
``("psnr", {"enable_chroma": False})``.

Provenance: ``result.provenance`` is the engine's record of the run (build, CPU level,
models with their SHA-256, extractors with their options, a digest of every score);
``result.write_json("log.json", provenance=True)`` writes it into the log as ``vmafx
--json --provenance`` does, and ``vmafx.verify("log.json")`` (or ``rerun="log2.json"``)
checks such a log, raising VmafxError naming the file and the field that does not match.

Score frames held in memory (numpy planes)::

    scorer = vmafx.Scorer(model="vmaf_v0.6.1")
    for ref, dis in pairs:                                # (Y, U, V) uint8 arrays
        scorer.push(ref, dis)
    result = scorer.finish()

Split one video over many workers, exactly (see ``vmafx.chunks`` and ``vmafx.dask``)::

    plan = vmafx.chunks.plan_files(ref, dis, chunk_frames=500)
    parts = [vmafx.score(ref, dis, frames=c.frames) for c in plan]
    result = vmafx.merge(parts)                           # identical to one pass

Scoring releases the GIL; Ctrl-C stops a score between two frames (KeyboardInterrupt), and
``progress=lambda done, total: ...`` is called after every frame. Engine failures raise
:class:`VmafxError` (a RuntimeError) with the engine's message; wrong arguments (a frame
range outside the video, negative threads) raise ValueError naming the argument. Merges
refuse parts of other settings or another pair of files, and parts that stop before the
end of the video. A compressed file ffmpeg reports errors on is refused unless
``accept_decode_errors=True``.
"""

from ._vmafx import (
    LIBVMAF_VERSION,
    Pooled,
    Result,
    Scorer,
    VmafxError,
    __version__,
    frame_count,
    merge,
    reach,
    score,
    score_many,
    verify,
)
from . import chunks

__all__ = [
    "LIBVMAF_VERSION",
    "Pooled",
    "Result",
    "Scorer",
    "VmafxError",
    "__version__",
    "chunks",
    "frame_count",
    "merge",
    "reach",
    "score",
    "score_many",
    "verify",
]
