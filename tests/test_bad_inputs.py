"""Every bad input gets one clear line: ``error: <file>: <field>: <problem>``, exit 1 (or 2 for
usage), no traceback, and the good inputs beside it are still processed: a bad cassette leaves its
case unrecorded and the model's other cases scored; a bad run.json fails its model, and the other
model is scored and written.

One table row per bad input. Each row breaks one thing in a private copy of two committed model dirs
(``ref/oracle`` and ``ref/abstain``), runs the CLI, and asserts the exact error line(s) and what was
still written.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"
CASE = "selection-01"
Setup = Callable[[Path], None]


SLUGS = ("ref_oracle", "ref_abstain")


def _copy(source: Path, root: Path, copy: Callable[[str, str], object] = shutil.copy2) -> Path:
    for slug in SLUGS:
        shutil.copytree(source / slug, root / slug, copy_function=copy)
    return root


def _files(root: Path) -> dict[Path, bytes]:
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def untouched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The two model dirs copied once for the module: read only, for the tests that never read
    them (a usage error comes before any work), and the files each test's ``cassettes`` links.
    Checked against the committed files at the end: no row wrote into a linked file."""
    root = _copy(ROOT / "cassettes", tmp_path_factory.mktemp("untouched") / "cassettes")
    yield root
    assert _files(root) == {
        Path(slug) / p: b for slug in SLUGS for p, b in _files(ROOT / "cassettes" / slug).items()
    }


@pytest.fixture
def cassettes(untouched: Path, tmp_path: Path) -> Path:
    """A private copy of two committed model dirs, free to break: its files are hard links to
    ``untouched``'s (a copy was about a fifth of a row's CPU), so a row replaces a file it edits
    (``_replace``), never writes into it."""
    return _copy(untouched, tmp_path / "cassettes", os.link)


def _replace(path: Path, text: str) -> None:
    """``path`` now holds ``text``: a new file, so the file it was linked to is left as it was."""
    path.unlink(missing_ok=True)
    path.write_text(text, encoding="utf-8")


def _edit_json(relative: str, mutate: Callable[[Any], Any]) -> Setup:
    def setup(root: Path) -> None:
        path = root / relative
        data = json.loads(path.read_text(encoding="utf-8"))
        result = mutate(data)
        _replace(path, json.dumps(data if result is None else result))

    return setup


def _write(relative: str, text: str) -> Setup:
    def setup(root: Path) -> None:
        _replace(root / relative, text)

    return setup


def _response(mutate: Callable[[dict[str, Any]], None]) -> Setup:
    return _edit_json(f"ref_oracle/{CASE}.json", lambda d: mutate(d["interactions"][0]["response"]))


def _attempt(key: str, value: Any) -> Setup:
    return _edit_json(
        "ref_oracle/run.json", lambda d: d["cases"][CASE]["attempts"][0].__setitem__(key, value)
    )


def _text_attempt(token: str) -> Setup:
    """run.json with ``wall_ms`` of the case's first attempt written as a bare token
    (NaN, Infinity)."""

    def setup(root: Path) -> None:
        path = root / "ref_oracle" / "run.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["cases"][CASE]["attempts"][0]["wall_ms"] = "@@"
        _replace(path, json.dumps(data, indent=2).replace('"@@"', token))

    return setup


DEEP = "[" * 100_000 + "]" * 100_000
C = "ref_oracle/selection-01.json: corrupt cassette: "  # from {root}, the cassettes dir
H = "interactions[0].response.headers: expected an object of header name -> list of strings, got "
M = "{root}/ref_oracle/run.json: "
W = f"cases.{CASE}.attempts[0].wall_ms"

