"""Drafts worth keeping (issue 40, part 4): requests that ask for the outcome without naming the
tool or copying its description, near misses for tools that look alike, a parallel pair, a chain
whose second call takes the first one's output, no-call requests near the tools' domain, and
``--include``/``--exclude``. Deterministic: no model, no randomness."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer.suite.draft.new import ListedTool, draft_suite

pytestmark = pytest.mark.timeout(60)


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": {**required, **(optional or {})},
            "required": list(required)}  # fmt: skip


EVENT_ID = {"type": "string", "pattern": "^evt_[0-9a-f]{8}$"}
TOOLS = [
    ListedTool("create_event", "Create a calendar event.", _obj(
        {"title": {"type": "string"}, "start": {"type": "string", "format": "date-time"}})),
    ListedTool("get_event", "Read one event by its id.", _obj({"event_id": EVENT_ID})),
    ListedTool("delete_event", "Delete an event.", _obj({"event_id": EVENT_ID},
               {"notify": {"type": "boolean", "default": True}})),
    ListedTool("invite_guest", "Invite someone to an event by e-mail.", _obj(
        {"event_id": EVENT_ID, "email": {"type": "string", "format": "email"}})),
    ListedTool("get_weather", "Get the weather forecast of a city.", _obj(
        {"city": {"type": "string"}})),
]  # fmt: skip


@pytest.fixture(scope="module")
def suite() -> dict[str, Any]:
    return draft_suite(TOOLS, "calendar", "2026-12-05", {"kind": "tools_file"})


def _by_group(suite: dict[str, Any], group: str) -> list[dict[str, Any]]:
    return [case for case in suite["cases"] if case["group"] == group]


def test_requests_name_no_tool_and_copy_no_description(suite: dict[str, Any]) -> None:
    for case in suite["cases"]:
        text = case["messages"][0]["content"]
        for tool in TOOLS:
            assert tool.name not in text, (case["id"], text)
            assert tool.description.rstrip(".") not in text, (case["id"], text)
    select = {c["id"]: c["messages"][0]["content"] for c in _by_group(suite, "selection")}
    assert select["select-create_event"] == (
        'Please set up a new event with title "Quarterly planning review" and start '
        '"2026-03-14T09:30:00Z".'
    )
    assert select["select-get_weather"] == 'Can you pull up the weather with city "Lisbon"?'


def test_each_value_of_a_reference_is_said_and_checked(suite: dict[str, Any]) -> None:
    for case in suite["cases"]:
        text = case["messages"][0]["content"]
        for step in case["steps"]:
            for call in step.get("calls", []):
                assert call["args"] == {k: {"eq": v} for k, v in call["reference"].items()}
                if case["group"] != "chains":
                    for value in call["reference"].values():
                        shown = "set to " + json.dumps(value) if isinstance(value, bool) else (
                            json.dumps(value, ensure_ascii=False))  # fmt: skip
                        assert shown in text, (case["id"], value)


def test_tools_that_look_alike_get_near_misses(suite: dict[str, Any]) -> None:
    near = {c["id"]: c for c in _by_group(suite, "near_misses")}
    # invite_guest and get_weather share no word of their things with another tool
    assert set(near) == {"near-create_event", "near-get_event", "near-delete_event"}
    case = near["near-get_event"]
    assert case["draft"].startswith("near miss: create_event looks alike; ")
    assert case["messages"][0]["content"].endswith(" Don't create anything new.")
    assert "create_event" in case["tools"] and case["steps"][0]["calls"][0]["name"] == "get_event"


def test_one_parallel_case_of_two_independent_reads(suite: dict[str, Any]) -> None:
    [case] = _by_group(suite, "parallel")
    assert [c["name"] for c in case["steps"][0]["calls"]] == ["get_event", "get_weather"]
    assert len(case["steps"]) == 1


def test_a_chain_passes_the_first_results_id_to_the_second_call(suite: dict[str, Any]) -> None:
    chains = {c["id"]: c for c in _by_group(suite, "chains")}
    assert set(chains) == {"chain-create_event-get_event", "chain-create_event-delete_event",
                           "chain-create_event-invite_guest"}  # fmt: skip
    case = chains["chain-create_event-invite_guest"]
    first, second, last = case["steps"]
    made = json.loads(first["calls"][0]["result"])
    handed = second["calls"][0]["reference"]["event_id"]
    assert made["id"] == handed and second["calls"][0]["args"]["event_id"] == {"eq": handed}
    assert handed not in case["messages"][0]["content"]  # it comes from the result only
    assert last == {"expect": "none"}


def test_no_call_cases_near_the_domain(suite: dict[str, Any]) -> None:
    texts = {c["id"]: c["messages"][0]["content"] for c in _by_group(suite, "no_call")}
    assert texts["no-call-hold"] == (
        "I may need your help with an event later today. Don't create anything new yet; just "
        "tell me what you would need from me."
    )
    assert texts["no-call-general"] == (
        "In general terms, what makes a good event? No need to look anything up."
    )


def test_the_same_tools_give_the_same_suite(suite: dict[str, Any]) -> None:
    again = draft_suite(TOOLS, "calendar", "2026-12-05", {"kind": "tools_file"})
    assert json.dumps(again, sort_keys=True) == json.dumps(suite, sort_keys=True)


def _tools_file(tmp_path: Path) -> Path:
    path = tmp_path / "tools.json"
    entries = [{"name": t.name, "description": t.description, "parameters": t.input_schema}
               for t in TOOLS]  # fmt: skip
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def test_include_and_exclude_choose_the_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.json"
    args = ["suite", "new", str(out), "--tools", str(_tools_file(tmp_path))]
    assert main([*args, "--include", "*_event", "--exclude", "delete_event"]) == 0
    capsys.readouterr()
    document = json.loads(out.read_text(encoding="utf-8"))
    assert list(document["tools"]) == ["create_event", "get_event"]
    assert [t["name"] for t in document["origin"]["tools"]] == ["create_event", "get_event"]
    assert main([*args, "--force", "--exclude", "nope_*"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --exclude 'nope_*': matches no listed tool ('create_event', 'get_event', "
        "'delete_event', 'invite_guest', 'get_weather')"
    ]
