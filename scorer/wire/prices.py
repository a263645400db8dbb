"""Where an attempt's price comes from: the cost header, else the answer body's ``usage.cost``.

Lobstack and LiteLLM's proxy put each call's price in a response header; OpenRouter (and gateways
like it) send no such header and put the price in the body instead, as ``usage.cost``, a JSON number
of USD. The header wins when it is there, whatever it says (docs/METHOD.md, Decisions 95-97). Either
way what is kept is the price's text exactly as sent, and ``scorer.wire.headers.price`` alone
decides whether that text is a price: the body's number is read as its JSON literal (``0.000156``,
``1.2e-05``, ``0``, and ``NaN``, ``1e400`` or ``-0.5``, which are not prices), never through a
float, so a body price is held to the same rules, and summed as exactly, as a header price.
"""

from __future__ import annotations

import json

BODY = "body"  # the ``cost_source`` of an attempt priced from its body's usage.cost


class _Literal(str):
    """A JSON number (or NaN/Infinity) kept as the text that was sent; a JSON string is a
    plain ``str``."""

    __slots__ = ()


# Every number is kept as its literal, so nothing is lost to a float and NaN or 1e400 reach price()
# as sent.
_LITERALS = json.JSONDecoder(parse_float=_Literal, parse_int=_Literal, parse_constant=_Literal)


def body_price_text(body: bytes) -> str | None:
    """The literal text of the body's ``usage.cost`` when it is a JSON number, else None (no such
    field, a string, ``null``, a boolean, or a body that is not a JSON object)."""
    if b'"cost"' not in body:  # a cheap test first: most bodies carry no price
        return None
    try:
        value = _LITERALS.decode(body.decode("utf-8"))
    except (
        ValueError,
        RecursionError,
    ):  # not JSON (UnicodeDecodeError included), or nested beyond Python
        return None
    usage = value.get("usage") if isinstance(value, dict) else None
    cost = usage.get("cost") if isinstance(usage, dict) else None
    return str(cost) if isinstance(cost, _Literal) else None


def attempt_price(header: str | None, status: int, body: bytes) -> tuple[str | None, str | None]:
    """The price text of an answered attempt and where it came from: ``(header, None)`` when the
    cost header is present (whatever its value), else ``(literal, "body")`` from a 2xx body's
    numeric ``usage.cost``, else ``(None, None)``. Whether the text is a price is
    ``scorer.wire.headers.price``'s to say."""
    if header is not None:
        return header, None
    if 200 <= status < 300:
        text = body_price_text(body)
        if text is not None:
            return text, BODY
    return None, None
