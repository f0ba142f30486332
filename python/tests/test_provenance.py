"""Provenance from Python: the record of a run, the JSON log that carries it, and
vmafx.verify on that log and on tampered copies."""

import json
import pickle

import pytest

import vmafx


def test_result_exposes_the_engines_record(bbb_pair):
    result = vmafx.score(*bbb_pair)
    record = result.provenance
    assert isinstance(record, dict)
    assert record["models"][0]["version"] == "vmaf_v0.6.1"
    assert len(record["models"][0]["sha256"]) == 64
    assert record["n_frames"] == str(len(result))
    assert (record["frame_width"], record["frame_height"]) == (576, 324)
    assert record["digest"].startswith("sha256:")
    assert any(f["feature"] == "vmaf" and f["source"] == "model" for f in record["features"])
    # Pickling keeps it; a merge has none.
    assert pickle.loads(pickle.dumps(result)).provenance == record
    a = vmafx.score(*bbb_pair, frames=(0, 5))
    b = vmafx.score(*bbb_pair, frames=(5, 10))
    assert vmafx.merge([a, b]).provenance is None


def test_a_log_with_its_record_verifies_and_a_tampered_one_names_the_field(bbb_pair, tmp_path):
    result = vmafx.score(*bbb_pair)
    plain = json.loads(result.to_json(fps=1.0))
    with_record = json.loads(result.to_json(fps=1.0, provenance=True))
    assert "provenance" not in plain
    assert {k: v for k, v in with_record.items() if k != "provenance"} == plain
    log = tmp_path / "log.json"
    result.write_json(log, provenance=True)
    assert vmafx.verify(log) == result.provenance

    text = log.read_text()
    simd = '"simd":%s' % json.dumps(result.provenance["simd"])
    assert simd in text
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace(simd, '"simd":"other"', 1))
    with pytest.raises(vmafx.VmafxError, match=r"bad\.json: provenance\.digest differs"):
        vmafx.verify(bad)

    again = tmp_path / "again.json"
    vmafx.score(*bbb_pair).write_json(again, provenance=True)
    assert vmafx.verify(log, rerun=again)["digest"] == result.provenance["digest"]
    frame3 = '"vmaf": %.6f' % result["vmaf"][3]
    assert frame3 in text
    score = tmp_path / "score.json"
    score.write_text(text.replace(frame3, '"vmaf": 99.000000', 1))
    with pytest.raises(vmafx.VmafxError, match=r"score\.json: pooled_metrics\.vmaf\."):
        vmafx.verify(score)
    with pytest.raises(vmafx.VmafxError, match=r"frames\[3\]\.metrics\.vmaf differs"):
        vmafx.verify(score, rerun=again)

    plain_log = tmp_path / "plain.json"
    result.write_json(plain_log)
    with pytest.raises(vmafx.VmafxError, match=r"plain\.json: provenance"):
        vmafx.verify(plain_log)
    with pytest.raises(ValueError, match="no provenance record"):
        vmafx.merge(
            [vmafx.score(*bbb_pair, frames=(0, 5)), vmafx.score(*bbb_pair, frames=(5, 10))]
        ).to_json(provenance=True)
