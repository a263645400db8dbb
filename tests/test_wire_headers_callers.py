"""The header readers of ``scorer.wire.headers`` (``recorded_headers``, ``gateway_header``,
``price``) through the caller that catches their errors: ``recorder.futile._priced`` reads a
cassette inside an ``except (OSError, ValueError, KeyError, TypeError)`` that turns any of them into
None ("cannot be read"), so a reader that raised on a normal cassette would change the answer, and
``unpriced``'s warning, without a traceback (benchmarks/README.md, "audit of caught crashes").
Expected values written by hand from ``_priced``'s and ``unpriced``'s docstrings and
docs/GATEWAYS.md: a price is one finite non-negative decimal, found under the header as sent or
under a proxy's ``llm_provider-`` prefix; a header sent twice is its values joined with ``", "``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from recorder.futile import _priced, unpriced
from recorder.repeats import CaseRun

COST = "x-lobstack-cost-usd"
ANSWER = '{"id": "chatcmpl-1", "object": "chat.completion", "choices": []}'


def cassette(path: Path, headers: dict[str, Any], body: str = ANSWER) -> Path:
    """One 2xx interaction as vcrpy records it (header values are lists, names as sent)."""
    interaction = {
        "request": {
            "method": "POST",
            "uri": "http://127.0.0.1:8000/v1/chat/completions",
            "body": '{"model": "m", "messages": []}',
            "headers": {"Content-Type": ["application/json"]},
        },
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": headers,
            "body": {"string": body},
        },
    }
    path.write_text(json.dumps({"version": 1, "interactions": [interaction]}), encoding="utf-8")
    return path


def test_priced_reads_the_cost_header_as_vcrpy_recorded_it(tmp_path: Path) -> None:
    headers = {"Content-Type": ["application/json"], "X-Lobstack-Cost-USD": ["0.0001731"]}
    assert _priced(cassette(tmp_path / "c.json", headers), COST) is True


def test_priced_finds_the_header_under_a_proxy_prefix(tmp_path: Path) -> None:
    headers = {"content-type": ["application/json"], "llm_provider-x-lobstack-cost-usd": ["0.5"]}
    assert _priced(cassette(tmp_path / "c.json", headers), COST) is True


def test_priced_names_a_header_that_is_no_price(tmp_path: Path) -> None:
    assert _priced(cassette(tmp_path / "c.json", {COST: ["abc"]}), COST) == "abc"
    assert _priced(cassette(tmp_path / "n.json", {COST: ["-0.5"]}), COST) == "-0.5"


def test_priced_joins_a_header_sent_twice(tmp_path: Path) -> None:
    # two values of one field, and the same name in another case: one text, recorded order
    twice = cassette(tmp_path / "c.json", {COST: ["0.1", "0.2"]})
    assert _priced(twice, COST) == "0.1, 0.2"
    cases = cassette(tmp_path / "d.json", {"X-Lobstack-Cost-Usd": ["0.3"], COST: "0.4"})
    assert _priced(cases, COST) == "0.3, 0.4"


def test_priced_is_false_for_an_answer_without_any_price(tmp_path: Path) -> None:
    headers = {"Content-Type": ["application/json"], "Server": ["gateway/1"]}
    assert _priced(cassette(tmp_path / "c.json", headers), COST) is False


def test_unpriced_warns_only_when_no_answer_carried_a_price(tmp_path: Path) -> None:
    cassette(tmp_path / "a.json", {COST: ["0.25"]})
    cassette(tmp_path / "b.json", {COST: ["abc"]})
    assert unpriced(tmp_path, [CaseRun("a"), CaseRun("b")], COST) is None
    assert unpriced(tmp_path, [CaseRun("b")], COST) == (
        "warning: no answer of this run carried a readable price: the header x-lobstack-cost-usd "
        "held 'abc', not one non-negative number, so its cost will show as -; see "
        "docs/GATEWAYS.md"
    )
