"""Compare two runs (results.json files or report dirs) model by model, case by case.

``load_run`` is the I/O edge; ``compare``, ``decide`` and ``format_text`` are pure. Cases are paired by
id; a pair needs a scored status (passed/failed) in both runs, anything else is listed as unpaired.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.results_file import read_results
from scorer.errors import ResultsError
from scorer.metrics import METRICS
from scorer.paired import mcnemar_exact

SCORED = frozenset({"passed", "failed"})


@dataclass(frozen=True)
class SuiteRef:
    """The suite a results file was scored with."""

    name: str
    version: str
    sha256: str | None


@dataclass(frozen=True)
class CaseOutcome:
    """One case id seen in A and/or B; a status of ``None`` means the case is absent from that run."""

    case_id: str
    group: str | None
    status_a: str | None
    status_b: str | None
    reason_a: str | None
    reason_b: str | None

    @property
    def paired(self) -> bool:
        """Both runs scored the case (passed or failed), so it counts in the paired test."""
        return self.status_a in SCORED and self.status_b in SCORED

    @property
    def kind(self) -> str:
        """``to_failed``, ``to_passed``, ``same`` (paired, unchanged) or ``unpaired``."""
        if not self.paired:
            return "unpaired"
        if self.status_a == self.status_b:
            return "same"
        return "to_failed" if self.status_b == "failed" else "to_passed"


@dataclass(frozen=True)
class MetricDelta:
    """One metric in A and B as written by the scorer (rates in percent, Wilson 95% intervals)."""

    name: str
    a_rate: float | None
    b_rate: float | None
    delta: float | None  # b_rate - a_rate in percentage points; None when either side has no rate
    a_ci: tuple[float, float] | None
    b_ci: tuple[float, float] | None


@dataclass(frozen=True)
class ModelDiff:
    """Everything that changed for one model between run A and run B."""

    model: str
    suite_a: SuiteRef
    suite_b: SuiteRef
    cases: tuple[CaseOutcome, ...]  # B's order, then the cases only A has in A's order
    to_failed: tuple[CaseOutcome, ...]
    to_passed: tuple[CaseOutcome, ...]
    unpaired: tuple[CaseOutcome, ...]
    both_passed: int
    both_failed: int
    metrics: tuple[MetricDelta, ...]  # the seven metrics, in METRICS order
    mcnemar_p: float

    @property
    def pairs(self) -> int:
        """How many cases were scored in both runs."""
        return self.both_passed + self.both_failed + len(self.to_failed) + len(self.to_passed)

    @property
    def suite_mismatch(self) -> bool:
        """A and B were scored with different suites (name or version): scores are not comparable."""
        return (self.suite_a.name, self.suite_a.version) != (self.suite_b.name, self.suite_b.version)

    @property
    def sha_mismatch(self) -> bool:
        """Same name and version but different suite file bytes (edited without a version bump)."""
        a, b = self.suite_a.sha256, self.suite_b.sha256
        return not self.suite_mismatch and a is not None and b is not None and a != b

    def metric(self, name: str) -> MetricDelta:
        """The delta of metric ``name``."""
        return next(m for m in self.metrics if m.name == name)


@dataclass(frozen=True)
class RunDiff:
    """The comparison of two runs: one ModelDiff per model present in both, sorted by model name."""

    models: tuple[ModelDiff, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    """The regression verdict and the one line that explains it."""

    regression: bool
    line: str


# --- loading (the I/O edge) -------------------------------------------------------------------------


def load_run(path: Path) -> dict[str, dict[str, Any]]:
    """Read a run: a results.json file, a model report dir holding one, or a reports dir of model dirs.

    Returns model name -> results dict. Raises ResultsError naming the file for anything unreadable.
    """
    if path.is_file():
        files = [path]
    elif path.is_dir():
        direct = path / "results.json"
        files = [direct] if direct.is_file() else sorted(path.glob("*/results.json"))
        if not files:
            raise ResultsError(f"{path}: no results.json in this directory or its model directories")
    else:
        raise ResultsError(f"{path}: no such file or directory")
    run: dict[str, dict[str, Any]] = {}
    for file in files:
        results = read_results(file)
        model = results["model"]
        if model in run:
            raise ResultsError(f"{file}: model {model!r} appears twice in {path}")
        run[model] = results
    return dict(sorted(run.items()))


# --- comparing (pure) -------------------------------------------------------------------------------


def compare(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]) -> RunDiff:
    """Compare two runs (model -> results dict, as from ``load_run``), matching models by name.

    Two runs of one model each, under different names, are compared with each other: that is how a model change
    (the same suite, another model) is gated.
    """
    if len(a) == 1 and len(b) == 1 and set(a) != set(b):
        return RunDiff(models=(compare_model(*a.values(), *b.values()),), only_a=(), only_b=())
    common = sorted(set(a) & set(b))
    return RunDiff(
        models=tuple(compare_model(a[m], b[m]) for m in common),
        only_a=tuple(sorted(set(a) - set(b))),
        only_b=tuple(sorted(set(b) - set(a))),
    )


def compare_model(a: dict[str, Any], b: dict[str, Any]) -> ModelDiff:
    """Compare one model's results in run A and run B."""
    by_id_a = {r["id"]: r for r in a["results"]}
    by_id_b = {r["id"]: r for r in b["results"]}
    order = [r["id"] for r in b["results"]] + [r["id"] for r in a["results"] if r["id"] not in by_id_b]
    cases = tuple(_outcome(cid, by_id_a.get(cid), by_id_b.get(cid)) for cid in order)
    to_failed = tuple(c for c in cases if c.kind == "to_failed")
    to_passed = tuple(c for c in cases if c.kind == "to_passed")
    return ModelDiff(
        model=b["model"] if a["model"] == b["model"] else f"{a['model']} -> {b['model']}",
        suite_a=_suite_ref(a),
        suite_b=_suite_ref(b),
        cases=cases,
        to_failed=to_failed,
        to_passed=to_passed,
        unpaired=tuple(c for c in cases if c.kind == "unpaired"),
        both_passed=sum(1 for c in cases if c.kind == "same" and c.status_b == "passed"),
        both_failed=sum(1 for c in cases if c.kind == "same" and c.status_b == "failed"),
        metrics=tuple(_metric_delta(name, a["metrics"][name], b["metrics"][name]) for name in METRICS),
        mcnemar_p=mcnemar_exact(len(to_failed), len(to_passed)),
    )


