"""The Python blocks of python/README.md run as written, on the corpus: each placeholder file
named in them is replaced by a corpus file of the same kind (and the raw example's 1920x1080
by the corpus raw pair's 576x324), and `ref`, `dis` and `client` are given."""

import pathlib
import re
import shutil

import pytest
from conftest import corpus_file

import vmafx

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def substituted(code, replacements):
    for old, new in replacements:
        assert old in code, f"python/README.md no longer has {old!r}: update this test"
        code = code.replace(old, new)
    return code


def test_the_first_block_scores_as_it_says(bbb_pair, tmp_path):
    if shutil.which("ffmpeg") is None:
        pytest.skip("the README's encode.mkv line needs ffmpeg on PATH")
    ref, dis = bbb_pair
    yuv = [str(corpus_file(f"bbb_576x324_420p10le_crf35_{s}.yuv")) for s in ("ref", "dis")]
    mkv = str(corpus_file("bitstreams/bbb_576x324_420p8_crf35.mkv"))
    log = tmp_path / "log.json"
    code = substituted(
        blocks()[0],
        [
            ('"ref.y4m", "dis.y4m"', "ref, dis"),
            ('"ref.yuv", "dis.yuv"', "yuv[0], yuv[1]"),
            ("width=1920, height=1080", "width=576, height=324"),
            ('"master.y4m", "encode.mkv"', "ref, mkv"),
            ('"log.json"', "str(log)"),
        ],
    )
    env = {"ref": ref, "dis": dis, "yuv": yuv, "mkv": mkv, "log": log}
    exec(compile(code, "python/README.md (first block)", "exec"), env)
    r = env["r"]
    assert f"{r.pooled['vmaf'].mean:.6f}" == "73.343961"
    assert len(r["vmaf"]) == len(r.frames)
    assert log.is_file() and "pooled_metrics" in log.read_text()
    assert env["raw"].pooled["vmaf"].mean > 0 and env["enc"].pooled["vmaf"].mean > 0
    assert "psnr_y" in env["extra"].metrics and "vmaf" not in env["extra"].metrics


def test_the_chunks_block_merges_to_one_pass(bbb_pair):
    distributed = pytest.importorskip("distributed")
    ref, dis = bbb_pair
    code = substituted(blocks()[-1], [("chunk_frames=500", "chunk_frames=4")])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            env = {"ref": ref, "dis": dis, "client": client}
            exec(compile(code, "python/README.md (chunks block)", "exec"), env)
    one = vmafx.score(ref, dis)
    for name in ("result",):
        assert env[name].to_json(fps=0) == one.to_json(fps=0)
    assert len(env["plan"]) > 1
