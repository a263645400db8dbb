"""A run of a history: its date and what identifies the model behind the name, from the answers
as recorded.

Pure: the recorded answers come in (``replay.run_document`` reads them from the cassettes), the
``run`` object of results.json goes out (docs/FORMATS.md, "Histories"). Identity is every distinct
value, sorted, of the 2xx answers' ``model`` and ``system_fingerprint`` fields and of the gateway's
routing headers, so a change of snapshot, of quantization or of the host behind a router shows as a
changed list between two runs.
"""

from __future__ import annotations

import email.utils
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from scorer.wire.openai_chat import ROUTING_HEADERS

# OpenRouter names the provider that served the answer in the body, not a header; kept under
# this key.
BODY_PROVIDER = "provider"


@dataclass(frozen=True)
class RecordedAnswer:
    """One recorded 2xx answer: its headers (name -> values, as the cassette keeps them) and its
    parsed body."""

    headers: Mapping[str, list[str]]
    body: Any


def identity(answers: Iterable[RecordedAnswer]) -> dict[str, Any]:
    """``{"model": [...], "system_fingerprint": [...], "routing": {name: [...]}}``: sorted
    distinct values."""
    models: set[str] = set()
    prints: set[str] = set()
    routing: dict[str, set[str]] = {}
    for answer in answers:
        for name, values in answer.headers.items():
            if name.lower() in ROUTING_HEADERS:
                routing.setdefault(name.lower(), set()).update(v for v in values if v)
        body = answer.body if isinstance(answer.body, dict) else {}
        if isinstance(body.get("model"), str) and body["model"]:
            models.add(body["model"])
        if isinstance(body.get("system_fingerprint"), str) and body["system_fingerprint"]:
            prints.add(body["system_fingerprint"])
        if isinstance(body.get(BODY_PROVIDER), str) and body[BODY_PROVIDER]:
            routing.setdefault(BODY_PROVIDER, set()).add(body[BODY_PROVIDER])
    return {
        "model": sorted(models),
        "system_fingerprint": sorted(prints),
        "routing": {name: sorted(values) for name, values in sorted(routing.items()) if values},
    }


def header_date(value: str) -> str | None:
    """The UTC date (``YYYY-MM-DD``) of an HTTP ``Date`` header, None when it is not one."""
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT; "-0000" parses as naive
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%d")


def parse_recorded_at(text: str) -> datetime | None:
    """An ISO 8601 date-time with a time zone, in UTC; None when ``text`` is not one."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when.astimezone(UTC) if when.tzinfo is not None else None


def run_date(recorded_at: str | None, answers: Iterable[RecordedAnswer]) -> str | None:
    """The run's date: the UTC date of ``recorded_at`` (the recorder's clock when the run started),
    else the earliest ``Date`` header of its answers (the gateway's clock: a recording moved into
    a history by hand has no ``recorded_at``), else None."""
    when = None if recorded_at is None else parse_recorded_at(recorded_at)
    if when is not None:
        return when.strftime("%Y-%m-%d")
    dates = [
        day
        for answer in answers
        for name, values in answer.headers.items()
        if name.lower() == "date"
        for value in values
        if (day := header_date(value)) is not None
    ]
    return min(dates) if dates else None


def run_object(
    run_id: str, recorded_at: str | None, answers: Iterable[RecordedAnswer]
) -> dict[str, Any]:
    """results.json's ``run``: ``{"id", "date", "recorded_at", "identity"}``."""
    answers = list(answers)
    return {
        "id": run_id,
        "date": run_date(recorded_at, answers),
        "recorded_at": recorded_at,
        "identity": identity(answers),
    }
