"""Issue 42, the property: whatever composition of encodings a gateway wraps the key in, at whatever
offset, in whatever field of an answer, its headers or an error body, the cassette the recorder
writes and the line it prints hold no recoverable part of it.

Keys of realistic shapes, 1 to 3 encodings (UTF-16/32 with or without a byte order mark, base64
standard or URL-safe, padded or not, MIME-wrapped or not, hex in either case, quoted-printable,
JSON ``\\u`` escapes, HTML character references, URL percent-escapes), each text around the key
at a random offset; the answer goes through the project's vcrpy hooks (``make_vcr``) and vcrpy's
serializer, as ``record`` writes it. ``tests.leak_decoder`` (no code shared with the scrubber)
first proves the key recoverable from the answer as sent, then finds none in what was written.
"""

from __future__ import annotations

import base64
import binascii
import json
import quopri
import string
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recorder.answer_body import BYTES_KEY
from recorder.cassettes import make_vcr
from recorder.endpoint import Endpoint
from tests.leak_decoder import recoverable

ALNUM = string.ascii_letters + string.digits
URL = "http://127.0.0.1/v1/chat/completions"


def _mime(encoded: bytes, width: int, breaks: bytes) -> bytes:
    return breaks.join(encoded[i : i + width] for i in range(0, len(encoded), width))


def _escape_some(data: bytes, escape: Callable[[int], str], every: int) -> bytes:
    text = "".join(escape(b) if i % every == 0 else chr(b) for i, b in enumerate(data))
    return text.encode("utf-8", "surrogatepass")


ENCODINGS: dict[str, Callable[[bytes], bytes]] = {
    "utf-16-le": lambda b: b.decode("latin-1").encode("utf-16-le"),
    "utf-16-be+bom": lambda b: b"\xfe\xff" + b.decode("latin-1").encode("utf-16-be"),
    "utf-16+bom": lambda b: b"\xff\xfe" + b.decode("latin-1").encode("utf-16-le"),
    "utf-32-le": lambda b: b.decode("latin-1").encode("utf-32-le"),
    "utf-32-be": lambda b: b.decode("latin-1").encode("utf-32-be"),
    "base64": base64.b64encode,
    "base64-unpadded": lambda b: base64.b64encode(b).rstrip(b"="),
    "base64-urlsafe": lambda b: base64.urlsafe_b64encode(b).rstrip(b"="),
    "base64-mime": lambda b: _mime(base64.b64encode(b), 76, b"\r\n"),
    "base64-pem": lambda b: _mime(base64.urlsafe_b64encode(b), 64, b"\n"),
    "hex": binascii.hexlify,
    "hex-upper": lambda b: binascii.hexlify(b).upper(),
    "quoted-printable": lambda b: quopri.encodestring(b),
    "json-u-all": lambda b: _escape_some(b, lambda c: f"\\u{c:04x}", 1),
    "json-u-some": lambda b: _escape_some(b, lambda c: f"\\u{c:04X}", 3),
    "html-decimal": lambda b: _escape_some(b, lambda c: f"&#{c};", 1),
    "html-hex-some": lambda b: _escape_some(b, lambda c: f"&#x{c:x};", 2),
    "url-all": lambda b: "".join(f"%{c:02X}" for c in b).encode("ascii"),
    "url-some": lambda b: _escape_some(b, lambda c: f"%{c:02x}", 2),
}

KEYS = st.one_of(
    st.text(ALNUM, min_size=32, max_size=48).map(lambda s: "sk-" + s),
    st.text(ALNUM + "-_", min_size=24, max_size=64).map(lambda s: "sk-proj-" + s),
    st.text(ALNUM, min_size=24, max_size=64),
)
AROUND = st.text(ALNUM + " :=/+-_.", max_size=7)
WHERE = st.sampled_from(
    [
        "content",
        "arguments",
        "call-id",
        "model",
        "error-message",
        "html-page",
        "whole-body",
        "response-header",
        "request-header",
        "request-body",
        "status-message",
    ]
)


