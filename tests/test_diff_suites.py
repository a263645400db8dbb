"""``diff suites``: case classification, tool changes, the required bump against the bump made,
the CLI."""

from __future__ import annotations

import copy
import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from replay.diff_suites import bump_between, diff_suites, read_suite_json
from scorer.errors import SuiteError

SUITES = Path(__file__).parent / "fixtures" / "suites"
V100, V110, REMOVED = SUITES / "v1.0.0.json", SUITES / "v1.1.0.json", SUITES / "v1.1.0_removed.json"
BASE: dict[str, Any] = json.loads(V100.read_text())
IDS = ["selection-01", "arguments-01", "no_call-01", "parallel-01", "chains-01"]

Mutation = Callable[[dict[str, Any]], None]


def case(suite: dict[str, Any], case_id: str) -> dict[str, Any]:
    """The case ``case_id`` of ``suite``."""
    return next(c for c in suite["cases"] if c["id"] == case_id)


def call(suite: dict[str, Any], case_id: str, step: int = 0, index: int = 0) -> dict[str, Any]:
    """One expected call of a case."""
    return case(suite, case_id)["steps"][step]["calls"][index]


def _set(path: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any) -> Mutation:
    return lambda s: path(s).__setitem__(key, value)


def _chain(*mutations: Mutation) -> Mutation:
    def run(s: dict[str, Any]) -> None:
        for mutation in mutations:
            mutation(s)

    return run


def _version(v: str) -> Mutation:
    return lambda s: s.__setitem__("version", v)


NEW_CASE = {
    "id": "selection-02",
    "group": "selection",
    "tools": ["search_code"],
    "messages": [{"role": "user", "content": "Where is TODO mentioned?"}],
    "steps": [
        {
            "expect": "call",
            "calls": [{"name": "search_code", "args": {}, "reference": {"query": "TODO"}}],
        }
    ],
}
ALL_REQUEST = {cid: "request_changed" for cid in IDS}
READ_FILE_CASES = {
    cid: "request_changed" for cid in ["selection-01", "arguments-01", "no_call-01", "chains-01"]
}

