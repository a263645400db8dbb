"""What identifies a case-run's answers (scorer.answers): the digest of each step's answer as
canonical JSON, written out here by hand, and when two runs got the same answers."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from scorer.answers import answer_digests, same_answers


def _sha(canonical: str) -> str:
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


CALL = {"id": "c0", "name": "get_weather", "arguments": '{"city": "Oslo"}', "parsed": True}


@pytest.mark.parametrize(
    ("response", "canonical"),
    [
        pytest.param(
            # The scorer's own flags (parsed, offered) and other fields are left out; keys sorted,
            # no spaces, non-ASCII kept as it is.
            {"content": "Zoë", "model": "m", "tool_calls": [CALL], "finish_reason": "stop"},
            '{"content":"Zoë","model":"m","tool_calls":'
            '[{"arguments":"{\\"city\\": \\"Oslo\\"}","id":"c0","name":"get_weather"}]}',
            id="text-and-a-call",
        ),
        pytest.param(
            {"content": None, "model": None},
            '{"content":null,"model":null,"tool_calls":[]}',
            id="no-calls",
        ),
        pytest.param(
            {"content": "", "model": "m", "tool_calls": "not a list"},
            '{"content":"","model":"m","tool_calls":[]}',
            id="calls-not-a-list",
        ),
        pytest.param(
            {"model": "m", "tool_calls": [7, {"name": "f"}]},
            '{"content":null,"model":"m","tool_calls":[null,{"arguments":null,"id":null,"name":"f"}]}',
            id="odd-entries",
        ),
        pytest.param(None, "null", id="no-response"),
        pytest.param(["a"], "null", id="response-not-an-object"),
    ],
)
def test_one_answer_digest(response: Any, canonical: str) -> None:
    assert answer_digests([{"response": response, "passed": True}]) == (_sha(canonical),)


def test_one_digest_per_step_in_order() -> None:
    steps = [{"response": {"content": "a"}}, {"response": {"content": "b"}}]
    assert answer_digests(steps) == (
        _sha('{"content":"a","model":null,"tool_calls":[]}'),
        _sha('{"content":"b","model":null,"tool_calls":[]}'),
    )


@pytest.mark.parametrize(
    "steps",
    [None, "x", {"response": {}}, [{"response": {}}, {"passed": True}], [{"response": {}}, 7]],
    ids=["none", "text", "a-dict", "a-step-without-response", "a-step-not-an-object"],
)
def test_no_digests_when_the_steps_do_not_carry_the_responses(steps: Any) -> None:
    assert answer_digests(steps) is None


def test_steps_must_be_a_list() -> None:
    # A results file's steps are a JSON array: any other sequence is not read, even of good steps.
    assert answer_digests(({"response": {"content": "a"}},)) is None


def test_keys_are_read_exactly() -> None:
    # Keys differing only in case are other keys: not the response, not its calls.
    response = {"content": "a", "tool_calls": [], "TOOL_CALLS": [CALL]}
    step = {"response": response, "RESPONSE": {"content": "b"}}
    assert answer_digests([step]) == (_sha('{"content":"a","model":null,"tool_calls":[]}'),)


def test_no_steps_no_digests() -> None:
    assert answer_digests([]) == ()


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (("x", "y"), ("x", "y"), True),
        (("x",), ("x", "y"), True),  # one chain stopped earlier: same answers so far
        (("x", "y"), ("x",), True),
        (("x", "y"), ("x", "z"), False),
        (("y",), ("x", "y"), False),
        (("x",), ("z",), False),
        (None, ("x",), False),
        (("x",), None, False),
        ((), (), False),
        ((), ("x",), False),
        (None, None, False),
    ],
)
def test_same_answers(a: Any, b: Any, same: bool) -> None:
    assert same_answers(a, b) is same
