"""Shared fixtures: the conformance corpus and a small y4m reader in numpy."""

import os
import pathlib

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = pathlib.Path(os.environ.get("VMAFX_CONFORMANCE", ROOT.parent / "shared" / "conformance"))


def corpus_file(name: str) -> pathlib.Path:
    path = CORPUS / name
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"conformance corpus missing: {path} (CI=true)")
        pytest.skip(f"no conformance corpus at {CORPUS}")
    return path


@pytest.fixture
def bbb_pair():
    """The 576x324 8-bit 4:2:0 pair of the golden 73.343961."""
    return (
        str(corpus_file("bbb_576x324_420p8_crf35_ref.y4m")),
        str(corpus_file("bbb_576x324_420p8_crf35_dis.y4m")),
    )


def read_y4m(path):
    """Yields the (Y, U, V) planes of each frame of an 8-bit 4:2:0 or 10-bit y4m file."""
    data = pathlib.Path(path).read_bytes()
    end = data.index(b"\n")
    tags = data[:end].split()
    assert tags[0] == b"YUV4MPEG2"
    w = int(next(t[1:] for t in tags if t.startswith(b"W")))
    h = int(next(t[1:] for t in tags if t.startswith(b"H")))
    colour = next((t[1:].decode() for t in tags if t.startswith(b"C")), "420jpeg")
    deep = "p10" in colour or "p12" in colour or "p16" in colour
    assert colour.startswith("420"), colour
    dtype = np.uint16 if deep else np.uint8
    cw, ch = (w + 1) // 2, (h + 1) // 2
    sizes = [(h, w), (ch, cw), (ch, cw)]
    pos = end + 1
    while pos < len(data):
        nl = data.index(b"\n", pos)
        assert data[pos:nl].startswith(b"FRAME")
        pos = nl + 1
        planes = []
        for rows, cols in sizes:
            n = rows * cols * np.dtype(dtype).itemsize
            planes.append(np.frombuffer(data[pos : pos + n], dtype=dtype).reshape(rows, cols))
            pos += n
        yield tuple(planes)
