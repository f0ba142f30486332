"""Property test over the numpy frame API: any sequence of Scorer calls with pictures of
random size, dtype and depth either works or raises ValueError / VmafxError naming the
problem; never a crash or another exception, and a finished run holds exactly the frames
that were accepted."""

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

import vmafx  # noqa: E402

EXPECTED = (ValueError, vmafx.VmafxError)

dims = st.integers(min_value=0, max_value=40)
pictures = st.fixed_dictionaries(
    {
        "w": dims,
        "h": dims,
        "dtype": st.sampled_from([np.uint8, np.uint16, np.float32, np.int8]),
        "planes": st.sampled_from([1, 2, 3, 4]),
        "chroma": st.sampled_from(["420", "422", "444", "odd"]),
        "value": st.integers(min_value=0, max_value=1023),
    }
)
calls = st.lists(
    st.one_of(
        st.tuples(st.just("push"), pictures, pictures),
        st.tuples(st.just("finish")),
        st.tuples(st.just("count")),
    ),
    max_size=12,
)


def make(p):
    w, h = p["w"], p["h"]
    cw, ch = {"420": ((w + 1) // 2, (h + 1) // 2), "422": ((w + 1) // 2, h), "444": (w, h), "odd": (w + 3, 1)}[p["chroma"]]
    value = p["value"] & {np.uint8: 255, np.int8: 127}.get(p["dtype"], 1023)
    luma = np.full((h, w), value, p["dtype"])
    chroma = np.full((ch, cw), value, p["dtype"])
    return (luma, chroma, chroma, chroma)[: p["planes"]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from([dict(model=None, features=["psnr"]), dict(), dict(model=None, features=["psnr"], bitdepth=10)]),
    sequence=calls,
)
def test_any_call_sequence_returns_or_raises_a_named_error(setup, sequence):
    scorer = vmafx.Scorer(**setup)
    accepted, finished, result = 0, False, None
    for call in sequence:
        if call[0] == "push":
            try:
                scorer.push(make(call[1]), make(call[2]))
                assert not finished, "a finished Scorer took a frame"
                accepted += 1
            except EXPECTED as e:
                assert str(e)
        elif call[0] == "finish":
            try:
                result = scorer.finish()
                assert not finished, "finished twice"
                finished = True
            except EXPECTED as e:
                assert str(e)
        else:
            assert scorer.frames_pushed == accepted
    if finished and accepted:
        assert result.frame_range == (0, accepted)