# id, how to break the copy, the exact error line ({root} is the cassettes dir; a cassette's line is
# "{root}/" + C...)
RESCORE_ROWS = [
    (
        "status-code-text",
        _response(lambda r: r["status"].__setitem__("code", "abc")),
        C + "interactions[0].response.status.code: expected an integer HTTP status (100-999), got "
        '"abc"',
    ),
    (
        "status-code-null",
        _response(lambda r: r["status"].__setitem__("code", None)),
        C + "interactions[0].response.status.code: expected an integer HTTP status (100-999), got "
        "null",
    ),
    (
        "status-code-list",
        _response(lambda r: r["status"].__setitem__("code", [200])),
        C + "interactions[0].response.status.code: expected an integer HTTP status (100-999), got "
        "[200]",
    ),
    (
        "status-code-float",
        _response(lambda r: r["status"].__setitem__("code", 200.5)),
        C + "interactions[0].response.status.code: expected an integer HTTP status (100-999), got "
        "200.5",
    ),
    (
        "status-code-out-of-range",
        _response(lambda r: r["status"].__setitem__("code", 1000)),
        C + "interactions[0].response.status.code: expected an integer HTTP status (100-999), got "
        "1000",
    ),
    (
        "status-a-number",
        _response(lambda r: r.__setitem__("status", 200)),
        C + "interactions[0].response.status: expected an object with code and message, got 200",
    ),
    (
        "headers-a-list",
        _response(lambda r: r.__setitem__("headers", ["Content-Type"])),
        C + H + '["Content-Type"]',
    ),
    (
        "headers-a-string",
        _response(lambda r: r.__setitem__("headers", "Content-Type: x")),
        C + H + '"Content-Type: x"',
    ),
    (
        "header-value-a-number",
        _response(lambda r: r["headers"].__setitem__("x-lobstack-cost-usd", 0.5)),
        C + "interactions[0].response.headers.x-lobstack-cost-usd: expected a string or a list of "
        "strings, got 0.5",
    ),
    (
        "header-value-list-of-numbers",
        _response(lambda r: r["headers"].__setitem__("x-lobstack-cost-usd", [0.5])),
        C + "interactions[0].response.headers.x-lobstack-cost-usd: expected a string or a list of "
        "strings, got [0.5]",
    ),
    (
        "body-a-string",
        _response(lambda r: r.__setitem__("body", "{}")),
        C + 'interactions[0].response.body: expected an object {"string": "..."}, got "{}"',
    ),
    (
        "body-string-null",
        _response(lambda r: r["body"].__setitem__("string", None)),
        C
        + "interactions[0].response.body.string: expected the response text as a string, got null",
    ),
    (
        "body-without-string",
        _response(lambda r: r.__setitem__("body", {})),
        C
        + "interactions[0].response.body.string: expected the response text as a string, got null",
    ),
    (
        "request-body-not-json",
        _edit_json(
            f"ref_oracle/{CASE}.json",
            lambda d: d["interactions"][0]["request"].__setitem__("body", "{oops"),
        ),
        C + "interactions[0].request.body: not JSON",
    ),
    (
        "request-headers-a-list",
        _edit_json(
            f"ref_oracle/{CASE}.json",
            lambda d: d["interactions"][0]["request"].__setitem__("headers", []),
        ),
        C
        + "interactions[0].request.headers: expected an object of header name -> list of strings, "
        "got []",
    ),
    (
        "interaction-a-string",
        _edit_json(f"ref_oracle/{CASE}.json", lambda d: d.__setitem__("interactions", ["x"])),
        C + 'interactions[0]: expected an object with request and response, got "x"',
    ),
    (
        "cassette-version-99",
        _edit_json(f"ref_oracle/{CASE}.json", lambda d: d.__setitem__("version", 99)),
        C + "version: expected 1 (vcrpy's cassette format), got 99",
    ),
    (
        "cassette-version-text",
        _edit_json(f"ref_oracle/{CASE}.json", lambda d: d.__setitem__("version", "1")),
        C + 'version: expected 1 (vcrpy\'s cassette format), got "1"',
    ),
    (
        "cassette-version-true",
        _edit_json(f"ref_oracle/{CASE}.json", lambda d: d.__setitem__("version", True)),
        C + "version: expected 1 (vcrpy's cassette format), got true",
    ),
    (
        "cassette-version-null",
        _edit_json(f"ref_oracle/{CASE}.json", lambda d: d.__setitem__("version", None)),
        C + "version: expected 1 (vcrpy's cassette format), got null",
    ),
    (
        "cassette-truncated",
        _write(f"ref_oracle/{CASE}.json", '{"version": 1, "interactions": ['),
        C + "not valid JSON (Expecting value at line 1)",
    ),
    (
        "cassette-cut-in-a-string",
        _write(f"ref_oracle/{CASE}.json", '{"version": 1, "interactions": ["cut'),
        C + "not valid JSON (Unterminated string starting at line 1)",
    ),
    (
        "cassette-nan",
        _write(f"ref_oracle/{CASE}.json", '{"version": 1, "interactions": [{"response": NaN}]}'),
        C + "not valid JSON (interactions[0].response: NaN is not JSON)",
    ),
    (
        "cassette-nested-100000-deep",
        _write(f"ref_oracle/{CASE}.json", DEEP),
        C + "not valid JSON (nested more than 200 levels deep)",
    ),
]

