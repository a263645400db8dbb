"""``suite new``: a starting suite from a tools file or a live MCP server (real servers from the
package registry, over stdio), checked, audited, recorded against the stand-in, rescored and run
by the plugin."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from recorder.record import record
from recorder.settings import RecordSettings
from scorer import parse_suite
from standin import GatewayConfig, StandInGateway, parse_faults
from tests.conftest import ROOT

BIN = Path(sys.executable).parent
TIMEOUT_S = 300
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "set_thermostat",
            "description": "Set the thermostat of a room.",
            "parameters": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "room": {"$ref": "#/$defs/Room"},
                    "celsius": {"type": "integer", "exclusiveMinimum": 4, "maximum": 30},
                    "mode": {"type": "string", "enum": ["heat", "cool", "auto"], "default": "auto"},
                    "until": {"type": "string", "format": "date-time"},
                    "eco": {"type": "boolean", "default": False},
                },
                "required": ["room", "celsius"],
                "$defs": {"Room": {"type": "string", "enum": ["kitchen", "office", "bedroom"]}},
            },
        },
    },
    {
        "name": "lights",  # a bare function, as some tools files have them
        "description": "Turn the lights of a room on or off.",
        "parameters": {
            "type": "object",
            "properties": {
                "room": {"type": "string", "minLength": 2, "maxLength": 20},
                "on": {"type": "boolean"},
                "level": {"anyOf": [{"type": "integer"}, {"type": "null"}], "minimum": 0},
            },
            "required": ["room", "on"],
        },
    },
]


def new(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["suite", "new", *args])
    out, err = capsys.readouterr()
    return code, out, err


def audit_summary(
    suite: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> dict[str, Any]:
    report = tmp_path / f"{suite.stem}-audit.json"
    assert main(["suite", "audit", str(suite), "--json", str(report)]) == 0, capsys.readouterr()
    capsys.readouterr()
    return json.loads(report.read_text(encoding="utf-8"))["summary"]


def test_a_tools_file_gives_a_checked_audited_draft_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no OUT: the default evals/suite.json, evals/ made
    tools = tmp_path / "home-tools.json"
    tools.write_text(json.dumps(TOOLS), encoding="utf-8")
    out = Path("evals/suite.json")
    code, said, _ = new(tmp_path, capsys, "--tools", str(tools), "--released", "2026-12-05")
    assert code == 0
    assert said.splitlines()[0] == (
        f"wrote {out}: home-tools 0.1.0, 2 tools, 9 cases, every case a draft"
    )
    # The closing hint in the lower-case style of every command's status lines (record, merge).
    assert said.splitlines()[-1] == (
        f"next: rewrite the drafts' requests, then `lobstack-eval suite check {out}` and "
        f"`lobstack-eval suite audit {out}`"
    )
    # The model is sent each schema whole, so nothing differs from the origin: no schema note.
    assert "schema note" not in said
    suite = parse_suite(out.read_bytes(), str(out))
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["origin"]["kind"] == "tools_file" and document["origin"]["tools"] == TOOLS
    assert [c.id for c in suite.cases] == [
        "select-set_thermostat",
        "args-set_thermostat",
        "select-lights",
        "args-lights",
        "parallel-set_thermostat-lights",
        "no-call-small-talk",
        "no-call-cannot",
        "no-call-hold",
        "no-call-general",
    ]
    by_id = {c.id: c for c in suite.cases}
    assert all(c.draft for c in suite.cases)
    args = by_id["args-set_thermostat"].steps[0].calls[0].reference
    # An enum's second member (the $ref followed), inside an exclusive bound (> 4), defaults
    # avoided, a date-time (an end: an hour after the usual start).
    assert args == {
        "room": "office",
        "celsius": 5,
        "mode": "cool",
        "until": "2026-03-14T10:30:00Z",
        "eco": True,
    }
    for listed, tool in ((TOOLS[0]["function"], "set_thermostat"), (TOOLS[1], "lights")):
        assert suite.tools[tool].spec["function"]["parameters"] == listed["parameters"]
    # Valid arguments checks the whole schema: the $ref'd enum, exclusiveMinimum, the format.
    assert suite.tools["set_thermostat"].errors({**args, "room": "attic"})
    assert suite.tools["set_thermostat"].errors({**args, "celsius": 4})
    assert suite.tools["set_thermostat"].errors({**args, "until": "tomorrow"})
    assert main(["suite", "check", str(out)]) == 0
    assert "drafts: 9 of 9 cases still say what to edit" in capsys.readouterr().out
    summary = audit_summary(out, capsys, tmp_path)
    assert summary["survivors"] == 0 and summary["rejected"] == 0
    assert summary["mutants_tried"] > 40


def test_a_value_the_schema_does_not_let_it_make_is_named_for_the_author(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = tmp_path / "tools.json"
    odd = {"type": "string", "minLength": 5, "maxLength": 3}  # no string fits
    tools.write_text(
        json.dumps(
            [
                {
                    "name": "ticket",
                    "parameters": {
                        "type": "object",
                        "properties": {"key": odd},
                        "required": ["key"],
                    },
                }
            ]
        ),
        encoding="utf-8",
    )
    out = tmp_path / "suite.yaml"
    code, _, err = new(tmp_path, capsys, str(out), "--tools", str(tools))
    assert code == 1
    lines = err.splitlines()
    assert (
        lines[0].startswith(f"to decide: {out}: line ")
        and "case select-ticket.steps[0].calls[0].reference: does not validate against ticket's "
        in (lines[0])
    )
    assert "'key' is a required property" in lines[0]
    assert lines[-1] == f"error: {out}: 1 thing(s) to decide before it loads (listed above)"
    assert "decide a value for key" in out.read_text(encoding="utf-8")


PAINT = [
    {
        "type": "function",
        "function": {
            "name": "paint",
            "description": "Paint",
            "parameters": {
                "type": "object",
                "properties": {
                    "colors": {
                        "type": "array",
                        "items": {"type": "string", "enum": ["red", "green", "blue"]},
                        "minItems": 2,
                    },
                    "ids": {
                        "type": "array",
                        "items": {"type": "string", "pattern": "^[a-z]+$"},
                        "minItems": 2,
                    },
                    "n": {
                        "type": "array",
                        "items": {"type": "integer", "maximum": 1},
                        "minItems": 3,
                    },
                    "tags": {
                        "type": "array",
                        "items": {"type": "string", "maxLength": 4},
                        "minItems": 2,
                    },
                },
                "required": ["colors", "ids", "n", "tags"],
            },
        },
    }
]


def test_array_items_after_the_first_fit_their_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Items numbered "green 2", "sek 2", 1 + 1, "fina 2" broke the item schema: the arguments
    # were left to decide (exit 1). Each is now an item the schema takes.
    tools = tmp_path / "t.json"
    tools.write_text(json.dumps(PAINT), encoding="utf-8")
    out = tmp_path / "out.json"
    code, said, err = new(tmp_path, capsys, "--tools", str(tools), str(out))
    assert (code, err) == (0, "")
    assert said.splitlines()[0] == f"wrote {out}: t 0.1.0, 1 tools, 5 cases, every case a draft"
    suite = parse_suite(out.read_bytes(), str(out))
    reference = {c.id: c for c in suite.cases}["select-paint"].steps[0].calls[0].reference
    assert reference == {
        "colors": ["green", "red"],
        "ids": ["sek", "vkb"],
        "n": [1, 0, -1],
        "tags": ["fina", "fin2"],
    }
    assert suite.tools["paint"].errors(reference) == []
    assert main(["suite", "check", str(out)]) == 0


def _greet(name: dict[str, Any]) -> list[dict[str, Any]]:
    params = {"type": "object", "properties": {"name": name}, "required": ["name"]}
    return [{"type": "function", "function": {"name": "greet", "parameters": params}}]


_LETTERS = {"type": "string", "pattern": "^\\p{L}+$", "enum": ["Ada", "Bob"]}


@pytest.mark.parametrize(
    ("name", "reference"),
    [
        # An enum gives its second member (samples.py), the next item the first.
        (_LETTERS, {"name": "Bob"}),
        ({"type": "array", "items": _LETTERS, "minItems": 2}, {"name": ["Bob", "Ada"]}),
    ],
)
def test_a_pattern_only_re2_reads_is_drafted_checked_and_audited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: Any, reference: Any
) -> None:
    # \p{L} (a letter): the draft's check ran it by Python's re, which ended in a traceback
    # ("bad escape \p"); it runs by RE2 as every other pattern does.
    tools = tmp_path / "t9.json"
    tools.write_text(json.dumps(_greet(name)), encoding="utf-8")
    out = tmp_path / "o9.json"
    code, said, err = new(tmp_path, capsys, "--tools", str(tools), str(out))
    assert (code, err) == (0, "")
    assert said.splitlines()[0] == f"wrote {out}: t9 0.1.0, 1 tools, 5 cases, every case a draft"
    suite = parse_suite(out.read_bytes(), str(out))
    call = {c.id: c for c in suite.cases}["select-greet"].steps[0].calls[0]
    assert call.reference == reference
    assert main(["suite", "check", str(out)]) == 0
    summary = audit_summary(out, capsys, tmp_path)
    assert (summary["mutants_killed"], summary["rights_accepted"]) == (summary["mutants_tried"], 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give exactly one of --tools FILE or --mcp SERVER"),
        (["--tools", "a.json", "--mcp", "x"], "give exactly one of --tools FILE or --mcp SERVER"),
        (["--tools", "missing.json"], "missing.json"),
        (["--tools", "tools.json", "--name", "lobstack-mine"], "is a Lobstack suite"),
        (["--tools", "tools.json", "--chain", "lights"], "--chain: needs --mcp"),
        (["--mcp", "no-such-command-h9", "--chain", "t={oops"], "the arguments are not JSON"),
        (["--tools", "tools.json", "--released", "5 Dec"], "must be a YYYY-MM-DD date"),
        (["--tools", "tools.json", "--released", "2026-13-01"], "must be a YYYY-MM-DD date"),
        (["--tools", "tools.json", "--released", "2026-02-30"], "must be a YYYY-MM-DD date"),
        (["--mcp", "no-such-command-h9"], "the server command 'no-such-command-h9' was not found"),
        (["--mcp", f"{sys.executable} -c 'import sys; sys.exit(3)'"], "cannot list its tools: "),
    ],
)
def test_bad_input_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    args: list[str], message: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    code, _, err = new(tmp_path, capsys, "suite.json", *args, "--timeout", "20")
    assert code in (1, 2)
    assert err.count("error: ") == 1 and message in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "suite.json").exists()


@pytest.mark.parametrize(
    ("server", "line"),
    [
        ("nosuchcmd-xyz", "the server command 'nosuchcmd-xyz' was not found on PATH"),
        ("./no/such/server --stdio", "the server command './no/such/server' was not found"),
        ("tools.json", None),  # a file, not a program: set below
        ("srv 'unclosed", "not a command line: No closing quotation"),
    ],
)
def test_a_server_command_that_cannot_start_is_named_before_asking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    server: str, line: str | None,
) -> None:  # fmt: skip
    """No FileNotFoundError: one line naming the program, and no "asking ... for its tools"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    if server == "tools.json":
        server = str(tmp_path / "tools.json")
        line = f"the server command {server!r} is not an executable file"
    code, out, err = new(tmp_path, capsys, "suite.json", "--mcp", server)
    assert (code, out) == (1, "")
    assert err == f"error: --mcp {server}: {line}\n"
    assert not (tmp_path / "suite.json").exists()


