"""A fuzz target per loader (issue 42): suite JSON and YAML, results.json, a cassette, run.json, a
tools file and an MCP server's tool list. Each is fed a valid seed with one field replaced by a
hostile value, and the seed's text spliced, cut and edited (tests/fuzzkit.py), with a fixed seed
and a bounded number of examples: the loader returns or raises its own typed error as one line
naming the file, never a traceback, and its allocations stay bounded. A hang is stopped by the
module's time limit."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.manifest_read import read_manifest
from recorder.tool_lists import list_mcp_tools, read_tools_file
from replay.cassettes.transport import load_interactions
from replay.drift.load import run_record
from replay.results.read import read_results
from scorer.errors import CassetteError, ResultsError, SuiteError
from scorer.suite.file import check_suite
from scorer.suite.yaml_file import dumps_yaml, loads_yaml
from tests.conftest import FIXTURES, ROOT
from tests.fuzzkit import (
    FUZZ,
    VALUES,
    encoded,
    hostile_texts,
    loads_or_refuses,
    mutated_documents,
)

pytestmark = pytest.mark.timeout(120)

SUITE_YAML = (FIXTURES / "own_tools" / "suite.yaml").read_text(encoding="utf-8")
SUITE = loads_yaml(SUITE_YAML)[0]
SUITE_JSON = json.dumps(SUITE, indent=2)
RESULTS_FILE = ROOT / "reports" / "ref_noisy" / "results.json"
RESULTS = json.loads(RESULTS_FILE.read_text(encoding="utf-8"))
RESULTS["run"] = {"id": "2026-10-21", "date": "2026-10-21", "recorded_at": None, "identity": None}
CASSETTE_FILE = ROOT / "cassettes" / "ref_oracle" / "no_call-04.json"
CASSETTE = json.loads(CASSETTE_FILE.read_text(encoding="utf-8"))
MANIFEST = json.loads((ROOT / "cassettes" / "ref_oracle" / "run.json").read_text(encoding="utf-8"))
TOOLS = list(SUITE["tools"].values())  # an OpenAI-style tools file: the suite's own tools


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for every example's file (each example overwrites it), each file loader having
    read its seed once: what a first load imports or caches for good (the metaschema's validator)
    is no part of one load's allocations, and traced by tracemalloc in the first example it cost
    more CPU than the examples."""
    path = tmp_path_factory.mktemp("fuzz")
    check_suite(SUITE_JSON.encode(), "suite.json")
    check_suite(SUITE_YAML.encode(), "suite.yaml")
    seed, _ = _written(path, "results.json", json.dumps(RESULTS))
    _results(seed)
    load_interactions(CASSETTE_FILE)
    read_manifest(CASSETTE_FILE.parent)
    tools, _ = _written(path, "tools.json", json.dumps(TOOLS))
    read_tools_file(tools)
    return path


@pytest.fixture(scope="module")
def mcp_folder(folder: Path) -> Path:
    """``folder``, the MCP listing read once too: the SDK's hundreds of pydantic models (about
    0.7 s of CPU) are imported only by a worker that runs the MCP target, not by every worker
    that runs one of this module's targets."""
    with mock.patch("anyio.run", return_value=({"name": "s"}, MCP_LISTED, [])):
        list_mcp_tools(sys.executable, 5.0)
    return folder


def _written(folder: Path, name: str, text: str) -> tuple[Path, int]:
    path = folder / name
    raw = encoded(text)
    path.write_bytes(raw)
    return path, len(raw)


def _suite(folder: Path, name: str, text: str) -> None:
    path, size = _written(folder, name, text)
    loads_or_refuses(lambda: check_suite(path.read_bytes(), str(path)), SuiteError, str(path), size)


@FUZZ
@given(text=mutated_documents(SUITE) | hostile_texts(SUITE_JSON))
def test_suite_json(folder: Path, text: str) -> None:
    _suite(folder, "suite.json", text)


