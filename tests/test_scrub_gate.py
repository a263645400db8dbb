"""The scrubber's last gate (decision METHOD.md#scrub-fails-closed): what it replaces, with which
marker, what it keeps, and that it fails closed when a text is too deep or too costly to examine."""

from __future__ import annotations

import base64
import json

import pytest

from recorder import secret_search
from recorder.cassettes import make_vcr
from recorder.secrets import scrub_body, scrub_headers, scrub_text

KEY = "sk-proj-Tq84GvX2mPzL0aNcRw7YbE5uKdHs9FjQ1oVt"
SECRETS = (KEY,)


def _mime(text: str) -> str:
    encoded = base64.b64encode(text.encode()).decode()
    return "\r\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))


def test_a_json_body_keeps_its_shape_and_loses_the_string_that_held_the_key() -> None:
    answer = {"error": {"message": "invalid key", "dump": _mime(f"Authorization: Bearer {KEY}")}}
    body = json.dumps(answer).encode()
    kept = json.loads(scrub_body(body, SECRETS))
    assert kept["error"]["message"] == "invalid key"
    assert (
        kept["error"]["dump"].startswith("[removed: held ")
        and "in base64]" in kept["error"]["dump"]
    )


def test_a_body_that_is_not_json_is_replaced_whole() -> None:
    body = b"\xff\xfe" + f'{{"error": "invalid key {KEY}"}}'.encode("utf-16-le")
    assert scrub_body(body, SECRETS) == b"[removed: held a credential in UTF-16]"


def test_a_text_is_replaced_whole_and_says_how_it_held_the_key() -> None:
    inner = base64.b64encode(KEY.encode("utf-16-le")).decode()
    assert scrub_text(f"step 1: HTTP 401: {inner}", SECRETS) == (
        "[removed: held a credential in UTF-16 in base64]"
    )


@pytest.mark.parametrize("length", [15, 16])
def test_sixteen_characters_of_the_key_are_a_leak_fifteen_are_not(length: int) -> None:
    text = "echo: " + base64.b64encode(KEY[10 : 10 + length].encode()).decode()
    assert (scrub_text(text, SECRETS) == text) is (length == 15)


def test_a_key_too_deep_to_decode_fails_closed() -> None:
    hidden = KEY.encode()
    for _ in range(6):
        hidden = base64.b64encode(hidden)
    assert scrub_text(hidden.decode(), SECRETS) == (
        "[removed: encoded too deeply to be checked for a credential]"
    )


def test_a_text_too_costly_to_examine_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    # the escapes' view costs as much again as the text: past a budget of 1x with no floor
    monkeypatch.setattr(secret_search, "BUDGET_FACTOR", 1)
    monkeypatch.setattr(secret_search, "BUDGET_FLOOR", 0)
    text = "a line of an ordinary answer\\n" * 20
    assert scrub_text(text, SECRETS) == "[removed: too costly to check for a credential]"


def test_ordinary_decodable_text_is_kept() -> None:
    texts = [
        "SGVsbG8sIHdvcmxkISBUaGlzIGlzIGEgYmFzZTY0IHRleHQu",  # base64 of prose
        "caf\\u00e9 &amp; cr&egrave;me 100%25 =3D " + "0123456789abcdef" * 4,
        "sk-proj-Tq84GvX and 2mPzL0aNcRw7YbE",  # 15 characters of the key at most
    ]
    assert [scrub_text(t, SECRETS) for t in texts] == texts


def test_a_header_whose_name_or_value_shows_the_key_is_gone() -> None:
    headers = {"X-Echo": f"Bearer {KEY.encode().hex()}", f"X-{KEY}": "1", "X-Ok": "fine"}
    assert scrub_headers(headers, SECRETS) == {
        "X-Echo": "[removed: held a credential in hex]",
        "X-Ok": "fine",
    }


def test_the_status_line_message_is_scrubbed_as_recorded() -> None:
    hook = make_vcr(SECRETS).before_record_response
    response = {
        "status": {"code": 401, "message": f"Bad key {KEY.encode('utf-16-be').hex()}"},
        "headers": {},
        "body": {"string": b"{}"},
    }
    kept = hook(response)
    assert kept["status"]["message"] == "[removed: held a credential in UTF-16 in hex]"
    assert kept["body"]["string"] == "{}"
