"""The YAML suite reader and writer (scorer/suite/yaml_file.py) line by line: each refusal's
exact words and line, the line of every key and item, a problem's place as a document path, and
how each text is written."""

from __future__ import annotations

import pytest

from scorer.suite.yaml_file import Lines, YamlSuiteError, dumps_yaml, loads_yaml, where_path


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' (first on line 1): keep one"),
        ("a: 1\nb:\n  c: 1\n  c: 2\n", 4, "duplicate key 'c' (first on line 3): keep one"),
        (
            "a: &x [1]\nb: *x\n",
            2,
            "an alias (*name) is not allowed in a suite: write the value out",
        ),
        ("a: 1\n? [1]\n: 2\n", 2, "a key must be a string (quote it)"),
        ("null: 1\n", 1, "a key must be a string (quote it)"),
        (
            "a: !!python/tuple [1]\n",
            1,
            "the tag 'tag:yaml.org,2002:python/tuple' is not allowed in a suite",
        ),
        ("a:\n  !!set {b: 1}\n", 2, "the tag 'tag:yaml.org,2002:set' is not allowed in a suite"),
        ("a: !x 1\n", 1, "the tag '!x' is not allowed in a suite"),
        ("a: !!int twelve\n", 1, "'twelve' is not a int as JSON writes one"),
        ("a: !!float 1\n", 1, "'1' is not a float as JSON writes one"),
        ("a: !!bool yes\n", 1, "'yes' is not a bool as JSON writes one"),
        ("a: !!null none\n", 1, "'none' is not a null as JSON writes one"),
        ("a: 1\nb: -1e400\n", 2, "the number -1e400 is too large for a double"),
        ("a: 1\nb: " + "7" * 4301 + "\n", 2, "a number with more than 4300 digits"),
        (
            "a: x\x01y\n",
            1,
            "the character U+0001 is not allowed in YAML text: write it as the escape "
            '"\\x01" in a double-quoted string',
        ),
        (
            "a: 1\nb: x\ufffey\n",
            2,
            "the character U+FFFE is not allowed in YAML text: write it as "
            'the escape "\\ufffe" in a double-quoted string',
        ),
        (
            "a:\n" + "  - " * 1 + "[" * 199 + "1" + "]" * 199 + "\n",
            2,
            "nested more than 200 levels deep",
        ),
        ("a: [1, 2\n", 2, "expected ',' or ']', but got '<stream end>'"),
        ("", None, "the file holds no document"),
        ("# only a comment\n", None, "the file holds no document"),
    ],
    ids=[f"refusal-{n}" for n in range(20)],
)
def test_each_refusal_is_its_words_and_line(text: str, line: int | None, message: str) -> None:
    with pytest.raises(YamlSuiteError) as caught:
        loads_yaml(text)
    assert (caught.value.line, caught.value.message, str(caught.value)) == (line, message, message)


def test_200_levels_are_read_201_refused() -> None:
    # The mapping, 198 lists and the scalar: 200 levels.
    data, _ = loads_yaml("a: " + "[" * 198 + "1" + "]" * 198 + "\n")
    node = data["a"]
    for _ in range(197):
        node = node[0]
    assert node == [1]
    with pytest.raises(YamlSuiteError) as caught:
        loads_yaml("a: " + "[" * 199 + "1" + "]" * 199 + "\n")
    assert (caught.value.line, caught.value.message) == (1, "nested more than 200 levels deep")


def test_scalars_as_json_reads_them() -> None:
    text = (
        "a: !!bool TRUE\nb: !!bool False\nc: !!int -12\nd: !!float 2.5e3\ne: !!str 1\nf: !!null\n"
    )
    data, _ = loads_yaml(text)
    assert data == {"a": True, "b": False, "c": -12, "d": 2500.0, "e": "1", "f": None}
    assert [type(v) for v in data.values()] == [bool, bool, int, float, str, type(None)]
    assert loads_yaml("a: " + "7" * 4300 + "\n")[0] == {"a": int("7" * 4300)}


