"""A reasoning model through every dialect: the stand-in's ``ref/reasoning`` answers with a
Responses reasoning item (summary, ``encrypted_content``, reasoning tokens in usage) or a Messages
thinking block (text and signature, streamed as ``thinking_delta`` then ``signature_delta``), and
refuses a follow-up whose reasoning did not come back unchanged, as it does on Chat. The
decoders read them, streamed or not, and a chain sends them back (a chain case passes in all six
ways; it errored with HTTP 400 on Responses and Messages before the stand-in carried the
signature)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from recorder.files import read_suite
from recorder.gateway import Gateway
from recorder.record import record
from recorder.runner import request_body
from recorder.settings import RecordSettings
from scorer.wire.dialect import dialect
from scorer.wire.settings import Wire
from scorer.wire.streams import assemble
from standin import GatewayConfig, StandInGateway
from tests.conftest import MINI_SUITE

SUITE = read_suite(MINI_SUITE)

WAYS = [Wire(d, s) for d in ("chat", "responses", "messages") for s in (False, True)]
CHAIN = "chains-01"
HEADERS = {"messages": {"anthropic-version": "2023-06-01"}}


@pytest.fixture(scope="module")
def gateway():  # type: ignore[no-untyped-def]
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as started:
        yield started


def ask(gateway: StandInGateway, wire: Wire, echoed: list[dict[str, Any]] | None = None) -> Any:
    """The raw answer to step 1 of the chain case in ``wire``'s dialect (or to step 2, after
    ``echoed``)."""
    gateway_of_run = Gateway(gateway.url, wire)
    body = request_body(SUITE, SUITE.case(CHAIN), "ref/reasoning", echoed or [], gateway_of_run)
    url = gateway.url + dialect(wire.dialect).path
    return requests.post(url, json=body, headers=HEADERS.get(wire.dialect, {}), timeout=30)


def whole(gateway: StandInGateway, name: str) -> dict[str, Any]:
    answer = ask(gateway, Wire(name))
    assert answer.status_code == 200
    return answer.json()


def test_responses_sends_a_signed_reasoning_item_and_counts_its_tokens(gateway) -> None:  # type: ignore[no-untyped-def]
    body = whole(gateway, "responses")
    [item] = [i for i in body["output"] if i["type"] == "reasoning"]
    assert item["summary"][0]["text"].startswith(f"Step 1 of {CHAIN}: the request needs")
    assert item["encrypted_content"]  # the chat answer's reasoning_details signature
    assert body["usage"]["output_tokens_details"]["reasoning_tokens"] > 0


def test_messages_sends_a_signed_thinking_block_first(gateway) -> None:  # type: ignore[no-untyped-def]
    body = whole(gateway, "messages")
    first = body["content"][0]
    assert first["type"] == "thinking" and first["thinking"].startswith(f"Step 1 of {CHAIN}")
    assert first["signature"] == whole(gateway, "responses")["output"][0]["encrypted_content"]


@pytest.mark.parametrize("name", ["responses", "messages"])
def test_the_stream_assembles_to_the_whole_answers_reasoning(gateway, name: str) -> None:  # type: ignore[no-untyped-def]
    streamed = ask(gateway, Wire(name, True))
    frames = streamed.content.decode("utf-8")
    kinds = ("response.reasoning_summary_text.delta",) if name == "responses" else (
        '"thinking_delta"', '"signature_delta"')  # fmt: skip
    assert all(kind in frames for kind in kinds)  # sent in pieces, as the providers send them
    assembled, anomalies = assemble(name, streamed.content)
    body = whole(gateway, name)
    key = "output" if name == "responses" else "content"
    assert anomalies == () and assembled[key][0] == body[key][0]
    answer = dialect(name).parse_answer(assembled)
    assert [c.name for c in answer.tool_calls] == [
        c.name for c in dialect(name).parse_answer(body).tool_calls
    ]


def test_a_responses_stream_cut_before_the_item_is_done_keeps_its_summary() -> None:
    frames = [
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "id": "rs_1", "summary": []}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0,
         "delta": "Think"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0,
         "delta": "ing."},
    ]  # fmt: skip
    body = "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames).encode()
    assembled, anomalies = assemble("responses", body)
    assert assembled["output"] == [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "Thinking."}],
        }
    ]
    assert "the stream was cut off before its last event" in anomalies


def _follow_up(gateway: StandInGateway, name: str, edit: Any) -> requests.Response:
    """Step 2 of the chain after step 1's answer, its reasoning edited by ``edit``."""
    first = dialect(name).parse_answer(whole(gateway, name))
    echoed = dialect(name).follow_up(first, [c.id for c in first.tool_calls], ["[]"])
    edit(echoed)
    return ask(gateway, Wire(name), echoed)


def _drop_reasoning(echoed: list[dict[str, Any]]) -> None:
    if echoed[0].get("type") == "reasoning":
        del echoed[0]  # Responses: the reasoning item
    else:
        echoed[0]["content"] = echoed[0]["content"][1:]  # Messages: the thinking block


def _change_signature(echoed: list[dict[str, Any]]) -> None:
    if echoed[0].get("type") == "reasoning":
        echoed[0]["encrypted_content"] = "AAAA" + echoed[0]["encrypted_content"][4:]
    else:
        block = echoed[0]["content"][0]
        block["signature"] = "AAAA" + block["signature"][4:]


@pytest.mark.parametrize("name", ["responses", "messages"])
def test_a_follow_up_must_send_the_reasoning_back_unchanged(gateway, name: str) -> None:  # type: ignore[no-untyped-def]
    assert _follow_up(gateway, name, lambda _e: None).status_code == 200
    dropped = _follow_up(gateway, name, _drop_reasoning)
    assert dropped.status_code == 400 and "reasoning_content" in dropped.text
    changed = _follow_up(gateway, name, _change_signature)
    assert changed.status_code == 400 and "reasoning_details" in changed.text


def test_a_chain_of_a_reasoning_model_passes_in_all_six_ways(gateway, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    statuses = {
        wire.label(): record(
            MINI_SUITE, "ref/reasoning", tmp_path / wire.label(), gateway.url, [CHAIN],
            RecordSettings(concurrency=1, wire=wire),
        ).statuses[CHAIN]
        for wire in WAYS
    }  # fmt: skip
    assert statuses == {wire.label(): "passed" for wire in WAYS}
