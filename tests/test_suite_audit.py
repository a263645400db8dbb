"""``suite audit``: the shipped suite passes its own audit; a suite whose checks were loosened, or
made unfair, is caught and named case by case and argument by argument; markers, --json and the
judge it shares with rescore."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer.audit import audit_suite
from scorer.suite.accepts import parse_accepts
from scorer.suite.file import parse_suite
from scorer.suite.model import AuditAccept
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"
LOOSENED = {"selection-03", "arguments-01", "arguments-04", "parallel-01"}


def _suite() -> dict[str, Any]:
    return json.loads(SUITE.read_text(encoding="utf-8"))


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _calls(data: dict[str, Any], case_id: str) -> list[dict[str, Any]]:
    case = next(c for c in data["cases"] if c["id"] == case_id)
    return [call for step in case["steps"] for call in step.get("calls", [])]


def _audit(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, dict[str, Any], str]:
    out = tmp_path / "audit.json"
    code = main(["suite", "audit", str(path), "--json", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8")), capsys.readouterr().out


def _named(document: dict[str, Any], kind: str) -> set[tuple[str, str]]:
    """(case id, tool.arg) of every unaccepted survivor (``survivors``) or refused right answer
    (``rejected``)."""
    return {
        (case["id"], f"{f['tool']}.{f['arg']}")
        for case in document["cases"]
        for f in case[kind]
        if f["accepted"] is None
    }


def test_the_shipped_suite_passes_its_own_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, out = _audit(SUITE, tmp_path, capsys)
    assert code == 0, out
    assert "SURVIVES" not in out and "REJECTED" not in out and "STALE" not in out
    summary = document["summary"]
    # The figures the README's tour quotes, checked by hand against the printed lines.
    assert (summary["mutants_tried"], summary["mutants_killed"], summary["accepted_survivors"]) == (
        1036,
        998,
        38,
    )
    assert (summary["rights_tried"], summary["rights_accepted"], summary["rejected"]) == (
        260,
        260,
        0,
    )
    assert out.splitlines()[-1] == (
        "lobstack-tool-calling 1.2.0: mutation score 998/1036 killed (96.3%); 38 survived, 38 of "
        "them accepted by the suite; right answers 260/260 accepted"
    )
    assert "998/1036" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(document["cases"]) == 80 and all(case["passed"] for case in document["cases"])


def test_loosened_checks_are_named_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _suite()
    loosened: set[tuple[str, str]] = set()
    for case_id in LOOSENED:
        for call in _calls(data, case_id):
            call["args"] = {arg: {"present": True} for arg in call["args"]}
            loosened |= {(case_id, f"{call['name']}.{arg}") for arg in call["args"]}
    code, document, out = _audit(_write(tmp_path / "loose.json", data), tmp_path, capsys)
    assert code == 1
    assert _named(document, "survivors") == loosened
    assert _named(document, "rejected") == set()
    assert (
        "SURVIVES selection-03 steps[0].calls[0] git_log.max_count [off_by_one] 6: passes present"
        in out
    )
    assert {c["id"] for c in document["cases"] if not c["passed"]} == LOOSENED


def test_an_unfair_check_is_named_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _suite()
    content = _calls(data, "arguments-08")[0]["args"]["content"]
    content["oneOf"] = [
        text for text in content["oneOf"] if text.endswith("\n")
    ]  # no final newline: refused
    _calls(data, "selection-02")[0]["args"]["query"] = {
        "regex": "(?-i:legacy_charge)"
    }  # case-sensitive
    code, document, out = _audit(_write(tmp_path / "unfair.json", data), tmp_path, capsys)
    assert code == 1
    assert _named(document, "rejected") == {
        ("arguments-08", "write_file.content"),
        ("selection-02", "search_files.query"),
    }
    assert _named(document, "survivors") == set()
    kinds = {f["kind"] for case in document["cases"] for f in case["rejected"]}
    assert kinds == {"final_newline", "case_variant"}
    assert (
        "REJECTED selection-02 steps[0].calls[0] search_files.query [case_variant] "
        '"LEGACY_CHARGE(": refused by' in out
    )


def test_a_marker_that_matches_nothing_is_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _suite()
    _calls(data, "selection-03")[0]["audit_accept"] = [
        {"arg": "max_count", "kind": "off_by_one", "reason": "a stale excuse: eq 5 kills it"}
    ]
    code, document, out = _audit(_write(tmp_path / "stale.json", data), tmp_path, capsys)
    assert code == 1
    assert document["cases"][[c["id"] for c in document["cases"]].index("selection-03")][
        "stale_accepts"
    ] == [
        "steps[0].calls[0].audit_accept[0]: max_count off_by_one matches no surviving wrong answer"
    ]
    assert "STALE selection-03 " in out


def test_an_accepted_survivor_is_reported_as_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, out = _audit(SUITE, tmp_path, capsys)
    assert code == 0
    six = next(c for c in document["cases"] if c["id"] == "arguments-06")
    assert [(f["arg"], f["kind"], f["value"], f["check"]) for f in six["survivors"]] == [
        ("max_results", "off_by_one", 9, 'range {"max": 10, "min": 8}')
    ]
    assert six["survivors"][0]["accepted"].startswith("The request says at least 8")
    assert (
        "ACCEPTED arguments-06 steps[0].calls[0] web_search.max_results [off_by_one] 9: passes "
        "range" in out
    )


@pytest.mark.parametrize(
    ("marker", "problem"),
    [
        ({"arg": "x", "kind": "off_by_one", "reason": "r", "why": 1}, 'unknown key "why"'),
        ({"arg": "x", "kind": "sideways", "reason": "r"}, "kind: must be one of"),
        ({"arg": "x", "kind": "off_by_one", "reason": " "}, "reason: must say why"),
        ("x", "must be an object"),
    ],
)
def test_suite_check_refuses_a_malformed_marker(tmp_path: Path, marker: Any, problem: str) -> None:
    data = _suite()
    _calls(data, "selection-03")[0]["audit_accept"] = [marker]
    assert main(["suite", "check", str(_write(tmp_path / "bad.json", data))]) == 1
    with pytest.raises(Exception, match="audit_accept"):
        parse_suite(json.dumps(data).encode(), "bad.json")
    from scorer.suite.file import check_suite

    problems = check_suite(json.dumps(data).encode(), "bad.json").problems
    assert any(
        "selection-03.steps[0].calls[0].audit_accept[0]" in p and problem in p for p in problems
    ), problems


def test_json_is_strict_sorted_and_the_same_as_the_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document, out = _audit(SUITE, tmp_path, capsys)
    assert code == 0
    text = (tmp_path / "audit.json").read_text(encoding="utf-8")
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert [
        p for p in tmp_path.iterdir() if p.name != "audit.json"
    ] == []  # no temp file left behind
    assert document["suite"]["version"] == "1.2.0" and len(document["suite"]["sha256"]) == 64
    for case, line in zip(document["cases"], out.splitlines(), strict=False):
        assert line.startswith(
            f"{case['id']}: wrong answers {case['mutants_killed']}/{case['mutants_tried']} killed"
        )


def test_the_audit_judges_with_the_judge_rescore_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit reads and judges an answer with the very functions the runner uses; a judge that
    passes everything lets every wrong answer survive, so the audit has no judge of its own."""
    import recorder.gateway
    import recorder.runner
    from scorer.audit import judging
    from scorer.judge import StepVerdict

    assert judging.judge_step is recorder.runner.judge_step
    # the same answer parser as a run of the method's request (the judge reads no dialect)
    assert judging.DIALECT is recorder.runner.DEFAULT is recorder.gateway.Gateway("").dialect
    suite = parse_suite(SUITE.read_bytes(), str(SUITE))
    monkeypatch.setattr(judging, "judge_step", lambda *a: StepVerdict(True, None, (), ()))
    audit = audit_suite(suite)
    assert audit.total("mutants_killed") == 0 and audit.total("rights_accepted") == audit.total(
        "rights_tried"
    )