# id, mutation of a copy of v1.0.0, {case: kind} for every case not unchanged, what (for the first
# listed case, or None to skip), required bump, actual bump
TABLE = [
    ("released-only", lambda s: s.__setitem__("released", "2026-12-01"), {}, None, "none", "none"),
    (
        "key-order-only",
        lambda s: s["cases"].__setitem__(0, dict(reversed(list(s["cases"][0].items())))),
        {},
        None,
        "none",
        "none",
    ),
    (
        "args",
        _chain(
            _set(lambda s: call(s, "arguments-01")["args"], "end_line", {"eq": 21}),
            _version("1.1.0"),
        ),
        {"arguments-01": "check_changed"},
        ("steps[0].calls[0].args.end_line.eq",),
        "minor",
        "minor",
    ),
    (
        "check-op-swapped",
        _chain(
            _set(lambda s: call(s, "arguments-01")["args"], "end_line", {"range": {"min": 20}}),
            _version("1.1.0"),
        ),
        {"arguments-01": "check_changed"},
        ("steps[0].calls[0].args.end_line",),
        "minor",
        "minor",
    ),
    (
        "int-vs-float",
        _set(lambda s: call(s, "arguments-01")["args"], "end_line", {"eq": 20.0}),
        {"arguments-01": "check_changed"},
        None,
        "minor",
        "none",
    ),
    (
        "reference",
        _set(lambda s: call(s, "chains-01"), "reference", {"query": "parse_config("}),
        {"chains-01": "check_changed"},
        ("steps[0].calls[0].reference.query",),
        "minor",
        "none",
    ),
    (
        "expected-name-last-step",
        _set(lambda s: call(s, "selection-01"), "name", "search_code"),
        {"selection-01": "check_changed"},
        ("steps[0].calls[0].name",),
        "minor",
        "none",
    ),
    (
        "expect-call-to-none",
        _set(lambda s: case(s, "selection-01"), "steps", [{"expect": "none"}]),
        {"selection-01": "check_changed"},
        None,
        "minor",
        "none",
    ),
    (
        "last-step-result",
        _set(lambda s: call(s, "parallel-01", 0, 1), "result", "Bergen: 8 C"),
        {"parallel-01": "check_changed"},
        ("steps[0].calls[1].result",),
        "minor",
        "none",
    ),
    (
        "group",
        _set(lambda s: case(s, "parallel-01"), "group", "selection"),
        {"parallel-01": "check_changed"},
        ("group",),
        "minor",
        "none",
    ),
    (
        "fewer-steps",
        lambda s: case(s, "chains-01")["steps"].pop(),
        {"chains-01": "check_changed"},
        ("steps",),
        "minor",
        "none",
    ),
    (
        "chain-result-step-1",
        _set(lambda s: call(s, "chains-01"), "result", "src/cfg.py:1: def parse_config():"),
        {"chains-01": "request_changed"},
        ("steps[0] result",),
        "minor",
        "none",
    ),
    (
        "chain-result-step-2",
        _set(lambda s: call(s, "chains-01", 1), "result", "1: import yaml"),
        {"chains-01": "request_changed"},
        ("steps[1] result",),
        "minor",
        "none",
    ),
    (
        "more-steps",
        lambda s: case(s, "selection-01")["steps"].append({"expect": "none"}),
        {"selection-01": "request_changed"},
        ("steps: 1 -> 2",),
        "minor",
        "none",
    ),
    (
        "messages",
        _set(lambda s: case(s, "selection-01")["messages"][0], "content", "Show me README.rst"),
        {"selection-01": "request_changed"},
        ("messages",),
        "minor",
        "none",
    ),
    (
        "offered-tools-order",
        _set(lambda s: case(s, "selection-01"), "tools", ["search_code", "read_file"]),
        {"selection-01": "request_changed"},
        ("offered tools",),
        "minor",
        "none",
    ),
    (
        "tool-schema",
        _chain(
            _set(lambda s: s["tools"]["read_file"]["function"], "description", "Read a file."),
            _version("1.1.0"),
        ),
        READ_FILE_CASES,
        ("tool read_file",),
        "minor",
        "minor",
    ),
    (
        "system-prompt",
        _chain(lambda s: s.__setitem__("system_prompt", "Be brief."), _version("2.0.0")),
        ALL_REQUEST,
        ("system prompt",),
        "minor",
        "major",
    ),
    (
        "unused-tool-changed",
        _chain(
            _set(lambda s: s["tools"]["send_email"]["function"], "description", "Mail."),
            _version("1.0.1"),
        ),
        {},
        None,
        "patch",
        "patch",
    ),
    (
        "unused-tool-added",
        lambda s: s["tools"].__setitem__(
            "noop", {"type": "function", "function": {"name": "noop"}}
        ),
        {},
        None,
        "patch",
        "none",
    ),
    (
        "suite-renamed",
        _chain(lambda s: s.__setitem__("name", "other"), _version("1.0.1")),
        {},
        None,
        "patch",
        "patch",
    ),
    (
        "case-added",
        _chain(lambda s: s["cases"].append(copy.deepcopy(NEW_CASE)), _version("1.0.1")),
        {"selection-02": "added"},
        None,
        "minor",
        "patch",
    ),
    (
        "case-removed-minor",
        _chain(lambda s: s["cases"].pop(2), _version("1.1.0")),
        {"no_call-01": "removed"},
        None,
        "major",
        "minor",
    ),
    (
        "case-removed-major",
        _chain(lambda s: s["cases"].pop(2), _version("2.0.0")),
        {"no_call-01": "removed"},
        None,
        "major",
        "major",
    ),
    ("lower", _version("0.9.0"), {}, None, "none", "lower"),
]
OK = {"none": 1, "patch": 2, "minor": 3, "major": 4, "lower": 0}


