"""Serve a case's requests from its cassette, in recorded order, each interaction played once.

The cassette is loaded as data with vcrpy's own loader (no patching: about 30x cheaper than ``use_cassette``)
and every request is matched with vcrpy's matchers plus the JSON-body matcher. Attempts that never got an answer
(timeouts, dropped connections) are not in the cassette; the manifest lists them and they are replayed as the
same transport failures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from recorder.cassettes import MATCH_ON, describe_difference, endpoint_uri, json_body
from recorder.manifest import RecordedAttempt
from recorder.transport import HttpAnswer, HttpRequest, TransportFailure, Unrecorded
from scorer.errors import CassetteError

Interaction = tuple[Any, dict[str, Any]]


def load_interactions(path: Path) -> list[Interaction]:
    """A cassette's (vcr Request, response dict) pairs, via vcrpy's loader; corrupt files are CassetteErrors."""
    from vcr.cassette import Cassette
    from vcr.record_mode import RecordMode
    from vcr.serializers import jsonserializer

    if not path.is_file():
        raise CassetteError(f"{path}: no such cassette")
    try:
        cassette = Cassette.load(path=str(path), serializer=jsonserializer, record_mode=RecordMode.NONE)
    except json.JSONDecodeError as exc:
        raise CassetteError(f"{path}: corrupt cassette: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise CassetteError(f"{path}: corrupt cassette: JSON nested too deeply to read") from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise CassetteError(f"{path}: corrupt cassette: not a vcrpy cassette ({type(exc).__name__}: {exc})") from None
    for index, (_, response) in enumerate(cassette.data):
        if not isinstance(response, dict) or "status" not in response or "body" not in response:
            raise CassetteError(f"{path}: corrupt cassette: interaction {index} has no status or body")
    return list(cassette.data)


def _vcr_request(request: HttpRequest) -> Any:
    from vcr.request import Request

    return Request("POST", request.url, request.body_bytes(), {"Content-Type": "application/json"})


def _matcher_failures(new: Any, recorded: Any) -> list[str]:
    from vcr import matchers

    table = {"method": matchers.method, "endpoint_uri": endpoint_uri, "json_body": json_body}
    failures = []
    for name in MATCH_ON:
        try:
            table[name](new, recorded)
        except AssertionError as exc:
            failures.append(f"{name}: {exc}")
    return failures


def _headers(raw: dict[str, Any]) -> dict[str, str]:
    return {name.lower(): ", ".join(value) if isinstance(value, list) else str(value) for name, value in raw.items()}


class CassetteTransport:
    """A Transport that answers from one case's recording."""

    def __init__(self, path: Path, interactions: list[Interaction], attempts: tuple[RecordedAttempt, ...]) -> None:
        answered = sum(1 for a in attempts if a.answered)
        if answered != len(interactions):
            raise CassetteError(
                f"{path}: {len(interactions)} interaction(s) recorded, but run.json lists {answered} answered "
                "attempt(s): an interaction is missing or extra"
            )
        self.path = path
        self._interactions = interactions
        self._attempts = attempts
        self._next_attempt = 0
        self._next_interaction = 0

    def send(self, request: HttpRequest) -> HttpAnswer:
        if self._next_attempt >= len(self._attempts):
            last = self._attempts[-1].step + 1 if self._attempts else 0
            raise Unrecorded(f"no recorded answer (the recording ends after step {last}): record this case again")
        attempt = self._attempts[self._next_attempt]
        if not attempt.answered:
            if attempt.request_sha256 is not None and attempt.request_sha256 != request.digest():
                raise Unrecorded("the request differs from the recorded one: record this case again")
            self._next_attempt += 1
            kind = "timeout" if attempt.outcome == "timeout" else "network_error"
            raise TransportFailure(kind, "replayed from the recording", attempt.wall_ms or 0.0)
        recorded_request, response = self._interactions[self._next_interaction]
        try:
            failures = _matcher_failures(_vcr_request(request), recorded_request)
            body = response["body"].get("string", b"")
            answer = HttpAnswer(
                status=int(response["status"]["code"]),
                headers=_headers(response.get("headers") or {}),
                body=body.encode("utf-8") if isinstance(body, str) else bytes(body),
                wall_ms=attempt.wall_ms if attempt.wall_ms is not None else 0.0,
            )
        except (ValueError, TypeError, KeyError, AttributeError) as exc:  # a hand-edited or truncated cassette
            raise CassetteError(
                f"{self.path}: corrupt cassette: interaction {self._next_interaction} ({type(exc).__name__}: {exc})"
            ) from None
        if failures:
            body_differs = any(f.startswith("json_body") for f in failures)
            detail = self._difference(request, recorded_request) if body_differs else "; ".join(failures)
            raise Unrecorded(f"the request differs from the recording ({detail})")
        self._next_attempt += 1
        self._next_interaction += 1
        return answer

    @staticmethod
    def _difference(request: HttpRequest, recorded: Any) -> str:
        try:
            old = json.loads(recorded.body)
        except (TypeError, ValueError):
            return "the recorded body is not JSON"
        return describe_difference(request.body, old)
