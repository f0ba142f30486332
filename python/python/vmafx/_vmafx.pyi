"""Type stubs of vmafx's compiled core."""

from os import PathLike
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
LIBVMAF_VERSION: str

_Path = Union[str, PathLike]
_Model = Union[str, Sequence[str], None]
_Feature = Union[str, Tuple[str, Mapping[str, Any]]]
_Plane = npt.NDArray[Union[np.uint8, np.uint16]]
_Picture = Union[_Plane, Tuple[_Plane, _Plane, _Plane], List[_Plane]]

class VmafxError(RuntimeError):
    """The engine refused or failed (bad file, unknown model or feature, scoring error)."""

class Pooled:
    """Pooled values of one metric."""

    @property
    def mean(self) -> float: ...
    @property
    def harmonic_mean(self) -> float: ...
    @property
    def min(self) -> float: ...
    @property
    def max(self) -> float: ...

class Result:
    """Per-frame scores, pooled values and libvmaf's log writers."""

    @property
    def names(self) -> List[str]: ...
    @property
    def frame_indices(self) -> npt.NDArray[np.uint64]: ...
    @property
    def frame_range(self) -> Tuple[int, int]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def metrics(self) -> Dict[str, npt.NDArray[np.float64]]: ...
    @property
    def pooled(self) -> Dict[str, Pooled]: ...
    @property
    def aggregates(self) -> Dict[str, float]:
        """The whole run's values (aggregate_metrics: psnr's apsnr_y/cb/cr with
        enable_apsnr); empty otherwise."""
    @property
    def frames(self) -> Any:
        """A pandas DataFrame indexed by frame (needs pandas)."""
    def to_pandas(self) -> Any: ...
    def __getitem__(self, name: str) -> npt.NDArray[np.float64]: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...
    def to_json(self, fps: Optional[float] = None, provenance: bool = False) -> str: ...
    def write_json(
        self, path: _Path, fps: Optional[float] = None, provenance: bool = False
    ) -> None: ...
    @property
    def provenance(self) -> Optional[Dict[str, Any]]:
        """The engine's provenance record of the run; None for a merge."""
    def write_xml(self, path: _Path, fps: Optional[float] = None) -> None: ...
    def write_csv(self, path: _Path, fps: Optional[float] = None) -> None: ...
    def write_sub(self, path: _Path, fps: Optional[float] = None) -> None: ...

class Scorer:
    """Scores numpy frames pushed one pair at a time."""

    def __init__(
        self,
        model: _Model = "vmaf_v0.6.1",
        features: Optional[Sequence[_Feature]] = None,
        threads: int = 0,
        subsample: int = 1,
        bitdepth: Optional[int] = None,
    ) -> None: ...
    def push(self, reference: _Picture, distorted: _Picture) -> None: ...
    @property
    def frames_pushed(self) -> int: ...
    @property
    def planes_in_place(self) -> int:
        """Planes pushed that were scored in place, without a copy."""
    def finish(self) -> Result: ...

def score(
    reference: _Path,
    distorted: _Path,
    model: _Model = "vmaf_v0.6.1",
    features: Optional[Sequence[_Feature]] = None,
    threads: int = 0,
    subsample: int = 1,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
    frames: Optional[Tuple[int, int]] = None,
    progress: Optional[Callable[[int, Optional[int]], Any]] = None,
    accept_decode_errors: bool = False,
) -> Result: ...
def score_many(
    reference: _Path,
    distorted: Sequence[_Path],
    model: _Model = "vmaf_v0.6.1",
    features: Optional[Sequence[_Feature]] = None,
    threads: int = 0,
    subsample: int = 1,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
    frames: Optional[Tuple[int, int]] = None,
    accept_decode_errors: bool = False,
) -> List[Result]: ...
def frame_count(
    path: _Path,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
) -> int: ...
def reach(
    model: _Model = "vmaf_v0.6.1", features: Optional[Sequence[_Feature]] = None
) -> Tuple[int, int]: ...
def merge(parts: Sequence[Result]) -> Result: ...
def verify(log: _Path, rerun: Optional[_Path] = None) -> Dict[str, Any]: ...