@pytest.mark.parametrize(
    ("mutation", "kinds", "what", "required", "actual"),
    [pytest.param(*row[1:], id=row[0]) for row in TABLE],
)
def test_classification_table(
    mutation: Mutation,
    kinds: dict[str, str],
    what: tuple[str, ...] | None,
    required: str,
    actual: str,
) -> None:
    """Each edit of v1.0.0 lands in the right class, with the bump it needs and the bump made."""
    new = copy.deepcopy(BASE)
    mutation(new)
    diff = diff_suites(BASE, new)
    assert {c.case_id: c.kind for c in diff.cases if c.kind != "unchanged"} == kinds
    if what is not None:
        first = next(c for c in diff.cases if c.case_id == next(iter(kinds)))
        assert first.what == what
    assert (diff.required, diff.actual) == (required, actual)
    # A renamed suite is another suite: no bump can make it right.
    assert diff.bump_ok == (OK[actual] >= OK[required] and new["name"] == BASE["name"])


def test_case_order_new_then_removed() -> None:
    """Cases come in NEW's order, removed ones after them in OLD's order."""
    new = copy.deepcopy(BASE)
    new["cases"].pop(0)
    new["cases"].insert(1, copy.deepcopy(NEW_CASE))
    diff = diff_suites(BASE, new)
    assert [(c.case_id, c.kind) for c in diff.cases] == [
        ("arguments-01", "unchanged"),
        ("selection-02", "added"),
        ("no_call-01", "unchanged"),
        ("parallel-01", "unchanged"),
        ("chains-01", "unchanged"),
        ("selection-01", "removed"),
    ]


def test_tool_catalogue_changes() -> None:
    """Added, removed and changed tools are listed by name, sorted."""
    new = copy.deepcopy(BASE)
    new["tools"]["zz_new"] = {"type": "function", "function": {"name": "zz_new"}}
    new["tools"]["a_new"] = {"type": "function", "function": {"name": "a_new"}}
    del new["tools"]["send_email"]
    new["tools"]["get_weather"]["function"]["parameters"]["properties"]["unit"]["enum"].append(
        "kelvin"
    )
    diff = diff_suites(BASE, new)
    assert diff.tools_added == ("a_new", "zz_new")
    assert diff.tools_removed == ("send_email",)
    assert diff.tools_changed == ("get_weather",)
    assert [c.case_id for c in diff.of_kind("request_changed")] == ["parallel-01"]


BUMPS = [
    ("1.0.0", "1.0.0", "none"),
    ("1.0.0", "1.0.1", "patch"),
    ("1.0.9", "1.1.0", "minor"),
    ("1.9.9", "2.0.0", "major"),
    ("1.2.0", "1.10.0", "minor"),  # numeric, not string, comparison
    ("2.0.0", "1.9.9", "lower"),
    ("1.1.0", "1.0.5", "lower"),
]


@pytest.mark.parametrize(("old", "new", "bump"), BUMPS)
def test_bump_between(old: str, new: str, bump: str) -> None:
    """Semver comparison of the two versions."""
    assert bump_between(old, new) == bump


CASE = BASE["cases"][0]  # selection-01
REST = BASE["cases"][1:]
# Each suite's first problem as `suite check` lists it: diff suites stops on it, as every command
# that reads a suite does.
BAD_SUITES = [
    pytest.param("{", "not valid JSON", id="bad-json"),
    pytest.param("[]", "(top level): a suite must be a JSON object, not an array", id="not-object"),
    pytest.param(
        json.dumps({**BASE, "version": "1.0"}),
        "version: '1.0' is not MAJOR.MINOR.PATCH",
        id="bad-version",
    ),
    pytest.param(
        json.dumps({**BASE, "version": "01.0.0"}),
        "version: '01.0.0' is not MAJOR.MINOR.PATCH",
        id="leading-zero",
    ),
    pytest.param(
        json.dumps({**BASE, "cases": {}}), "cases: missing or not a non-empty list", id="cases-obj"
    ),
    pytest.param(
        json.dumps({**BASE, "tools": []}),
        "tools: missing or not a non-empty object of tool name -> tool (and ",
        id="tools-not-object",
    ),
    pytest.param(
        json.dumps({**BASE, "cases": [CASE, CASE, *REST]}),
        "case selection-01.id: duplicate case id",
        id="dup-id",
    ),
    pytest.param(
        json.dumps({**BASE, "cases": [{k: v for k, v in CASE.items() if k != "id"}, *REST]}),
        "cases[0].id: missing or not a non-empty string",
        id="no-id",
    ),
    pytest.param(
        json.dumps({**BASE, "cases": [{**CASE, "tools": [["x"]]}, *REST]}),
        "case selection-01.tools: must be a list of tool names (and ",
        id="tool-not-name",
    ),
    pytest.param(
        json.dumps({**BASE, "cases": [{**CASE, "steps": {}}, *REST]}),
        "case selection-01.steps: missing or not a non-empty list",
        id="steps-not-list",
    ),
]


