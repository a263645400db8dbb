"""Real answer bodies of each dialect, streamed and not (tests/fixtures/dialect_bodies/SOURCES.md),
decode to the calls a person reads in them; an error body is an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from recorder.answer_read import read_body
from recorder.client import failure_line
from recorder.transport import HttpAnswer
from scorer.wire.dialect import dialect
from scorer.wire.response import ModelResponse

BODIES = Path(__file__).parent / "fixtures" / "dialect_bodies"


def _read(name: str) -> ModelResponse:
    kind = name.split("_", 1)[0]
    reading = read_body((BODIES / name).read_bytes(), dialect(kind), name.endswith(".sse"))
    assert reading.response is not None, reading
    return reading.response


def _calls(response: ModelResponse) -> list[tuple[str | None, str, Any]]:
    def parsed(arguments: Any) -> Any:
        return json.loads(arguments) if isinstance(arguments, str) else arguments

    return [(c.id, c.name, parsed(c.arguments)) for c in response.tool_calls]


@pytest.mark.parametrize(
    ("name", "calls"),
    [
        (
            "chat_stream_parallel.sse",
            [
                ("call_JMW1whyEaYG438VE1OIflxA2", "GetWeatherArgs",
                 {"city": "Edinburgh", "country": "GB", "units": "c"}),
                ("call_DNYTawLBoN8fj3KN6qU9N1Ou", "get_stock_price",
                 {"ticker": "AAPL", "exchange": "NASDAQ"}),
            ],
        ),
        ("responses_whole_call.json",
         [("call_YfwRsW8sUxDKipwyhWTzOXCA", "get_capital", {"country": "PotatoLand"})]),
        ("responses_stream_call.sse",
         [("call_kL0PCQV7M2WMoVX8V8OtYSAL", "get_capital", {"country": "France"})]),
        ("messages_whole_noargs.json",
         [("toolu_01X9wcHKKAZD9tBC711xipPa", "get_user_country", {})]),
        ("messages_whole_call.json",
         [("toolu_01LZABsgreMefH2Go8D5PQbW", "final_result",
           {"city": "Mexico City", "country": "Mexico"})]),
        ("messages_stream_call.sse",
         [("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", {"location": "Paris"})]),
    ],
)  # fmt: skip
def test_each_body_decodes_to_the_calls_in_it(name: str, calls: list[Any]) -> None:
    response = _read(name)
    assert _calls(response) == calls
    assert response.anomalies == () and response.cut_off is None and response.problems == ()


def test_text_answers_have_their_text_and_no_call() -> None:
    text = _read("responses_whole_text.json")
    assert (text.content, text.tool_calls) == ("The capital of PotatoLand is Potato City.", ())
    streamed = _read("messages_stream_call.sse")
    assert streamed.content == "I'll check the current weather in Paris for you."


def test_answers_cut_off_by_max_tokens_say_so() -> None:
    chat = _read("chat_stream_length.sse")
    assert (chat.tool_calls, chat.cut_off) == ((), "finish_reason is length")
    messages = _read("messages_stream_max_tokens.sse")
    assert messages.cut_off == "stop_reason is max_tokens"
    [call] = messages.tool_calls
    assert call.name == "make_file" and isinstance(call.arguments, str)  # not a JSON object
    assert call.arguments.startswith('{"filename": ')


@pytest.mark.parametrize(
    ("name", "status", "line"),
    [
        ("responses_error_400.json", 400,
         "HTTP 400: Invalid 'temperature': decimal below minimum value."),
        ("messages_error_404.json", 404, "HTTP 404: model: claude-does-not-exist"),
    ],
)  # fmt: skip
def test_an_error_body_is_an_error_with_its_message(name: str, status: int, line: str) -> None:
    kind = name.split("_", 1)[0]
    answer = HttpAnswer(status, {}, (BODIES / name).read_bytes(), 1.0)
    assert failure_line(answer, "https://api.example/v1/x", dialect(kind)).startswith(line)


def test_an_error_event_mid_stream_is_an_error() -> None:
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    body = f"event: error\ndata: {json.dumps(error)}\n\n".encode()
    reading = read_body(body, dialect("messages"), stream=True)
    assert reading.error is not None and reading.error.transport  # retried like a 529
    assert reading.error.describe() == "error 529 in a 200 answer: Overloaded"
