"""saddlefw for Python: gate your minimax solver against the theorems of *Projection-Free
Algorithms for Minimax Problems*, in process, from a test suite.

The harness owns the loop (as Rust's ``RateCheck``): for every job of the chosen theorem
entries (random instance families, cosine included, and the stored hard instances) it builds
your solver from a :class:`Request`, calls its ``step()`` for ``t = 0 .. t_last - 1``, reads
``x`` and ``y`` after every step and computes every measure itself (never a gap your code
reports), then fits the rates and applies ``saddlefw verify``'s gates.

>>> import saddlefw
>>> class FW:
...     def __init__(self, req):
...         self.req, self.x, self.y = req, req.x0, req.y0
...     def step(self):
...         ...                          # (x_t, y_t) -> (x_{t+1}, y_{t+1}), see README
>>> # saddlefw.RateCheck("lmo-lmo/", tier="quick").solver(FW).run().assert_passed()

Also here: :class:`Problem` (an instance with its exact oracles and the paper's measures of
points or sequences of points, for notebooks) and :func:`check` (one call).
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _native
from ._native import Problem, Request, SetView

__all__ = [
    "RateCheck",
    "check",
    "Outcome",
    "GateFailure",
    "GateFailedError",
    "Answer",
    "Answers",
    "QUESTIONS",
    "Problem",
    "Request",
    "SetView",
]
__version__ = _native.__version__

TIERS = ("test", "quick", "full")


def _checked_tier(tier: str) -> str:
    """``tier`` when it is one of :data:`TIERS`; ``ValueError`` at once otherwise (not at ``run``)."""
    if tier not in TIERS:
        raise ValueError(f"tier: expected one of {', '.join(TIERS)}, got {tier!r}")
    return tier


class GateFailedError(AssertionError):
    """Raised by :meth:`Outcome.assert_passed`: the message is Rust's ``assert_passed`` panic
    message (every failed gate, entry, instance and a reproducing call)."""


#: The three questions a verdict answers apart (the crate's ``verify::questions``), as
#: verify.json's ``answers`` names them: theorem conformance (``run``, ``envelope``,
#: ``schedule`` and their ``hard-`` twins: a failure is a proof), rate evidence (``rate``,
#: ``mhat``, ``hard-rate``: evidence at this horizon) and agreement with saddlefw's reference
#: exponents (``baseline``, ``hard-baseline``: gating only when asked).
QUESTIONS = ("conformance", "rate_evidence", "reference")


@dataclass(frozen=True)
class Answer:
    """One entry's answer to one of the three :data:`QUESTIONS`."""

    #: ``pass``, ``fail``, ``not_applicable`` (no gate of this question ran) or ``vacuous``
    #: (only gates that cannot fail ran)
    status: str
    #: whether a failure of this question fails the entry
    gating: bool
    failed: Tuple[str, ...]
    passed: Tuple[str, ...]
    vacuous: Tuple[str, ...]


@dataclass(frozen=True)
class Answers:
    """The three answers of one entry (verify.json's ``answers``)."""

    conformance: Answer
    rate_evidence: Answer
    reference: Answer

    @classmethod
    def from_report(cls, answers: Dict[str, Any]) -> "Answers":
        def one(a: Dict[str, Any]) -> Answer:
            return Answer(status=a["status"], gating=a["gating"], failed=tuple(a.get("failed", ())),
                          passed=tuple(a.get("passed", ())), vacuous=tuple(a.get("vacuous", ())))
        return cls(**{q: one(answers[q]) for q in QUESTIONS})


@dataclass(frozen=True)
class GateFailure:
    """One failed gate of one entry."""

    entry: str
    #: ``rate``, ``run``, ``envelope``, ``mhat``, ``baseline``, ``hard-rate``, ...
    gate: str
    #: the question the gate answers: ``conformance``, ``rate_evidence`` or ``reference``
    #: (:data:`QUESTIONS`)
    question: str
    #: what failed, with numbers
    detail: str
    #: specs of the instances involved (``saddlefw.Problem.open(spec)`` rebuilds a generated one)
    instances: Tuple[str, ...]
    #: a call that reruns the check of this entry
    reproduce: str
    #: the lines Rust's ``Display`` writes for this failure
    message: str

    def __str__(self) -> str:
        return self.message