@pytest.mark.parametrize(("content", "message"), BAD_SUITES)
def test_unreadable_suites(tmp_path: Path, content: str, message: str) -> None:
    """A suite that does not load is a SuiteError naming the file and its first problem."""
    path = tmp_path / "suite.json"
    path.write_text(content)
    with pytest.raises(SuiteError) as info:
        read_suite_json(path)
    assert info.value.message.startswith(f"{path}: {message}"), info.value.message


def test_cli_an_invalid_suite_is_the_error_suite_check_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not compared as if it were a suite: the first problem suite check lists, with the file."""
    bad = tmp_path / "bad.json"
    broken = copy.deepcopy(json.loads(V110.read_text()))
    case(broken, "arguments-01")["steps"][0]["expect"] = "maybe"
    bad.write_text(json.dumps(broken))
    assert main(["suite", "check", str(bad)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first == (f'{bad}: case arguments-01.steps[0].expect: must be "call" or "none"')
    assert main(["diff", "suites", str(V100), str(bad)]) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"error: {first}\n")


# --- CLI end to end -------------------------------------------------------------------------------


def test_cli_minor_bump_ok(capsys: pytest.CaptureFixture[str]) -> None:
    """The committed v1.1.0 adds one case, changes one check and one chain result: minor,
    as made."""
    assert main(["diff", "suites", str(V100), str(V110)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for expected in [
        "suite diff-fixture: 1.0.0 -> 1.1.0",
        "system prompt: unchanged",
        "tools changed: -",
        "cases: 1 added, 0 removed, 1 request-changed, 1 check-changed, 3 unchanged",
        "  added (needs recording):",
        "    selection-02",
        "  request-changed (needs recording):",
        "    chains-01: steps[0] result",
        "  check-changed (re-scorable offline):",
        "    arguments-01: steps[0].calls[0].args.end_line",
        "required bump: minor (1 case added, 1 case request-changed, 1 case check-changed)",
        "actual bump: minor (1.0.0 -> 1.1.0)",
    ]:
        assert expected in lines
    assert lines[0] == "version bump ok"


def test_cli_quiet_is_the_verdict_and_the_case_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """--quiet keeps what its help says (docs/commands/diff-suites.md): no suite, prompt or tools
    lines, no case listing."""
    assert main(["diff", "suites", str(V100), str(V110), "-q"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "version bump ok",
        "required bump: minor (1 case added, 1 case request-changed, 1 case check-changed)",
        "actual bump: minor (1.0.0 -> 1.1.0)",
        "cases: 1 added, 0 removed, 1 request-changed, 1 check-changed, 3 unchanged",
    ]


def test_cli_removed_case_needs_major(capsys: pytest.CaptureFixture[str]) -> None:
    """A case removed under a minor bump exits 1 and says why on the last line."""
    assert main(["diff", "suites", str(V100), str(REMOVED)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "  removed:" in lines
    assert "    no_call-01" in lines
    assert "required bump: major (1 case removed)" in lines
    assert lines[0] == "version bump too small: major required, minor made"


@pytest.mark.parametrize(
    ("version", "code", "last"),
    [
        ("1.0.0", 1, "version bump missing: something changed but NEW is still 1.0.0"),
        ("0.9.0", 1, "version bump wrong: NEW 0.9.0 is lower than OLD 1.0.0"),
        ("1.0.1", 1, "version bump too small: minor required, patch made"),
        ("3.0.0", 0, "version bump ok"),
    ],
)
def test_cli_version_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str, code: int, last: str
) -> None:
    """Exit 1 whenever NEW's version is below what its changes need."""
    new = json.loads(V110.read_text())
    new["version"] = version
    path = tmp_path / "new.json"
    path.write_text(json.dumps(new))
    assert main(["diff", "suites", str(V100), str(path)]) == code
    assert capsys.readouterr().out.splitlines()[0] == last


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
def test_cli_different_suites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str
) -> None:
    """Two suites with different names are different suites whatever their versions: exit 1, said
    so, and --cassettes does not rescore across them."""
    other = json.loads(V110.read_text())
    other.update(name="someone-elses-suite", version=version)
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other))
    assert main(["diff", "suites", str(V100), str(path), "--cassettes", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"suite diff-fixture 1.0.0 -> someone-elses-suite {version}"
    assert f"metrics not rescored from {tmp_path}: OLD and NEW are different suites" in lines
    assert lines[0] == (
        "different suites: OLD is 'diff-fixture', NEW is 'someone-elses-suite'; a version bump "
        "only orders versions of one suite, and their scores are not comparable"
    )
    assert not any(line.startswith(("version bump", "required bump")) for line in lines)


def test_cli_same_file_is_ok(capsys: pytest.CaptureFixture[str]) -> None:
    """Diffing a suite with itself changes nothing and needs no bump."""
    assert main(["diff", "suites", str(V100), str(V100)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "cases: 0 added, 0 removed, 0 request-changed, 0 check-changed, 5 unchanged" in lines
    assert "required bump: none (nothing changed)" in lines
    assert lines[0] == "version bump ok"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json", str(V100)], "missing.json: no such suite file"),
        ([str(V100), str(Path(__file__))], "not valid JSON"),
    ],
)
def test_cli_bad_files(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    """A missing or broken suite file is one error line, exit 1."""
    assert main(["diff", "suites", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


# --- --cassettes (against replay.rescore.score_model's and rescore_model's signatures) ------------


def _fake_rescore(calls: list[tuple[str, str]]) -> types.ModuleType:
    """A stand-in replay.rescore whose results depend on the model dir and the suite version it
    is given."""

    def rescore_model(model_dir: Path, suite: Any) -> dict[str, Any]:
        calls.append((model_dir.name, suite.version))
        rate = {"1.0.0": 80.0, "1.1.0": 62.5}[suite.version]
        metrics = {
            name: {"rate": rate}
            for name in (
                "overall",
                "right_tool",
                "valid_arguments",
                "made_up_tool",
                "chains",
                "parallel",
            )
        }
        metrics["no_call_needed"] = {"rate": None}
        results = [{"id": c.id, "status": "passed", "reason": None} for c in suite.cases]
        for result in results if suite.version == "1.1.0" else ():
            if result["id"] == "selection-02":
                result["status"] = "unrecorded"
            if result["id"] == "selection-01":
                result.update(
                    status="failed",
                    reason='step 1: read_file.path: expected eq "README.md", got "x"',
                )
        return {"model": model_dir.name.replace("_", "/"), "metrics": metrics, "results": results}

    def score_model(model_dir: Path, suite: Any) -> Any:
        return types.SimpleNamespace(results=rescore_model(model_dir, suite), unusable=())

    from replay.rescore import find_model_dirs

    module = types.ModuleType("replay.rescore")
    module.rescore_model = rescore_model  # type: ignore[attr-defined]
    module.score_model = score_model  # type: ignore[attr-defined]
    module.find_model_dirs = find_model_dirs  # type: ignore[attr-defined]
    return module


def test_cli_cassettes_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every model dir (with run.json) is rescored under both versions; rates, flips and needed
    recordings shown. A folder without run.json is said out loud (exit 1), and the model dirs
    beside it are still compared."""
    for slug in ("ref_oracle", "ref_noisy"):
        (tmp_path / slug).mkdir()
        (tmp_path / slug / "run.json").write_text("{}")
    (tmp_path / "not_a_model").mkdir()
    calls: list[tuple[str, str]] = []
    monkeypatch.setitem(sys.modules, "replay.rescore", _fake_rescore(calls))
    assert (
        main(["diff", "suites", str(V100), str(V110), "--cassettes", str(tmp_path), "--verbose"])
        == 1
    )
    assert calls == [
        ("ref_noisy", "1.0.0"),
        ("ref_noisy", "1.1.0"),
        ("ref_oracle", "1.0.0"),
        ("ref_oracle", "1.1.0"),
    ]
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert f"metrics rescored from {tmp_path}:" in lines
    assert "model ref/noisy" in lines
    # The same cases are scored under both (selection-02 is new in 1.1.0 and unrecorded):
    # no warning.
    assert lines[lines.index("model ref/noisy") + 2].split() == ["cases", "scored", "5", "5", "+0"]
    assert lines[lines.index("model ref/noisy") + 3].split() == [
        "overall",
        "80.00",
        "62.50",
        "-17.50",
    ]
    assert not any("warning" in line or "unrecorded under" in line for line in lines)
    assert ["no_call_needed", "-", "-", "-"] in [line.split() for line in lines]
    noisy = lines[lines.index("model ref/noisy") : lines.index("model ref/oracle")]
    assert noisy[-4:] == [
        "  passed under 1.0.0, failed under 1.1.0 (1):",
        '    selection-01: step 1: read_file.path: expected eq "README.md", got "x"',
        "  failed under 1.0.0, passed under 1.1.0 (0)",
        "  needs recording under 1.1.0 (1): selection-02",
    ]
    assert lines[0] == "version bump ok"
    folder = tmp_path / "not_a_model"
    message = "no run.json, so not a recorded model dir: record it again or move it away"
    assert captured.err == f"error: {folder}: {message}\n"


def test_cli_cassettes_without_model_dirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cassettes dir with no model dirs is an error naming it."""
    monkeypatch.setitem(sys.modules, "replay.rescore", _fake_rescore([]))
    assert main(["diff", "suites", str(V100), str(V110), "--cassettes", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"error: {tmp_path}: no model dirs (folders with a run.json); record one with "
        "`lobstack-eval record`\n"
    )


def test_cli_cassettes_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Record v1.0.0 from the stand-in gateway, then rescore the same cassettes under v1.0.0
    and v1.1.0.

    ref/oracle passes everything it was asked; under v1.1.0 the added case and the chain whose first
    result changed have no recording (so chains has no rate), while the re-checked arguments-01
    still passes. ref/abstain stops the chain at step 1, so only the added case is missing for it.
    """
    from recorder.record import record
    from recorder.settings import RecordSettings
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    cassettes = tmp_path / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=V100)) as gateway:
        for model in ("ref/oracle", "ref/abstain"):
            record(V100, model, cassettes, gateway.url, IDS, RecordSettings(concurrency=1))
    capsys.readouterr()
    assert (
        main(["diff", "suites", str(V100), str(V110), "--cassettes", str(cassettes), "--verbose"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    oracle = lines[lines.index("model ref/oracle") :]
    abstain = lines[lines.index("model ref/abstain") : lines.index("model ref/oracle")]
    assert oracle[2].split() == ["cases", "scored", "5", "4", "-1"]
    assert oracle[3].split() == ["overall", "100.00", "100.00", "+0.00"]
    assert (
        "  warning: the columns are over different cases; over the 4 scored under both:" in oracle
    )
    assert ["chains", "100.00", "-", "-"] in [line.split() for line in oracle]
    assert "  needs recording under 1.1.0 (2): selection-02, chains-01" in oracle
    assert (
        "  passed under 1.0.0, failed under 1.1.0 (0)" in oracle
    )  # arguments-01's new check still passes
    assert abstain[3].split() == ["overall", "20.00", "20.00", "+0.00"]
    assert "  needs recording under 1.1.0 (1): selection-02" in abstain
    assert lines[0] == "version bump ok"


def test_cli_cassettes_recorded_under_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cassettes recorded under v1.1.0 and diffed against v1.0.0: each side's scored count is shown,
    the cases OLD cannot score are listed, and when the scored sets differ a warning gives the
    rates over the cases scored under both. ref/abstain fails selection-02 (new in 1.1.0): 1 of 6
    passes under 1.1.0 against 1 of 5 under 1.0.0, a drop that is not there over the same five
    cases. ref/oracle's chains-01 asks 1.0.0's step-1 result, which was never recorded."""
    from recorder.record import record
    from recorder.settings import RecordSettings
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    cassettes = tmp_path / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=V110)) as gateway:
        for model in ("ref/oracle", "ref/abstain"):
            record(
                V110,
                model,
                cassettes,
                gateway.url,
                [*IDS, "selection-02"],
                RecordSettings(concurrency=1),
            )
    capsys.readouterr()
    assert (
        main(["diff", "suites", str(V100), str(V110), "--cassettes", str(cassettes), "--verbose"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    abstain = lines[lines.index("model ref/abstain") : lines.index("model ref/oracle")]
    assert [line.split() for line in abstain[2:4]] == [
        ["cases", "scored", "5", "6", "+1"],
        ["overall", "20.00", "16.67", "-3.33"],
    ]
    assert (
        abstain[10]
        == "  warning: the columns are over different cases; over the 5 scored under both:"
    )
    assert [line.split() for line in abstain[12:14]] == [
        ["cases", "scored", "5", "5", "+0"],
        ["overall", "20.00", "20.00", "+0.00"],
    ]
    assert "  needs recording under 1.1.0 (0): -" in abstain
    oracle = lines[lines.index("model ref/oracle") :]
    assert oracle[2].split() == ["cases", "scored", "4", "6", "+2"]
    assert (
        "  warning: the columns are over different cases; over the 4 scored under both:" in oracle
    )
    assert ["chains", "100.00", "-", "-"] not in [line.split() for line in oracle]
    assert ["chains", "-", "100.00", "-"] in [line.split() for line in oracle]
    assert "  unrecorded under 1.0.0 (1): chains-01" in oracle
    assert "  needs recording under 1.1.0 (0): -" in oracle
    # By default the verdict comes first, the comparable table (over the cases scored under both)
    # alone, and a list of cases already named above is not repeated per model; --quiet is one line
    # per model.
    assert main(["diff", "suites", str(V100), str(V110), "--cassettes", str(cassettes)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "version bump ok"
    abstain = lines[lines.index("model ref/abstain") : lines.index("model ref/oracle")]
    assert (
        abstain[1] == "  cases scored: 5 under 1.0.0, 6 under 1.1.0; over the 5 scored under both:"
    )
    assert abstain[3].split() == ["overall", "20.00", "20.00", "+0.00"]
    assert not any("warning" in line for line in abstain)
    assert (
        main(["diff", "suites", str(V100), str(V110), "--cassettes", str(cassettes), "--quiet"])
        == 0
    )
    quiet = capsys.readouterr().out.splitlines()
    assert quiet[0] == "version bump ok"
    assert [line for line in quiet if line.startswith("model ")] == [
        "model ref/abstain: overall 20.00 under 1.0.0, 16.67 under 1.1.0 (-3.33); 0 flip(s); 0 "
        "need recording",
        "model ref/oracle: overall 100.00 under 1.0.0, 100.00 under 1.1.0 (+0.00); 0 flip(s); 0 "
        "need recording",
    ]
    assert not any(line.startswith("    ") for line in quiet)  # no case listed


def test_rescores_with_no_case_scored_under_both() -> None:
    """Scored sets with nothing in common: the warning says so and no second table is printed."""
    from replay.diff_suites import ModelRescore, format_rescores
    from replay.diff_suites.rescore_both import Common

    none = (None,) * 7
    row = ModelRescore(
        "m",
        (100.0, *none[1:]),
        none,
        (),
        scored_old=1,
        scored_new=0,
        unrecorded_old=(),
        common=Common(0, none, none),
    )
    lines = format_rescores((row,), "1.0.0", "2.0.0").splitlines()
    assert lines[2].split() == ["cases", "scored", "1", "0", "-1"]
    assert (
        lines[10]
        == "  warning: the columns are over different cases, and no case is scored under both"
    )
    assert lines[11:] == [
        "  passed under 1.0.0, failed under 2.0.0 (0)",
        "  failed under 1.0.0, passed under 2.0.0 (0)",
        "  needs recording under 2.0.0 (0): -",
    ]