def test_a_chain_step_that_ignores_the_previous_result_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """chains-02 asks about issue #452; its first result names pull request #458. A second step that
    asks for pull request 452 (the request's number, not the result's) must fail: a check that
    also takes 452 is named."""
    data = _suite()
    _calls(data, "chains-02")[1]["args"]["number"] = {"oneOf": [458, 452]}
    code, document, out = _audit(_write(tmp_path / "chain.json", data), tmp_path, capsys)
    assert code == 1
    assert _named(document, "survivors") == {("chains-02", "get_pull_request.number")}
    assert (
        "SURVIVES chains-02 steps[1].calls[0] get_pull_request.number [result_ignored] 452: passes "
        "oneOf [458, 452]" in out
    )


def test_well_formed_markers_alone_give_no_problem() -> None:
    # Apart from the malformed ones below: a mutant that raises there may read these wrong.
    at = "case c.steps[0].calls[0].audit_accept"
    assert parse_accepts([], at) == ((), [])
    assert parse_accepts([{"arg": "n", "kind": "off_by_one", "reason": "either is fine"}], at) == (
        (AuditAccept("n", "off_by_one", "either is fine", None, False),),
        [],
    )


def test_markers_are_read_each_problem_worded_exactly() -> None:
    at = "case c.steps[0].calls[0].audit_accept"
    assert parse_accepts(None, at) == ((), [])
    assert parse_accepts({"arg": "x"}, at) == (
        (),
        [f"{at}: must be a list of {{arg, kind, reason[, value]}} objects"],
    )
    accepts, problems = parse_accepts(
        [
            {"arg": "n", "kind": "off_by_one", "reason": "either is fine"},
            {"arg": "flag", "kind": "flipped", "reason": "ignored", "value": None},
            "x",
            {"arg": "", "kind": "flipped", "reason": "r"},
            {"arg": 3, "kind": "flipped", "reason": "r"},
            {"arg": "x", "kind": "sideways", "reason": "r"},
            {"arg": "x", "kind": "flipped", "reason": " \n"},
            {"arg": "x", "kind": "flipped", "reason": 1},
            {"arg": "x", "kind": "flipped"},
        ],
        at,
    )
    assert accepts == (
        AuditAccept("n", "off_by_one", "either is fine", None, False),
        AuditAccept("flag", "flipped", "ignored", None, True),
    )
    kinds = (
        "enum_neighbour, field_dropped, flipped, generic_text, item_dropped, left_out, "
        "off_by_one, other_offered, part_dropped, required_left_out, result_ignored"
    )
    assert problems == [
        f"{at}[2]: must be an object with arg, kind and reason",
        f"{at}[3].arg: must be a non-empty string (the argument, dotted for a nested field)",
        f"{at}[4].arg: must be a non-empty string (the argument, dotted for a nested field)",
        f"{at}[5].kind: must be one of {kinds}, got 'sideways'",
        f"{at}[6].reason: must say why the method accepts this answer",
        f"{at}[7].reason: must say why the method accepts this answer",
        f"{at}[8].reason: must say why the method accepts this answer",
    ]
    value, _ = parse_accepts([{"arg": "n", "kind": "off_by_one", "reason": "r", "value": 9}], at)
    assert value == (AuditAccept("n", "off_by_one", "r", 9, True),)


