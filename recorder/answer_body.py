"""An answer's body as a cassette keeps it: under the size cap (decision
``METHOD.md#answer-size-cap``), and kept losslessly when it is not UTF-8 (decision
``METHOD.md#non-utf8-answers``).

Every body is already read under the cap, and decoded, when vcrpy hands it here:
``recorder.final_response`` reads it as raw bytes under the cap (``recorder.bounded_read``) and
undoes its ``Content-Encoding`` before urllib3 or vcrpy see it (the header then dropped). A body
that is not UTF-8 (a proxy's Latin-1 error page) cannot go into vcrpy's JSON cassette as it is:
``string`` holds it decoded with U+FFFD for each bad byte (what plain vcrpy replays; readable in a
review) and ``bytes_base64`` the exact bytes, which replay serves, so the answer is judged as what
it is at record and at rescore alike.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from recorder.answer_limits import read_capped

BYTES_KEY = "bytes_base64"


def capped_response(
    response: dict[str, Any], limit: int, scrub: Callable[[bytes], bytes] = lambda raw: raw
) -> dict[str, Any]:
    """vcrpy's response dict with its body checked against ``limit``, passed through ``scrub``, and
    stored losslessly if it is not UTF-8 (the body arrives decoded: ``recorder.final_response``)."""
    body = response.get("body") or {}
    raw = body.get("string")
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "backslashreplace")
    if not isinstance(raw, bytes):
        return response
    read_capped((raw,), limit)  # already capped as read; kept so the cassette never holds more
    response["headers"] = dict(response.get("headers") or {})
    raw = scrub(raw)
    try:
        body["string"] = raw.decode("utf-8")
    except UnicodeDecodeError:
        body["string"] = raw.decode("utf-8", "replace")
        body[BYTES_KEY] = base64.b64encode(raw).decode("ascii")
    response["body"] = body
    return response


def recorded_bytes(body: dict[str, Any]) -> bytes:
    """The exact bytes of a recorded response body (``bytes_base64`` when the body was
    not UTF-8)."""
    encoded = body.get(BYTES_KEY)
    if isinstance(encoded, str):
        return base64.b64decode(encoded, validate=True)
    return str(body["string"]).encode("utf-8", "backslashreplace")