def _outcome(case_id: str, ra: dict[str, Any] | None, rb: dict[str, Any] | None) -> CaseOutcome:
    group = (rb or ra or {}).get("group")
    return CaseOutcome(
        case_id=case_id,
        group=group if isinstance(group, str) else None,
        status_a=ra["status"] if ra else None,
        status_b=rb["status"] if rb else None,
        reason_a=_reason(ra),
        reason_b=_reason(rb),
    )


def _reason(result: dict[str, Any] | None) -> str | None:
    """The result's ``reason``; for contract-minimal files without it, the first failing step's reason."""
    if result is None or result["status"] == "passed":
        return None
    reason = result.get("reason")
    if isinstance(reason, str):
        return reason
    for i, step in enumerate(result.get("steps") or []):
        if isinstance(step, dict) and step.get("passed") is False and isinstance(step.get("reason"), str):
            return f"step {i + 1}: {step['reason']}"
    return None


def _suite_ref(results: dict[str, Any]) -> SuiteRef:
    suite = results["suite"]
    name, sha = suite.get("name"), suite.get("sha256")
    return SuiteRef(
        name=name if isinstance(name, str) else "?",
        version=suite["version"],
        sha256=sha if isinstance(sha, str) else None,
    )


def _metric_delta(name: str, ma: dict[str, Any], mb: dict[str, Any]) -> MetricDelta:
    a_rate, b_rate = _number(ma.get("rate")), _number(mb.get("rate"))
    return MetricDelta(
        name=name,
        a_rate=a_rate,
        b_rate=b_rate,
        delta=None if a_rate is None or b_rate is None else b_rate - a_rate,
        a_ci=_ci(ma.get("ci")),
        b_ci=_ci(mb.get("ci")),
    )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _ci(value: Any) -> tuple[float, float] | None:
    if isinstance(value, list) and len(value) == 2:
        lo, hi = _number(value[0]), _number(value[1])
        if lo is not None and hi is not None:
            return (lo, hi)
    return None


# --- deciding and printing (pure) ---------------------------------------------------------------------


