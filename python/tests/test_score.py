"""vmafx.score on files: the golden, results, logs, pickling and errors."""

import json
import pickle

import numpy as np
import pytest

import vmafx
from conftest import read_y4m

GOLDEN = 73.343961  # libvmaf 3.2.0, vmaf_v0.6.1, bbb_576x324_420p8_crf35


def test_golden_vmaf_mean(bbb_pair):
    result = vmafx.score(*bbb_pair)
    assert round(result.pooled["vmaf"].mean, 6) == GOLDEN
    assert result.frame_range == (0, 10)
    assert (result.width, result.height) == (576, 324)


def test_result_arrays_pooled_and_pandas(bbb_pair):
    result = vmafx.score(*bbb_pair)
    vmaf = result["vmaf"]
    assert vmaf.dtype == np.float64 and vmaf.shape == (10,)
    assert list(result.frame_indices) == list(range(10))
    assert set(result.metrics) == set(result.names)
    pooled = result.pooled["vmaf"]
    assert pooled.mean == pytest.approx(vmaf.mean(), abs=1e-12)
    assert pooled.min == vmaf.min() and pooled.max == vmaf.max()
    assert pooled.harmonic_mean == pytest.approx(10 / np.sum(1 / (vmaf + 1)) - 1, abs=1e-9)
    pd = pytest.importorskip("pandas")
    frames = result.frames
    assert isinstance(frames, pd.DataFrame)
    assert list(frames.columns) == result.names
    assert frames.index.name == "frame"
    assert frames["vmaf"].to_numpy().tolist() == vmaf.tolist()


def test_logs_match_libvmaf_golden(bbb_pair, tmp_path):
    from conftest import corpus_file

    result = vmafx.score(*bbb_pair)
    result.write_json(tmp_path / "log.json")
    result.write_xml(tmp_path / "log.xml")
    result.write_csv(tmp_path / "log.csv")
    got = json.loads((tmp_path / "log.json").read_text())
    want = json.loads(corpus_file("expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json").read_text())
    assert [f["frameNum"] for f in got["frames"]] == [f["frameNum"] for f in want["frames"]]
    assert list(got["pooled_metrics"]) == list(want["pooled_metrics"])
    for g, w in zip(got["frames"], want["frames"]):
        assert list(g["metrics"]) == list(w["metrics"])
        assert abs(g["metrics"]["vmaf"] - w["metrics"]["vmaf"]) <= 1e-4
    assert "<VMAF" in (tmp_path / "log.xml").read_text()
    header = (tmp_path / "log.csv").read_text().splitlines()[0]
    assert header.startswith("Frame,")


def test_features_and_options(bbb_pair):
    result = vmafx.score(*bbb_pair, model=None, features=["psnr", ("float_ssim", {"enable_db": True})])
    assert "psnr_y" in result.names and "float_ssim" in result.names
    assert "vmaf" not in result
    plain = vmafx.score(*bbb_pair, model=None, features=["float_ssim"])
    assert not np.array_equal(result["float_ssim"], plain["float_ssim"])


def test_threads_give_the_same_scores(bbb_pair):
    one = vmafx.score(*bbb_pair)
    four = vmafx.score(*bbb_pair, threads=4)
    assert one.to_json(fps=0) == four.to_json(fps=0)


def test_pickle_round_trip(bbb_pair):
    result = vmafx.score(*bbb_pair)
    again = pickle.loads(pickle.dumps(result))
    assert again.to_json(fps=0) == result.to_json(fps=0)
    assert again.names == result.names


def test_raw_yuv_needs_all_four_parameters(bbb_pair):
    from conftest import corpus_file

    ref = str(corpus_file("bbb_576x324_420p8_crf35_ref.yuv"))
    dis = str(corpus_file("bbb_576x324_420p8_crf35_dis.yuv"))
    raw = vmafx.score(ref, dis, width=576, height=324, pixel_format="420", bitdepth=8)
    assert raw.to_json(fps=0) == vmafx.score(*bbb_pair).to_json(fps=0)
    with pytest.raises(ValueError, match="width, height, pixel_format, bitdepth"):
        vmafx.score(ref, dis, width=576)


