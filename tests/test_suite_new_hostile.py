"""``suite new`` from hostile tool schemas (issue 42, part 3), each at its real size: checked and
walked with budgets before anything is drafted; one ``error:`` line or a ``to decide:`` with its
reason, never a hang, a RecursionError, a value built in full or a raw escape sequence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer.schema.budget import GATEWAY_TOOL_LIMIT, MAX_DEPTH, listing_problems
from scorer.suite.draft.new import ListedTool, draft_suite
from tests.conftest import ROOT

pytestmark = pytest.mark.timeout(60)
ADDRESS_SPACE = 1024 * 1024 * 1024  # enough for the CLI; far less than 1.5e9 characters


def _tool(parameters: Any, name: str = "t") -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], tools: list[Any]) -> tuple[int, str]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    code = main(["suite", "new", str(tmp_path / "s.json"), "--tools", str(path)])
    out, err = capsys.readouterr()
    return code, out + err


def multiplying_dag(levels: int, width: int = 2) -> dict[str, Any]:
    """``$defs`` where each level's object holds ``width`` references to the next: width**levels
    leaves."""
    defs: dict[str, Any] = {
        f"L{i}": {"type": "object", "properties": {
            f"p{k}": {"$ref": f"#/$defs/L{i + 1}"} for k in range(width)}}
        for i in range(levels)
    }  # fmt: skip
    defs[f"L{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/L0"}}, "$defs": defs}


def ref_chain(length: int) -> dict[str, Any]:
    defs = {f"C{i}": {"$ref": f"#/$defs/C{i + 1}"} for i in range(length)}
    defs[f"C{length}"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/C0"}}, "$defs": defs,
            "required": ["x"]}  # fmt: skip


def test_a_ref_dag_that_doubles_at_each_of_24_levels_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """16 million nodes once expanded: refused, by depth here (3 levels of nesting a level)."""
    code, said = _run(tmp_path, capsys, [_tool(multiplying_dag(24))])
    assert code == 1 and len(said.splitlines()) == 1
    assert said.startswith(f"error: {tmp_path / 'tools.json'}: tool 't': parameters.")
    assert said.rstrip().endswith(f"nests deeper than {MAX_DEPTH} levels with each $ref followed")


def test_a_shallow_ref_dag_that_multiplies_meets_the_node_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """8 references a level, 8 levels deep (24 levels of nesting): 16 million nodes expanded."""
    code, said = _run(tmp_path, capsys, [_tool(multiplying_dag(8, width=8))])
    assert code == 1 and len(said.splitlines()) == 1
    assert said.startswith(f"error: {tmp_path / 'tools.json'}: tool 't': parameters.")
    assert said.rstrip().endswith(
        ": expands to more nodes than suite new walks with each $ref followed (a $ref graph "
        "that multiplies)"
    )
    assert not (tmp_path / "s.json").exists()


def test_a_chain_of_3000_refs_is_refused_not_a_recursion_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = _run(tmp_path, capsys, [_tool(ref_chain(3000))])
    assert code == 1 and "Traceback" not in said and "Recursion" not in said
    assert len(said.splitlines()) == 1
    assert said.startswith(f"error: {tmp_path / 'tools.json'}: tool 't': parameters.properties.x")
    assert said.rstrip().endswith(f"nests deeper than {MAX_DEPTH} levels with each $ref followed")


def test_a_short_ref_chain_and_a_recursive_schema_are_fine() -> None:
    tree = {"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
            "$defs": {"N": {"type": "object", "properties": {"kids": {"type": "array",
                      "items": {"$ref": "#/$defs/N"}}}}}}  # fmt: skip
    assert listing_problems([("a", ref_chain(10)), ("b", tree)]) == []


@pytest.mark.parametrize(
    ("schema", "line"),
    [
        ({"type": "object", "properties": {"a": {"type": "array", "minItems": "3"}}},
         "parameters.properties.a.minItems: '3' is not of type 'integer'"),
        ({"type": "object", "properties": {"a": {"type": "string"}}, "required": "a"},
         "parameters.required: 'a' is not of type 'array'"),
        ({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}},
         "parameters.properties.a.$ref: 'https://example.com/s.json' is not a local reference "
         "that resolves (only #/... pointers into the schema are followed; nothing is fetched)"),
    ],
)  # fmt: skip
def test_a_wrong_typed_keyword_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schema: dict[str, Any], line: str
) -> None:
    code, said = _run(tmp_path, capsys, [_tool(schema)])
    assert (code, said) == (1, f"error: {tmp_path / 'tools.json'}: tool 't': {line}\n")


SIZES = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
from lobstack_eval.main import main
sys.exit(main(["suite", "new", sys.argv[2], "--tools", sys.argv[3], "--released", "2026-12-05"]))
"""


