"""Suite loading and ``suite check``: every problem is listed with its case id and field."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer import SuiteError, check_suite, parse_suite
from scorer.schema.subset import make_validator
from scorer.suite.model import Check, Tool
from tests.suitekit import TOOLS, case, suite_dict

GOOD_CASES = [
    case(
        "chains-01",
        [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "read_file",
                        "args": {"path": {"eq": "a.txt"}},
                        "reference": {"path": "a.txt"},
                        "result": "b",
                    }
                ],
            },
            {"expect": "none"},
        ],
        group="chains",
    ),
    case("no_call-01", [{"expect": "none"}], group="no_call"),
]


def problems_of(doc: dict[str, Any]) -> tuple[str, ...]:
    return check_suite(json.dumps(doc).encode(), "s.json").problems


def test_good_suite_loads_into_frozen_objects() -> None:
    raw = json.dumps(suite_dict(GOOD_CASES)).encode()
    suite = parse_suite(raw, "s.json")
    assert [c.id for c in suite.cases] == ["chains-01", "no_call-01"]
    assert suite.case("chains-01").steps[0].calls[0].args[0][1][0].op == "eq"
    assert len(suite.sha256) == 64
    with pytest.raises(AttributeError):
        suite.name = "other"  # type: ignore[misc]


def broken(mutate) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    doc = suite_dict(copy.deepcopy(GOOD_CASES), copy.deepcopy(TOOLS))
    mutate(doc)
    return problems_of(doc)


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: d["cases"].append(copy.deepcopy(d["cases"][0])),
            "case chains-01.id: duplicate case id",
        ),
        (
            lambda d: d["cases"][1].update(group="smalltalk"),
            "case no_call-01.group: 'smalltalk' is not one of",
        ),
        (
            lambda d: d["cases"][1]["tools"].append("fly"),
            "case no_call-01.tools: 'fly' is not in the tools catalogue",
        ),
        (
            lambda d: d["tools"]["read_file"]["function"]["parameters"]["properties"][
                "path"
            ].update(format="uri"),
            "tools.read_file.function.parameters.properties.path: keyword 'format' is not "
            "supported",
        ),
        (
            lambda d: d["tools"]["send_email"]["function"]["parameters"]["properties"]["to"][
                "items"
            ].update({"$ref": "#/x"}),
            "tools.send_email.function.parameters.properties.to.items: keyword '$ref' is not "
            "supported",
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["args"].update(path={"equals": "a"}),
            "case chains-01.steps[0].calls[0].args.path: unknown check operator 'equals'",
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["args"].update(
                path={"regex": "(", "eq": "a"}
            ),
            "case chains-01.steps[0].calls[0].args.path: a check is an object with exactly one "
            "operator key",
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["args"].update(path={"regex": "(["}),
            "case chains-01.steps[0].calls[0].args.path: regex does not compile",
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["args"].update(
                start_line={"range": {"min": "1"}}
            ),
            "case chains-01.steps[0].calls[0].args.start_line: range bounds must be numbers",
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["args"].update(path={"eq": "b.txt"}),
            "case chains-01.steps[0].calls[0].reference.path: fails its own check: expected eq "
            '"b.txt"',
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["reference"].update(start_line=0),
            "case chains-01.steps[0].calls[0].reference: does not validate against read_file's "
            "schema",
        ),
        (
            lambda d: d["cases"][0]["steps"].reverse(),
            'case chains-01.steps[0]: a "none" step may only be the last step',
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0].pop("result"),
            "case chains-01.steps[0].calls[0].result: a call in a non-final step needs a scripted "
            "result",
        ),
        (
            lambda d: d["cases"][0]["steps"].pop(),
            "case chains-01.steps: a chain has 2 to 4 steps, this one has 1",
        ),
        (
            lambda d: d["cases"][0]["steps"][0]["calls"][0]["args"].update(line={"eq": 1}),
            "case chains-01.steps[0].calls[0].args.line: read_file has no argument 'line'",
        ),
        (lambda d: d.update(version="1.0"), "version: '1.0' is not MAJOR.MINOR.PATCH"),
        # The whole text must match (fullmatch): `$` in re.match also matches before a
        # final newline.
        (lambda d: d.update(version="1.1.0\n"), "version: '1.1.0\\n' is not MAJOR.MINOR.PATCH"),
        (lambda d: d.update(version="1.١.0"), "version: '1.١.0' is not MAJOR.MINOR.PATCH"),
        (lambda d: d.update(released="2026-01-01\n"), "released"),
        # A YAML `version: 0.1` arrives as a number: named as one, not as missing.
        (lambda d: d.update(version=0.1), "version: 0.1 is a number, not a string: quote it"),
        (lambda d: d.update(name=2026), 'name: 2026 is a number, not a string: quote it ("2026")'),
        (lambda d: d.update(name=True), "name: missing or not a non-empty string"),
        # Shaped like a date is not enough: a month 13 or a 30 February is no day.
        (
            lambda d: d.update(released="2026-13-01"),
            "released: '2026-13-01' is not a YYYY-MM-DD date (a real day)",
        ),
        (
            lambda d: d.update(released="2026-02-30"),
            "released: '2026-02-30' is not a YYYY-MM-DD date (a real day)",
        ),
        (lambda d: d.update(released="20260101"), "released: '20260101' is not a YYYY-MM-DD"),
    ],
)
def test_each_problem_names_case_and_field(  # type: ignore[no-untyped-def]
    mutate,
    expected: str,
) -> None:
    problems = broken(mutate)
    assert any(p.startswith(expected) for p in problems), problems


def test_every_problem_is_listed_not_just_the_first() -> None:
    def two(d: dict[str, Any]) -> None:
        d["cases"][1]["group"] = "bogus"
        d["cases"][0]["steps"][0]["calls"][0]["args"]["path"] = {"eq": "zzz"}

    assert len(broken(two)) == 2


def test_published_suite_must_match_the_method_table() -> None:
    doc = suite_dict(copy.deepcopy(GOOD_CASES))
    doc.update(name="lobstack-tool-calling", version="1.0.0")
    assert any("the method page's table" in p for p in problems_of(doc))


def test_parse_suite_raises_with_first_problem_and_count(tmp_path: Path) -> None:
    doc = suite_dict(copy.deepcopy(GOOD_CASES))
    doc["cases"][1]["group"] = "bogus"
    doc["cases"][0]["group"] = "bogus"
    with pytest.raises(SuiteError, match=r"s\.json: case chains-01\.group: .*\(and 1 more"):
        parse_suite(json.dumps(doc).encode(), "s.json")


def test_cli_suite_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(suite_dict(GOOD_CASES)))
    assert main(["suite", "check", str(good)]) == 0
    out = capsys.readouterr().out
    assert "is valid: 2 cases" in out and "chains 1" in out and "no_call 1" in out

    bad = tmp_path / "bad.json"
    doc = suite_dict(copy.deepcopy(GOOD_CASES))
    doc["cases"][1]["group"] = "bogus"
    bad.write_text(json.dumps(doc))
    assert main(["suite", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: case no_call-01.group:" in err

    truncated = tmp_path / "truncated.json"
    truncated.write_text('{"name": ')
    assert main(["suite", "check", str(truncated)]) == 1
    assert capsys.readouterr().err.startswith(f"error: {truncated}: not valid JSON")

    assert main(["suite", "check", str(tmp_path / "missing.json")]) == 1
    assert "no such suite file" in capsys.readouterr().err


def test_a_check_holds_or_says_what_was_wrong() -> None:
    eq = Check("eq", "a.txt")
    assert eq.holds(True, "a.txt") is True
    assert eq.holds(True, "b.txt") is False
    assert eq.holds(False, None) is False
    assert eq.run(True, "a.txt") is None
    assert eq.run(True, "b.txt") == 'expected eq "a.txt", got "b.txt"'
    # present and value apart: absent holds only for a key that is not there
    absent = Check("absent", True)
    assert absent.holds(False, None) is True
    assert absent.holds(True, None) is False
    assert absent.run(True, 3) == "expected absent, got 3"


def test_a_tool_validates_and_keeps_each_verdict_by_the_argument_text() -> None:
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
        "additionalProperties": False,
    }
    tool = Tool("read_file", {"function": {"parameters": schema}}, make_validator(schema))
    assert tool.errors({"path": "a"}) == []
    assert tool.errors({"path": 1}) == ["path: 1 is not of type 'string'"]
    assert tool.is_valid({"path": "a"}) is True
    assert tool.is_valid({"path": 1}) is False
    assert tool.is_valid({"path": "a"}, '{"path": "a"}') is True
    assert tool.is_valid({"path": 1}, '{"path": 1}') is False
    # The verdict is kept by the text: the same text is not validated again.
    assert tool.is_valid({"path": 1}, '{"path": "a"}') is True
    assert tool.is_valid({"path": "a"}, '{"path": 1}') is False
    assert tool._verdicts == {'{"path": "a"}': True, '{"path": 1}': False}
    # Without a text nothing is kept.
    assert tool.is_valid({"path": 2}) is False
    assert len(tool._verdicts) == 2


def test_a_suite_finds_its_cases_by_id_and_counts_its_groups() -> None:
    suite = parse_suite(json.dumps(suite_dict(GOOD_CASES)).encode(), "s.json")
    assert suite.case("no_call-01").group == "no_call"
    assert suite.case("chains-01").group == "chains"
    with pytest.raises(KeyError):
        suite.case("selection-01")
    # The index by id is built once (a run looks a case up per answer), kept on the suite.
    index = suite.__dict__.get("_case_index")
    assert index == {"chains-01": suite.cases[0], "no_call-01": suite.cases[1]}
    assert suite._by_id() is index
    # A Lobstack suite: the six groups in the method page's order, empty ones too.
    assert list(suite.group_counts().items()) == [
        ("selection", 0),
        ("arguments", 0),
        ("near_misses", 0),
        ("no_call", 1),
        ("parallel", 0),
        ("chains", 1),
    ]
    own = dataclasses.replace(suite, name="my-suite")
    # Another suite: its groups as they first appear.
    assert list(own.group_counts().items()) == [("chains", 1), ("no_call", 1)]