def test_engine_errors_are_vmafx_errors(bbb_pair, tmp_path):
    with pytest.raises(vmafx.VmafxError, match="no-such-file"):
        vmafx.score(str(tmp_path / "no-such-file.y4m"), bbb_pair[1])
    with pytest.raises(vmafx.VmafxError, match="not_a_model"):
        vmafx.score(*bbb_pair, model="not_a_model")
    with pytest.raises(vmafx.VmafxError, match="no_such_feature"):
        vmafx.score(*bbb_pair, model=None, features=["no_such_feature"])
    assert issubclass(vmafx.VmafxError, RuntimeError)


def test_help_reads_well():
    assert "vmafx.score" in vmafx.__doc__
    assert vmafx.score.__doc__ and "distorted" in vmafx.score.__doc__
    assert "push" in vmafx.Scorer.__doc__
    assert vmafx.Result.__doc__ and "pooled" in vmafx.Result.__doc__


# libvmaf 3.2.0's aggregate_metrics for bbb_576x324_420p8_crf35 with
# `--feature psnr=enable_apsnr=true` (the whole run's PSNR of each plane).
GOLDEN_APSNR = {"apsnr_y": 34.124986, "apsnr_cb": 41.779776, "apsnr_cr": 44.024846}


def test_whole_run_values_come_with_the_whole_video(bbb_pair):
    apsnr = [("psnr", {"enable_apsnr": True})]
    ref, dis = bbb_pair
    r = vmafx.score(ref, dis, model=None, features=apsnr)
    assert list(r.aggregates) == list(GOLDEN_APSNR)
    assert {k: round(v, 6) for k, v in r.aggregates.items()} == GOLDEN_APSNR
    # The logs write them as libvmaf's do.
    assert json.loads(r.to_json())["aggregate_metrics"] == GOLDEN_APSNR
    # Every whole-video face gives the same values; pickling and a merge of the one
    # Result keep them.
    (many,) = vmafx.score_many(ref, [dis], model=None, features=apsnr)
    scorer = vmafx.Scorer(model=None, features=apsnr)
    for rf, df in zip(read_y4m(ref), read_y4m(dis)):
        scorer.push(rf, df)
    pushed = scorer.finish()
    for other in (many, pushed, pickle.loads(pickle.dumps(r)), vmafx.merge([r])):
        assert other.aggregates == r.aggregates
    # Without the option there are none.
    assert vmafx.score(ref, dis, model=None, features=["psnr"]).aggregates == {}


def test_whole_run_values_are_refused_for_parts_not_dropped(bbb_pair, tmp_path):
    apsnr = [("psnr", {"enable_apsnr": True})]
    ref, dis = bbb_pair
    # A range of frames, even all of them, is a part: refused, naming why.
    for frames in [(0, 4), (0, 10), (3, 10)]:
        with pytest.raises(vmafx.VmafxError, match="aggregate_metrics"):
            vmafx.score(ref, dis, model=None, features=apsnr, frames=frames)
        with pytest.raises(vmafx.VmafxError, match="aggregate_metrics"):
            vmafx.score_many(ref, [dis], model=None, features=apsnr, frames=frames)
    # Chunk plans (and so Dask) refuse a split it cannot be joined from.
    with pytest.raises(vmafx.VmafxError, match="enable_apsnr"):
        vmafx.chunks.plan_files(ref, dis, 4, model=None, features=apsnr)
    # A merge of several parts refuses one that carries whole-run values (made here by
    # hand: no scoring call gives a part them).
    part = vmafx.score(ref, dis, model=None, features=["psnr"], frames=(0, 4))
    rest = vmafx.score(ref, dis, model=None, features=["psnr"], frames=(4, 10))
    make, (state, origin, record, _) = part.__reduce__()
    forged = make(state, origin, record, [("apsnr_y", 30.0)])
    assert forged.aggregates == {"apsnr_y": 30.0}
    with pytest.raises(vmafx.VmafxError, match=r"parts\[0\].*apsnr_y"):
        vmafx.merge([forged, rest])
    assert vmafx.merge([part, rest]).aggregates == {}