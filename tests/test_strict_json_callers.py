"""``scorer.strict_json.loads_file`` through the callers that catch a TypeError around it:
``recorder.bundled_suite.suite_title`` (``except (ValueError, TypeError, KeyError)``: "a file that
is not a readable suite") and ``recorder.futile._priced`` (``except (OSError, ValueError, KeyError,
TypeError)``: None), so a reader that raised on a normal file would print another title or warning
without a traceback (benchmarks/README.md, "audit of caught crashes"). Both read the file's bytes;
a real suite or cassette easily holds more than 200 brackets (one object per case, per message),
where ``loads_file`` also checks the depth. Expected values by hand from the docstrings: a suite's
title is ``name version``; a cassette with a priced 2xx answer is priced. Last, two callers that
catch a ValueError: ``recorder.answer_read`` (an answer holding an integer of more than 4300 digits
is still judged) and ``recorder.tool_lists.read_tools_file`` (its error names the field)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recorder.answer_read import read_body
from recorder.bundled_suite import suite_title
from recorder.futile import _priced
from recorder.tool_lists import read_tools_file
from scorer.errors import SuiteError

COST = "x-lobstack-cost-usd"


def test_suite_title_of_a_suite_file() -> None:
    assert suite_title(b'{"name": "demo", "version": "1.0", "cases": []}') == "demo 1.0"


def test_suite_title_of_a_suite_with_201_cases() -> None:
    cases = ", ".join(f'{{"id": "c{i}"}}' for i in range(201))  # 201 braces besides the outer one
    data = f'{{"name": "demo", "version": "2.1", "cases": [{cases}]}}'.encode()
    assert suite_title(data) == "demo 2.1"


def write_cassette(path: Path, messages: int) -> Path:
    """A cassette of one priced 2xx answer to a request of ``messages`` messages."""
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}] * messages}
    interaction = {
        "request": {
            "method": "POST",
            "uri": "http://127.0.0.1:8000/v1/chat/completions",
            "body": json.dumps(request),
            "headers": {},
        },
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": {COST: ["0.001"]},
            "body": {"string": '{"choices": []}'},
        },
    }
    path.write_text(json.dumps({"version": 1, "interactions": [interaction]}), encoding="utf-8")
    return path


def test_priced_reads_a_cassette_file(tmp_path: Path) -> None:
    assert _priced(write_cassette(tmp_path / "c.json", 1), COST) is True


def test_priced_reads_a_cassette_of_201_messages(tmp_path: Path) -> None:
    assert _priced(write_cassette(tmp_path / "c.json", 201), COST) is True


# Beyond the 22: a ValueError of a mutant is caught too, where the callers catch ValueError. An
# integer of more than 4300 digits is valid JSON that Python's int() refuses (module docstring).
HUGE = "9" * 5000


def test_an_answer_with_a_huge_integer_is_still_judged() -> None:
    # answer_read reads leniently again after strict reading refused it: the number is kept as a
    # marker and the rest judged (a ValueError there would be "the body is not JSON")
    body = (
        '{"id": "chatcmpl-1", "object": "chat.completion", "model": "m", "choices": [{"index": 0, '
        '"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}], '
        f'"usage": {{"prompt_tokens": {HUGE}}}}}'
    ).encode()
    reading = read_body(body)
    assert reading.problem is None and reading.error is None
    assert reading.response is not None
    assert (reading.response.content, reading.response.finish_reason) == ("hi", "stop")


def test_a_tools_file_with_a_huge_integer_names_its_field(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    parameters = f'{{"type": "object", "properties": {{"n": {{"maximum": {HUGE}}}}}}}'
    path.write_text(
        f'{{"tools": [{{"type": "function", "function": {{"name": "f", "parameters": {parameters}'
        "}}]}",
        encoding="utf-8",
    )
    with pytest.raises(SuiteError) as caught:
        read_tools_file(path)
    assert caught.value.message == (
        f"{path}: not valid JSON: tools[0].function.parameters.properties.n.maximum: a number with "
        "more than 4300 digits"
    )
