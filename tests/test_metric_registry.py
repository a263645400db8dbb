"""The metric registry: its facts match the docs; its computations count hand-built case-runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorer.metrics import (
    CALL_METRICS,
    CASE_METRICS,
    LOWER_IS_BETTER,
    METRICS,
    REGISTRY,
    REPEAT_METRICS,
    CallRun,
    CaseRunView,
    Metric,
    StepRun,
    metric,
    of_level,
    rank_key,
)
from tests.suitekit import case, make_suite

DOCS = Path(__file__).resolve().parent.parent / "docs"
OSLO = {
    "name": "get_weather",
    "args": {"city": {"eq": "Oslo"}},
    "reference": {"city": "Oslo"},
    "result": "3C",
}
LIMA = {
    "name": "get_weather",
    "args": {"city": {"eq": "Lima"}},
    "reference": {"city": "Lima"},
    "result": "20C",
}
SUITE = make_suite(
    [
        case("selection-01", [{"expect": "call", "calls": [OSLO]}], tools=["get_weather"]),
        case("no_call-01", [{"expect": "none"}], group="no_call", tools=["get_weather"]),
        case(
            "parallel-01",
            [{"expect": "call", "calls": [OSLO, LIMA]}],
            group="parallel",
            tools=["get_weather"],
        ),
        case(
            "chains-01",
            [{"expect": "call", "calls": [OSLO]}, {"expect": "call", "calls": [LIMA]}],
            group="chains",
            tools=["get_weather"],
        ),
    ]
)
CASES = {c.id: c for c in SUITE.cases}


def _table(path: Path, heading: str) -> list[str]:
    """The rows of the first table after ``heading``, without its header and rule."""
    text = path.read_text(encoding="utf-8")
    rest = text[text.index(heading) :].splitlines()
    start = next(i for i, line in enumerate(rest) if line.startswith("|"))
    rows = []
    for line in rest[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_method_table_is_the_registry() -> None:
    """METHOD.md's metrics table has one row per rate, in the registry's order, with its facts."""
    rows = _table(DOCS / "METHOD.md", "## The metrics")
    assert rows == [REGISTRY[k].method_row for k in METRICS]


def test_formats_rows_columns_are_the_registry() -> None:
    """The rows table of FORMATS.md names the case and call metric columns the registry has."""
    text = (DOCS / "FORMATS.md").read_text(encoding="utf-8")
    case_line = next(line for line in text.splitlines() if "| bool | the case's verdict" in line)
    call_line = next(line for line in text.splitlines() if "per-call metrics" in line)
    assert re.findall(r"`(\w+)`", case_line.split("|")[1]) == list(CASE_METRICS)
    assert re.findall(r"`(\w+)`", call_line.split("|")[1]) == [
        f"{m}{end}" for m in CALL_METRICS for end in ("", "_of")
    ]


def test_levels_and_directions() -> None:
    assert METRICS == (
        "overall",
        "right_tool",
        "valid_arguments",
        "made_up_tool",
        "chains",
        "parallel",
        "no_call_needed",
    )
    assert REPEAT_METRICS == ("pass_all_k", "pass_any_k", "flaky")
    assert {"made_up_tool", "flaky"} == LOWER_IS_BETTER


def _run(case_id: str, status: str, steps: dict[int, tuple[bool, tuple[str, ...]]], calls=()):
    return CaseRunView(
        CASES[case_id],
        status,
        {i: StepRun(passed, names) for i, (passed, names) in steps.items()},
        tuple(CallRun(offered, valid) for offered, valid in calls),
    )


CASE_TABLE = [
    # (case, status, steps reached, the case metrics' values by hand)
    (
        "selection-01",
        "passed",
        {0: (True, ("get_weather",))},
        {"overall": True, "right_tool": True, "chains": None, "parallel": None},
    ),
    (
        "selection-01",
        "failed",
        {0: (False, ("read_file",))},
        {"overall": False, "right_tool": False, "no_call_needed": None},
    ),
    ("selection-01", "errored", {}, {"overall": None, "right_tool": None}),
    (
        "parallel-01",
        "failed",
        {0: (False, ("get_weather", "get_weather"))},
        {"right_tool": True, "parallel": False, "chains": None},
    ),
    ("no_call-01", "passed", {0: (True, ())}, {"no_call_needed": True, "right_tool": None}),
    ("no_call-01", "failed", {0: (False, ("get_weather",))}, {"no_call_needed": False}),
    ("chains-01", "failed", {0: (True, ("get_weather",))}, {"chains": False, "right_tool": True}),
    ("chains-01", "passed", {0: (True, ()), 1: (True, ())}, {"chains": True, "parallel": None}),
]


@pytest.mark.parametrize(
    ("case_id", "status", "steps", "want"),
    CASE_TABLE,
    ids=[f"{c}-{s}-{i}" for i, (c, s, _, _) in enumerate(CASE_TABLE)],
)
def test_case_metrics(case_id: str, status: str, steps: dict, want: dict) -> None:
    run = _run(case_id, status, steps)
    assert {k: REGISTRY[k].compute(run) for k in want} == want


def test_call_metrics_count_calls_of_scored_runs() -> None:
    calls = [(True, True), (True, False), (False, None), (None, None)]
    run = _run("selection-01", "failed", {0: (False, ("get_weather",))}, calls)
    assert REGISTRY["valid_arguments"].compute(run) == (1, 2)
    assert REGISTRY["made_up_tool"].compute(run) == (2, 4)
    errored = _run("selection-01", "errored", {}, calls)
    assert REGISTRY["valid_arguments"].compute(errored) == (0, 0)
    assert REGISTRY["made_up_tool"].compute(errored) == (0, 0)


@pytest.mark.parametrize(
    ("passed", "scored", "want"),
    [
        (0, 0, (None, None, None)),
        (1, 1, (True, True, None)),
        (2, 3, (False, True, True)),
        (0, 2, (False, False, False)),
        (3, 3, (True, True, False)),
    ],
)
def test_repeat_metrics(passed: int, scored: int, want: tuple) -> None:
    assert tuple(REGISTRY[k].compute(passed, scored) for k in REPEAT_METRICS) == want


def test_rank_order() -> None:
    models = [("b", 50.0), ("a", None), ("c", 75.0), ("a2", 50.0)]
    assert [m for m, _ in sorted(models, key=lambda x: rank_key(x[1], x[0]))] == [
        "c",
        "a2",
        "b",
        "a",
    ]


def test_rank_key_of_rates() -> None:
    # Rate descending (negated), then the name; 0.0 is a rate like any other.
    assert rank_key(75.0, "c") == (False, -75.0, "c")
    assert rank_key(0.0, "z") == (False, 0.0, "z")
    assert sorted([rank_key(0.0, "z"), rank_key(0.5, "y")]) == [
        (False, -0.5, "y"),
        (False, 0.0, "z"),
    ]


def test_rank_key_without_a_rate() -> None:
    assert rank_key(None, "a") == (True, 0.0, "a")


def test_of_level_in_declaration_order() -> None:
    assert [m.key for m in of_level("repeat")] == ["pass_all_k", "pass_any_k", "flaky"]
    assert [m.key for m in of_level("call", "case")] == [
        "overall", "right_tool", "valid_arguments", "made_up_tool", "chains", "parallel",
        "no_call_needed",
    ]  # fmt: skip
    assert of_level() == ()


def _declared(key: str, **facts: object) -> Metric:
    """Declare metric ``key`` for the test, read its registry entry back, and remove it."""

    def compute(run: CaseRunView) -> None:
        return None

    try:
        assert metric(key, **facts)(compute) is compute
        found = REGISTRY[key]
    finally:
        REGISTRY.pop(key, None)
    assert isinstance(found, Metric) and found.compute is compute
    return found


def test_a_declaration_with_its_defaults() -> None:
    found = _declared("zz_defaults", level="case", label="Zed", drop_rank=None)
    assert (found.key, found.level, found.label, found.short, found.header) == (
        "zz_defaults", "case", "Zed", "Zed", ("Zed",),
    )  # fmt: skip
    assert (found.drop_rank, found.over, found.counts, found.aka) == (None, "", "", "")
    assert (found.lower_is_better, found.shown) == (False, True)
    short = _declared("zz_short", level="call", label="Zed long", short="Zed", drop_rank=3)
    assert (short.level, short.short, short.header, short.drop_rank) == ("call", "Zed", ("Zed",), 3)


def test_a_declaration_with_every_fact() -> None:
    found = _declared(
        "zz_all",
        level="repeat",
        label="Zed",
        short="Z",
        header=("Z", "z"),
        drop_rank=4,
        over="every z",
        counts="z holds",
        aka="zed",
        lower_is_better=True,
        shown=False,
    )
    assert (found.key, found.level, found.label, found.short, found.header) == (
        "zz_all", "repeat", "Zed", "Z", ("Z", "z"),
    )  # fmt: skip
    assert (found.drop_rank, found.over, found.counts, found.aka) == (
        4,
        "every z",
        "z holds",
        "zed",
    )
    assert (found.lower_is_better, found.shown) == (True, False)


def test_a_metric_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        metric("overall", level="case", label="Overall", drop_rank=None)(lambda run: None)


def test_no_other_module_spells_a_metric_label() -> None:
    """Views read labels from the registry: no product module but scorer/metrics.py holds one as a
    string of its own (the labels group names share, like Chains, are left out)."""
    import ast

    from replay.html._labels import GROUP_LABELS

    root = Path(__file__).resolve().parent.parent
    labels = {m.label for m in REGISTRY.values()} | {m.short for m in REGISTRY.values()}
    labels |= {"Made-up"}  # a terminal header line
    labels -= {*GROUP_LABELS.values(), "Overall"}
    found = []
    for package in ("scorer", "recorder", "replay", "pytest_lobstack", "lobstack_eval"):
        for path in sorted((root / package).rglob("*.py")):
            if path == root / "scorer" / "metrics.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in labels:
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
    assert found == []


# (passed, scored) of one case's repeats -> pass^k, pass@k, flaky, by METHOD.md's words: pass^k
# when every scored repeat passed, pass@k when one did, flaky when some but not all did (two
# scored repeats at least); no scored repeat counts for none of them.
REPEAT_TABLE = [
    ((0, 0), (None, None, None)),
    ((1, 1), (True, True, None)),
    ((0, 1), (False, False, None)),
    ((0, 2), (False, False, False)),
    ((1, 2), (False, True, True)),
    ((2, 2), (True, True, False)),
    ((1, 3), (False, True, True)),
    ((2, 3), (False, True, True)),
    ((3, 3), (True, True, False)),
    ((0, 3), (False, False, False)),
]


@pytest.mark.parametrize(
    ("counts", "expected"), REPEAT_TABLE, ids=[f"{p}of{s}" for (p, s), _ in REPEAT_TABLE]
)
def test_repeat_metrics_by_hand(counts: tuple[int, int], expected: tuple[bool | None, ...]) -> None:
    computed = tuple(REGISTRY[key].compute(*counts) for key in REPEAT_METRICS)
    assert computed == expected
