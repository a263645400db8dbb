"""The one rule for a gateway's headers behind a proxy, and what a run knows of a dropped
temperature (issue 45; METHOD.md#temperature-unknown)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorer.outcome import Attempt, CaseOutcome
from scorer.results import dropped_temperature
from scorer.wire.headers import (
    LOBSTACK_PREFIX,
    PROXY_PREFIXES,
    STAND_IN_SERVER,
    STAND_IN_SUITE,
    dropped_params,
    finite,
    gateway_header,
    price,
    speaks_lobstack,
)
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


def test_the_prefixes_and_names_of_lobstack_headers() -> None:
    assert PROXY_PREFIXES == ("llm_provider-",)
    assert (LOBSTACK_PREFIX, STAND_IN_SUITE, STAND_IN_SERVER) == (
        "x-lobstack-",
        "x-lobstack-suite",
        "lobstack-stand-in/",
    )


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x-lobstack-suite": "name=s"}, False),  # the stand-in's harness header alone
        ({"x-lobstack-suite": "name=s", "x-lobstack-model": "m"}, True),
        ({"llm_provider-x-lobstack-model": "m"}, True),
        ({"server": "Lobstack-Stand-In/1"}, False),  # values compare as sent
        ({"server": "proxy lobstack-stand-in/1"}, False),
        ({"other-server": "lobstack-stand-in/1"}, False),
        ({"llm_provider-x-lobstack-suite": "s", "llm_provider-server": "uvicorn"}, False),
        ({}, False),
    ],
    ids=["suite-only", "suite-and-model", "forwarded", "server-case", "server-inside",
         "other-server", "forwarded-suite", "none"],
)  # fmt: skip
def test_speaks_lobstack_edges(headers: dict[str, str], expected: bool) -> None:
    assert speaks_lobstack(headers) is expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.000123", Decimal("0.000123")),
        ("1.2e-05", Decimal("1.2e-05")),
        ("1E+2", Decimal("100")),
        (" 0.5\t", Decimal("0.5")),
        ("0", Decimal("0")),
        ("7", Decimal("7")),
        ("1e308", Decimal("1e308")),
        ("1e309", None),  # past a double: not a price
        ("1e400", None),
        ("-0.5", None),
        ("+1", None),
        (".5", None),
        ("1.", None),
        ("1_000", None),
        ("NaN", None),
        ("Infinity", None),
        ("\u0661", None),  # a digit, not an ASCII one
        ("0.1 USD", None),
        ("", None),
        (None, None),
    ],
    ids=["plain", "exponent", "upper-exponent", "spaces", "zero", "whole", "max-double",
         "past-double", "1e400", "negative", "plus", "no-leading-digit", "no-decimals",
         "underscore", "nan", "infinity", "arabic-digit", "unit", "empty", "absent"],
)  # fmt: skip
def test_price(text: str | None, value: Decimal | None) -> None:
    assert price(text) == value


def test_finite() -> None:
    assert finite(Decimal("0.25")) == 0.25
    assert finite(None) is None
    assert finite(Decimal("1e400")) is None
    assert finite(Decimal("-1e400")) is None


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("temperature", {"temperature"}),
        ("Temperature, top_p", {"temperature", "top_p"}),
        ("temperature;TOP_P ; ", {"temperature", "top_p"}),
        ("'temperature', \"seed\"", {"temperature", "seed"}),
        ('["Temperature", " top_p ", "", 3, null]', {"temperature", "top_p"}),
        ("  [\"seed\"]", {"seed"}),
        ("[temperature, seed]", {"[temperature", "seed]"}),  # not JSON: split as a list
        ('{"a": 1}', {'{"a": 1}'}),
        ('["a", ' + "[" * 100_000, {'["a', "[" * 100_000}),  # nested past the parser
        ("", set()),
        (None, set()),
        (" , ;", set()),
    ],
    ids=["one", "comma", "semicolon", "quoted", "json", "json-spaced", "not-json", "object",
         "too-deep", "empty", "absent", "only-separators"],
)  # fmt: skip
def test_dropped_params(text: str | None, names: set[str]) -> None:
    assert dropped_params(text) == frozenset(names)


def test_gateway_header_as_sent_and_forwarded_one_by_one() -> None:
    # one function per value, none that raises under a mutant first (a crash skips the others)
    assert gateway_header({"x-a": "1"}, "x-a") == "1"
    assert gateway_header({"llm_provider-x-a": "2"}, "x-a") == "2"


def test_dropped_params_names_as_sent() -> None:
    assert dropped_params("temperature") == frozenset({"temperature"})
    assert dropped_params('["a", " "]') == frozenset({"a"})  # a blank name is no name
    assert dropped_params("X-Seed, 'Xtra'") == frozenset({"x-seed", "xtra"})  # quotes only