MODEL_ROWS = [
    (
        "run-json-wall-ms-nan",
        _text_attempt("NaN"),
        M + f"the run manifest is not valid JSON ({W}: NaN is not JSON)",
    ),
    (
        "run-json-wall-ms-infinity",
        _text_attempt("Infinity"),
        M + f"the run manifest is not valid JSON ({W}: Infinity is not JSON)",
    ),
    (
        "run-json-wall-ms-1e309",
        _text_attempt("1e309"),
        M + f"the run manifest is not valid JSON ({W}: 1e309 is out of range)",
    ),
    (
        "run-json-wall-ms-negative",
        _attempt("wall_ms", -5.0),
        M + f"{W}: expected a number of milliseconds >= 0 or null, got -5.0",
    ),
    (
        "run-json-temperature-dropped-text",
        _attempt("temperature_dropped", "yes"),
        M + f"{W.removesuffix('.wall_ms')}.temperature_dropped: expected true or false, got 'yes'",
    ),
    (
        "run-json-wall-ms-text",
        _attempt("wall_ms", "12"),
        M + f"{W}: expected a number of milliseconds >= 0 or null, got '12'",
    ),
    (
        "run-json-status-text",
        _attempt("status", "200"),
        M
        + f"cases.{CASE}.attempts[0].status: expected an HTTP status (100-999) or null, got '200'",
    ),
    (
        "run-json-step-negative",
        _attempt("step", -1),
        M + f"cases.{CASE}.attempts[0].step: expected an integer >= 0, got -1",
    ),
    (
        "run-json-format-version-99",
        _edit_json("ref_oracle/run.json", lambda d: d.__setitem__("format_version", 99)),
        M
        + "format_version: 99 is not one this lobstack-eval reads (1); a newer lobstack-eval wrote "
        "it, or it is corrupt",
    ),
    (
        "run-json-temperature-ignored-yes",
        _edit_json("ref_oracle/run.json", lambda d: d.__setitem__("temperature_ignored", "yes")),
        M + "temperature_ignored: expected true or false, got 'yes'",
    ),
    (
        "run-json-temperature-ignored-1",
        _edit_json("ref_oracle/run.json", lambda d: d.__setitem__("temperature_ignored", 1)),
        M + "temperature_ignored: expected true or false, got 1",
    ),
    (
        "run-json-recorder-version-number",
        _edit_json("ref_oracle/run.json", lambda d: d.__setitem__("recorder_version", 0.1)),
        M + "recorder_version: expected a string, got 0.1",
    ),
    (
        "run-json-reason-number",
        _edit_json("ref_oracle/run.json", lambda d: d["cases"][CASE].__setitem__("reason", 5)),
        M + f"cases.{CASE}.reason: expected a string or null, got 5",
    ),
    (
        "run-json-suite-version-number",
        _edit_json(
            "ref_oracle/run.json", lambda d: d["cases"][CASE].__setitem__("suite_version", 1.1)
        ),
        M + f"cases.{CASE}.suite_version: expected a string or null, got 1.1",
    ),
    (
        "run-json-attempts-not-a-list",
        _edit_json("ref_oracle/run.json", lambda d: d["cases"][CASE].__setitem__("attempts", {})),
        M + f"cases.{CASE}.attempts: expected a list, got {{}}",
    ),
    (
        "run-json-nested-100000-deep",
        _write("ref_oracle/run.json", DEEP),
        M + "the run manifest is not valid JSON (nested more than 200 levels deep)",
    ),
    (
        "run-json-not-json",
        _write("ref_oracle/run.json", "{"),
        M + "the run manifest is not valid JSON (Expecting property name enclosed in double quotes "
        "at line 1)",
    ),
    (
        "model-dir-without-run-json",
        lambda root: (root / "ref_oracle" / "run.json").unlink(),
        "{root}/ref_oracle: no run.json, so not a recorded model dir: record it again or move it "
        "away",
    ),
]


