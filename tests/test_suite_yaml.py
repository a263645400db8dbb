"""A suite in YAML: the same document and checks as its JSON form, YAML's surprises refused or
disarmed, and every ``suite check`` problem with its line
(docs/commands/suite-check.md#suite-yaml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lobstack_eval.main import main
from scorer import SuiteError, check_suite, parse_suite
from scorer.suite.yaml_file import dumps_yaml, loads_yaml
from tests.conftest import FIXTURES

OWN = FIXTURES / "own_tools" / "suite.yaml"
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)


def _containers(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3)


def test_a_yaml_suite_is_the_same_suite_as_its_json_form(tmp_path: Path) -> None:
    data, _ = loads_yaml(OWN.read_text(encoding="utf-8"))
    as_json = tmp_path / "suite.json"
    as_json.write_text(json.dumps(data, indent=2), encoding="utf-8")
    from_yaml = parse_suite(OWN.read_bytes(), str(OWN))
    from_json = parse_suite(as_json.read_bytes(), str(as_json))
    assert from_yaml.cases == from_json.cases
    assert from_yaml.tools == from_json.tools
    assert (from_yaml.name, from_yaml.released) == ("notes-assistant", "2026-12-05")
    # The sha256 is of the file's own bytes: the YAML file is the suite that was scored.
    assert from_yaml.sha256 != from_json.sha256


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("v: no", "no"),  # YAML 1.1's false: a string here
        ("v: yes", "yes"),
        ("v: on", "on"),
        ("v: 2026-10-21", "2026-10-21"),  # not a date object
        ("v: 010", "010"),  # not 8, not 10: JSON has no leading zeros
        ("v: 0x1F", "0x1F"),
        ("v: 1_000", "1_000"),
        ("v: .inf", ".inf"),
        ("v: 12:30", "12:30"),  # not sexagesimal 750
        ("v: true", True),
        ("v: false", False),
        ("v: null", None),
        ("v: ~", None),
        ("v:", None),
        ("v: -3", -3),
        ("v: 2.5", 2.5),
        ("v: 1e3", 1000.0),
        ("v: 'no'", "no"),
    ],
)
def test_plain_scalars_read_as_json_would_read_them(text: str, value: object) -> None:
    assert loads_yaml(text)[0] == {"v": value}
    assert type(loads_yaml(text)[0]["v"]) is type(value)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' (first on line 1)"),
        ("a: &x [1, 2]\nb: *x\n", 2, "an alias (*name) is not allowed"),
        ("a: 1\n? [1]\n: 2\n", 2, "a key must be a string"),
        ("1: one\n", 1, "a key must be a string"),
        ("a: !!python/tuple [1]\n", 1, "is not allowed in a suite"),
        ("a: !!int twelve\n", 1, "'twelve' is not a int as JSON writes one"),
        ("a: 1e400\n", 1, "too large for a double"),
        ("a: [1, 2\n", 2, "expected ',' or ']'"),
        # issue 42: each was a traceback
        ("a: 1\nb: " + "7" * 4301 + "\n", 2, "a number with more than 4300 digits"),
        ("a: -" + "7" * 5000 + "\n", 1, "a number with more than 4300 digits"),
        (
            "a: 1\nb: x\x00y\n",
            2,
            'the character U+0000 is not allowed in YAML text: write it as the escape "\\x00"',
        ),
        ("a: 1\nb: " + "[" * 10_000, 2, "nested more than 200 levels deep"),
        ("- " * 300 + "x\n", 1, "nested more than 200 levels deep"),
    ],
)
def test_each_surprise_is_one_error_with_its_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SuiteError) as caught:
        check_suite(path.read_bytes(), str(path))
    assert str(caught.value).startswith(f"{path}: not a valid YAML suite: line {line}: ")
    assert message in str(caught.value)


def test_suite_check_names_the_line_case_and_field_of_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = OWN.read_text(encoding="utf-8").splitlines()
    at = {text.strip(): n for n, text in enumerate(lines, 1)}
    text = "\n".join(lines)
    text = text.replace("query: {contains: Q3 budget}", "query: {contain: Q3 budget}")
    text = text.replace("  - id: small-talk", "  - id: small talk")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text + "\n", encoding="utf-8")
    assert main(["suite", "check", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == [
        f"{bad}: line {at['query: {contains: Q3 budget}']}: case find-budget.steps[0].calls[0].args"
        ".query: unknown check operator 'contain' (known: eq, subset, regex, oneOf, contains, "
        "present, absent, range)",
        f"{bad}: line {at['- id: small-talk']}: case small talk.id: must be 1 to 100 letters, "
        "digits, '_', '.' or '-', starting with a letter or digit",
    ]
    assert err[2].startswith(f"error: {bad}: 2 problem(s); cases per group: lookup 1,")


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        (
            "list.yaml",
            "- name: a\n- name: b\n",
            "a suite must be a YAML mapping (name: ..., cases: ...), not a list",
        ),
        (
            "word.yml",
            "hello\n",
            "a suite must be a YAML mapping (name: ..., cases: ...), not a string",
        ),
        ("list.json", "[1, 2]\n", "a suite must be a JSON object, not an array"),
        ("null.json", "null\n", "a suite must be a JSON object, not null"),
    ],
)
def test_a_top_level_that_is_no_object_is_one_line_in_its_format_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, line: str
) -> None:
    """Nothing else of such a file can be checked: one error line, no empty group counts."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["suite", "check", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"error: {path}: (top level): {line}\n"
    assert captured.out == ""