@settings(FUZZ, max_examples=50)  # PyYAML allocates much: tracemalloc triples its cost
@given(
    text=hostile_texts(SUITE_YAML)
    | mutated_documents(SUITE).map(lambda t: _yaml_of(t) or SUITE_YAML)
)
def test_suite_yaml(folder: Path, text: str) -> None:
    _suite(folder, "suite.yaml", text)


def _yaml_of(text: str) -> str | None:
    """A mutated document as the YAML ``suite new`` would write (None when it holds what JSON
    cannot: the big integer's placeholder was swapped into the text)."""
    try:
        return dumps_yaml(json.loads(text))
    except (ValueError, RecursionError):
        return None


def _results(path: Path) -> None:
    typed = read_results(path)
    _ = typed.summary, typed.cases  # every typed part, as the report reads them
    run_record(path, typed.document)  # drift's and report --history's reading of the run


@FUZZ
@given(text=mutated_documents(RESULTS) | hostile_texts(json.dumps(RESULTS)[:4000]))
def test_results_json(folder: Path, text: str) -> None:
    path, size = _written(folder, "results.json", text)
    loads_or_refuses(lambda: _results(path), ResultsError, str(path), size)


@FUZZ
@given(text=mutated_documents(CASSETTE) | hostile_texts(json.dumps(CASSETTE)))
def test_cassette(folder: Path, text: str) -> None:
    path, size = _written(folder, "case.json", text)
    loads_or_refuses(lambda: load_interactions(path), CassetteError, str(path), size)


@FUZZ
@given(text=mutated_documents(MANIFEST) | hostile_texts(json.dumps(MANIFEST)[:4000]))
def test_run_json(folder: Path, text: str) -> None:
    model_dir = folder / "model"
    model_dir.mkdir(exist_ok=True)
    path, size = _written(model_dir, "run.json", text)
    loads_or_refuses(lambda: read_manifest(model_dir), CassetteError, str(path), size)


@FUZZ
@given(text=mutated_documents(TOOLS) | hostile_texts(json.dumps(TOOLS)))
def test_tools_file(folder: Path, text: str) -> None:
    path, size = _written(folder, "tools.json", text)
    loads_or_refuses(lambda: read_tools_file(path), SuiteError, str(path), size)


MCP_LISTED = [
    {"name": t["function"]["name"], "description": "d", "inputSchema": t["function"]["parameters"]}
    for t in TOOLS
    if isinstance(t, dict) and "function" in t
]


@FUZZ
@given(
    listed=st.sampled_from(range(len(MCP_LISTED))).flatmap(
        lambda i: st.builds(lambda v: _with(i, v), VALUES)
    )
    | st.lists(VALUES, max_size=4)
)
def test_mcp_tool_list(mcp_folder: Path, listed: Any) -> None:
    """What a server's ``tools/list`` gives (the SDK's session stood in for: ``anyio.run``
    returns the listing) read by ``list_mcp_tools`` (``mcp_folder``: the loader warmed)."""
    target = sys.executable  # a command on PATH: the listing itself is stood in for
    answer = ({"name": "srv", "version": "1"}, listed, [])
    size = len(json.dumps(listed, default=str))
    with mock.patch("anyio.run", return_value=answer):
        loads_or_refuses(lambda: list_mcp_tools(target, 5.0), SuiteError, f"--mcp {target}: ", size)


def _with(index: int, value: Any) -> list[dict[str, Any]]:
    """The listing with one entry's field (name, description or schema) or the entry replaced."""
    listed = json.loads(json.dumps(MCP_LISTED))
    field = ("name", "description", "inputSchema", None)[index % 4]
    if field is None:
        listed[index] = value
    else:
        listed[index][field] = value
    return listed


def test_the_seeds_load() -> None:
    """Each seed is a document its loader reads: the fuzzing starts from sound input."""
    assert check_suite(SUITE_JSON.encode(), "s.json").suite is not None
    assert check_suite(SUITE_YAML.encode(), "s.yaml").suite is not None
    assert len(MCP_LISTED) == len(TOOLS) >= 2
    with mock.patch("anyio.run", return_value=({"name": "s"}, MCP_LISTED, [])):
        assert list_mcp_tools(sys.executable, 5.0).tools[0].name == MCP_LISTED[0]["name"]
