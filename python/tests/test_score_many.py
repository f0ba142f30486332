"""vmafx.score_many and vmafx.dask.score with a list: one reference, several distorted files,
each Result equal to its own pair's and to the command line's log of one pass."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

import vmafx

FRAME = 576 * 324 * 3 // 2


def _short_copy(src, dst, frames):
    data = pathlib.Path(src).read_bytes()
    header = data.index(b"\n") + 1
    dst.write_bytes(data[: header + frames * (len(b"FRAME\n") + FRAME)])
    return str(dst)


def _renditions(bbb_pair, tmp_path):
    ref, dis = map(str, bbb_pair)
    return ref, [dis, _short_copy(dis, tmp_path / "short.y4m", 6)]


def test_score_many_equals_each_pair(bbb_pair, tmp_path):
    ref, dis = _renditions(bbb_pair, tmp_path)
    many = vmafx.score_many(ref, dis, features=["psnr"])
    assert len(many) == 2
    for d, got in zip(dis, many):
        assert got.to_json(fps=0) == vmafx.score(ref, d, features=["psnr"]).to_json(fps=0)
    assert many[1].frame_range == (0, 6)
    assert round(many[0].pooled["vmaf"].mean, 6) == 73.343961
    # A range of every distorted file, as score's frames=.
    part = vmafx.score_many(ref, dis, frames=(2, 5))
    for d, got in zip(dis, part):
        assert got.to_json(fps=0) == vmafx.score(ref, d, frames=(2, 5)).to_json(fps=0)
    with pytest.raises(ValueError):
        vmafx.score_many(ref, [])


def _cli():
    env = os.environ.get("VMAFX_CLI")
    if env:
        return env
    built = pathlib.Path(__file__).resolve().parents[2] / "target" / "debug" / "vmafx"
    return str(built) if built.is_file() else shutil.which("vmafx")


def test_score_many_equals_the_command_line(bbb_pair, tmp_path):
    cli = _cli()
    if cli is None:
        assert os.environ.get("CI") != "true", "no vmafx binary (build the CLI)"
        pytest.skip("no vmafx binary: build the CLI or set VMAFX_CLI")
    ref, dis = _renditions(bbb_pair, tmp_path)
    out = tmp_path / "logs"
    out.mkdir()
    args = [cli, "-q", "-r", ref, "--json", "-o", str(out)]
    for d in dis:
        args += ["-d", d]
    subprocess.run(args, check=True, capture_output=True)
    for d, got in zip(dis, vmafx.score_many(ref, dis)):
        log = json.loads((out / (pathlib.Path(d).stem + ".json")).read_text())
        mine = json.loads(got.to_json(fps=0))
        assert mine["frames"] == log["frames"]
        assert mine["pooled_metrics"] == log["pooled_metrics"]


def test_dask_takes_a_list(bbb_pair, tmp_path):
    distributed = pytest.importorskip("distributed")
    import vmafx.dask

    ref, dis = _renditions(bbb_pair, tmp_path)
    one = vmafx.score_many(ref, dis)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            merged = vmafx.dask.score(ref, dis, client=client, chunk_frames=3)
    assert [m.to_json(fps=0) for m in merged] == [o.to_json(fps=0) for o in one]
