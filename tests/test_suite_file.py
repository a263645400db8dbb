"""A suite file's bytes to a suite (scorer/suite/file.py): each way the bytes hold no suite, in
one exact line naming the file, and the problems of a suite that does not build."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorer.errors import SuiteError
from scorer.suite.file import check_suite, decode_suite, is_yaml, parse_suite, suite_error
from tests.suitekit import case, suite_dict

GOOD = suite_dict([case("no_call-01", [{"expect": "none"}], group="no_call")])


@pytest.mark.parametrize(
    ("source", "yaml"),
    [
        ("s.yaml", True),
        ("s.yml", True),
        ("S.YML", True),
        ("s.Yaml", True),
        ("s.json", False),
        ("yaml", False),
        ("s.yaml.json", False),
        ("s.ya", False),
    ],
)
def test_yaml_by_the_files_name(source: str, yaml: bool) -> None:
    assert is_yaml(source) is yaml


@pytest.mark.parametrize(
    ("raw", "source", "error"),
    [
        (b"{\xff}", "s.json", "s.json: not UTF-8 text (invalid start byte at byte 1)"),
        (b"name: \xff", "s.yaml", "s.yaml: not UTF-8 text (invalid start byte at byte 6)"),
        (b'{"a": }', "s.json", "s.json: not valid JSON: Expecting value at line 1 column 7"),
        (b'{"a": NaN}', "s.json", "s.json: not valid JSON: a: NaN is not JSON"),
        (
            b"a: b: c\n",
            "s.yaml",
            "s.yaml: not a valid YAML suite: line 1: mapping values are not allowed here",
        ),
        (
            b"a: *x\n",
            "s.yml",
            "s.yml: not a valid YAML suite: line 1: an alias (*name) is not "
            "allowed in a suite: write the value out",
        ),
        (b"", "s.yaml", "s.yaml: not a valid YAML suite: the file holds no document"),
        (b"[]", "s.json", "s.json: (top level): a suite must be a JSON object, not an array"),
        (b'"x"', "s.json", "s.json: (top level): a suite must be a JSON object, not a string"),
        (b"true", "s.json", "s.json: (top level): a suite must be a JSON object, not a boolean"),
        (b"null", "s.json", "s.json: (top level): a suite must be a JSON object, not null"),
        (b"1.5", "s.json", "s.json: (top level): a suite must be a JSON object, not a number"),
        (
            b"- a\n",
            "s.yaml",
            "s.yaml: (top level): a suite must be a YAML mapping (name: ..., "
            "cases: ...), not a list",
        ),
        (
            b"7\n",
            "s.yaml",
            "s.yaml: (top level): a suite must be a YAML mapping (name: ..., "
            "cases: ...), not a number",
        ),
        (
            b"~\n",
            "s.yaml",
            "s.yaml: (top level): a suite must be a YAML mapping (name: ..., cases: ...), not null",
        ),
    ],
    ids=[
        "json-not-utf8",
        "yaml-not-utf8",
        "json-bad",
        "json-nan",
        "yaml-bad",
        "yaml-alias",
        "yaml-empty",
        "json-array",
        "json-string",
        "json-boolean",
        "json-null",
        "json-number",
        "yaml-list",
        "yaml-number",
        "yaml-null",
    ],
)
def test_bytes_that_hold_no_suite_are_one_line(raw: bytes, source: str, error: str) -> None:
    with pytest.raises(SuiteError) as caught:
        check_suite(raw, source)
    assert str(caught.value) == error


def test_nesting_too_deep_for_python_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import scorer.suite.yaml_file as yaml_file

    def deep(text: str) -> Any:
        raise RecursionError

    monkeypatch.setattr(yaml_file, "loads_yaml", deep)
    with pytest.raises(SuiteError) as caught:
        decode_suite(b"a: 1", "s.yaml")
    assert str(caught.value) == "s.yaml: not a valid YAML suite: nested too deep"


def test_a_json_suite_has_no_lines_a_yaml_one_has() -> None:
    assert decode_suite(b'{"a": [1]}', "s.json") == ({"a": [1]}, None)
    data, lines = decode_suite(b"a:\n  - 1\n", "s.yaml")
    assert data == {"a": [1]}
    assert lines is not None and lines.line_of(data, ["a", 0]) == 2


def test_group_counts_from_the_raw_cases() -> None:
    document: dict[str, Any] = dict(GOOD, name="my-suite")
    document["cases"] = [
        *document["cases"],
        "x",
        {"group": 3},
        {"id": "b", "group": "g"},
        {"id": "c", "group": "g"},
    ]
    report = check_suite(json.dumps(document).encode(), "s.json")
    assert report.suite is None
    assert report.group_counts == {"no_call": 1, "g": 2}
    document["cases"] = {"a": 1}
    assert check_suite(json.dumps(document).encode(), "s.json").group_counts == {}
    document["name"] = "lobstack-x"
    assert (
        list(check_suite(json.dumps(document).encode(), "s.json").group_counts.values()) == [0] * 6
    )


def test_a_case_whose_group_is_no_string_is_not_counted() -> None:
    document: dict[str, Any] = dict(GOOD, name="my-suite")
    document["cases"] = [{"id": "a", "group": 3}, {"id": "b"}, {"id": "c", "group": "g"}]
    assert check_suite(json.dumps(document).encode(), "s.json").group_counts == {"g": 1}


def test_unknown_keys_come_first_then_the_builders_then_the_counts() -> None:
    document: dict[str, Any] = dict(GOOD, version="1.1.0", name="lobstack-tool-calling", extra=1)
    document["cases"] = [dict(document["cases"][0], group="chat")]
    problems = check_suite(json.dumps(document).encode(), "s.json").problems
    assert (
        problems[0]
        == 'name: unknown key "extra" (known keys: "cases", "name", "origin", '
        '"released", "system_prompt", "tools", "version")'.replace("name: ", "(top level): ")
    )
    assert problems[1].startswith("case no_call-01.group: 'chat' is not one of")
    assert problems[2:] == tuple(
        f"cases: group {group!r} has 0 cases; the method page's table for lobstack-tool-calling "
        f"1.1.0 says {count}"
        for group, count in [
            ("selection", 14),
            ("arguments", 16),
            ("near_misses", 12),
            ("no_call", 14),
            ("parallel", 12),
            ("chains", 12),
        ]
    )


def test_a_yaml_problem_names_its_line() -> None:
    text = "name: my-suite\nversion: '1'\nreleased: 2026-10-21\nsystem_prompt: p\ntools: {}\n"
    text += "cases:\n  - id: a\n    grop: g\n"
    problems = check_suite(text.encode(), "s.yaml").problems
    assert problems[:3] == (
        # The place is the case: the line of its item.
        'line 7: case a: unknown key "grop" (did you mean "group"?)',
        "line 2: version: '1' is not MAJOR.MINOR.PATCH",
        "line 5: tools: missing or not a non-empty object of tool name -> tool",
    )


def test_a_yaml_problem_whose_place_is_not_in_the_file_has_no_line() -> None:
    # No "name" key: no line to point at, so the problem is as it is for JSON.
    text = "version: 1.0.0\nreleased: 2026-10-21\nsystem_prompt: p\ntools: {}\ncases: []\n"
    assert check_suite(text.encode(), "s.yaml").problems == (
        "name: missing or not a non-empty string",
        "line 4: tools: missing or not a non-empty object of tool name -> tool",
        "line 5: cases: missing or not a non-empty list",
    )


def test_parse_suite_of_a_suite_with_a_problem_raises() -> None:
    with pytest.raises(SuiteError, match=r"^s\.json: released: 'x' is not a YYYY-MM-DD date"):
        parse_suite(json.dumps(dict(GOOD, released="x")).encode(), "s.json")


def test_parse_suite_raises_the_first_problem_and_how_many_more() -> None:
    assert parse_suite(json.dumps(GOOD).encode(), "s.json").name == "lobstack-test-suite"
    with pytest.raises(SuiteError) as caught:
        parse_suite(json.dumps(dict(GOOD, version="1", released="x")).encode(), "s.json")
    assert str(caught.value) == (
        "s.json: version: '1' is not MAJOR.MINOR.PATCH (and 1 more; run `lobstack-eval suite "
        "check s.json`)"
    )
    assert caught.value.problems == (
        "version: '1' is not MAJOR.MINOR.PATCH",
        "released: 'x' is not a YYYY-MM-DD date (a real day)",
    )
    one = suite_error("s.json", ["p"])
    assert str(one) == "s.json: p" and one.problems == ("p",)