def _errors(err: str) -> list[str]:
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line.startswith("error:")]


@pytest.mark.parametrize(
    ("setup", "line"), [pytest.param(s, line, id=i) for i, s, line in RESCORE_ROWS]
)
def test_bad_cassette_leaves_that_case_unrecorded_only(
    cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: Setup, line: str
) -> None:
    """rescore: the exact line (the file as given), exit 1; ref/oracle written with that case
    unrecorded, its reason the same line naming the file from the cassettes dir, its other cases
    as the committed reports have them; both models on the leaderboard, nothing removed."""
    out = tmp_path / "reports"
    setup(cassettes)
    assert (
        main(
            ["rescore", str(cassettes), "--suite", str(SUITE), "--out", str(out), "-q", "--no-html"]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert _errors(err) == [f"error: {cassettes}/{line}"]
    assert "removed" not in err
    written = json.loads((out / "ref_oracle" / "results.json").read_text())
    committed = json.loads((ROOT / "reports" / "ref_oracle" / "results.json").read_text())
    bad = next(r for r in written["results"] if r["id"] == CASE)
    assert (bad["status"], bad["reason"], bad["steps"], bad["attempts"]) == (
        "unrecorded",
        line,
        [],
        [],
    )
    assert [r for r in written["results"] if r["id"] != CASE] == [
        r for r in committed["results"] if r["id"] != CASE
    ]
    assert written["cases"] == {"total": 80, "scored": 79, "errored": 0, "unrecorded": 1}
    with (out / "leaderboard.csv").open(newline="") as handle:
        assert [row["model"] for row in csv.DictReader(handle)] == ["ref/oracle", "ref/abstain"]


@pytest.mark.parametrize(
    ("setup", "line"), [pytest.param(s, line, id=i) for i, s, line in MODEL_ROWS]
)
def test_bad_model_dir_fails_that_model_only(
    cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: Setup, line: str
) -> None:
    """rescore: the exact line, exit 1, ref/abstain still scored and on the leaderboard, nothing
    of ref/oracle left."""
    out = tmp_path / "reports"
    (out / "ref_oracle").mkdir(parents=True)
    shutil.copy(
        ROOT / "reports" / "ref_oracle" / "results.json", out / "ref_oracle" / "results.json"
    )  # stale
    setup(cassettes)
    assert (
        main(
            ["rescore", str(cassettes), "--suite", str(SUITE), "--out", str(out), "-q", "--no-html"]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert _errors(err) == ["error: " + line.replace("{root}", str(cassettes))]
    assert sorted(p.parent.name for p in out.glob("*/results.json")) == ["ref_abstain"]
    with (out / "leaderboard.csv").open(newline="") as handle:
        assert [row["model"] for row in csv.DictReader(handle)] == ["ref/abstain"]
    assert (
        f"removed {out / 'ref_oracle' / 'results.json'}" in err
    )  # the stale one is not left to be read as current


def test_suite_nested_100000_deep(
    cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suite is every model's input: one line, exit 1, nothing written."""
    suite = tmp_path / "suite.json"
    suite.write_text(DEEP)
    for args in (
        ["rescore", str(cassettes), "--suite", str(suite), "--out", str(tmp_path / "out")],
        ["suite", "check", str(suite)],
        ["diff", "suites", str(suite), str(SUITE)],
    ):
        assert main(args) == 1
        [line] = _errors(capsys.readouterr().err)
        assert line.startswith(f"error: {suite}") and line.endswith(
            "nested more than 200 levels deep"
        )
    assert not (tmp_path / "out" / "ref_abstain").exists()


def test_tool_call_arguments_nested_100000_deep(cassettes: Path, tmp_path: Path) -> None:
    """Arguments too deep to read are the model's answer, not a broken file: they do not parse,
    the case fails."""

    def deep_arguments(response: dict[str, Any]) -> None:
        body = json.loads(response["body"]["string"])
        body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = (
            '{"path": ' + DEEP + "}"
        )
        response["body"]["string"] = json.dumps(body)

    _response(deep_arguments)(cassettes)
    out = tmp_path / "out"
    assert main(["rescore", str(cassettes), "--suite", str(SUITE), "--out", str(out), "-q"]) == 0
    results = json.loads((out / "ref_oracle" / "results.json").read_text())
    case = next(r for r in results["results"] if r["id"] == CASE)
    assert (case["status"], case["reason"]) == (
        "failed",
        "step 1: read_file.arguments: not a JSON object (nested deeper than 100 levels)",
    )
    assert main(["report", str(out)]) == 0  # and every reader of the results copes


def test_results_json_nested_100000_deep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """diff runs: one line naming the file; report: the other models are still rendered (exit 1)."""
    reports = tmp_path / "reports"
    for slug in ("ref_oracle", "ref_abstain"):
        shutil.copytree(ROOT / "reports" / slug, reports / slug)
    bad = reports / "ref_oracle" / "results.json"
    bad.write_text(DEEP)
    assert main(["diff", "runs", str(ROOT / "reports" / "ref_oracle"), str(bad)]) == 1
    line = f"error: {bad}: the results file is not valid JSON (nested more than 200 levels deep)"
    assert _errors(capsys.readouterr().err) == [line]
    (reports / "plots").mkdir()  # not a model's results: ignored
    assert main(["report", str(reports), "--suite", str(SUITE)]) == 1
    captured = capsys.readouterr()
    assert _errors(captured.err) == [line]
    page = (reports / "index.html").read_text()
    assert 'data-model="ref/abstain"' in page and 'data-model="ref/oracle"' not in page


USAGE_ROWS = [
    (
        "record-timeout-nan",
        ["record", "--model", "m", "--timeout", "nan"],
        "--timeout: expected a finite number of seconds > 0, got 'nan'",
    ),
    (
        "record-timeout-inf",
        ["record", "--model", "m", "--timeout", "inf"],
        "--timeout: expected a finite number of seconds > 0, got 'inf'",
    ),
    (
        "record-timeout-1e309",
        ["record", "--model", "m", "--timeout", "1e309"],
        "--timeout: expected a finite number of seconds > 0, got '1e309'",
    ),
    (
        "record-timeout-zero",
        ["record", "--model", "m", "--timeout", "0"],
        "--timeout: expected a finite number of seconds > 0, got '0'",
    ),
    (
        "record-concurrency-text",
        ["record", "--model", "m", "--concurrency", "four"],
        "--concurrency: expected a whole number >= 1, got 'four'",
    ),
    (
        "record-concurrency-zero",
        ["record", "--model", "m", "--concurrency", "0"],
        "--concurrency 0: must be at least 1",
    ),
    (
        "record-repeats-text",
        ["record", "--model", "m", "--repeats", "2.5"],
        "--repeats: expected a whole number from 1 to 100, got '2.5'",
    ),
    (
        "record-repeats-too-many",
        ["record", "--model", "m", "--repeats", "101"],
        "--repeats 101: must be at most 100",
    ),
    (
        "record-repeats-zero",
        ["record", "--model", "m", "--repeats", "0"],
        "--repeats 0: must be at least 1",
    ),
    (
        "record-repeats-word",
        ["record", "--model", "m", "--repeats", "x"],
        "--repeats: expected a whole number from 1 to 100, got 'x'",
    ),
    (
        "gateway-latency-inf",
        ["gateway", "--latency-ms", "inf"],
        "--latency-ms: expected a finite number of milliseconds >= 0, got 'inf'",
    ),
    (
        "gateway-latency-nan",
        ["gateway", "--latency-ms", "nan"],
        "--latency-ms: expected a finite number of milliseconds >= 0, got 'nan'",
    ),
    (
        "gateway-latency-negative",
        ["gateway", "--latency-ms", "-1"],
        "--latency-ms: expected a finite number of milliseconds >= 0, got '-1'",
    ),
    (
        "gateway-timeout-sleep-1e309",
        ["gateway", "--timeout-sleep-s", "1e309"],
        "--timeout-sleep-s: expected a finite number of seconds >= 0, got '1e309'",
    ),
    ("gateway-port-negative", ["gateway", "--port", "-5"], "--port -5: must be at least 0"),
    ("gateway-port-too-big", ["gateway", "--port", "65536"], "--port 65536: must be at most 65535"),
    (
        "gateway-port-text",
        ["gateway", "--port", "http"],
        "--port: expected a whole number from 0 to 65535, got 'http'",
    ),
    (
        "gateway-seed-text",
        ["gateway", "--seed", "1.5"],
        "--seed: expected a whole number >= 0, got '1.5'",
    ),
    (
        "rescore-out-a-file",
        ["rescore", "{cassettes}", "--out", "{file}"],
        "--out {file}: is a file, not a directory",
    ),
    (
        "rescore-out-under-a-file",
        ["rescore", "{cassettes}", "--out", "{file}/reports"],
        "--out {file}/reports: cannot write there: Not a directory",
    ),
    (
        "rescore-out-unwritable",
        ["rescore", "{cassettes}", "--out", "/proc/lobstack-reports"],
        "--out /proc/lobstack-reports: cannot write there: No such file or directory",
    ),
    (
        "diff-runs-junit-a-dir",
        ["diff", "runs", "{reports}", "{reports}", "--junit", "{cassettes}"],
        "--junit {cassettes}: is a directory, not a file",
    ),
    (
        "diff-runs-html-unwritable",
        ["diff", "runs", "{reports}", "{reports}", "--html", "/proc/diff.html"],
        "--html /proc/diff.html: cannot write there: No such file or directory",
    ),
]


@pytest.mark.parametrize(
    ("args", "line"), [pytest.param(a, line, id=i) for i, a, line in USAGE_ROWS]
)
def test_bad_flags_are_usage_errors_before_any_work(
    untouched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], line: str
) -> None:
    """Exit 2 with the one line, before anything is read, recorded, served or written."""
    file = tmp_path / "a-file"
    file.write_text("x")
    names = {"cassettes": untouched, "file": file, "reports": ROOT / "reports"}
    before = sorted(p.name for p in tmp_path.iterdir())
    cassettes_before = sorted(p.relative_to(untouched) for p in untouched.rglob("*"))
    assert main([a.format(**names) for a in args]) == 2
    captured = capsys.readouterr()
    assert _errors(captured.err) == ["error: " + line.format(**names)]
    assert captured.out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no output of any kind was made
    assert sorted(p.relative_to(untouched) for p in untouched.rglob("*")) == cassettes_before


def _hostile(cassettes: Path, name: str) -> None:
    """ref/oracle's run.json renamed to ``name``: every request now names another model, so all 80
    cases need recording."""
    path = cassettes / "ref_oracle" / "run.json"
    data = json.loads(path.read_text())
    data["model"] = name
    _replace(path, json.dumps(data))


def test_record_hint_quotes_the_model_name(
    cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record command rescore prints is pasted into a shell: a hostile model name and path stay
    one argument each. No case of the renamed model is scored, so it comes in the error line
    (decision 116)."""
    _hostile(cassettes, "x; touch /tmp/pwned #")
    # --no-html: the hint does not depend on the page; a page with a model of no scored case is
    # drawn by test_trial_edges.py's test_a_model_with_no_scored_case_is_written_but_fails_rescore.
    out = str(tmp_path / "o")
    assert (
        main(["rescore", str(cassettes), "--suite", str(SUITE), "--out", out, "-q", "--no-html"])
        == 1
    )
    hint = next(line for line in capsys.readouterr().err.splitlines() if "record it: " in line)
    assert hint == (
        f"error: {cassettes / 'ref_oracle'}: no case of model x; touch /tmp/pwned # could be "
        "scored (80 unrecorded); record it: lobstack-eval record --model 'x; touch /tmp/pwned #' "
        f"--cassettes {cassettes} --base-url 'http://127.0.0.1:<port>/v1'"
    )


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ('=HYPERLINK("https://evil.example","x")', '\'=HYPERLINK("https://evil.example","x")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"),
        ("-1.5", "-1.5"),  # reads as a number, never a formula: left readable
        ("ref/oracle", "ref/oracle"),
    ],
)
def test_leaderboard_csv_cells_are_never_formulas(
    cassettes: Path, tmp_path: Path, name: str, cell: str
) -> None:
    """A model name that a spreadsheet would run gets a leading ``'``; the markdown shows it as
    sent, but for an ``@`` mention, broken by a zero-width space so nobody is notified."""
    _hostile(cassettes, name)
    out = tmp_path / "o"
    # A renamed model has no scored case: exit 1 (decision 116), but it is written, leaderboard row
    # and all.
    code = main(
        ["rescore", str(cassettes), "--suite", str(SUITE), "--out", str(out), "-q", "--no-html"]
    )
    assert code == (0 if name == "ref/oracle" else 1)
    with (out / "leaderboard.csv").open(newline="") as handle:
        assert cell in [row["model"] for row in csv.DictReader(handle)]
    shown = name.replace("|", "\\|").replace("@", "@&#8203;")
    assert shown in (out / "leaderboard.md").read_text()


def test_report_ignores_folders_that_are_not_models(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reports dir with extra folders (plots, notes, hidden caches) renders its models; exit 0."""
    reports = tmp_path / "reports"
    shutil.copytree(ROOT / "reports" / "ref_abstain", reports / "ref_abstain")
    for extra in ("plots", ".cache", "old notes"):
        (reports / extra).mkdir()
    (reports / "old notes" / "readme.txt").write_text("x")
    assert main(["report", str(reports), "--suite", str(SUITE)]) == 0
    assert capsys.readouterr().err == ""
    assert 'data-model="ref/abstain"' in (reports / "index.html").read_text()


def test_a_file_where_a_model_folder_goes_is_one_line(
    cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error of the disk mid-run (here a file named like a model's folder) is one line too,
    never a traceback."""
    out = tmp_path / "reports"
    out.mkdir()
    (out / "ref_oracle").write_text("not a folder")
    assert (
        main(
            ["rescore", str(cassettes), "--suite", str(SUITE), "--out", str(out), "-q", "--no-html"]
        )
        == 1
    )
    assert _errors(capsys.readouterr().err) == [f"error: {out / 'ref_oracle'}: File exists"]
