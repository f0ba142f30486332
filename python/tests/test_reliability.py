"""Bad calls get a named error, never a silent wrong result: ranges outside the video, a
Scorer finished with no frame, negative threads, merges of parts that do not belong
together, partly decodable files; Ctrl-C stops a score between frames; help shows real
defaults; progress is reported frame by frame."""

import inspect
import os
import pathlib
import pickle
import pydoc
import shutil
import signal
import subprocess

import pytest
from conftest import corpus_file

import vmafx


@pytest.mark.parametrize("frames, shown", [((20, 30), "20..30"), ((10, 40), "10..40"), ((5, 11), "5..11")])
def test_ranges_outside_the_video_name_the_range_and_the_frame_count(bbb_pair, frames, shown):
    with pytest.raises(ValueError, match="outside the video") as e:
        vmafx.score(*bbb_pair, frames=frames)
    assert shown in str(e.value) and "10 frames" in str(e.value)


def test_an_empty_range_is_a_value_error(bbb_pair):
    with pytest.raises(ValueError, match=r"\(0, 0\) holds no frame"):
        vmafx.score(*bbb_pair, frames=(0, 0))


def test_finish_without_frames_is_a_value_error():
    scorer = vmafx.Scorer()
    with pytest.raises(ValueError, match="no frame was pushed"):
        scorer.finish()


def test_negative_threads_are_a_value_error(bbb_pair):
    with pytest.raises(ValueError, match="threads: -1"):
        vmafx.score(*bbb_pair, threads=-1)
    with pytest.raises(ValueError, match="threads: -1"):
        vmafx.Scorer(threads=-1)


@pytest.mark.parametrize("fn", [vmafx.score, vmafx.Scorer, vmafx.reach])
def test_help_shows_the_real_default_model(fn):
    assert inspect.signature(fn).parameters["model"].default == "vmaf_v0.6.1"
    text = pydoc.render_doc(fn)
    assert "Ellipsis" not in text and "model='vmaf_v0.6.1'" in text


def test_progress_is_reported_after_every_frame(bbb_pair):
    seen = []
    vmafx.score(*bbb_pair, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 10) for n in range(1, 11)]


def test_an_exception_in_progress_stops_the_score_and_is_raised(bbb_pair):
    seen = []

    def progress(done, total):
        seen.append(done)
        if done == 2:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        vmafx.score(*bbb_pair, progress=progress)
    assert seen == [1, 2], "the run stopped at the next frame"
    with pytest.raises(ValueError, match="progress"):
        vmafx.score(*bbb_pair, progress=3)


def test_ctrl_c_stops_the_score_between_frames(bbb_pair):
    """SIGINT during a score raises KeyboardInterrupt at the next frame, not after the
    whole video (the GIL is released while scoring, so the engine checks for it)."""
    seen = []

    def progress(done, total):
        seen.append(done)
        if done == 2:
            os.kill(os.getpid(), signal.SIGINT)

    # Python turns SIGINT into KeyboardInterrupt only through its default handler, which
    # it does not install where the process started with SIGINT ignored (a job started in
    # the background by a non-interactive shell): install it for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            vmafx.score(*bbb_pair, progress=progress)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert max(seen) <= 3, f"scored {max(seen)} of 10 frames after Ctrl-C"


def _copy_pair(bbb_pair, folder: pathlib.Path, names=("ref.y4m", "dis.y4m")):
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for src, name in zip(bbb_pair, names):
        dst = folder / name
        shutil.copyfile(src, dst)
        out.append(str(dst))
    return out


def test_merge_refuses_parts_of_another_video_and_merges_copies(bbb_pair, tmp_path):
    a = vmafx.score(*bbb_pair, frames=(0, 5))
    # The same video copied under other names merges.
    copied = _copy_pair(bbb_pair, tmp_path / "copy", ("master.y4m", "encode.y4m"))
    b = vmafx.score(*copied, frames=(5, 10))
    assert vmafx.merge([a, b]).to_json(fps=0) == vmafx.score(*bbb_pair).to_json(fps=0)
    # Another distorted video under the same name: its first frame differs.
    other = _copy_pair(bbb_pair, tmp_path / "other")
    data = bytearray(pathlib.Path(other[1]).read_bytes())
    data[data.index(b"FRAME\n") + 6 + 1000] ^= 0x20
    pathlib.Path(other[1]).write_bytes(bytes(data))
    c = vmafx.score(*other, frames=(5, 10))
    with pytest.raises(vmafx.VmafxError, match=r"parts\[1\].*distorted digest"):
        vmafx.merge([a, c])


def test_merge_refuses_other_settings_and_parts_that_stop_early(bbb_pair):
    a = vmafx.score(*bbb_pair, frames=(0, 5))
    psnr = vmafx.score(*bbb_pair, frames=(5, 10), features=["psnr"])
    with pytest.raises(vmafx.VmafxError, match=r"parts\[1\].*settings"):
        vmafx.merge([a, psnr])
    b = vmafx.score(*bbb_pair, frames=(5, 8))
    with pytest.raises(vmafx.VmafxError, match=r"frames 8\.\.10 are in no part"):
        vmafx.merge([a, b])
    with pytest.raises(vmafx.VmafxError, match=r"frames 5\.\.10 are in no part"):
        vmafx.merge([a])


def test_pickled_parts_keep_their_origin_and_older_ones_are_refused(bbb_pair):
    a = pickle.loads(pickle.dumps(vmafx.score(*bbb_pair, frames=(0, 5))))
    b = pickle.loads(pickle.dumps(vmafx.score(*bbb_pair, frames=(5, 10))))
    assert vmafx.merge([a, b]).frame_range == (0, 10)
    f, (state, _origin, _record, _aggregates) = b.__reduce__()
    older = f(state)
    with pytest.raises(vmafx.VmafxError, match="older vmafx"):
        vmafx.merge([a, older])


def test_a_partly_decodable_file_is_an_error_unless_accepted(bbb_pair, tmp_path):
    if shutil.which("ffmpeg") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no ffmpeg on PATH (CI=true)")
        pytest.skip("no ffmpeg on PATH")
    mkv = corpus_file("bitstreams/bbb_576x324_420p8_crf35.mkv")
    whole = tmp_path / "whole.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(mkv), "-c:v", "libx264", "-g", "5",
         "-movflags", "+faststart", str(whole)],
        check=True,
    )
    cut = tmp_path / "cut.mp4"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) * 2 // 3])
    ref = bbb_pair[0]
    with pytest.raises(vmafx.VmafxError, match="decoding errors") as e:
        vmafx.score(ref, str(cut), model=None, features=["psnr"])
    assert "of the 10 frames" in str(e.value) and "lost" in str(e.value)
    kept = vmafx.score(ref, str(cut), model=None, features=["psnr"], accept_decode_errors=True)
    assert 0 < len(kept) < 10


def test_a_distorted_file_without_frames_is_named(bbb_pair, tmp_path):
    data = pathlib.Path(bbb_pair[1]).read_bytes()
    header_only = tmp_path / "header_only_dis.y4m"
    header_only.write_bytes(data[: data.index(b"\n") + 1])
    with pytest.raises(vmafx.VmafxError, match="distorted input") as e:
        vmafx.score(bbb_pair[0], str(header_only))
    assert str(header_only) in str(e.value) and bbb_pair[0] not in str(e.value)