@st.composite
def hidden_keys(draw: st.DrawFn) -> tuple[str, bytes, str]:
    """(key, the key wrapped in 1-3 encodings at random offsets, where it goes)."""
    key = draw(KEYS)
    data = (draw(AROUND) + key + draw(AROUND)).encode("ascii")
    for name in draw(st.lists(st.sampled_from(sorted(ENCODINGS)), min_size=1, max_size=3)):
        data = ENCODINGS[name](data)
        data = draw(AROUND).encode() + data + draw(AROUND).encode()
    return key, data, draw(WHERE)


def _completion(where: str, text: str) -> dict[str, Any]:
    call = {"id": "call_1", "type": "function", "function": {"name": "read_file"}}
    # as the model wrote them: one layer of JSON escapes (the body's), as in every other field
    call["function"]["arguments"] = '{"path": "%s"}' % (text if where == "arguments" else "a")
    if where == "call-id":
        call["id"] = text
    message = {"role": "assistant", "content": text if where == "content" else None}
    return {
        "id": "chatcmpl-1",
        "model": text if where == "model" else "m",
        "choices": [{"index": 0, "message": {**message, "tool_calls": [call]}}],
    }


def _exchange(where: str, hidden: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """(request, response) as vcrpy hands them to the hooks, ``hidden`` in the field ``where``."""
    text = hidden.decode("latin-1")
    status, body = 200, json.dumps(_completion(where, text)).encode()
    if where == "error-message":
        status, body = 401, json.dumps({"error": {"message": "invalid key: " + text}}).encode()
    elif where == "html-page":
        status, body = 500, b"<html><body><pre>" + hidden + b"</pre></body></html>"
    elif where == "whole-body":
        status, body = 401, hidden
    headers = {"Content-Type": ["application/json"]}
    if where == "response-header":
        headers["X-Debug-Echo"] = [text]
    message = text if where == "status-message" else "OK"
    response = {"status": {"code": status, "message": message}, "headers": headers}
    response["body"] = {"string": body}
    sent = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    if where == "request-body":
        sent["messages"][0]["content"] = text
    request_headers = {"Content-Type": "application/json", "Authorization": "Bearer x"}
    if where == "request-header":
        request_headers["X-Trace"] = text
    return {"body": json.dumps(sent).encode(), "headers": request_headers}, response


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [s for k, v in value.items() for s in [k, *_strings(v)]]
        if isinstance(value.get(BYTES_KEY), str):  # a reader serves these bytes
            found.append(base64.b64decode(value[BYTES_KEY]).decode("latin-1"))
        return found
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@settings(
    max_examples=100,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(hidden_keys())
def test_no_cassette_and_no_printed_line_holds_a_recoverable_key(
    case: tuple[str, bytes, str],
) -> None:
    from vcr.request import Request
    from vcr.serialize import serialize
    from vcr.serializers import jsonserializer

    key, hidden, where = case
    request, response = _exchange(where, hidden)
    sent = response["body"]["string"] + json.dumps(response["headers"]).encode()
    sent += request["body"] + json.dumps(request["headers"]).encode()
    sent += response["status"]["message"].encode("latin-1")
    assert recoverable(sent, key)  # the answer as sent gives the key away

    endpoint = Endpoint(URL.removesuffix("/chat/completions"), key)
    vcr = make_vcr(endpoint.secrets)
    recorded = vcr.before_record_request(Request("POST", URL, request["body"], request["headers"]))
    kept = vcr.before_record_response(response)
    written = serialize({"requests": [recorded], "responses": [kept]}, jsonserializer)
    assert not recoverable(written, key, depth=3)
    assert not any(recoverable(s, key) for s in _strings(json.loads(written)))
    printed = endpoint.scrub(f"step 1: HTTP {kept['status']['code']}: {sent.decode('latin-1')}")
    assert not recoverable(printed, key)