def _dotted_suite() -> dict[str, Any]:
    """One tool whose argument names hold a dot ("user.name", a top-level argument, beside the
    object argument "user" with its field "name"), are empty ("") or digits ("7")."""
    schema = {
        "type": "object",
        "properties": {
            "user.name": {"type": "string", "description": "The person's full name."},
            "user": {"type": "object", "properties": {"name": {"type": "string"}}},
            "": {"type": "boolean"},
            "7": {"type": "integer", "minimum": 1, "maximum": 9},
        },
        "required": ["user.name"],
    }
    call = {
        "name": "create_user",
        "args": {
            "user.name": {"present": True},
            "user": {"oneOf": [{"name": "asilva"}, {}]},
            "": {"present": True},
            "7": {"eq": 3},
        },
        "reference": {"user.name": "Ana Silva", "user": {"name": "asilva"}, "": True, "7": 3},
    }
    function = {"name": "create_user", "description": "Create a user.", "parameters": schema}
    return {
        "name": "dots",
        "version": "1.0.0",
        "released": "2026-12-06",
        "system_prompt": "Act through the tools.",
        "tools": {"create_user": {"type": "function", "function": function}},
        "cases": [
            {
                "id": "dotted-01",
                "group": "arguments",
                "tools": ["create_user"],
                "messages": [{"role": "user", "content": "Create the login asilva for Ana Silva."}],
                "steps": [{"expect": "call", "calls": [call]}],
            }
        ],
    }


