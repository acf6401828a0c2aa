"""Type stubs of the extension module saddlefw._native (the Rust half of the package)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float64]
ArrayLike = npt.ArrayLike

__version__: str

class SetView:
    """One of a problem's sets, X or Y, with saddlefw's exact oracles."""

    def lmo(self, g: ArrayLike) -> Vector:
        """``argmin_{v in the set} <g, v>`` (exact, deterministic ties)."""
    def project(self, z: ArrayLike) -> Vector:
        """The Euclidean projection of ``z`` onto the set."""
    def contains(self, z: ArrayLike, tol: float = 1e-9) -> bool: ...
    @property
    def diameter(self) -> float: ...
    @property
    def dim(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def strong_convexity(self) -> Optional[float]: ...
    @property
    def spec(self) -> Dict[str, Any]:
        """The set in the problem-file notation, e.g. ``{"kind": "simplex", "scale": 1.0}``."""

class Problem:
    """A problem instance ``min_x max_y L(x, y)`` over ``X x Y`` with certified constants."""

    @staticmethod
    def generate(spec: str) -> "Problem":
        """The instance of a generator spec, e.g. ``"cosine/nc-c:dx=20,dy=10,seed=1"``."""
    @staticmethod
    def load(path: Union[str, "PathLike[str]"]) -> "Problem":
        """The instance of a JSON quadratic problem file (``saddlefw-quadratic-v1``)."""
    @staticmethod
    def open(arg: str) -> "Problem":
        """A problem file (existing path or ``.json`` name) or a generator spec."""
    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def dim_x(self) -> int: ...
    @property
    def dim_y(self) -> int: ...
    @property
    def x0(self) -> Vector: ...
    @property
    def y0(self) -> Vector: ...
    @property
    def constants(self) -> Dict[str, Optional[float]]:
        """``lxx, lyx, lyy, mu, alpha`` (None: Y not strongly convex), ``dx, dy`` (diameters)."""
    @property
    def setting(self) -> str: ...
    @property
    def f_star(self) -> Optional[Tuple[float, float]]:
        """``f* = min_x max_y L`` as a certified interval ``(lower, upper)``, when known."""
    @property
    def x_set(self) -> SetView: ...
    @property
    def y_set(self) -> SetView: ...
    def L(self, x: ArrayLike, y: ArrayLike) -> float: ...
    def grad_x(self, x: ArrayLike, y: ArrayLike) -> Vector: ...
    def grad_y(self, x: ArrayLike, y: ArrayLike) -> Vector: ...
    def grads(self, x: ArrayLike, y: ArrayLike) -> Tuple[Vector, Vector]: ...
    def quadratic(self) -> Optional[Dict[str, Any]]:
        """``A, B, C, a, c`` (arrays), ``x_set``, ``y_set`` (specs) of a quadratic instance."""
    def measures(
        self,
        x: ArrayLike,
        y: ArrayLike,
        beta: Optional[ArrayLike] = None,
        y0: Optional[ArrayLike] = None,
        sigma: float = 1.0,
    ) -> Dict[str, Any]:
        """The exact measures ``gx_lmo, gx_po, gy, gy_lmo, h, gap_opt, width`` of one point
        (1-D ``x``, ``y``: floats) or of a sequence (2-D, one point per row: arrays)."""

class Request(Problem):
    """One job of a rate check as the solver sees it (see the package's documentation)."""

    @property
    def job(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def spec(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def seed_index(self) -> int: ...
    @property
    def t_max(self) -> int: ...
    @property
    def t_last(self) -> int: ...
    @property
    def t(self) -> int:
        """The iteration the current ``step`` call performs (0 in ``__init__``)."""
    @property
    def entry(self) -> Dict[str, Any]: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def case_setting(self) -> str: ...
    @property
    def a(self) -> float: ...
    @property
    def b(self) -> float: ...
    @property
    def C(self) -> float: ...
    @property
    def tau(self) -> Vector:
        """``tau_t`` for ``t = 0..=t_last`` (read-only)."""
    @property
    def beta(self) -> Vector:
        """``beta_t`` for ``t = 0..=t_last`` (read-only)."""

class Outcome:
    @property
    def passed(self) -> bool: ...
    @property
    def solver(self) -> str: ...
    @property
    def source(self) -> str: ...
    def failures(self) -> List[Dict[str, Any]]: ...
    def reported(self) -> List[Dict[str, Any]]: ...
    def failure_message(self) -> Optional[str]: ...
    def report_json(self) -> str: ...
    def write(self, dir: Union[str, "PathLike[str]"]) -> Tuple[str, str]: ...
    @property
    def timing(self) -> Dict[str, float]: ...

def run_check(
    solver: Any,
    *,
    is_class: bool,
    name: str,
    builtin: Optional[str] = None,
    theorems: Optional[Union[str, "PathLike[str]"]] = None,
    filter: Optional[str] = None,
    tier: str = "quick",
    jobs: Optional[int] = None,
    hard: Optional[bool] = None,
    sizes: Optional[Tuple[int, int, int, int]] = None,
    progress: Optional[Callable[[int, int, int, float, bool], None]] = None,
    poll_s: float = 0.05,
    exportable_only: bool = False,
    resume: Optional[Outcome] = None,
) -> Outcome: ...
