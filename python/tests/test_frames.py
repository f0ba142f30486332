"""The numpy frame API: same scores as files; wrong planes are ValueErrors naming them."""

import numpy as np
import pytest

import vmafx
from conftest import read_y4m

GOLDEN = 73.343961


def push_all(scorer, ref_path, dis_path):
    for ref, dis in zip(read_y4m(ref_path), read_y4m(dis_path)):
        scorer.push(ref, dis)
    return scorer.finish()


def test_numpy_frames_give_the_golden_and_the_file_log(bbb_pair):
    result = push_all(vmafx.Scorer(), *bbb_pair)
    assert round(result.pooled["vmaf"].mean, 6) == GOLDEN
    assert result.to_json(fps=0) == vmafx.score(*bbb_pair).to_json(fps=0)


@pytest.mark.parametrize("threads", [0, 2])
def test_read_only_planes_over_bytes_are_scored_in_place(bbb_pair, threads):
    scorer = vmafx.Scorer(threads=threads)
    # read_y4m's planes are numpy.frombuffer views of the file's bytes: read-only.
    result = push_all(scorer, *bbb_pair)
    assert scorer.planes_in_place == 10 * 2 * 3
    assert round(result.pooled["vmaf"].mean, 6) == GOLDEN


def test_writable_planes_are_copied_and_may_be_reused(bbb_pair):
    scorer = vmafx.Scorer()
    buffers = None
    for ref, dis in zip(read_y4m(bbb_pair[0]), read_y4m(bbb_pair[1])):
        if buffers is None:
            buffers = [p.copy() for p in ref + dis]
        for buf, p in zip(buffers, ref + dis):
            buf[...] = p  # the same arrays, overwritten every frame
        scorer.push(tuple(buffers[:3]), tuple(buffers[3:]))
    assert scorer.planes_in_place == 0
    assert round(scorer.finish().pooled["vmaf"].mean, 6) == GOLDEN


def test_a_read_only_view_of_a_writable_array_is_copied():
    base = np.zeros((64, 64), np.uint8)
    view = base.view()
    view.flags.writeable = False
    scorer = vmafx.Scorer(model=None, features=["psnr"])
    scorer.push((view,) + frame()[1:], frame())
    assert scorer.planes_in_place == 0


def test_padded_rows_and_lists_are_accepted(bbb_pair):
    scorer = vmafx.Scorer(threads=2)
    for ref, dis in zip(read_y4m(bbb_pair[0]), read_y4m(bbb_pair[1])):
        padded = []
        for p in ref:
            wide = np.zeros((p.shape[0], p.shape[1] + 64), np.uint8)
            wide[:, : p.shape[1]] = p
            padded.append(wide[:, : p.shape[1]])
        scorer.push(padded, list(dis))
    assert round(scorer.finish().pooled["vmaf"].mean, 6) == GOLDEN


def test_luma_only_uint16_with_bitdepth():
    rng = np.random.default_rng(1)
    ref = [rng.integers(0, 1024, (64, 64), dtype=np.uint16) for _ in range(3)]
    scorer = vmafx.Scorer(model=None, features=["psnr"], bitdepth=10)
    for r in ref:
        scorer.push(r, np.clip(r.astype(np.int32) + 3, 0, 1023).astype(np.uint16))
    result = scorer.finish()
    assert scorer.frames_pushed == 3
    assert len(result) == 3 and "psnr_y" in result


def frame(h=64, w=64, dtype=np.uint8):
    return (np.zeros((h, w), dtype), np.zeros((h // 2, w // 2), dtype), np.zeros((h // 2, w // 2), dtype))


def test_wrong_dtype_is_a_value_error_naming_the_argument():
    scorer = vmafx.Scorer()
    bad = (np.zeros((64, 64), np.float32),) + frame()[1:]
    with pytest.raises(ValueError, match=r"reference\[0\] \(Y plane\).*float32"):
        scorer.push(bad, frame())
    with pytest.raises(ValueError, match="distorted.*numpy array"):
        scorer.push(frame(), "not an array")
    with pytest.raises(ValueError, match="bitdepth"):
        scorer.push(frame(dtype=np.uint16), frame(dtype=np.uint16))
    mixed = frame(dtype=np.uint16)[:1] + frame()[1:]
    with pytest.raises(ValueError, match="distorted.*mix uint8 and uint16"):
        vmafx.Scorer(bitdepth=10).push(frame(dtype=np.uint16), mixed)


def test_wrong_shape_is_a_value_error_naming_the_argument():
    scorer = vmafx.Scorer()
    with pytest.raises(ValueError, match=r"distorted\[2\] \(V plane\).*2-D"):
        scorer.push(frame(), frame()[:2] + (np.zeros((32, 32, 1), np.uint8),))
    with pytest.raises(ValueError, match="distorted.*4:2:0"):
        scorer.push(frame(), frame()[:2] + (np.zeros((31, 32), np.uint8),))
    with pytest.raises(ValueError, match="reference.*2 items"):
        scorer.push(frame()[:2], frame())
    scorer.push(frame(), frame())
    with pytest.raises(ValueError, match="reference.*this run scores"):
        scorer.push(frame(128, 128), frame(128, 128))


def test_wrong_stride_is_a_value_error_naming_the_argument():
    scorer = vmafx.Scorer()
    strided = np.zeros((64, 128), np.uint8)[:, ::2]
    with pytest.raises(ValueError, match=r"reference\[0\] \(Y plane\).*strides"):
        scorer.push((strided,) + frame()[1:], frame())
    flipped = np.zeros((64, 64), np.uint8)[::-1]
    with pytest.raises(ValueError, match=r"distorted\[0\] \(Y plane\).*strides"):
        scorer.push(frame(), (flipped,) + frame()[1:])


def test_finished_scorer_refuses_more():
    scorer = vmafx.Scorer(model=None, features=["psnr"])
    scorer.push(frame(), frame())
    scorer.finish()
    with pytest.raises(ValueError, match="finished"):
        scorer.push(frame(), frame())