def test_huge_min_items_and_min_length_are_not_built(tmp_path: Path) -> None:
    """Under an address-space limit far below the values asked for: each is left to decide, with
    its reason, and the file stays small."""
    schema = {"type": "object", "required": ["ids", "blob"], "properties": {
        "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 300_000_000},
        "blob": {"type": "string", "minLength": 1_500_000_000}}}  # fmt: skip
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([_tool(schema)]), encoding="utf-8")
    out = tmp_path / "s.json"
    done = subprocess.run(
        [sys.executable, "-c", SIZES, str(ADDRESS_SPACE), str(out), str(tools)],
        capture_output=True, text=True, timeout=50, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert out.stat().st_size < 20_000
    draft = json.loads(out.read_text(encoding="utf-8"))["cases"][0]["draft"]
    assert "minItems 300000000 is more than the 100 items suite new writes" in draft
    assert "minLength 1500000000 is more than the 10000 characters suite new writes" in draft


def test_3000_tools_grow_the_suite_linearly_and_each_case_offers_at_most_the_limit() -> None:
    def tools(count: int) -> list[ListedTool]:
        schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
        return [ListedTool(f"tool_{i}", f"Tool {i}.", schema) for i in range(count)]

    sizes = {}
    for count in (300, 3000):
        document = draft_suite(tools(count), "big", "2026-12-05", {"kind": "tools_file"})
        assert all(len(case["tools"]) == GATEWAY_TOOL_LIMIT for case in document["cases"])
        assert all(
            case["steps"][0]["calls"][0]["name"] in case["tools"]
            for case in document["cases"]
            if case["steps"][0]["expect"] == "call"
        )
        sizes[count] = len(json.dumps(document))
    assert sizes[3000] < 11 * sizes[300]  # ten times the tools, about ten times the text
    assert sizes[3000] < 20_000_000


def test_above_a_gateways_tool_limit_a_warning_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {"type": "object", "properties": {}}
    code, said = _run(tmp_path, capsys, [_tool(schema, f"t{i}") for i in range(130)])
    assert code == 0
    assert (
        "warning: 130 tools: more than the 128 a gateway takes in one request; each case offers "
        "its own tool and the ones listed nearest it, 128 in all"
    ) in said.splitlines()


def test_more_tools_than_the_bound_is_one_line() -> None:
    assert listing_problems([(f"t{i}", None) for i in range(10_001)]) == [
        "10001 tools: more than the 10000 suite new drafts from (choose some with --include TOOL)"
    ]


def test_names_reach_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evil = "\x1b]0;owned\x07\x1b[2J\u202e"
    schema = {"type": "object", "properties": {evil: {"type": "string", "format": "x",
              "minLength": 2, "maxLength": 1}}, "required": [evil]}  # fmt: skip
    code, said = _run(tmp_path, capsys, [_tool(schema)])
    assert "\x1b" not in said and "\x07" not in said and "\u202e" not in said
    assert "\\x1b]0;owned\\x07\\x1b[2J\\u202e" in said
    bad = {"type": "object", "properties": {evil: {"type": "strin"}}}
    (tmp_path / "s.json").unlink()
    code, said = _run(tmp_path, capsys, [_tool(bad)])
    assert code == 1 and len(said.splitlines()) == 1
    assert "\x1b" not in said and "\\x1b" in said


@pytest.mark.parametrize(
    "defs",
    [
        {"A": {"$ref": "#/$defs/A"}},
        {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"anyOf": [{"$ref": "#/$defs/A"}]}},
    ],
)
def test_a_ref_loop_that_never_reaches_a_value_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], defs: dict[str, Any]
) -> None:
    """Every validator recurses forever on it (jsonschema: RecursionError, found by the fuzz
    target); a recursive schema that goes through a property or an item is fine (above)."""
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": defs}
    code, said = _run(tmp_path, capsys, [_tool(schema)])
    assert code == 1 and len(said.splitlines()) == 1 and "Traceback" not in said
    assert said.rstrip().endswith(
        "loops back to itself without reaching a part of the value (a validator would recurse "
        "forever)"
    )
