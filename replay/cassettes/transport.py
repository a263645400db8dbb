"""Serve a case's requests from its cassette, in recorded order, each interaction played once.

The cassette is read as data: vcrpy's JSON serializer format, parsed strictly and checked
(``cassette_shape``), then taken as vcrpy's loader takes it (a request's body text as UTF-8 bytes,
the response as recorded), without importing vcrpy (with requests and http.client it costs more to
import than rescoring a model takes; a test checks every committed cassette reads the same through
vcrpy's own loader). Every request is matched with the recorder's matchers (method, endpoint URI,
JSON body). Attempts that never got an answer (timeouts, dropped connections) are not in the
cassette; the manifest lists them and they are replayed as the same transport failures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from fileio.reading import orjson_within_depth, read_bytes
from recorder.answer_body import recorded_bytes
from recorder.cassettes import MATCH_ON, describe_difference, endpoint_uri, json_body
from recorder.manifest import RecordedAttempt
from recorder.transport import HttpAnswer, HttpRequest, TransportFailure, Unrecorded
from replay.cassettes.shape import cassette_problem
from scorer import strict_json
from scorer.errors import CassetteError
from scorer.wire.headers import recorded_headers


@dataclass(frozen=True)
class RecordedRequest:
    """A request as the matchers see it: what vcrpy's ``Request`` holds of it (the body as
    UTF-8 bytes)."""

    method: str
    uri: str
    body: bytes | None


# free JSON: vcrpy's stored response (status, headers, body) as the cassette holds it
Interaction = tuple[RecordedRequest, dict[str, Any]]


def _request(path: Path, index: int, stored: dict[str, Any]) -> RecordedRequest:
    # free JSON: vcrpy's stored request (method, uri, headers, body)
    body = stored["body"]
    try:
        data = body.encode("utf-8") if isinstance(body, str) else body
    except (
        UnicodeEncodeError
    ):  # a lone surrogate escape ("\ud800"): JSON to Python, but no text was ever sent
        raise CassetteError(
            f"{path}: corrupt cassette: interactions[{index}].request.body: not UTF-8 text"
        ) from None
    return RecordedRequest(stored["method"], stored["uri"], data)


def _parsed_fast(raw: bytes) -> Any | None:
    """The cassette parsed by orjson when that is provably what the strict parse would give,
    else None.

    orjson refuses NaN, Infinity, a number beyond a double, a lone surrogate and nesting past 1024
    levels, all of which the strict parse refuses too (it then names the field). The two parsers
    agree on everything else but an integer beyond 64 bits (orjson reads it as a float); in a
    cassette whose shape is right the only numbers that are read are the status code, which the
    shape check holds to 100-999, and the version, held to 1. The nesting bound is checked as the
    strict parse checks it (only when the text has enough brackets to break it)."""
    parsed = orjson_within_depth(raw)
    if parsed is None:
        return None
    return parsed[0] if cassette_problem(parsed[0]) is None else None


def _parsed_strict(path: Path, raw: bytes) -> Any:
    """The cassette parsed strictly and shape-checked; a CassetteError naming the file and the
    field otherwise."""
    data = strict_json.loads_file_or_error(raw, f"{path}: corrupt cassette:", CassetteError)
    problem = cassette_problem(data)
    if problem:
        raise CassetteError(f"{path}: corrupt cassette: {problem}")
    return data


def load_interactions(path: Path) -> list[Interaction]:
    """A cassette's (request, response dict) pairs, after a strict parse and a shape check; anything
    unusable is a CassetteError naming the file and the field."""
    raw = read_bytes(path, "cassette")
    data = _parsed_fast(
        raw
    )  # a sound cassette, the usual case; anything else takes the strict path's error
    if data is None:
        data = _parsed_strict(path, raw)
    return [
        (_request(path, n, i["request"]), i["response"]) for n, i in enumerate(data["interactions"])
    ]


def _same_method(r1: RecordedRequest, r2: RecordedRequest) -> None:
    """vcrpy's ``method`` matcher."""
    if r1.method != r2.method:
        raise AssertionError(f"{r1.method} != {r2.method}")


