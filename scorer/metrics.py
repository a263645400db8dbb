"""The metric registry: every metric declared once, its facts and its computation together.

A metric is one decorated function (``@metric(...)``, like inspect_ai's ``@metric`` factory): the
function is how one case-run (or, for a repeat metric, one case over its repeats) counts; the
declaration holds what every view needs: the key results.json and the rows use, the labels the
reports show, the direction and what the rate is over. ``scorer.summarize`` computes the rates (the
interval follows the level: clustered by case for case and call metrics, which is plain Wilson for
a case metric at K = 1, and plain Wilson for repeat metrics, one value per case;
METHOD.md#clustered-interval-rule), ``replay.rows`` the per-case-run columns, and every view
(terminal, markdown, CSV, HTML, the pytest plugin's bounds) reads names, labels and direction here.
Adding a metric is one declaration here plus its test (CONTRIBUTING.md, "Add a metric column").

Three levels: a ``case`` metric is a boolean per case-run (None where it does not apply or the
case-run is not scored); a ``call`` metric is a count of calls and its base per case-run; a
``repeat`` metric is a boolean per case over its scored repeats (None where it does not apply),
shown only when some model has K > 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from scorer import case_shape
from scorer.matching import same_names
from scorer.status import is_scored

if TYPE_CHECKING:
    from scorer.suite.model import Case

Level = Literal["case", "call", "repeat"]


@dataclass(frozen=True)
class StepRun:
    """A step the case-run reached: whether it passed and the tool names called at it."""

    passed: bool
    names: tuple[Any, ...]


@dataclass(frozen=True)
class CallRun:
    """One tool call of a case-run: its name was offered, its arguments valid (None: unknown)."""

    offered: bool | None
    schema_valid: bool | None


@dataclass(frozen=True)
class CaseRunView:
    """One case-run as a case or call metric sees it: the case, its status, the steps it reached
    (by index) and every tool call it made, in order."""

    case: Case
    status: str
    steps: Mapping[int, StepRun]
    calls: tuple[CallRun, ...]

    @property
    def scored(self) -> bool:
        """Passed or failed: only scored case-runs count towards a rate."""
        return is_scored(self.status)

    def passed(self, index: int) -> bool:
        """Step ``index`` was reached and passed."""
        step = self.steps.get(index)
        return step is not None and step.passed


@dataclass(frozen=True)
class Metric:
    """One metric's facts. ``label`` is the full name (HTML report, METHOD.md), ``short`` the
    markdown leaderboard's title, ``header`` the terminal table's header lines; ``drop_rank`` orders
    which columns a narrow terminal leaves out (highest first; None: never). ``over`` and ``counts``
    are its METHOD.md table row ("Over", "Passes when"; ``aka`` the name in brackets there).
    ``compute`` is the decorated function."""

    key: str
    level: Level
    label: str
    short: str
    header: tuple[str, ...]
    drop_rank: int | None
    over: str
    counts: str
    aka: str
    lower_is_better: bool
    shown: bool  # in the human tables (False: results.json and CSV only)
    compute: Callable[..., Any]

    @property
    def method_row(self) -> str:
        """Its line in METHOD.md's metrics table (repeat metrics have none)."""
        name = f"{self.label} ({self.aka})" if self.aka else self.label
        return f"| {name} | {self.over} | {self.counts} |"


REGISTRY: dict[str, Metric] = {}