def test_an_argument_whose_name_holds_a_dot_is_audited_as_one_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "dots.json", _dotted_suite())
    assert main(["suite", "check", str(path)]) == 0
    capsys.readouterr()
    code = main(["suite", "audit", str(path)])
    printed = capsys.readouterr()
    assert code == 1
    # The top-level "user.name" (checked `present`) and field name of "user" (checked by user's
    # oneOf) each survive with their own argument's check; the "" argument is named too.
    assert printed.out.splitlines() == [
        "dotted-01: wrong answers 8/11 killed, right answers 3/3 accepted (3 surviving)",
        "SURVIVES dotted-01 steps[0].calls[0] create_user.user.name [generic_text] "
        '"Hello, just following up.": passes present',
        "SURVIVES dotted-01 steps[0].calls[0] create_user.user.name [field_dropped] (left out): "
        'passes oneOf [{"name": "asilva"}, {}]',
        "SURVIVES dotted-01 steps[0].calls[0] create_user. [flipped] false: passes present",
        "dots 1.0.0: mutation score 8/11 killed (72.7%); 3 survived, 0 of them accepted by the "
        "suite; right answers 3/3 accepted",
    ]
    assert printed.err == (
        f"error: {path}: 3 surviving wrong answer(s), 0 refused right answer(s), 0 stale "
        "audit_accept marker(s)\n"
    )


def test_a_dotted_marker_matches_the_argument_and_the_field_of_that_dotted_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/FORMATS.md: a marker's arg is matched against the dotted path, so "user.name" names
    # the top-level argument "user.name" and field name of argument "user" alike.
    data = _dotted_suite()
    call = data["cases"][0]["steps"][0]["calls"][0]
    call["args"][""] = {"eq": True}
    call["audit_accept"] = [
        {"arg": "user.name", "kind": "generic_text", "reason": "top-level: any name will do"},
        {"arg": "user.name", "kind": "field_dropped", "reason": "field: the login is optional"},
    ]
    code = main(["suite", "audit", str(_write(tmp_path / "dots.json", data))])
    printed = capsys.readouterr()
    assert code == 0, printed
    assert printed.out.splitlines() == [
        "dotted-01: wrong answers 9/11 killed, right answers 3/3 accepted "
        "(2 accepted by the suite)",
        "ACCEPTED dotted-01 steps[0].calls[0] create_user.user.name [generic_text] "
        '"Hello, just following up.": passes present (audit_accept: top-level: any name will do)',
        "ACCEPTED dotted-01 steps[0].calls[0] create_user.user.name [field_dropped] (left out): "
        'passes oneOf [{"name": "asilva"}, {}] (audit_accept: field: the login is optional)',
        "dots 1.0.0: mutation score 9/11 killed (81.8%); 2 survived, 2 of them accepted by the "
        "suite; right answers 3/3 accepted",
    ]
    assert printed.err == ""
