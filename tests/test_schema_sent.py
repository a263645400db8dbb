"""The parameters schema sent for a listed tool (scorer/schema/sent.py) by exact value."""

from __future__ import annotations

from typing import Any

import pytest

SENT = "what the model sees differs from the origin"


@pytest.mark.parametrize(
    ("schema", "sent", "notes"),
    [
        (
            None,
            {"type": "object", "properties": {}},
            [f"w: {SENT}: no schema is listed; sent as an object with no properties"],
        ),
        (
            3,
            {"type": "object", "properties": {}},
            [f"w: {SENT}: not a schema object; sent as an object with no properties"],
        ),
        (
            {"properties": {}},
            {"type": "object", "properties": {}},
            [f'w: {SENT}: the root has no type; sent with "type": "object"'],
        ),
        ({"type": "object", "x": 1}, {"type": "object", "x": 1}, []),
        ({"type": "string"}, {"type": "string"}, []),
    ],
)
def test_sent_parameters_exact(schema: Any, sent: dict[str, Any], notes: list[str]) -> None:
    from scorer.schema.sent import sent_parameters

    assert sent_parameters(schema, "w") == (sent, notes)