_MATCHERS = {"method": _same_method, "endpoint_uri": endpoint_uri, "json_body": json_body}


def _matcher_failures(
    new: RecordedRequest, recorded: RecordedRequest, skip: tuple[str, ...] = ()
) -> list[str]:
    failures = []
    for name in MATCH_ON:
        if name in skip:
            continue
        try:
            _MATCHERS[name](new, recorded)
        except AssertionError as exc:
            failures.append(f"{name}: {exc}")
    return failures


def _same_json(body: dict[str, Any], recorded: bytes | None) -> bool:  # free JSON: a body
    """True when ``body`` and the recorded body text are the same JSON value, types and all (the
    ``json_body`` matcher would match), proven cheaply: orjson writes both with sorted keys to
    the same bytes. False means only "not proven": the matchers then compare the two as they
    always do (``1`` and ``1.0``, a big integer...)."""
    if recorded is None:
        return False
    try:
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
            orjson.loads(recorded), option=orjson.OPT_SORT_KEYS
        )
    except (TypeError, ValueError):  # orjson.JSONEncodeError / JSONDecodeError
        return False


class CassetteTransport:
    """A Transport that answers from one case's recording."""

    def __init__(
        self, path: Path, interactions: list[Interaction], attempts: tuple[RecordedAttempt, ...]
    ) -> None:
        answered = sum(1 for a in attempts if a.answered)
        if answered != len(interactions):
            raise CassetteError(
                f"{path}: {len(interactions)} interaction(s) recorded, but run.json lists "
                f"{answered} answered attempt(s): an interaction is missing or extra"
            )
        self.path = path
        self._interactions = interactions
        self._attempts = attempts
        self._next_attempt = 0
        self._next_interaction = 0

    def send(self, request: HttpRequest) -> HttpAnswer:
        if self._next_attempt >= len(self._attempts):
            last = self._attempts[-1].step + 1 if self._attempts else 0
            raise Unrecorded(
                f"no recorded answer (the recording ends after step {last}): record this case again"
            )
        attempt = self._attempts[self._next_attempt]
        if not attempt.answered:
            if attempt.request_sha256 is not None and attempt.request_sha256 != request.digest():
                raise Unrecorded(
                    "the request differs from the recorded one: record this case again"
                )
            self._next_attempt += 1
            kind = "timeout" if attempt.outcome == "timeout" else "network_error"
            raise TransportFailure(kind, "replayed from the recording", attempt.wall_ms or 0.0)
        recorded_request, response = self._interactions[self._next_interaction]
        try:
            if _same_json(
                request.body, recorded_request.body
            ):  # the body matches: the other matchers decide
                failures = _matcher_failures(
                    RecordedRequest("POST", request.url, None), recorded_request, ("json_body",)
                )
            else:
                failures = _matcher_failures(
                    RecordedRequest("POST", request.url, request.body_bytes()), recorded_request
                )
        except (
            ValueError,
            RecursionError,
        ):  # the json_body matcher could not parse the recorded body
            raise CassetteError(
                f"{self.path}: corrupt cassette: "
                f"interactions[{self._next_interaction}].request.body: not JSON"
            ) from None
        if failures:
            body_differs = any(f.startswith("json_body") for f in failures)
            detail = (
                self._difference(request, recorded_request) if body_differs else "; ".join(failures)
            )
            raise Unrecorded(f"the request differs from the recording ({detail})")
        self._next_attempt += 1
        self._next_interaction += 1
        body = recorded_bytes(
            response["body"]
        )  # load_interactions checked it is text (and base64 if not UTF-8)
        return HttpAnswer(
            status=int(response["status"]["code"]),
            headers=recorded_headers(response.get("headers", {})),
            body=body,
            wall_ms=attempt.wall_ms if attempt.wall_ms is not None else 0.0,
            first_byte_ms=attempt.first_byte_ms,
        )

    @staticmethod
    def _difference(request: HttpRequest, recorded: Any) -> str:
        try:
            old = json.loads(recorded.body)
        except (TypeError, ValueError):
            return "the recorded body is not JSON"
        return describe_difference(request.body, old)
