"""A run's place in a history (scorer/drift/run_order.py): digit runs compared as numbers without
``int()``, so an id of any length or with a character Python calls a digit (``²``) is ordered,
never a traceback, in ``drift`` and ``report --history`` (issue 42, docs/FORMATS.md "Histories")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lobstack_eval.main import main
from replay.drift.timeline import timelines
from scorer.drift.run_order import natural_key, run_order
from tests.drifthistory import results_doc

LONG = "9" * 5000  # beyond Python's 4,300-digit int() limit
LONGER = "1" + "0" * 5000


def test_digit_runs_sort_as_numbers_of_any_length() -> None:
    # Written in the order expected: numbers before text at one place, shorter numbers first,
    # equal numbers by the whole id ("01" < "1" as text).
    expected = ["01", "1", "2", "9", "10", LONG, LONGER, "r01", "r1", "r9", "r10", "r" + LONG, "x"]
    assert sorted(reversed(expected), key=natural_key) == expected


def test_characters_python_calls_digits_are_text() -> None:
    """``²`` and ``٣`` pass ``str.isdigit`` but are no ASCII digits: they sort as text, after
    the numbers (``int('²')`` was a traceback)."""
    assert sorted(["²", "٣", "3", "a"], key=natural_key) == ["3", "a", "²", "٣"]
    assert natural_key("r²") == ((1, 0, "r²"), (2, 0, "r²"))


def test_the_date_comes_first() -> None:
    assert run_order("2026-01-02", "1") < run_order("2026-01-03", "0")
    assert run_order("2026-01-02", "9") < run_order("2026-01-02", "10")


IDS = ["²", LONG, "3", "r" + LONG + "x", "b"]


def _history(root: Path) -> dict[Path, dict[str, object]]:
    documents = {}
    for n, run_id in enumerate(IDS):
        doc = results_doc("acme/model", run_id, "2026-01-01", {"c1": ["passed"]})
        doc["model_slug"] = "acme_model"
        folder = root / f"run{n}" / "acme_model"
        folder.mkdir(parents=True)
        path = folder / "results.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        documents[path] = doc
    return documents


def test_drift_orders_hostile_run_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _history(tmp_path)
    assert main(["drift", str(tmp_path), "--verbose"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    listed = [line.split()[0] for line in captured.out.split("runs: id")[1].splitlines()[1:]]
    assert listed == ["3", LONG, "b", "r" + LONG + "x", "²"]


def test_report_history_orders_hostile_run_ids(tmp_path: Path) -> None:
    """``report --history``'s timeline orders its runs as drift does (``replay.drift.timeline``)."""
    (found,) = timelines(_history(tmp_path))
    assert [p.run_id for p in found.points] == ["3", LONG, "b", "r" + LONG + "x", "²"]
    assert found.drift_error is None


def test_natural_key_written_out() -> None:
    """Each part of the key by hand: text (1, 0, text), a digit run (0, significant digits, its
    digits without leading zeros; all zeros: "0"), the whole id last; every place after the first
    alternates (re.split with a group), however many runs."""
    assert natural_key("a1b2c") == (
        (1, 0, "a"), (0, 1, "1"), (1, 0, "b"), (0, 1, "2"), (1, 0, "c"), (2, 0, "a1b2c")
    )  # fmt: skip
    assert natural_key("r000x0") == (
        (1, 0, "r"), (0, 1, "0"), (1, 0, "x"), (0, 1, "0"), (2, 0, "r000x0")
    )  # fmt: skip
    assert natural_key("0070x") == ((0, 2, "70"), (1, 0, "x"), (2, 0, "0070x"))
    assert natural_key("") == ((2, 0, ""),)
    assert run_order("2026-01-02", "r9") == ("2026-01-02", ((1, 0, "r"), (0, 1, "9"), (2, 0, "r9")))
