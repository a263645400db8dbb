"""vcrpy cassettes: one per case, vcrpy's JSON serializer, atomic writes, exact JSON-body
matching, no secrets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fileio.atomic import write_atomic
from fileio.safe_paths import inside
from recorder.answer_body import capped_response
from recorder.answer_limits import DEFAULT_MAX_ANSWER_MB, MIB
from recorder.endpoint import same_endpoint, stored_uri
from recorder.secrets import (
    SECRET_HEADERS,
    SECRET_QUERY_PARAMETERS,
    scrub_body,
    scrub_headers,
    scrub_known,
    scrub_text,
)
from scorer.jsonvalue import json_equal

MATCH_ON = ("method", "endpoint_uri", "json_body")


def _parsed(body: Any) -> Any:
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    return json.loads(body) if body else None


def endpoint_uri(r1: Any, r2: Any) -> None:
    """vcrpy matcher: the URIs are equal as stored (no userinfo; a loopback server's port plays
    no part)."""
    if not same_endpoint(r1.uri, r2.uri):
        # Stored forms: a hand-edited URI may hold credentials, and this text becomes a
        # case's reason.
        raise AssertionError(f"{stored_uri(r1.uri)} != {stored_uri(r2.uri)}")


def json_body(r1: Any, r2: Any) -> None:
    """vcrpy matcher: the request bodies are equal as parsed JSON (headers play no part)."""
    if r1.body == r2.body:  # the usual case on replay, and much cheaper than comparing parsed JSON
        return
    a, b = _parsed(r1.body), _parsed(r2.body)
    if not json_equal(a, b):
        raise AssertionError(f"JSON bodies differ: {describe_difference(a, b)}")


def describe_difference(new: Any, recorded: Any, path: str = "body") -> str:
    """Where two JSON values first differ, e.g. ``body.messages[3].content: 'x' != 'y'``."""
    if isinstance(new, dict) and isinstance(recorded, dict):
        for key in sorted(set(new) | set(recorded)):
            if key not in new or key not in recorded:
                return f"{path}.{key}: {'missing' if key not in new else 'not recorded'}"
            if not json_equal(new[key], recorded[key]):
                return describe_difference(new[key], recorded[key], f"{path}.{key}")
    if isinstance(new, list) and isinstance(recorded, list):
        for i, (a, b) in enumerate(zip(new, recorded, strict=False)):
            if not json_equal(a, b):
                return describe_difference(a, b, f"{path}[{i}]")
        if len(new) != len(recorded):
            return f"{path}: {len(new)} items now, {len(recorded)} recorded"
    return f"{path}: {_short(new)} now, {_short(recorded)} recorded"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


class AtomicPersister:
    """vcrpy persister that writes a temp file and renames it: a cassette is whole or absent."""

    @classmethod
    def load_cassette(cls, cassette_path: Any, serializer: Any) -> Any:
        from vcr.persisters.filesystem import FilesystemPersister

        return FilesystemPersister.load_cassette(cassette_path, serializer)

    @staticmethod
    def save_cassette(cassette_path: Any, cassette_dict: Any, serializer: Any) -> None:
        from vcr.serialize import serialize

        write_atomic(Path(cassette_path), serialize(cassette_dict, serializer))


def make_vcr(secrets: tuple[str, ...] = (), max_bytes: int = DEFAULT_MAX_ANSWER_MB * MIB) -> Any:
    """The project's vcrpy configuration for recording and for plain-vcrpy playback; an answer whose
    body passes ``max_bytes`` (on the wire or decoded) raises ``AnswerTooLarge`` out of the
    request and is not kept."""
    import vcr

    def before_request(request: Any) -> Any:
        # vcrpy calls this several times per request. The body is built from the suite and never
        # holds the key, so it only gets the cheap replacement of known secret values; headers get
        # the full scrub.
        request.headers = scrub_headers(dict(request.headers), secrets)
        request.uri = stored_uri(
            request.uri
        )  # vcrpy hands this hook a copy: the real request is unchanged
        if secrets:
            request.body = scrub_known(request.body, secrets)
        return request

    def before_response(response: dict[str, Any]) -> dict[str, Any]:
        # Sorted: vcrpy collects response headers through a set, so their order would change from
        # run to run.
        response = capped_response(response, max_bytes, lambda raw: scrub_body(raw, secrets))
        status = response.get("status")
        if isinstance(status, dict) and isinstance(status.get("message"), str):
            status["message"] = scrub_text(status["message"], secrets)  # the server's own words
        response["headers"] = dict(
            sorted(scrub_headers(response.get("headers", {}), secrets).items())
        )
        return response

    recorder = vcr.VCR(
        serializer="json",
        match_on=MATCH_ON,
        filter_headers=sorted(SECRET_HEADERS),
        filter_query_parameters=list(SECRET_QUERY_PARAMETERS),
        before_record_request=before_request,
        before_record_response=before_response,
        # decoded by ``capped_response``, a chunk at a time under the cap
        decode_compressed_response=False,
        record_on_exception=False,
    )
    recorder.register_matcher("endpoint_uri", endpoint_uri)
    recorder.register_matcher("json_body", json_body)
    recorder.register_persister(AtomicPersister)
    return recorder


# HTTP clients vcrpy tries to patch; it re-tries importing each one on every use_cassette (about 6
# ms a case).
_OPTIONAL_CLIENTS = (
    "botocore",
    "httplib2",
    "tornado",
    "aiohttp",
    "httpx",
    "httpx_curl_cffi",
    "pyreqwest",
    "httpx2",
    "socks",
)


def skip_absent_clients() -> None:
    """Mark the optional HTTP clients that are not installed as absent, so vcrpy's import attempts
    fail at once.

    Only for recorder worker processes: ``sys.modules[name] = None`` is how Python spells
    "not importable".
    """
    import importlib.util
    import sys

    for name in _OPTIONAL_CLIENTS:
        if name not in sys.modules and importlib.util.find_spec(name) is None:
            sys.modules[name] = None  # type: ignore[assignment]


def cassette_path(model_dir: Path, case_id: str) -> Path:
    """``cassettes/<model-slug>/<case-id>.json``."""
    return model_dir / f"{case_id}.json"


def cassette_target(model_dir: Path, case_id: str) -> Path:
    """``cassette_path`` for writing: checked to lie inside ``model_dir`` (a case id cannot
    climb out)."""
    return inside(model_dir, f"{case_id}.json")