def decide(diff: RunDiff, max_drop: float | None = None) -> Decision:
    """Is B a regression of A?

    Without ``max_drop``: any paired case that went passed->failed. With ``max_drop`` (percentage points):
    Overall fell by more than that for some model, or B has no Overall rate where A had one; flips within
    the tolerance are reported but do not count, because runs at temperature 0 differ by a case or two.
    """
    flipped = [m for m in diff.models if m.to_failed]
    flip_count = sum(len(m.to_failed) for m in flipped)
    flip_text = ""
    if flip_count:
        listing = "; ".join(f"{m.model}: {_ids(m.to_failed)}" for m in flipped)
        flip_text = f"{flip_count} {'case' if flip_count == 1 else 'cases'} flipped to failed ({listing})"
    if max_drop is None:
        return Decision(True, f"regression: {flip_text}") if flip_count else Decision(False, "no regression")

    dropped: list[str] = []
    for m in diff.models:
        overall = m.metric("overall")
        if overall.a_rate is None:
            continue
        if overall.b_rate is None:
            dropped.append(f"{m.model}: {_rate(overall.a_rate)} -> no rate")
        elif overall.a_rate - overall.b_rate > max_drop:
            dropped.append(f"{m.model}: {_rate(overall.a_rate)} -> {_rate(overall.b_rate)}")
    limit = f"--max-drop {_points(max_drop)}"
    if dropped:
        return Decision(True, f"regression: Overall dropped more than {limit} ({'; '.join(dropped)})")
    tail = f"; {flip_text}" if flip_text else ""
    return Decision(False, f"no regression: Overall within {limit}{tail}")


def _ids(cases: tuple[CaseOutcome, ...], limit: int = 10) -> str:
    # The full list is printed above the verdict; the verdict line stays readable in a CI log.
    shown = ", ".join(c.case_id for c in cases[:limit])
    return shown + (f", +{len(cases) - limit} more" if len(cases) > limit else "")


def format_text(diff: RunDiff) -> str:
    """The terminal report of a RunDiff: plain text, one block per model, stable line order."""
    lines: list[str] = []
    for m in diff.models:
        lines.extend(_model_block(m))
        lines.append("")
    if diff.only_a:
        lines.append(f"models only in A: {', '.join(diff.only_a)}")
    if diff.only_b:
        lines.append(f"models only in B: {', '.join(diff.only_b)}")
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def _model_block(m: ModelDiff) -> list[str]:
    a, b = m.suite_a, m.suite_b
    suites = f"{a.name} {a.version}"
    if m.suite_mismatch:
        suites += f" -> {b.name} {b.version}"
    lines = [f"model {m.model} (suite {suites})"]
    if m.suite_mismatch:
        lines.append("  warning: different suite versions; scores are not comparable")
    if m.sha_mismatch:
        lines.append("  warning: same suite version but different suite sha256")
    lines.append(
        f"  paired cases: {m.pairs} (both passed {m.both_passed}, both failed {m.both_failed}, "
        f"passed->failed {len(m.to_failed)}, failed->passed {len(m.to_passed)})"
    )
    lines.append(f"  McNemar exact p = {m.mcnemar_p:.4g} on {len(m.to_failed) + len(m.to_passed)} discordant pairs")
    for title, rows in (("passed -> failed", m.to_failed), ("failed -> passed", m.to_passed)):
        if rows:
            lines.append(f"  {title} ({len(rows)}):")
            lines.extend(f"    {c.case_id}: {c.reason_b if c.status_b == 'failed' else c.reason_a}" for c in rows)
    if m.unpaired:
        lines.append(f"  not paired ({len(m.unpaired)}):")
        lines.extend(f"    {c.case_id}: A {_status(c, 'a')}, B {_status(c, 'b')}" for c in m.unpaired)
    lines.append("  metric            A                        B                        B - A")
    for d in m.metrics:
        a_text, b_text = _rate_ci(d.a_rate, d.a_ci), _rate_ci(d.b_rate, d.b_ci)
        lines.append(f"  {d.name:<17} {a_text:<24} {b_text:<24} {_delta(d.delta)}")
    return lines


def _status(c: CaseOutcome, side: str) -> str:
    status, reason = (c.status_a, c.reason_a) if side == "a" else (c.status_b, c.reason_b)
    if status is None:
        return "absent"
    return f"{status} ({reason})" if reason else status


def _rate(rate: float) -> str:
    return f"{rate:.2f}"


def _points(value: float) -> str:
    return f"{value:g}"


def _rate_ci(rate: float | None, ci: tuple[float, float] | None) -> str:
    if rate is None:
        return "-"
    return f"{rate:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else f"{rate:.2f}"


def _delta(delta: float | None) -> str:
    return "-" if delta is None else f"{delta:+.2f}"
