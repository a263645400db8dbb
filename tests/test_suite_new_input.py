"""``suite new`` from a tools file, as a new user meets it: the system prompt reads naturally (no
"the tools of tools"), a bad schema type is one ``error:`` line naming the tools file, the tool and
the field, and a given OUT whose folder is missing is refused, with nothing written either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lobstack_eval.main import main
from scorer.suite.draft.new import ListedTool, draft_suite

pytestmark = pytest.mark.timeout(60)

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather of a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    },
}


def _tools(tmp_path: Path, city_type: str = "string") -> Path:
    entry = json.loads(json.dumps(WEATHER))
    entry["function"]["parameters"]["properties"]["city"]["type"] = city_type
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([entry]), encoding="utf-8")
    return path


def test_a_tools_files_prompt_reads_naturally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.json"
    assert main(["suite", "new", str(out), "--tools", str(_tools(tmp_path))]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: tools 0.1.0, 1 tools, 6 cases")
    prompt = json.loads(out.read_text(encoding="utf-8"))["system_prompt"]
    assert prompt == (
        "You are an assistant that acts through the tools you are offered. Answer in text when "
        "no tool is needed, and make independent calls in the same response."
    )


def test_a_servers_prompt_still_names_the_server() -> None:
    tool = ListedTool("status", "Show the status.", {"type": "object", "properties": {}})
    origin = {"kind": "mcp", "server": {"name": "mcp-git", "version": "1.0"}}
    prompt = draft_suite([tool], "mcp-git", "2026-12-05", origin)["system_prompt"]
    assert prompt.startswith("You are an assistant that acts through the tools of mcp-git. ")


def test_a_bad_type_in_the_tools_file_is_named_against_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools, out = _tools(tmp_path, "strin"), tmp_path / "x.json"
    assert main(["suite", "new", str(out), "--tools", str(tools)]) == 1
    said, err = capsys.readouterr()
    assert said == ""
    assert err.splitlines() == [
        f"error: {tools}: tool 'get_weather': parameters.properties.city.type: 'strin' is not "
        "valid under any of the given schemas"
    ]
    assert not out.exists()


def test_a_given_out_in_a_missing_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nonexist" / "dir" / "g.json"
    assert main(["suite", "new", str(out), "--tools", str(_tools(tmp_path))]) == 2
    said, err = capsys.readouterr()
    assert said == ""
    assert err.splitlines() == [f"error: OUT {out}: no such directory {out.parent}"]
    assert not (tmp_path / "nonexist").exists()