def test_every_key_and_item_has_its_line() -> None:
    text = "name: x\ncases:\n  - id: a\n    steps:\n      - 1\n\n      - 2\n  - id: b\n"
    data, lines = loads_yaml(text)
    assert lines.line_of(data, ["name"]) == 1
    assert lines.line_of(data, ["cases"]) == 2
    assert lines.line_of(data, ["cases", 0]) == 3
    assert lines.line_of(data, ["cases", 0, "id"]) == 3
    assert lines.line_of(data, ["cases", 0, "steps", 1]) == 7
    assert lines.line_of(data, ["cases", 1, "id"]) == 8
    # The deepest part found: a missing key or index stops the walk there.
    assert lines.line_of(data, ["cases", 1, "steps", 0]) == 8
    assert lines.line_of(data, ["cases", 2, "id"]) == 2
    assert lines.line_of(data, ["cases", -1]) == 2
    assert lines.line_of(data, ["cases", "0"]) == 2
    assert lines.line_of(data, ["name", 0]) == 1
    assert lines.line_of(data, ["nothing"]) is None
    assert lines.line_of(data, []) is None
    # A container the lines do not know keeps the line found before it.
    assert Lines().line_of({"a": [1]}, ["a", 0]) is None
    known = Lines(keys={}, items={})
    outer = {"a": [1, 2]}
    known.keys[id(outer)] = {"a": 4}
    known.items[id(outer["a"])] = [5]
    assert known.line_of(outer, ["a", 0]) == 5
    assert known.line_of(outer, ["a", 1]) == 4


@pytest.mark.parametrize(
    ("where", "path"),
    [
        ("case a.b.steps[0].calls[12].args.x", ["cases", 1, "steps", 0, "calls", 12, "args", "x"]),
        ("case a.steps[1]", ["cases", 0, "steps", 1]),
        ("case a", ["cases", 0]),
        ("case a[0]", ["cases", 0, 0]),
        ("case zz.steps", []),
        ("case a.bc", ["cases", 0, "bc"]),
        ("tools.t.function", ["tools", "t", "function"]),
        ("cases[3].id", ["cases", 3, "id"]),
        ("(top level)", ["(top level)"]),
        ("x[1234567890123456789]", ["x", "1234567890123456789"]),
    ],
)
def test_a_problems_place_is_a_document_path(where: str, path: list[object]) -> None:
    data = {"cases": [{"id": "a"}, {"id": "a.b"}, "x", {"id": 3}]}
    assert where_path(where, data) == path


def test_a_case_place_without_cases_is_read_as_keys() -> None:
    assert where_path("case a.x", {}) == ["case a", "x"]
    assert where_path("case a.x", {"cases": {}}) == ["case a", "x"]
    assert where_path("case a.x", []) == ["case a", "x"]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("plain", "v: plain\n"),
        ("no", "v: 'no'\n"),
        ("1e5", "v: '1e5'\n"),
        ("null", "v: 'null'\n"),
        ("", "v: ''\n"),
        ("two\nlines", "v: |-\n  two\n  lines\n"),
        ("two\nlines\n", "v: |\n  two\n  lines\n"),
        # Not a literal block (it cannot start with a space or a break): YAML's own quoting.
        (" lead\nx", "v: ' lead\n\n  x'\n"),
        ("\nlead", "v: '\n\n  lead'\n"),
        ("a\rb", 'v: "a\\rb"\n'),
        ("a\x85b", 'v: "a\\Nb"\n'),
        ("a\u2028b", 'v: "a\\Lb"\n'),
        ("a\u2029b", 'v: "a\\Pb"\n'),
    ],
    ids=[
        "plain",
        "no",
        "exponent",
        "null",
        "empty",
        "lines",
        "lines-newline",
        "space-first",
        "newline-first",
        "cr",
        "nel",
        "ls",
        "ps",
    ],
)
def test_each_text_is_written_so_it_reads_back(value: str, written: str) -> None:
    assert dumps_yaml({"v": value}) == written
    assert loads_yaml(written)[0] == {"v": value}


def test_keys_keep_their_order_and_a_shared_value_is_written_twice() -> None:
    shared = [1, 2]
    assert dumps_yaml({"b": shared, "a": shared}) == "b:\n- 1\n- 2\na:\n- 1\n- 2\n"
    assert dumps_yaml({"k": "\u00e9" + "x" * 120}) == "k: \u00e9" + "x" * 120 + "\n"


def test_a_negative_or_text_index_stops_the_walk() -> None:
    data, lines = loads_yaml("name: x\ncases:\n  - id: a\n")
    assert lines.line_of(data, ["cases", -1]) == 2
    assert lines.line_of(data, ["cases", "0"]) == 2
    assert lines.line_of(data, ["name", 0]) == 1


def test_a_mapping_the_lines_do_not_know_keeps_the_line_before_it() -> None:
    outer = {"a": {"b": 1}}
    known = Lines(keys={id(outer): {"a": 4}})
    assert known.line_of(outer, ["a", "b"]) == 4


def test_a_place_of_positions_only_or_of_nothing() -> None:
    assert where_path("", {}) == []
    assert where_path("[2]", {}) == [2]
    assert where_path("case a[1]", {"cases": [{"id": "a"}]}) == ["cases", 0, 1]
