"""The one rule for a gateway's headers behind a proxy, and what a run knows of a dropped
temperature (issue 45; METHOD.md#temperature-unknown)."""

from __future__ import annotations

import pytest

from scorer.outcome import Attempt, CaseOutcome
from scorer.results import dropped_temperature
from scorer.wire.headers import gateway_header, speaks_lobstack
from tests.suitekit import case, make_suite


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x-lobstack-cost-usd": "0.1"}, "0.1"),
        ({"llm_provider-x-lobstack-cost-usd": "0.2"}, "0.2"),
        # the gateway's own name wins over a forwarded one
        ({"x-lobstack-cost-usd": "0.1", "llm_provider-x-lobstack-cost-usd": "0.2"}, "0.1"),
        ({"other_prefix-x-lobstack-cost-usd": "0.3"}, None),
        ({}, None),
    ],
)
def test_gateway_header_reads_the_name_as_sent_or_under_litellms_prefix(
    headers: dict[str, str], expected: str | None
) -> None:
    assert gateway_header(headers, "x-lobstack-cost-usd") == expected


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x-lobstack-cost-usd": "0.1"}, True),
        ({"llm_provider-x-lobstack-dropped-params": "temperature"}, True),
        ({"server": "lobstack-stand-in/1"}, True),
        ({"server": "uvicorn", "llm_provider-server": "lobstack-stand-in/1"}, True),
        ({"server": "uvicorn", "x-litellm-response-cost": "0.1"}, False),
        ({"content-type": "application/json"}, False),
        ({"x-lobstackish": "1"}, False),
        # the stand-in's suite header is the test harness's, not the gateway's
        ({"server": "vllm", "llm_provider-x-lobstack-suite": "name=s; version=1; sha256=0"}, False),
    ],
)
def test_speaks_lobstack_is_a_lobstack_header_or_the_stand_in(
    headers: dict[str, str], expected: bool
) -> None:
    assert speaks_lobstack(headers) is expected


CASE = make_suite([case("no_call-01", [{"expect": "none"}], group="no_call")]).cases[0]


def _outcome(*attempts: Attempt) -> CaseOutcome:
    return CaseOutcome(CASE, "passed", None, (), attempts)


def _attempt(dropped: str | None = None, lobstack: bool = False) -> Attempt:
    return Attempt(1, 1, "ok", 200, 10.0, dropped_params=dropped, lobstack=lobstack)


@pytest.mark.parametrize(
    ("attempts", "expected"),
    [
        ([[_attempt("temperature", True)], [_attempt(lobstack=True)]], True),
        # a dropped temperature is a fact wherever it was read from
        ([[_attempt("Temperature; top_p")]], True),
        ([[_attempt(lobstack=True)], [_attempt()]], False),
        ([[_attempt()], [_attempt()]], None),
        ([[_attempt("top_p", True)]], False),
        ([], None),
    ],
)
def test_dropped_temperature_is_yes_no_or_unknown(
    attempts: list[list[Attempt]], expected: bool | None
) -> None:
    assert dropped_temperature([_outcome(*a) for a in attempts]) is expected