def test_an_existing_file_is_kept_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools, out = tmp_path / "tools.json", tmp_path / "suite.json"
    tools.write_text(json.dumps(TOOLS), encoding="utf-8")
    out.write_text("{}", encoding="utf-8")
    assert new(tmp_path, capsys, str(out), "--tools", str(tools))[0] == 2
    assert out.read_text(encoding="utf-8") == "{}"
    assert new(tmp_path, capsys, str(out), "--tools", str(tools), "--force")[0] == 0
    assert json.loads(out.read_text(encoding="utf-8"))["name"] == "tools"


def run_plugin(project: Path, suite: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
         "--lobstack-cassettes", "cassettes", "--lobstack-suite", str(suite), "-o", "testpaths=."],
        cwd=project, capture_output=True, text=True, timeout=TIMEOUT_S,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("server", "suffix"), [("mcp-server-git", "json"), ("mcp-server-time", "yaml")]
)
def test_a_live_mcp_server_to_a_scored_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], server: str, suffix: str
) -> None:
    """suite new --mcp (a real server over stdio) -> check -> audit -> record ref/oracle and
    ref/noisy against the stand-in -> rescore -> the plugin."""
    suite = tmp_path / "evals" / f"suite.{suffix}"
    suite.parent.mkdir()  # a given OUT's folder must exist
    chain: list[str] = []
    if server == "mcp-server-git":  # a chain whose scripted result is the server's own answer
        repo = tmp_path / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=60)
        subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.com",
             "commit", "-q", "--allow-empty", "-m", "first commit of the chain test"],
            check=True, timeout=60,
        )  # fmt: skip
        chain = ["--chain", f"git_log={json.dumps({'repo_path': str(repo), 'max_count': 1})}"]
    code, _said, err = new(
        tmp_path, capsys, str(suite), "--mcp", str(BIN / server), "--timeout", "120", *chain
    )
    assert code == 0, err
    document = parse_suite(suite.read_bytes(), str(suite))
    listed = _listed(suite)
    assert listed["origin"]["kind"] == "mcp"
    assert listed["origin"]["server"]["name"] == {"mcp-server-git": "mcp-git"}.get(
        server, "mcp-time"
    )
    names = [tool["name"] for tool in listed["origin"]["tools"]]
    # A selection case for every tool the server lists.
    assert {c.steps[0].calls[0].name for c in document.cases if c.group == "selection"} == set(
        names
    )
    assert main(["suite", "check", str(suite)]) == 0
    capsys.readouterr()
    summary = audit_summary(suite, capsys, tmp_path)
    assert summary["mutants_killed"] / summary["mutants_tried"] >= 0.9
    assert summary["rights_accepted"] == summary["rights_tried"] and summary["rejected"] == 0
    ids = [c.id for c in document.cases]
    with StandInGateway(GatewayConfig(suite_path=suite, faults=parse_faults(""))) as gateway:
        for model in ("ref/oracle", "ref/noisy"):
            record(
                suite,
                model,
                tmp_path / "cassettes",
                gateway.url,
                ids,
                RecordSettings(concurrency=1),
            )
    reports = tmp_path / "reports"
    args = ["rescore", str(tmp_path / "cassettes"), "--suite", str(suite), "--out", str(reports)]
    assert main([*args, "-q"]) == 0
    capsys.readouterr()
    overall = {
        slug: json.loads((reports / slug / "results.json").read_text())["metrics"]["overall"][
            "rate"
        ]
        for slug in ("ref_oracle", "ref_noisy")
    }
    assert overall["ref_oracle"] == 100.0 and overall["ref_noisy"] < 100.0
    if chain:
        taken = document.case("chain-git_log").steps[0].calls[0].result
        assert taken is not None and "Message: first commit of the chain test" in taken
        chains = json.loads((reports / "ref_oracle" / "results.json").read_text())["metrics"][
            "chains"
        ]
        assert (chains["count"], chains["of"]) == (1, 1)
        # The model got the stored result back; nothing asked the server again (it is not running).
        cassette = json.loads(
            (tmp_path / "cassettes" / "ref_oracle" / "chain-git_log.json").read_text()
        )
        second = json.loads(cassette["interactions"][1]["request"]["body"])
        assert second["messages"][-1] == {
            "role": "tool",
            "tool_call_id": second["messages"][-2]["tool_calls"][0]["id"],
            "content": taken,
        }
    done = run_plugin(tmp_path, suite)
    assert done.returncode == 1, done.stdout[-2000:]  # ref/noisy fails some cases
    passed = sum(
        r["status"] == "passed"
        for slug in ("ref_oracle", "ref_noisy")
        for r in json.loads((reports / slug / "results.json").read_text())["results"]
    )
    assert f"{passed} passed" in done.stdout.splitlines()[-1]


