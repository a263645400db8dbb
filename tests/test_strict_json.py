"""scorer/strict_json.py's verdicts at their edges, read or refused, each written by hand from the
module's docstring: an integer of 4300 digits is read and one more digit refused, a double's
overflow refused, a file read up to 200 levels whatever brackets its strings hold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorer.strict_json import NotStrictFile, NotStrictJson, loads, loads_file

DIGITS = "9" * 4300


def verdict(read: Callable[[str], Any], text: str) -> tuple[str, Any]:
    """What ``read`` makes of ``text``: ``("read", value)`` or ``("refused", why)``."""
    try:
        return ("read", read(text))
    except (NotStrictJson, NotStrictFile) as exc:
        return ("refused", str(exc))


def nested_lists(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_loads_reads_4300_digits_and_refuses_what_overflows_a_double() -> None:
    assert verdict(loads, "[" + DIGITS + "]") == ("read", [int(DIGITS)])
    assert verdict(loads, "-" + DIGITS) == ("read", -int(DIGITS))
    assert verdict(loads, "[1.5, 1e308, -2.5e-300]") == ("read", [1.5, 1e308, -2.5e-300])
    assert verdict(loads, "[1e400]") == ("refused", "1e400 is not JSON")
    assert verdict(loads, '{"x": -1e400}') == ("refused", "-1e400 is not JSON")
    assert verdict(loads, DIGITS + "9") == ("refused", "a number with more than 4300 digits")


def test_loads_file_reads_4300_digits() -> None:
    text = '{"n": [' + DIGITS + ", -" + DIGITS + "]}"
    assert verdict(loads_file, text) == ("read", {"n": [int(DIGITS), -int(DIGITS)]})
    assert verdict(loads_file, "[-" + DIGITS + "9]") == (
        "refused",
        "[0]: a number with more than 4300 digits",
    )


def test_loads_file_reads_many_brackets_that_do_not_nest_deep() -> None:
    wide = "[" + "[], " * 250 + "{}]"  # 252 brackets, 2 levels
    assert verdict(loads_file, wide) == ("read", [[]] * 250 + [{}])
    # 150 levels (deeper than an answer may nest, not than a file may) and 60 brackets in a
    # string: more brackets than a file's limit, so the depth is walked.
    text = '{"a": ' + "[" * 150 + "]" * 150 + ', "s": "' + "{" * 60 + '"}'
    assert verdict(loads_file, text) == ("read", {"a": nested_lists(150), "s": "{" * 60})
    at_limit = '{"s": "[[", "a": ' + "[" * 199 + "]" * 199 + "}"  # 200 levels, 202 brackets
    assert verdict(loads_file, at_limit) == ("read", {"s": "[[", "a": nested_lists(199)})
    beyond = '{"s": "[[", "a": ' + "[" * 200 + "]" * 200 + "}"
    assert verdict(loads_file, beyond) == ("refused", "nested more than 200 levels deep")
