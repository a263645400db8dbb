"""A 2xx body is read once (``recorder.answer_read.read_body``): its error object, else the
model's answer, else why it is no chat completion. The client decides retries from the reading and
the runner judges the answer it holds (tests/test_choice_error.py and tests/test_openrouter_model.py
run both on the stand-in)."""

from __future__ import annotations

import json

import pytest

from recorder.answer_read import BodyReading, read_body

MESSAGE = {"role": "assistant", "content": "hi"}
ANSWER = {"choices": [{"message": MESSAGE, "finish_reason": "stop"}]}


def _json(value: object) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    ("body", "outcome", "described"),
    [
        (
            _json({"error": {"code": 502, "message": "Network connection lost."}}),
            "in_body_502",
            "error 502 in a 200 answer: Network connection lost.",
        ),
        (
            _json({"choices": [{"message": MESSAGE, "error": {"code": "400", "message": "bad"}}]}),
            "in_body_400",
            "error 400 in a 200 answer's choice: bad",
        ),
        (
            _json({"choices": [{"message": MESSAGE, "finish_reason": "error"}]}),
            "in_body_error",
            'an error in a 200 answer\'s choice: finish_reason "error" and no error object',
        ),
        (  # the byte order mark is ignored here too, as when the answer is judged
            b"\xef\xbb\xbf" + _json({"error": {"code": 503, "message": "busy"}}),
            "in_body_503",
            "error 503 in a 200 answer: busy",
        ),
        (  # the key written with a JSON escape is the same key
            b'{"\\u0065rror": {"code": 502, "message": "lost"}}',
            "in_body_502",
            "error 502 in a 200 answer: lost",
        ),
        (
            b'{"choices": [{"message": {"role": "assistant"}, "\\u0065rror": {"code": 503}}]}',
            "in_body_503",
            "error 503 in a 200 answer's choice",
        ),
        (
            b'{"choices": [{"message": {"role": "assistant"}, "finish_reason": "\\u0065rror"}]}',
            "in_body_error",
            'an error in a 200 answer\'s choice: finish_reason "error" and no error object',
        ),
        (  # a code past Python's 4300-digit int limit: an error, its code cut to 60 characters
            b'{"error": {"code": ' + b"9" * 5000 + b', "message": "huge"}}',
            "in_body_error",
            "error " + "9" * 59 + "… in a 200 answer: huge",
        ),
        (
            b'{"error": {"code": "' + b"5" * 5000 + b'", "message": "huge"}}',
            "in_body_error",
            "error " + "5" * 59 + "… in a 200 answer: huge",
        ),
        (  # leading zeros are still the status
            _json({"error": {"code": "000502", "message": "lost"}}),
            "in_body_502",
            "error 502 in a 200 answer: lost",
        ),
    ],
    ids=[
        "top-level",
        "in-choice",
        "finish-reason",
        "after-a-byte-order-mark",
        "escaped-key",
        "escaped-key-in-choice",
        "escaped-finish-reason",
        "huge-number-code",
        "huge-string-code",
        "zero-padded-code",
    ],
)
def test_an_error_object_is_the_reading(body: bytes, outcome: str, described: str) -> None:
    reading = read_body(body)
    assert reading.response is None and reading.problem is None and reading.error is not None
    assert reading.error.outcome == outcome and reading.error.describe() == described


@pytest.mark.parametrize(
    "body",
    [_json(ANSWER), _json({**ANSWER, "error": None}), b"\xef\xbb\xbf" + _json(ANSWER)],
    ids=["plain", "null-error", "byte-order-mark"],
)
def test_an_answer_without_an_error_object_is_the_models(body: bytes) -> None:
    reading = read_body(body)
    assert reading.error is None and reading.problem is None and reading.response is not None
    assert reading.response.content == "hi" and reading.response.finish_reason == "stop"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"<html>502</html>", "malformed response: the body is not JSON"),
        (b"\xff{}", "malformed response: the body is not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "malformed response: the body nests too deeply to read"),
        (b'{"error": "x"', "malformed response: the body is not JSON"),  # cut off: not an error
        (_json({"choices": []}), "malformed response: no choices[0]"),
    ],
    ids=["html", "not-utf8", "too-deep", "cut-off-error", "no-choices"],
)
def test_a_body_that_is_no_chat_completion_says_why(body: bytes, problem: str) -> None:
    assert read_body(body) == BodyReading(problem=problem)


def test_an_error_nested_too_deeply_to_show_is_still_an_error() -> None:
    from scorer.wire.response import body_error

    deep: list[object] = []
    for _ in range(100_000):  # built as data: deeper than any repr can walk
        deep = [deep]
    error = body_error({"error": deep})
    assert error is not None and error.outcome == "in_body_error"
    assert error.describe() == "an error in a 200 answer: a list nested too deeply to show"


SSE = (
    b'data: {"choices":[{"delta":{"role":"assistant","content":"h"}}]}\n\n'
    b'data: {"choices":[{"delta":{"content":"i"},"finish_reason":"stop"}]}\n\n'
)


def test_a_streamed_answer_is_assembled_with_its_anomalies() -> None:
    done = read_body(SSE + b"data: [DONE]\n\n", stream=True)
    assert done.error is None and done.problem is None and done.response is not None
    assert (done.response.content, done.response.finish_reason) == ("hi", "stop")
    assert done.response.anomalies == ()
    cut = read_body(SSE, stream=True)
    assert cut.response is not None and cut.response.content == "hi"
    assert cut.response.anomalies == ("the stream was cut off before its last event",)
    assert read_body(b"garbage", stream=True) == BodyReading(
        problem="malformed response: no SSE event in a streamed answer"
    )
    error = read_body(b'data: {"error": {"code": 502, "message": "lost"}}\n\n', stream=True)
    assert error.response is None and error.error is not None
    assert error.error.describe() == "error 502 in a 200 answer: lost"
    # a gateway that does not stream: the plain body is the answer, with no anomaly
    plain = read_body(_json(ANSWER), stream=True)
    assert plain.response is not None and plain.response.anomalies == ()


def test_a_non_finite_number_leaves_the_answer_readable() -> None:
    body = _json(ANSWER)[:-1] + b', "usage": {"cost": NaN}}'
    reading = read_body(body)
    assert reading.error is None and reading.problem is None and reading.response is not None
    assert reading.response.content == "hi"


def test_the_body_is_read_in_the_dialect_given() -> None:
    from scorer.wire.dialect import MESSAGES

    body = _json(
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "hi"}],
            "stop_reason": "end_turn",
        }
    )
    reading = read_body(body, MESSAGES)
    assert reading.response is not None
    assert (reading.response.content, reading.response.finish_reason) == ("hi", "end_turn")
    assert read_body(body) == BodyReading(problem="malformed response: no choices[0]")


def test_a_reader_out_of_stack_while_reading_the_answer_says_too_deep() -> None:
    """The guard around the dialect's reader: no body of today's dialects gets past the parse and
    then runs out of stack (the parse refuses first), so a reader that does is given here. The
    reading is the problem, said as for a body too deep to parse, never an exception."""
    import dataclasses
    from typing import NoReturn

    from scorer.wire.dialect import CHAT

    def out_of_stack(decoded: object) -> NoReturn:
        raise RecursionError("maximum recursion depth exceeded")

    dialect = dataclasses.replace(CHAT, parse_answer=out_of_stack)
    reading = read_body(_json(ANSWER), dialect)
    assert reading == BodyReading(problem="malformed response: the body nests too deeply to read")
