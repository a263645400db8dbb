"""The YAML suite reader and writer (scorer/suite/yaml_file.py) at their edges: what a read gives
back (the document, or the refusal's line and words, compared as one value), the lines kept for
empty containers and a bare scalar, nesting counted again after a sibling, and where a long
plain text wraps. Every expected value written by hand from docs/commands/suite-check.md#suite-yaml
and YAML's folding of plain scalars."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.suite.yaml_file import Lines, YamlSuiteError, dumps_yaml, loads_yaml, where_path

pytestmark = pytest.mark.timeout(10)


def _read(text: str) -> Any:
    """The document, or ``("refused", line, message)``: a read that refuses where it should give a
    value (or the other way round) fails the comparison, not the test's code."""
    try:
        return loads_yaml(text)[0]
    except YamlSuiteError as exc:
        return ("refused", exc.line, exc.message)


def test_4300_digits_are_read_4301_refused() -> None:
    assert _read("a: " + "7" * 4300 + "\n") == {"a": int("7" * 4300)}
    assert _read("a: -" + "7" * 4300 + "\n") == {"a": -int("7" * 4300)}
    assert _read("a: " + "7" * 4301 + "\n") == (
        "refused",
        1,
        "a number with more than 4300 digits",
    )


def test_a_refused_character_after_a_blank_first_line() -> None:
    # The line counts every line break before the character, the first one included.
    assert _read("\na: x\x01y\n") == (
        "refused",
        2,
        'the character U+0001 is not allowed in YAML text: write it as the escape "\\x01" in a '
        "double-quoted string",
    )


def test_nesting_is_counted_again_after_a_sibling() -> None:
    # The mapping (1), the list (2), then 198 lists and the scalar: 201 levels, after a sibling
    # item that was composed and left.
    deep = "[" * 198 + "1" + "]" * 198
    assert _read(f"a:\n  - 1\n  - {deep}\n") == ("refused", 3, "nested more than 200 levels deep")
    nested: Any = 1
    for _ in range(197):
        nested = [nested]
    assert _read(f"a:\n  - 1\n  - {deep[1:-1]}\n") == {"a": [1, nested]}


def test_empty_containers_have_their_lines() -> None:
    data, lines = loads_yaml("{}\n")
    assert (data, lines.keys, lines.items) == ({}, {id(data): {}}, {})
    data, lines = loads_yaml("[]\n")
    assert (data, lines.keys, lines.items) == ([], {}, {id(data): []})
    data, lines = loads_yaml("a: {}\nb:\n  - 1\n  - c: 2\n")
    assert data == {"a": {}, "b": [1, {"c": 2}]}
    assert lines.keys == {id(data): {"a": 1, "b": 2}, id(data["a"]): {}, id(data["b"][1]): {"c": 4}}
    assert lines.items == {id(data["b"]): [3, 4]}


def test_a_bare_scalar_has_no_lines() -> None:
    assert loads_yaml("1\n") == (1, Lines())
    assert loads_yaml("x\n") == ("x", Lines())


def test_a_plain_text_wraps_past_100_columns() -> None:
    # "k: " is 3 columns: a space after column 100 becomes a line break (read back as a space),
    # one at column 100 stays.
    at_100 = "a" * 97 + " b"
    past_100 = "a" * 98 + " b"
    assert dumps_yaml({"k": at_100}) == f"k: {at_100}\n"
    assert dumps_yaml({"k": past_100}) == "k: " + "a" * 98 + "\n  b\n"
    assert loads_yaml(dumps_yaml({"k": past_100}))[0] == {"k": past_100}


@pytest.mark.parametrize("other", ["ID", "XXidXX", "Id"])
def test_only_a_cases_id_names_it(other: str) -> None:
    # A misspelt key beside the id holds another string: the place is still read by "id".
    data = {"cases": [{"id": "a", other: "b"}]}
    assert where_path(f"case a.{other}", data) == ["cases", 0, other]
    assert where_path("case b", data) == []


@pytest.mark.parametrize("other", ["CASES", "XXcasesXX", "Cases"])
def test_only_the_cases_key_holds_the_cases(other: str) -> None:
    data = {"cases": [{"id": "b"}], other: [{"id": "a"}]}
    assert where_path("case a.steps", data) == []
    assert where_path("case b.steps", data) == ["cases", 0, "steps"]


def test_a_case_whose_id_is_no_string_is_never_a_case_place() -> None:
    # The builder names such a case cases[i] (scorer/suite/build.py), never "case ['a']".
    data = {"cases": [{"id": ["a"]}, {"id": {"a": 1}}]}
    assert where_path("case ['a']", data) == []
    assert where_path("case {'a': 1}.steps", data) == []