def _flatten(prefix: str, value: Any, row: Dict[str, Any]) -> None:
    """Scalars as they are, lists of scalars joined, dicts one level down as ``key.sub``."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(v, (dict, list)) or (
                isinstance(v, list) and all(not isinstance(e, (dict, list)) for e in v)
            ):
                _flatten(f"{prefix}.{k}", v, row)
        return
    if isinstance(value, list):
        if all(not isinstance(e, (dict, list)) for e in value):
            row[prefix] = ", ".join(str(e) for e in value) if value and isinstance(value[0], str) else (
                value if value else ""
            )
        return
    row[prefix] = value


class Outcome:
    """The result of a :class:`RateCheck`: the same report ``saddlefw verify`` writes as
    verify.json, as Python objects.

    * ``passed``, ``failures`` (:class:`GateFailure` objects), ``assert_passed()``;
    * ``answers``: per entry, the three questions answered apart (:class:`Answers`:
      conformance, rate evidence, reference agreement), and ``reported``: failed gates that
      are reported but do not fail their entry;
    * ``interrupted``: None, or how far an interrupted check got (the outcome attached to its
      exception as ``saddlefw_outcome``; :meth:`RateCheck.resume` continues it);
    * ``report``: verify.json as a dict, every field the crate writes (new fields of the crate,
      e.g. further kinds of verdict, appear here without a change of this package);
    * ``rows()`` / ``to_pandas()``: one row per entry (its scalar fields, lists of names joined,
      nested records one level down as ``key.sub``);
    * ``write(dir)``: verify.json and index.html, as ``saddlefw verify --out dir``;
    * ``timing``: calls of your ``step`` and the seconds inside it, inside the binding's step
      and in the whole check.
    """

    def __init__(self, native: "_native.Outcome") -> None:
        self._native = native
        self._report: Optional[Dict[str, Any]] = None

    @property
    def passed(self) -> bool:
        """True when no entry failed a gate and every job ran (not :attr:`interrupted`)."""
        return self._native.passed

    @property
    def interrupted(self) -> Optional[Dict[str, Any]]:
        """None, or ``{"signal", "done", "total"}`` for a check stopped by an exception (e.g.
        ``KeyboardInterrupt``: ``signal`` names it) after ``done`` of ``total`` jobs. Its
        verdicts are partial; :meth:`RateCheck.resume` reruns only the other jobs."""
        return self.report.get("interrupted")

    @property
    def solver(self) -> str:
        return self._native.solver

    @property
    def source(self) -> str:
        """Where the entries come from (the built-in table, or a theorem file's path)."""
        return self._native.source

    @staticmethod
    def _failures(dicts: List[Dict[str, Any]]) -> List[GateFailure]:
        return [
            GateFailure(
                entry=f["entry"],
                gate=f["gate"],
                question=f["question"],
                detail=f["detail"],
                instances=tuple(f["instances"]),
                reproduce=f["reproduce"],
                message=f["message"],
            )
            for f in dicts
        ]

    @property
    def failures(self) -> List[GateFailure]:
        """Every failed gate that fails its entry, entry by entry."""
        return self._failures(self._native.failures())

    @property
    def reported(self) -> List[GateFailure]:
        """Failed gates that are reported but do not fail their entry (verify.json's
        ``reported_gates``: the reference question where it does not gate, ``hard-mhat``)."""
        return self._failures(self._native.reported())

    @property
    def answers(self) -> Dict[str, Answers]:
        """Per entry id, the three questions answered apart (:class:`Answers`)."""
        return {e["id"]: Answers.from_report(e["answers"]) for e in self.entries if e.get("answers")}

    @property
    def report(self) -> Dict[str, Any]:
        """verify.json as a dict (``tier``, ``t_max``, ``failed``, ``summary``, ``entries``, ...)."""
        if self._report is None:
            self._report = json.loads(self._native.report_json())
        return self._report

    @property
    def entries(self) -> List[Dict[str, Any]]:
        """The report's entries (dicts, as in verify.json)."""
        return self.report["entries"]

    @property
    def timing(self) -> Dict[str, float]:
        return dict(self._native.timing)

    def failure_message(self) -> Optional[str]:
        """The message :meth:`assert_passed` raises (None when every gate passed)."""
        return self._native.failure_message()

    def assert_passed(self) -> None:
        """Raises :class:`GateFailedError` (an ``AssertionError``) naming every failed gate,
        entry, instance and a reproducing call, unless every gate passed. The message is the
        one Rust's ``Outcome::assert_passed`` panics with."""
        msg = self.failure_message()
        if msg is not None:
            raise GateFailedError(msg)

    def rows(self) -> List[Dict[str, Any]]:
        """One plain dict per entry: its scalar fields (``id``, ``verdict``, ``p``, ``p_hat``,
        ``tol``, ...), ``failed_gates`` and ``reported_gates`` joined, the status of each of
        the three :data:`QUESTIONS` (columns ``conformance``, ``rate_evidence``,
        ``reference``), and nested records flattened one level (``ci``, ``window``,
        ``families`` and ``instances`` are left to :attr:`entries`)."""
        out = []
        for e in self.entries:
            row: Dict[str, Any] = {}
            for q in QUESTIONS:
                row[q] = e.get("answers", {}).get(q, {}).get("status")
            for k, v in e.items():
                if k in ("instances", "families", "answers"):
                    continue
                if isinstance(v, dict):
                    _flatten(k, v, row)
                elif isinstance(v, list):
                    if all(not isinstance(x, (dict, list)) for x in v):
                        row[k] = ", ".join(map(str, v)) if k.endswith("gates") else v
                else:
                    row[k] = v
            out.append(row)
        return out

    def to_pandas(self):
        """:meth:`rows` as a ``pandas.DataFrame`` indexed by entry id (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Outcome.to_pandas() needs pandas (pip install pandas); "
                              "Outcome.rows() gives the same table as dicts") from e
        return pd.DataFrame(self.rows()).set_index("id")

    def write(self, dir: Union[str, "os.PathLike[str]"]) -> Tuple[str, str]:
        """Writes ``dir/verify.json`` and ``dir/index.html``; returns their paths."""
        return self._native.write(os.fspath(dir))

    def __repr__(self) -> str:
        s = self.report.get("summary", {})
        counts = ", ".join(f"{v} {k}" for k, v in s.items() if v)
        i = self.interrupted
        state = (f"INTERRUPTED after {i['done']} of {i['total']} jobs" if i
                 else "passed" if self.passed else "FAILED")
        return f"<saddlefw.Outcome {state}: {counts} ({self.source})>"


class _Progress:
    """A one-line progress display on stderr (jobs done, steps, elapsed)."""

    def __init__(self, stream=None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = 0

    def __call__(self, done: int, total: int, steps: int, seconds: float, last: bool) -> None:
        line = f"saddlefw: {done}/{total} jobs (+ hard instances), {steps:,} steps, {seconds:.0f} s"
        pad = " " * max(0, self.width - len(line))
        self.width = len(line)
        self.stream.write("\r" + line + pad + ("\n" if last else ""))
        self.stream.flush()


def _progress_callback(progress: Any) -> Optional[Callable[..., None]]:
    if progress is None:
        progress = sys.stderr is not None and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    if progress is False:
        return None
    if progress is True:
        return _Progress()
    if callable(progress):
        return progress
    raise ValueError(f"progress: expected None, True, False or a callable, got {progress!r}")


class RateCheck:
    """A rate check of your solver against theorem entries (built-in or your own).

    ``RateCheck(entries)`` selects the built-in entries whose id contains ``entries`` (``""``:
    all 38; ``"lmo-lmo/"``: Algorithm 1's); ``RateCheck(theorems="my.json")`` the entries of a
    theorem file (format ``saddlefw-theorems`` v1). Chain the settings, then :meth:`run`::

        outcome = (saddlefw.RateCheck("lmo-lmo/", tier="quick")
                   .solver(MyFW)          # a class: __init__(self, request), step(self), x, y
                   .run())
        outcome.assert_passed()

    ``tier``: ``"quick"`` (4 seeds per family, T_max = 2^14, with the stored hard
    instances), ``"full"`` (8 seeds, 2^16) or ``"test"`` (small, no hard instances).
    """

    def __init__(self, entries: str = "", *, theorems: Optional[Union[str, "os.PathLike[str]"]] = None,
                 tier: str = "quick") -> None:
        self._builtin = None if theorems is not None else entries
        self._theorems = os.fspath(theorems) if theorems is not None else None
        self._filter = entries if theorems is not None and entries else None
        self._tier = _checked_tier(tier)
        self._solver: Any = None
        self._is_class = True
        self._name: Optional[str] = None
        self._jobs: Optional[int] = None
        self._hard: Optional[bool] = None
        self._sizes: Optional[Tuple[int, int, int, int]] = None
        self._progress: Any = None
        self._exportable_only = False
        self._resume: Optional[Outcome] = None

    @classmethod
    def builtin(cls, entries: str = "", *, tier: str = "quick") -> "RateCheck":
        """The built-in entries whose id contains ``entries``."""
        return cls(entries, tier=tier)

    @classmethod
    def theorems_file(cls, path: Union[str, "os.PathLike[str]"], *, tier: str = "quick") -> "RateCheck":
        """The entries of a theorem file (``saddlefw-theorems`` v1)."""
        return cls(theorems=path, tier=tier)

    def filter(self, entries: str) -> "RateCheck":
        """Keeps the entries whose id contains ``entries``."""
        if self._theorems is None:
            self._builtin = entries
        else:
            self._filter = entries
        return self

    def tier(self, tier: str) -> "RateCheck":
        """``"test"``, ``"quick"`` or ``"full"``: seeds, horizon, dimensions, hard instances."""
        self._tier = _checked_tier(tier)
        return self

    def sizes(self, seeds: int, t_max: int, dim_x: int, dim_y: int) -> "RateCheck":
        """Overrides the tier's seeds per family, horizon T_max and dimensions."""
        self._sizes = (int(seeds), int(t_max), int(dim_x), int(dim_y))
        return self

    def hard_instances(self, on: bool) -> "RateCheck":
        """Whether the stored hardest instances run (default: in the quick and full tiers)."""
        self._hard = bool(on)
        return self

    def jobs(self, n: int) -> "RateCheck":
        """Worker threads (default: one per core). Your ``step`` runs under the GIL, the
        harness's measures do not, so two workers are faster than one on two cores."""
        self._jobs = int(n)
        return self

    def progress(self, progress: Any) -> "RateCheck":
        """``True``: a one-line progress display on stderr; ``False``: none; ``None`` (the
        default): only when stderr is a terminal; a callable
        ``f(done, total, steps, seconds, last)`` is called about four times a second."""
        self._progress = progress
        return self

    def exportable_only(self, on: bool = True) -> "RateCheck":
        """Runs only the jobs ``saddlefw export`` writes (no cosine instances): the job list of
        the file route (``export`` + ``verify-iterates``), to compare both routes."""
        self._exportable_only = bool(on)
        return self

    def resume(self, outcome: "Outcome") -> "RateCheck":
        """Continues an interrupted check: ``outcome`` is the partial :class:`Outcome` attached
        to the exception that stopped it (``KeyboardInterrupt``, or your solver's), as
        ``exc.saddlefw_outcome``. Its finished jobs are reused and only the others run; the
        result equals an uninterrupted check's apart from timings. :meth:`run` raises
        ``ValueError`` when the settings (tier, sizes, entries, solver name) differ."""
        if not isinstance(outcome, Outcome):
            raise TypeError(f"resume: expected a saddlefw.Outcome, got {outcome!r}")
        self._resume = outcome
        return self

    def solver(self, solver: Any, name: Optional[str] = None) -> "RateCheck":
        """The solver under verification: a class (``__init__(self, request)``, ``step(self)``,
        attributes ``x`` and ``y``: 1-D float arrays) or a step function (see
        :meth:`step_fn`). ``name`` defaults to the class's or function's name."""
        if solver is None or not callable(solver):
            raise TypeError(f"solver: expected a class or a step function, got {solver!r}")
        self._solver = solver
        self._is_class = inspect.isclass(solver)
        self._name = name or getattr(solver, "__name__", type(solver).__name__)
        return self

    def step_fn(self, step: Callable[..., Any], name: Optional[str] = None) -> "RateCheck":
        """The solver as a step function ``step(request, x, y)``: performs iteration
        ``request.t`` on the iterate arrays ``x``, ``y`` in place (or returns the new pair
        ``(x, y)``); the harness sets them to the start point first."""
        if not callable(step):
            raise TypeError(f"step_fn: expected a callable, got {step!r}")
        self._solver = step
        self._is_class = False
        self._name = name or getattr(step, "__name__", "step")
        return self

    def run(self) -> Outcome:
        """Runs every job and judges every selected entry.

        Raises the exception your solver raised (with a note naming the job and instance,
        and the job as its ``saddlefw_job`` attribute), ``KeyboardInterrupt`` on Ctrl-C (at the
        next step), ``ValueError`` with saddlefw's one-line message ``INPUT: LOCATION: REASON``
        on a bad input (a theorem file that is missing or malformed, a tier, an iterate of the
        wrong length, not at the start point or outside X x Y), ``OSError`` when writing fails.

        Finished work is kept: the exception of a stopped check (Ctrl-C, or your solver's)
        carries the jobs finished before it as ``exc.saddlefw_outcome``, an :class:`Outcome`
        whose :attr:`Outcome.interrupted` says how far it got; pass it to :meth:`resume` to
        run only the rest. The jobs in flight when it stopped are not kept.
        """
        if self._solver is None:
            raise ValueError("no solver: call .solver(YourClass) or .step_fn(f) before .run()")
        if self._tier not in TIERS:
            raise ValueError(f"tier: expected one of {', '.join(TIERS)}, got {self._tier!r}")
        try:
            native = self._run_native()
        except BaseException as e:
            partial = getattr(e, "saddlefw_outcome", None)
            if isinstance(partial, _native.Outcome):
                e.saddlefw_outcome = Outcome(partial)
            raise
        return Outcome(native)

    def _run_native(self) -> "_native.Outcome":
        return _native.run_check(
            self._solver,
            is_class=self._is_class,
            name=self._name,
            builtin=self._builtin,
            theorems=self._theorems,
            filter=self._filter,
            tier=self._tier,
            jobs=self._jobs,
            hard=self._hard,
            sizes=self._sizes,
            progress=_progress_callback(self._progress),
            exportable_only=self._exportable_only,
            resume=self._resume._native if self._resume is not None else None,
        )


def check(entries: str, solver: Any, *, tier: str = "quick", theorems: Optional[str] = None,
          progress: Any = None, jobs: Optional[int] = None) -> Outcome:
    """One call: ``RateCheck(entries, theorems=theorems, tier=tier).solver(solver).run()``."""
    c = RateCheck(entries, theorems=theorems, tier=tier).solver(solver).progress(progress)
    if jobs is not None:
        c.jobs(jobs)
    return c.run()
