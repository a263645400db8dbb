"""How a run speaks to the gateway, as one value: its API dialect, whether answers are streamed,
and the request settings given with ``record --param`` (docs/FORMATS.md, run.json ``wire``).

The default is exactly the method page's request: Chat Completions, not streamed, no setting but
``temperature: 0``. A run's ``Wire`` is kept in run.json and is part of the run's identity: two
runs of different wires are never pooled (``diff runs`` names the difference).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from scorer.errors import UsageError

CHAT = "chat"
# The settings ``--param`` names, mapped by each dialect to its own field; ``body.FIELD`` and
# ``header.NAME`` are passed through as given.
NAMED_SETTINGS = ("max_tokens", "parallel_tool_calls", "reasoning_effort", "tool_choice")
EFFORTS = ("minimal", "low", "medium", "high")
# Headers that carry a key: refused as --param, which run.json keeps (the key goes in
# LOBSTACK_API_KEY, sent as the dialect takes it and never written).
KEY_HEADERS = ("authorization", "proxy-authorization", "x-api-key", "api-key", "cookie")


@dataclass(frozen=True)
class Wire:
    """A run's dialect, streaming, and settings (``(name, JSON text)`` pairs, sorted by name)."""

    dialect: str = CHAT
    stream: bool = False
    params: tuple[tuple[str, str], ...] = ()

    @property
    def is_default(self) -> bool:
        """The method page's request: a run.json of such a wire has no ``wire`` field at all."""
        return self == Wire()

    def setting(self, name: str) -> Any:
        """The value of setting ``name`` (None when not given)."""
        for key, text in self.params:
            if key == name:
                return json.loads(text)
        return None

    def body_fields(self) -> dict[str, Any]:
        """The extra body fields (``--param body.FIELD=VALUE``)."""
        return {k[5:]: json.loads(v) for k, v in self.params if k.startswith("body.")}

    def with_body_fields(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with the extra body fields set; a field given as ``null`` is taken out
        (``--param body.temperature=null`` for a model that refuses ``temperature``)."""
        for name, value in self.body_fields().items():
            if value is None:
                body.pop(name, None)
            else:
                body[name] = value
        return body

    def extra_headers(self) -> dict[str, str]:
        """The extra request headers (``--param header.NAME=VALUE``)."""
        return {k[7:]: str(json.loads(v)) for k, v in self.params if k.startswith("header.")}

    def to_json(self) -> dict[str, Any]:
        """run.json's ``wire`` object."""
        return {
            "dialect": self.dialect,
            "stream": self.stream,
            "params": {k: json.loads(v) for k, v in self.params},
        }

    def label(self) -> str:
        """``messages+stream tool_choice=required``: how reports name a wire."""
        text = self.dialect + ("+stream" if self.stream else "")
        return " ".join([text, *(f"{k}={v}" for k, v in self.params)])


METHOD_WIRE = Wire()  # the method page's request: every default


def _value(text: str) -> Any:
    """A setting's value: JSON when it parses as JSON, else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_params(items: list[str] | tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``NAME=VALUE`` options as sorted ``(name, JSON text)`` pairs; a UsageError naming a bad
    one."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--param {item!r}: expected NAME=VALUE")
        ok = name in NAMED_SETTINGS or (
            name.startswith(("body.", "header.")) and len(name.split(".", 1)[1]) > 0
        )
        if not ok:
            known = ", ".join(NAMED_SETTINGS)
            raise UsageError(
                f"--param {name}: unknown setting; known: {known}, body.FIELD, header.NAME"
            )
        value = _value(text)
        problem = _problem(name, value)
        if problem:
            raise UsageError(f"--param {name}: {problem}")
        if name in out:
            raise UsageError(f"--param {name}: given twice")
        out[name] = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return tuple(sorted(out.items()))


def _problem(name: str, value: Any) -> str | None:
    if name == "max_tokens" and not (
        isinstance(value, int) and not isinstance(value, bool) and value > 0
    ):
        return f"expected a whole number above 0, got {value!r}"
    if name == "parallel_tool_calls" and not isinstance(value, bool):
        return f"expected true or false, got {value!r}"
    if name == "reasoning_effort" and value not in EFFORTS:
        return f"expected one of {', '.join(EFFORTS)}, got {value!r}"
    if name == "tool_choice" and not (isinstance(value, str) and value):
        return f"expected auto, required, none or a tool name, got {value!r}"
    if name.startswith("header.") and name[7:].lower() in KEY_HEADERS:
        return "a key never goes in --param (run.json keeps it): set LOBSTACK_API_KEY"
    if name.startswith("header.") and not isinstance(value, str | int | float):
        return "a header value must be text"
    return None


def results_wire(results: Any) -> str:
    """The label of the wire a results document was recorded with (``chat`` when it names
    none: the method's own request)."""
    raw = results.get("wire") if isinstance(results, dict) else None
    wire = wire_from_json(raw) if raw is not None else METHOD_WIRE
    return (wire or METHOD_WIRE).label()


def wire_from_json(value: Any) -> Wire | None:
    """run.json's ``wire`` object as a Wire; None when it is not one (the caller names the file)."""
    if not isinstance(value, dict):
        return None
    dialect, stream, params = value.get("dialect"), value.get("stream"), value.get("params", {})
    if not isinstance(dialect, str) or not isinstance(stream, bool) or not isinstance(params, dict):
        return None
    pairs = tuple(
        sorted((k, json.dumps(v, ensure_ascii=False, sort_keys=True)) for k, v in params.items())
    )
    return Wire(dialect, stream, pairs)
