"""Wall time of vmafx.dask.score on a 1080p pair: a LocalCluster of 1 and of 2 worker
processes (1 thread each), chunk_frames=8 (6 chunks of the 48 frames), beside vmafx.score
in one pass; every run's log must equal the one pass's (fps aside).

Make the pair (the 576x324 corpus pair, looped and scaled bicubic to 1920x1080):
  for s in ref dis; do ffmpeg -nostdin -v error -y -stream_loop 4 \
    -i ../shared/conformance/bbb_576x324_420p8_crf35_$s.y4m \
    -vf scale=1920:1080:flags=bicubic -frames:v 48 -pix_fmt yuv420p target/dask1080/$s.y4m; done
Run: target/py-venv/bin/python scripts/dask_timing.py target/dask1080/ref.y4m target/dask1080/dis.y4m
"""

import os
import sys
import time

from distributed import Client, LocalCluster

import vmafx
import vmafx.dask


def main():
    ref, dis = sys.argv[1], sys.argv[2]
    t = time.perf_counter()
    one = vmafx.score(ref, dis)
    print(f"one pass (vmafx.score, 1 thread): {time.perf_counter() - t:.1f} s, "
          f"vmaf {one.pooled['vmaf'].mean:.6f}", flush=True)
    for n in (2, 1, 2, 1):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.run(lambda: __import__("vmafx"))
            t = time.perf_counter()
            r = vmafx.dask.score(ref, dis, client=client, chunk_frames=8)
            dt = time.perf_counter() - t
            same = r.to_json(fps=0) == one.to_json(fps=0)
            print(f"{n} worker(s): {dt:.1f} s, vmaf {r.pooled['vmaf'].mean:.6f}, "
                  f"identical log: {same}", flush=True)
    print("load average:", os.getloadavg())


if __name__ == "__main__":
    main()
