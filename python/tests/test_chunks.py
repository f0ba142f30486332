"""Chunked runs merge to one pass: plain Python plans, and Dask with 2 workers."""

import pytest
from conftest import corpus_file

import vmafx
from vmafx import chunks


def test_plan_widens_by_the_reach():
    got = chunks.plan(10, 4, (2, 1))
    assert [(c.frames, c.fed) for c in got] == [((0, 4), (0, 5)), ((4, 8), (2, 9)), ((8, 10), (6, 10))]
    with pytest.raises(ValueError, match="chunk_frames"):
        chunks.plan(10, 0)


@pytest.mark.parametrize("model", ["vmaf_v0.6.1", "vmaf_v1.0.16_hfr_3d0h"])
@pytest.mark.parametrize("size", [1, 3])
def test_chunks_merge_to_one_pass(bbb_pair, model, size):
    one = vmafx.score(*bbb_pair, model=model)
    plan = chunks.plan_files(*bbb_pair, chunk_frames=size, model=model)
    parts = [vmafx.score(*bbb_pair, model=model, frames=c.frames) for c in reversed(plan)]
    merged = chunks.merge(parts)
    assert merged.frame_range == (0, 10)
    assert merged.to_json(fps=0) == one.to_json(fps=0)
    for name in one.names:
        assert merged[name].tobytes() == one[name].tobytes(), name


def test_merge_refuses_a_gap(bbb_pair):
    a = vmafx.score(*bbb_pair, frames=(0, 3))
    c = vmafx.score(*bbb_pair, frames=(5, 10))
    with pytest.raises(vmafx.VmafxError, match="gap"):
        chunks.merge([a, c])


def test_dask_local_cluster_with_two_workers(bbb_pair):
    distributed = pytest.importorskip("distributed")
    import vmafx.dask

    one = vmafx.score(*bbb_pair)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            merged = vmafx.dask.score(*bbb_pair, client=client, chunk_frames=3)
            workers = client.run(lambda: 1)
    assert len(workers) == 2
    assert merged.to_json(fps=0) == one.to_json(fps=0)
    assert round(merged.pooled["vmaf"].mean, 6) == 73.343961


def test_a_compressed_input_scores_and_chunks_exactly(bbb_pair):
    """An mkv (decoded by ffmpeg, as the command line decodes it) scores from vmafx.score,
    and its chunks, each decoded from the start and cut frame-accurately, merge to one
    pass."""
    import shutil

    mkv = corpus_file("bitstreams/bbb_576x324_420p8_crf35.mkv")
    if shutil.which("ffmpeg") is None:
        pytest.skip("no ffmpeg on PATH")
    ref = bbb_pair[0]
    one = vmafx.score(ref, str(mkv))
    assert one.frame_range == (0, 10)
    assert vmafx.frame_count(str(mkv)) == 10
    parts = [vmafx.score(ref, str(mkv), frames=c.frames) for c in chunks.plan_files(ref, str(mkv), 3)]
    merged = chunks.merge(parts)
    assert merged.to_json(fps=0) == one.to_json(fps=0)


def test_dask_worker_lost_mid_run_retries_its_chunk(bbb_pair, tmp_path):
    """A worker process killed while it runs a chunk: the chunk runs again elsewhere and
    the merged result is still the one pass's."""
    distributed = pytest.importorskip("distributed")
    import vmafx.dask

    marker = str(tmp_path / "killed")

    class KillOnce(distributed.WorkerPlugin):
        """Kills the first worker that starts a chunk, once in the whole cluster."""

        def transition(self, key, start, finish, **kwargs):
            import os
            import signal

            if finish != "executing" or "_score_chunk" not in str(key):
                return
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return
            os.kill(os.getpid(), signal.SIGKILL)

    one = vmafx.score(*bbb_pair)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            register = getattr(client, "register_plugin", None) or client.register_worker_plugin
            register(KillOnce(), name="kill-once")
            merged = vmafx.dask.score(*bbb_pair, client=client, chunk_frames=2)
    import os

    assert os.path.exists(marker), "no worker was killed"
    assert merged.frame_range == (0, 10)
    assert merged.to_json(fps=0) == one.to_json(fps=0)
    for name in one.names:
        assert merged[name].tobytes() == one[name].tobytes(), name