def test_no_group_counts_no_empty_counts_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("name: x\n", encoding="utf-8")
    assert main(["suite", "check", str(path)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"error: {path}: 5 problem(s)"


def test_diff_suites_names_the_line_of_a_misspelt_key_as_suite_check_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = OWN.read_text(encoding="utf-8").splitlines()
    line = lines.index("      - expect: none") + 1
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines).replace("- expect: none", "- expct: none") + "\n", "utf-8")
    assert main(["diff", "suites", str(OWN), str(bad)]) == 1
    assert capsys.readouterr().err == (
        f'error: {bad}: line {line}: case small-talk.steps[0]: unknown key "expct" '
        f'(did you mean "expect"?) (and 1 more; run `lobstack-eval suite check {bad}`)\n'
    )


def test_written_yaml_reads_back_as_the_same_document() -> None:
    shared = ["search_notes", "get_note"]  # one list in two places: written out twice, no alias
    document = {
        "offered": [shared, shared],
        "strings": ["no", "yes", "1e5", "2026-10-21", "010", "~", "", "a: b", "- x"],
        "text": "line one\nline two\n",
        "numbers": [0, -1, 2.5, 1e300],
        "flags": [True, False, None],
        "nested": {"k": [{"deep": "value"}]},
    }
    assert loads_yaml(dumps_yaml(document))[0] == document


LINE_BREAKS = ["a\x85b", "\x85", "a\nb\x85c", "a\n\x85", "a\u2028b\n", "x\r\ny", "\u2029", "\r"]


@pytest.mark.parametrize("text", LINE_BREAKS)
def test_every_line_break_survives_the_written_yaml(text: str) -> None:
    """NEL (U+0085) and the other breaks YAML folds in plain, single-quoted and block scalars
    came back as a space or a "\\n" (issue 42): written double-quoted, they read back as they
    were, as values and as keys."""
    document = {"k": text, text: [text]}
    assert loads_yaml(dumps_yaml(document))[0] == document


def test_suite_new_writes_a_nel_that_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``suite new``'s YAML output, end to end: a tool description holding NEL is the same
    string in the written suite."""
    description = "Get the weather.\x85Cities only."
    tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": description,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
    tools, out = tmp_path / "tools.json", tmp_path / "new.yaml"
    tools.write_text(json.dumps([tool]), encoding="utf-8")
    assert main(["suite", "new", str(out), "--tools", str(tools)]) == 0, capsys.readouterr().err
    written = loads_yaml(out.read_text(encoding="utf-8"))[0]
    assert written["tools"]["get_weather"]["function"]["description"] == description


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(st.dictionaries(st.text(), st.recursive(SCALARS, _containers, max_leaves=12), max_size=4))
def test_any_document_reads_back_from_its_yaml(document: dict[str, object]) -> None:
    """Any JSON-shaped document, every character included, reads back from ``dumps_yaml`` as
    the same document."""
    assert loads_yaml(dumps_yaml(document))[0] == document


def test_the_stand_in_and_diff_suites_read_a_yaml_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from standin.suite_index import load_suite_index

    index = load_suite_index(OWN)
    assert [case.id for case in index.cases][:2] == ["find-budget", "remind-dentist"]
    changed = tmp_path / "suite.yaml"
    changed.write_text(
        OWN.read_text(encoding="utf-8")
        .replace("version: 0.1.0", "version: 0.2.0")
        .replace('due: {eq: "2026-12-06T09:30"}', 'due: {regex: "^2026-12-06T09:30"}'),
        encoding="utf-8",
    )
    assert main(["diff", "suites", str(OWN), str(changed)]) == 0
    out = capsys.readouterr().out
    assert "remind-dentist" in out