def _listed(suite: Path) -> dict[str, Any]:
    from scorer.suite.file import decode_suite

    return decode_suite(suite.read_bytes(), str(suite))[0]


def test_the_installed_servers_are_the_registry_packages() -> None:
    """The end-to-end test's servers are the real packages (dev dependencies), not stand-ins."""
    for server in ("mcp-server-git", "mcp-server-time"):
        assert (BIN / server).is_file(), server
    assert shutil.which("git") is not None
    assert (ROOT / "pyproject.toml").read_text(encoding="utf-8").count("mcp-server-") >= 2


def test_own_groups_ids_and_origin_are_checked_like_the_rest() -> None:
    from scorer import check_suite
    from scorer.suite.file import decode_suite

    data = decode_suite((ROOT / "tests/fixtures/own_tools/suite.yaml").read_bytes(), "s.yaml")[0]
    data["origin"] = {"kind": "mcpp", "server": {"name": "x"}, "tools": [{}], "schema_note": []}
    data["cases"][0]["group"] = ""
    data["cases"][1]["draft"] = 3
    report = check_suite(json.dumps(data).encode(), "s.json")
    assert report.problems == (
        'origin: unknown key "schema_note" (did you mean "schema_notes"?)',
        "origin.kind: 'mcpp' is not one of mcp, tools_file",
        "origin.server.version: missing or not a non-empty string",
        "case find-budget.group: missing or not a string of 1 to 64 characters",
        "case remind-dentist.draft: must be a non-empty string (what to edit)",
    )
    # The same cases under a Lobstack name: the method page's groups and ids apply.
    data = decode_suite((ROOT / "tests/fixtures/own_tools/suite.yaml").read_bytes(), "s.yaml")[0]
    data["name"] = "lobstack-notes"
    problems = check_suite(json.dumps(data).encode(), "s.json").problems
    assert problems[0] == (
        "case find-budget.group: 'lookup' is not one of selection, arguments, near_misses, "
        "no_call, parallel, chains"
    )
    assert len(problems) == 5


@pytest.mark.slow
def test_a_server_over_streamable_http(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--mcp http://...``: an SDK-built server on 127.0.0.1 (its port picked by the OS),
    stopped after."""
    script = ROOT / "tests" / "fixtures" / "mcp_http" / "server.py"
    process = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        port = int(
            process.stdout.readline()
        )  # printed once the socket is bound: it accepts from now on
        suite = tmp_path / "suite.yaml"
        url = f"http://127.0.0.1:{port}/mcp"
        code, said, err = new(tmp_path, capsys, str(suite), "--mcp", url, "--timeout", "60")
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert code == 0, err
    assert (
        said.splitlines()[0]
        == f"wrote {suite}: notes-http 0.1.0, 2 tools, 11 cases, every case a draft"
    )
    origin = _listed(suite)["origin"]
    assert origin["server"] == {"name": "notes-http", "version": "1.2.3"}
    assert [tool["name"] for tool in origin["tools"]] == ["search_notes", "get_note"]
    assert main(["suite", "check", str(suite)]) == 0
    capsys.readouterr()
    summary = audit_summary(suite, capsys, tmp_path)
    assert summary["survivors"] == 0 and summary["rejected"] == 0
