"""Unknown keys in a suite file: listed by ``suite check``, refused by every command that reads
a suite."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer import check_suite
from tests.conftest import ROOT
from tests.suitekit import TOOLS, case, suite_dict

PUBLISHED = ROOT / "evals" / "suite.json"
ONE_CASE = [
    case(
        "chains-01",
        [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "read_file",
                        "args": {"path": {"eq": "a"}},
                        "reference": {"path": "a"},
                        "result": "b",
                    }
                ],
            },
            {"expect": "none"},
        ],
        group="chains",
    )
]


def renamed_args(path: Path) -> tuple[Path, int]:
    """The published suite with "args" misspelt "argz" in every expected call, and how many calls
    that is."""
    doc = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    count = 0
    for raw_case in doc["cases"]:
        for step in raw_case["steps"]:
            for call in step.get("calls", []):
                if "args" in call:
                    call["argz"] = call.pop("args")
                    count += 1
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path, count


def test_suite_check_lists_every_misspelt_args(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo, count = renamed_args(tmp_path / "typo.json")
    assert (
        count > 80
    )  # every case but no_call's has a call with checks; parallel cases have several
    assert main(["suite", "check", str(typo)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    unknown = [line for line in lines if 'unknown key "argz" (did you mean "args"?)' in line]
    assert len(unknown) == count
    assert (
        f'{typo}: case selection-01.steps[0].calls[0]: unknown key "argz" (did you mean "args"?)'
        in lines
    )
    assert f"error: {typo}: {count} problem(s)" in captured.err
    assert "is valid" not in captured.out


def test_rescore_refuses_the_misspelt_suite_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo, count = renamed_args(tmp_path / "typo.json")
    out = tmp_path / "reports"
    assert (
        main(
            [
                "rescore",
                str(ROOT / "cassettes"),
                "--suite",
                str(typo),
                "--out",
                str(out),
                "--no-html",
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert err == (
        f'error: {typo}: case selection-01.steps[0].calls[0]: unknown key "argz" (did you mean '
        '"args"?) '
        f"(and {count - 1} more; run `lobstack-eval suite check {typo}`)\n"
    )
    assert not list(out.rglob("results.json"))


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0].update(refrence={"path": "a"}),
            'case chains-01.steps[0].calls[0]: unknown key "refrence" (did you mean "reference"?)',
        ),
        (
            lambda d: d["cases"][0]["steps"][1].update(callz=[]),
            'case chains-01.steps[1]: unknown key "callz" (did you mean "calls"?)',
        ),
        (
            lambda d: d["cases"][0].update(Steps=[]),
            'case chains-01: unknown key "Steps" (did you mean "steps"?)',
        ),
        (
            lambda d: d["cases"][0].update(notes="x"),
            'case chains-01: unknown key "notes" (known keys: "draft", "group", "id", "messages", '
            '"steps", "tools")',
        ),
        (
            lambda d: d.update(sytem_prompt="x"),
            '(top level): unknown key "sytem_prompt" (did you mean "system_prompt"?)',
        ),
        (lambda d: d.update({"$schema": "x"}), '(top level): unknown key "$schema" (known keys: '),
        (
            lambda d: d["tools"]["read_file"].update(strict=True),
            'tools.read_file: unknown key "strict" (known keys: "function", "type")',
        ),
        (
            lambda d: d["tools"]["read_file"]["function"].update(descripton="x"),
            'tools.read_file.function: unknown key "descripton" (did you mean "description"?)',
        ),
        (
            lambda d: d["cases"][0]["messages"][0].update(contnet="x"),
            'case chains-01.messages[0]: unknown key "contnet" (did you mean "content"?)',
        ),
        (
            lambda d: d["cases"][0].pop("id") and d["cases"][0].update(ID="chains-01"),
            'cases[0]: unknown key "ID" (did you mean "id"?)',
        ),
    ],
)
def test_unknown_key_names_its_path_and_the_closest_known_key(  # type: ignore[no-untyped-def]
    mutate,
    expected: str,
) -> None:
    doc = suite_dict(copy.deepcopy(ONE_CASE), copy.deepcopy(TOOLS))
    mutate(doc)
    report = check_suite(json.dumps(doc).encode(), "s.json")
    assert report.suite is None
    assert any(problem.startswith(expected) for problem in report.problems), report.problems


def test_unknown_keys_are_listed_with_the_other_problems_in_one_run() -> None:
    doc = suite_dict(copy.deepcopy(ONE_CASE), copy.deepcopy(TOOLS))
    call = doc["cases"][0]["steps"][0]["calls"][0]
    call["refrence"] = call.pop("reference")
    doc["cases"][0]["stepz"] = []
    problems = check_suite(json.dumps(doc).encode(), "s.json").problems
    assert problems == (
        'case chains-01: unknown key "stepz" (did you mean "steps"?)',
        'case chains-01.steps[0].calls[0]: unknown key "refrence" (did you mean "reference"?)',
        "case chains-01.steps[0].calls[0].reference: missing or not an argument object",
    )


def test_chat_message_fields_are_known() -> None:
    """Messages go to the gateway as written: the chat-completions message fields are not typos."""
    doc = suite_dict(copy.deepcopy(ONE_CASE), copy.deepcopy(TOOLS))
    doc["cases"][0]["messages"] = [
        {"role": "user", "content": "hi", "name": "ana"},
        {"role": "assistant", "content": "", "tool_calls": []},
        {"role": "tool", "content": "x", "tool_call_id": "c1"},
        {"role": "user", "content": "go on"},
    ]
    assert check_suite(json.dumps(doc).encode(), "s.json").problems == ()


def suites_in_repo() -> list[Path]:
    files = subprocess.run(
        ["git", "ls-files", "*.json"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found = []
    for name in files.stdout.split():
        try:
            data: Any = json.loads((ROOT / name).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(data, dict) and {"cases", "tools", "system_prompt"} <= set(data):
            found.append(ROOT / name)
    return found


def test_every_suite_in_the_repo_has_only_known_keys() -> None:
    suites = suites_in_repo()
    assert {
        ROOT / "evals/suite.json",
        ROOT / "evals/suite-1.0.0.json",
        ROOT / "evals/suite-1.1.0.json",
        ROOT / "tests/fixtures/mini_suite.json",
    } <= set(suites)
    for path in suites:
        assert check_suite(path.read_bytes(), str(path)).problems == (), path


def test_diff_suites_refuses_a_misspelt_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo, count = renamed_args(tmp_path / "typo.json")
    assert main(["diff", "suites", str(PUBLISHED), str(typo)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        f'error: {typo}: case selection-01.steps[0].calls[0]: unknown key "argz"'
    )
    assert f"(and {count - 1} more" in captured.err


def test_record_refuses_a_misspelt_key_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = suite_dict(copy.deepcopy(ONE_CASE), copy.deepcopy(TOOLS))
    doc["cases"][0]["steps"][0]["calls"][0]["argz"] = doc["cases"][0]["steps"][0]["calls"][0].pop(
        "args"
    )
    typo = tmp_path / "typo.json"
    typo.write_text(json.dumps(doc), encoding="utf-8")
    cassettes = tmp_path / "cassettes"
    # Port 9 (discard) on loopback: a request would fail as a network error, not as this
    # suite error.
    args = ["record", "--model", "ref/oracle", "--suite", str(typo), "--cassettes", str(cassettes)]
    assert main([*args, "--base-url", "http://127.0.0.1:9/v1"]) == 1
    err = capsys.readouterr().err
    assert (
        err == f'error: {typo}: case chains-01.steps[0].calls[0]: unknown key "argz" (did you mean '
        '"args"?)\n'
    )
    assert not cassettes.exists()


def test_report_refuses_a_misspelt_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo, _ = renamed_args(tmp_path / "typo.json")
    reports = ROOT / "tests" / "fixtures" / "reports_sample"
    out = tmp_path / "reports"
    out.mkdir()
    for results in reports.glob("*/results.json"):
        (out / results.parent.name).mkdir()
        (out / results.parent.name / "results.json").write_bytes(results.read_bytes())
    assert main(["report", str(out), "--suite", str(typo)]) == 1
    assert 'unknown key "argz" (did you mean "args"?)' in capsys.readouterr().err
    assert not (out / "index.html").exists()


def test_every_objects_unknown_key_in_file_order() -> None:
    from scorer.suite.keys import hint, unknown_key_problems

    call = {"name": "t", "argz": {}, "audit_accept": [{"arg": "a", "kinds": "x"}, "x"]}
    document = {
        "nme": "x",
        "origin": {"kind": "mcp", "server": {"name": "s", "vers": "1"}, "tools": [{"any": 1}]},
        "tools": {"t": {"type": "function", "fn": 1, "function": {"name": "t", "parameter": {}}}},
        "cases": [
            {"id": "c1", "Group": "g", "messages": [{"role": "user", "text": "hi"}, "m"]},
            {"steps": [{"expect": "call", "call": [], "calls": [call]}, "s"], "ID": "x"},
            {"id": "", "zzz": 1},
            "case",
        ],
        "extra": 1,
    }
    at = "cases[1].steps[0]"
    assert unknown_key_problems(document) == [
        '(top level): unknown key "nme" (did you mean "name"?)',
        '(top level): unknown key "extra" (known keys: "cases", "name", "origin", "released", '
        '"system_prompt", "tools", "version")',
        'origin.server: unknown key "vers" (did you mean "version"?)',
        'tools.t: unknown key "fn" (known keys: "function", "type")',
        'tools.t.function: unknown key "parameter" (did you mean "parameters"?)',
        'case c1: unknown key "Group" (did you mean "group"?)',
        'case c1.messages[0]: unknown key "text" (known keys: "content", "name", "role", '
        '"tool_call_id", "tool_calls")',
        'cases[1]: unknown key "ID" (did you mean "id"?)',
        f'{at}: unknown key "call" (did you mean "calls"?)',
        f'{at}.calls[0]: unknown key "argz" (did you mean "args"?)',
        f'{at}.calls[0].audit_accept[0]: unknown key "kinds" (did you mean "kind"?)',
        'cases[2]: unknown key "zzz" (known keys: "draft", "group", "id", "messages", "steps", '
        '"tools")',
    ]
    assert unknown_key_problems([document]) == []
    assert unknown_key_problems({"origin": [], "tools": [], "cases": {}}) == []
    assert unknown_key_problems({"origin": {"server": "s"}, "tools": {"t": {"function": 1}}}) == []
    # Letter case alone: the closest key by its lower case.
    assert hint("SYSTEM_PROMPT", ("system_prompt", "name")) == 'did you mean "system_prompt"?'
    assert hint("x\u00e9", ("a",)) == 'known keys: "a"'
    assert hint("note", ("steps", "notes")) == 'did you mean "notes"?'
    assert hint("nots", ("steps",)) == 'known keys: "steps"'


def test_a_non_ascii_key_is_quoted_as_written() -> None:
    from scorer.suite.keys import unknown_key_problems

    assert unknown_key_problems({"nàme": 1}) == [
        '(top level): unknown key "nàme" (did you mean "name"?)'
    ]


def test_an_unknown_key_of_origin_names_origin() -> None:
    from scorer.suite.keys import unknown_key_problems

    assert unknown_key_problems({"origin": {"kind": "mcp", "sever": "s"}}) == [
        'origin: unknown key "sever" (did you mean "server"?)'
    ]


def test_a_document_of_known_top_keys_only_has_no_problem() -> None:
    from scorer.suite.keys import unknown_key_problems

    assert unknown_key_problems({"name": "x"}) == []
