"""Every JSON the tool reads goes through the one bounded parser
(``scorer.strict_json.loads_file``), and no digit string from a file reaches ``int()`` unbounded
(issue 42): each reader below was a traceback (RecursionError on deep nesting, ValueError on 5,000
digits or on ``²``) and is now its typed error, or its "cannot read" answer."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.bundled_suite import suite_title
from recorder.futile import _priced
from recorder.manifest_read import read_manifest
from recorder.partial import read_run
from replay.diff_suites.compare import bump_between
from replay.leaderboard.text import terminal_width
from replay.shard import parse_shard
from scorer.audit.schema_facts import defaults
from scorer.errors import CassetteError, ResultsError, UsageError
from scorer.suite.draft.samples import sample
from tests.conftest import ROOT

DEEP = "[" * 5000 + "]" * 5000  # past Python's recursion limit
BIG = "9" * 5000  # past int()'s 4,300 digits


def test_a_deep_partial_entry_or_cassette_is_unreadable_not_a_traceback(tmp_path: Path) -> None:
    entry = tmp_path / "case.json.entry"
    entry.write_text(DEEP, encoding="utf-8")
    assert read_run(entry) is None
    cassette = tmp_path / "case.json"
    cassette.write_text('{"interactions": ' + DEEP + "}", encoding="utf-8")
    assert _priced(cassette, "x-lobstack-cost-usd") is None


def test_a_deep_suite_file_has_no_title(tmp_path: Path) -> None:
    assert suite_title(DEEP.encode()) == "a file that is not a readable suite"
    assert suite_title(b'{"name": "s", "version": NaN}') == "a file that is not a readable suite"


def test_a_stated_default_that_is_deep_or_nan_is_no_json_value() -> None:
    """A description's ``(default ...)`` is read as JSON only when it is strict JSON (a deep list
    was a RecursionError): kept as text, it is no boolean default to avoid."""
    deep = "[" * 3000 + "]" * 3000
    for stated in (deep, "NaN"):
        schema = {"type": "boolean", "description": f"(default {stated})"}
        assert sample(schema, "x", avoid_default=True) is True
    assert sample({"type": "boolean", "description": "(default true)"}, "x", True) is False


def test_chain_arguments_are_read_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.json"
    argv = ["suite", "new", str(out), "--mcp", sys.executable, "--chain", "t=" + DEEP]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --chain 't=[[[[") and "the arguments are not JSON" in err
    assert "nested more than 200 levels deep" in err and "Traceback" not in err
    assert main([*argv[:-1], 't={"n": NaN}']) == 2
    assert "NaN is not JSON" in capsys.readouterr().err


def test_a_deep_run_identity_in_rows_is_a_column_error(tmp_path: Path) -> None:
    import datetime

    import polars as pl

    from replay.drift.rows import COLUMNS, _record

    values = ["acme/m", "s", "1.0.0", "0" * 64, "c1", "passed", "r1", datetime.date(2026, 1, 1)]
    frame = pl.DataFrame({c: [v] for c, v in zip(COLUMNS, [*values, DEEP], strict=True)})
    file = tmp_path / "part-0.parquet"
    with pytest.raises(ResultsError) as caught:
        _record(file, frame)
    assert caught.value.message == (
        f"{file}: column 'run_identity' must hold the run's one identity (JSON)"
    )


def test_a_repeat_number_of_5000_digits_is_a_field_error(tmp_path: Path) -> None:
    model_dir = tmp_path / "m"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", model_dir)
    manifest = json.loads((model_dir / "run.json").read_text(encoding="utf-8"))
    manifest["repeat_cases"] = {BIG: {}}
    (model_dir / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        read_manifest(model_dir)
    assert caught.value.message.startswith(f"{model_dir / 'run.json'}: repeat_cases.")
    assert "expected a repeat number from 2 to" in caught.value.message


def test_suite_versions_of_any_length_compare_as_numbers() -> None:
    assert bump_between("1.0.0", f"1.0.{BIG}") == "patch"
    assert bump_between(f"1.{BIG}.0", "1.1.0") == "lower"
    assert bump_between(f"{BIG}.0.0", f"1{BIG}.0.0") == "major"
    assert bump_between("1.9.0", "1.10.0") == "minor"


def test_a_shard_of_5000_digits_is_bad_usage() -> None:
    with pytest.raises(UsageError) as caught:
        parse_shard(f"{BIG}/3")
    assert caught.value.message == f"--shard {BIG + '/3'!r}: expected I/N, e.g. 2/3"


@pytest.mark.parametrize("columns", ["²", BIG])
def test_a_columns_value_int_refuses_is_no_width(
    monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert terminal_width(io.StringIO()) is None


def test_a_default_in_digits_int_refuses_is_no_default() -> None:
    """The audit reads ``(default 2)`` as the integer 2; ``²`` passes ``str.isdigit`` and
    ``int()`` refuses it: no default, not a traceback."""
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "(default ²)"},
            "b": {"type": "integer", "description": "(default 2)"},
        },
    }
    assert defaults(schema) == {"b": 2}
