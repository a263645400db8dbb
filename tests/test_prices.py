"""Where an attempt's price comes from (scorer/wire/prices.py): the cost header when present, else a
2xx body's numeric ``usage.cost`` as its JSON literal. The verdicts on whole answers are rows of
tests/tables/shapes.json."""

from __future__ import annotations

import pytest

from scorer.wire.headers import price, recorded_headers
from scorer.wire.prices import attempt_price, body_price_text

DEEP = 100_000


@pytest.mark.parametrize(
    ("body", "text"),
    [
        (b'{"usage": {"prompt_tokens": 20, "cost": 0.000156, "is_byok": false}}', "0.000156"),
        (b'{"usage": {"cost": 1.2E-5}}', "1.2E-5"),  # as sent, not as Python would write the float
        (b'{"usage": {"cost": 12}}', "12"),
        (b'{"usage": {"cost": 0.10000000000000000001}}', "0.10000000000000000001"),
        (b'{"usage": {"cost": -0.5}}', "-0.5"),  # a number, so its text is kept; price() refuses it
        (b'{"usage": {"cost": NaN}}', "NaN"),
        (b'{"usage": {"cost": -Infinity}}', "-Infinity"),
        (b'{"usage": {"cost": 1e400}}', "1e400"),
        (b'{"usage": {"cost": "0.1"}}', None),  # a string is not a JSON number
        (b'{"usage": {"cost": null}}', None),
        (b'{"usage": {"cost": false}}', None),
        (b'{"usage": {"cost": {"total": 0.1}}}', None),
        (b'{"usage": {"prompt_tokens": 3}}', None),
        (b'{"usage": "cost"}', None),
        (b'{"cost": 0.1}', None),  # only usage.cost is a price
        (b'[{"usage": {"cost": 0.1}}]', None),
        (b'{"usage": {"cost": 0.1', None),  # not JSON
        (b'\xff{"usage": {"cost": 0.1}}', None),  # not UTF-8
        (
            b'{"usage": {"cost": 0.1}, "x": ' + b"[" * DEEP + b"]" * DEEP + b"}",
            None,
        ),  # beyond Python's parser
    ],
)
def test_body_price_text_is_the_literal_of_a_numeric_usage_cost(
    body: bytes, text: str | None
) -> None:
    assert body_price_text(body) == text


@pytest.mark.parametrize(
    ("text", "priced"),
    [
        ("0.000156", True),
        ("1.2E-5", True),
        ("0", True),
        ("12", True),
        ("-0.5", False),
        ("-0", False),
        ("NaN", False),
        ("-Infinity", False),
        ("1e400", False),
    ],
)
def test_a_body_literal_is_a_price_by_the_header_rules(text: str, priced: bool) -> None:
    body = b'{"usage": {"cost": ' + text.encode() + b"}}"
    assert (price(body_price_text(body)) is not None) is priced


BODY = b'{"choices": [], "usage": {"cost": 0.5}}'


@pytest.mark.parametrize(
    ("header", "status", "body", "expected"),
    [
        ("0.002", 200, BODY, ("0.002", None)),  # both: the header wins
        (
            "NaN",
            200,
            BODY,
            ("NaN", None),
        ),  # a header that is not a price is not replaced by the body's
        ("", 200, BODY, ("", None)),  # present, however empty
        (None, 200, BODY, ("0.5", "body")),
        (None, 201, BODY, ("0.5", "body")),
        (None, 299, BODY, ("0.5", "body")),
        (None, 300, BODY, (None, None)),  # 3xx is not 2xx
        (None, 400, BODY, (None, None)),  # only a 2xx body is read
        (None, 503, BODY, (None, None)),
        (None, 200, b'{"choices": []}', (None, None)),
        ("0.002", 500, b"not json", ("0.002", None)),
    ],
)
def test_attempt_price_takes_the_header_else_the_2xx_body(
    header: str | None, status: int, body: bytes, expected: tuple[str | None, str | None]
) -> None:
    assert attempt_price(header, status, body) == expected


@pytest.mark.parametrize(
    ("recorded", "read"),
    [
        ({"X-Lobstack-Cost-USD": ["0.01"]}, {"x-lobstack-cost-usd": "0.01"}),
        ({"x-lobstack-cost-usd": ["0.01", "500"]}, {"x-lobstack-cost-usd": "0.01, 500"}),
        # the same field in two cases is one field, its values in recorded order (RFC 9110 5.3)
        ({"X-Cost": ["1"], "Server": ["s"], "x-cost": ["2"]}, {"x-cost": "1, 2", "server": "s"}),
        ({"Server": "s"}, {"server": "s"}),  # a bare value, as a hand-edited cassette may hold
        ({"Server": []}, {"server": ""}),
    ],
    ids=["lower-cased", "two-values", "two-cases", "bare-value", "no-value"],
)
def test_a_recorded_answers_headers_are_read_one_way(
    recorded: dict[str, object], read: dict[str, str]
) -> None:
    assert recorded_headers(recorded) == read


def test_record_and_replay_read_an_answers_headers_alike() -> None:
    from requests.structures import CaseInsensitiveDict

    live = CaseInsensitiveDict({"X-Cost": "1, 2", "Content-Type": "application/json"})
    assert recorded_headers(live) == recorded_headers(
        {"x-cost": ["1", "2"], "content-type": ["application/json"]}
    )