def metric(
    key: str,
    *,
    level: Level,
    label: str,
    short: str = "",
    header: tuple[str, ...] = (),
    drop_rank: int | None,
    over: str = "",
    counts: str = "",
    aka: str = "",
    lower_is_better: bool = False,
    shown: bool = True,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as metric ``key`` (declaration order is every table's)."""

    def register(compute: Callable[..., Any]) -> Callable[..., Any]:
        if key in REGISTRY:
            raise ValueError(f"metric {key!r} declared twice")
        REGISTRY[key] = Metric(
            key=key,
            level=level,
            label=label,
            short=short or label,
            header=header or (short or label,),
            drop_rank=drop_rank,
            over=over,
            counts=counts,
            aka=aka,
            lower_is_better=lower_is_better,
            shown=shown,
            compute=compute,
        )
        return compute

    return register


@metric(
    "overall",
    level="case",
    label="Overall",
    drop_rank=None,
    over="every case",
    counts="every step of the case passes",
)
def overall(run: CaseRunView) -> bool | None:
    return run.status == "passed" if run.scored else None


@metric(
    "right_tool",
    level="case",
    label="Right tool",
    header=("Right", "tool"),
    drop_rank=6,
    over="cases with at least one call step",
    counts="at the case's first call step, the names called equal the names expected",
    aka="correct tool selection",
)
def right_tool(run: CaseRunView) -> bool | None:
    first = case_shape.first_call_step(run.case)
    if not run.scored or first is None:
        return None
    step = run.steps.get(first)
    expected = [c.name for c in run.case.steps[first].calls]
    return step is not None and same_names(step.names, expected)


@metric(
    "valid_arguments",
    level="call",
    label="Valid arguments",
    short="Valid args",
    header=("Valid", "args"),
    drop_rank=7,
    over="every call the model made to a tool the case offered",
    counts="the arguments parse as JSON and validate against the tool's schema; the runner never "
    "asks twice, so every call is a first try",
    aka="schema-valid on first try",
)
def valid_arguments(run: CaseRunView) -> tuple[int, int]:
    offered = [c for c in run.calls if c.offered is True]
    if not run.scored:
        return 0, 0
    return sum(1 for c in offered if c.schema_valid is True), len(offered)


@metric(
    "made_up_tool",
    level="call",
    label="Made-up tool",
    header=("Made-up", "tool"),
    drop_rank=8,
    over="every call the model made",
    counts="the name is not one of the case's offered tools (lower is better)",
    aka="hallucinated or unknown name",
    lower_is_better=True,
)
def made_up_tool(run: CaseRunView) -> tuple[int, int]:
    if not run.scored:
        return 0, 0
    return sum(1 for c in run.calls if c.offered is not True), len(run.calls)


@metric(
    "chains",
    level="case",
    label="Chains",
    drop_rank=11,
    over="cases with two or more steps",
    counts="every step passes",
    aka="multi-step success",
)
def chains(run: CaseRunView) -> bool | None:
    return run.status == "passed" if run.scored and case_shape.is_chain(run.case) else None


@metric(
    "parallel",
    level="case",
    label="Parallel",
    drop_rank=12,
    over="cases with a step expecting two or more calls",
    counts="that step passes, with all its calls in one response",
)
def parallel(run: CaseRunView) -> bool | None:
    steps = case_shape.parallel_steps(run.case)
    return all(run.passed(i) for i in steps) if run.scored and steps else None


@metric(
    "no_call_needed",
    level="case",
    label="No call needed",
    header=("No call", "needed"),
    drop_rank=13,
    over="cases whose first step expects no call",
    counts="the model made no call",
    aka="correct abstention",
)
def no_call_needed(run: CaseRunView) -> bool | None:
    return run.passed(0) if run.scored and case_shape.expects_no_call_first(run.case) else None


# Repeat metrics: ``(passed, scored)`` repeats of one case -> its value (None: it does not count).
@metric("pass_all_k", level="repeat", label="pass^k", drop_rank=2)
def pass_all_k(passed: int, scored: int) -> bool | None:
    return passed == scored if scored > 0 else None


@metric("pass_any_k", level="repeat", label="pass@k", drop_rank=None, shown=False)
def pass_any_k(passed: int, scored: int) -> bool | None:
    return passed > 0 if scored > 0 else None


@metric("flaky", level="repeat", label="Flaky", drop_rank=3, lower_is_better=True)
def flaky(passed: int, scored: int) -> bool | None:
    return 0 < passed < scored if scored >= 2 else None


def of_level(*levels: Level) -> tuple[Metric, ...]:
    """The metrics of these levels, in declaration order."""
    return tuple(m for m in REGISTRY.values() if m.level in levels)


METRICS = tuple(m.key for m in of_level("case", "call"))  # the rates every run has
CASE_METRICS = tuple(m.key for m in of_level("case"))  # a boolean per case-run
CALL_METRICS = tuple(m.key for m in of_level("call"))  # a count of calls and its base per case-run
REPEAT_METRICS = tuple(m.key for m in of_level("repeat"))  # only with K > 1
REPEAT_SHOWN = tuple(m.key for m in of_level("repeat") if m.shown)  # after Overall in the tables
LOWER_IS_BETTER = frozenset(m.key for m in REGISTRY.values() if m.lower_is_better)
RANK_METRIC = "overall"  # the leaderboards' order


def rank_key(rate: float | None, model: str) -> tuple[bool, float, str]:
    """The leaderboards' order: ``RANK_METRIC``'s rate descending, models without one last, ties by
    name."""
    return (rate is None, -(rate or 0.0), model)
