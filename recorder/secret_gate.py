"""The scrubber's last gate: a recorded string or body that any decoding shows to hold a credential
(``recorder.secret_search``) is replaced whole by a marker that says why (decision
``METHOD.md#scrub-fails-closed``).

Text is replaced whole. A body that is JSON (UTF-8) keeps its shape: each string of it (a key or
a value) that holds a credential on its own is replaced by the marker as a JSON string; if the
body as a whole still does (a credential split over several strings, or outside them), or a body
is not JSON, the whole body is replaced. Clean text and bodies, the usual case, come back as they
were (the same object).
"""

from __future__ import annotations

import json
import re

from recorder.secret_search import Finding, examine

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


def gate_text(text: str, secrets: tuple[str, ...]) -> str:
    """``text``, or the marker that replaces it when a decoding of it holds a credential."""
    finding = examine(text, secrets)
    return text if finding is None else finding.marker


def _json_text(body: bytes) -> bool:
    try:
        json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return True


def _gate_strings(body: bytes, secrets: tuple[str, ...]) -> bytes:
    def one(match: re.Match[bytes]) -> bytes:
        finding = examine(match.group(0), secrets)
        return match.group(0) if finding is None else json.dumps(finding.marker).encode("ascii")

    return _JSON_STRING.sub(one, body)


def gate_body(body: bytes, secrets: tuple[str, ...]) -> bytes:
    """``body``, with each JSON string that holds a credential replaced, or the whole body replaced
    by the marker (UTF-8) when it is not JSON or still holds one."""
    finding: Finding | None = examine(body, secrets)
    if finding is None:
        return body
    if _json_text(body):
        kept = _gate_strings(body, secrets)
        finding = examine(kept, secrets)
        if finding is None:
            return kept
    return finding.marker.encode("utf-8")
