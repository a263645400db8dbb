"""``scorer.wire.prices.attempt_price`` through the caller that catches its errors:
``recorder.futile._priced`` reads a cassette inside an ``except (OSError, ValueError, KeyError,
TypeError)`` that turns an error into None, so a price reader that raised on a normal cassette
would change ``unpriced``'s warning without a traceback (benchmarks/README.md, "audit of caught
crashes"). Expected values by hand from docs/GATEWAYS.md: an answer without the cost header is
priced by its 2xx body's numeric ``usage.cost`` (OpenRouter's way); NaN there is no price."""

from __future__ import annotations

import json
from pathlib import Path

from recorder.futile import _priced, unpriced
from recorder.repeats import CaseRun

COST = "x-lobstack-cost-usd"


def cassette(path: Path, body: str, headers: dict[str, list[str]] | None = None) -> Path:
    """One 2xx interaction as vcrpy records it."""
    interaction = {
        "request": {
            "method": "POST",
            "uri": "http://127.0.0.1:8000/v1/chat/completions",
            "body": '{"model": "m"}',
            "headers": {},
        },
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": headers or {"Content-Type": ["application/json"]},
            "body": {"string": body},
        },
    }
    path.write_text(json.dumps({"version": 1, "interactions": [interaction]}), encoding="utf-8")
    return path


def test_priced_by_the_body_usage_cost_without_a_header(tmp_path: Path) -> None:
    body = '{"choices": [], "usage": {"prompt_tokens": 20, "cost": 0.000156, "is_byok": false}}'
    assert _priced(cassette(tmp_path / "c.json", body), COST) is True


def test_a_body_cost_that_is_nan_is_named(tmp_path: Path) -> None:
    assert _priced(cassette(tmp_path / "c.json", '{"usage": {"cost": NaN}}'), COST) == "NaN"


def test_a_run_priced_by_one_body_gets_no_warning(tmp_path: Path) -> None:
    cassette(tmp_path / "a.json", '{"usage": {"cost": 0.25}}')
    cassette(tmp_path / "b.json", '{"usage": {}}', {COST: ["abc"]})
    assert unpriced(tmp_path, [CaseRun("a"), CaseRun("b")], COST) is None
