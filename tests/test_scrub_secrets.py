"""The key scrubber removes the known key in every form a body may carry it, and changes
nothing else."""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import quote

import pytest

from recorder.endpoint import Endpoint
from recorder.secrets import REDACTED, public_url, scrub_body, scrub_headers, scrub_text
from tests.conftest import ROOT

KEY = "Zm9v/YmFyYmF6+cXV4/MTIzNDU2Nzg5MDEyMzQ"  # base64-style: "/" and "+" in it
SECRETS = Endpoint("https://gw.example/v1", KEY, ("user-name", "pass/word+1")).secrets
ORDINARY = [
    'read_file {"path": "Basic overview.md"}',
    "Add basic authentication to the admin page",
    "see lob-release-candidate-2026 and sk-learn-tutorial-notebook",
    "Bearer of bad news: the deployment failed",
]


@pytest.mark.parametrize(
    "form",
    [
        KEY,
        KEY.replace("/", "\\/"),  # PHP's json_encode
        "".join(f"\\u{ord(c):04x}" for c in KEY),  # every character escaped
        "".join(f"\\u{ord(c):04X}" if c in "/+" else c for c in KEY),
        quote(KEY, safe=""),
        re.sub("%[0-9A-F]{2}", lambda m: m.group(0).lower(), quote(KEY, safe="")),
        base64.b64encode(KEY.encode()).decode(),
        base64.b64encode(b"user-name:pass/word+1").decode(),
        base64.b64encode(f":{KEY}".encode()).decode(),
        "pass\\/word+1",
    ],
)
def test_every_encoding_of_a_known_secret_is_removed(form: str) -> None:
    text = '{"echo": "Authorization: Bearer ' + form + '", "x": 1}'  # as the gateway wrote it
    scrubbed = scrub_text(text, SECRETS)
    assert REDACTED in scrubbed and form not in scrubbed and KEY[:12] not in scrubbed


@pytest.mark.parametrize("text", ORDINARY)
def test_model_output_shaped_like_a_key_is_left_alone(text: str) -> None:
    assert scrub_text(text, SECRETS) == text
    assert scrub_body(text.encode(), SECRETS) == text.encode()


def test_key_shapes_are_still_blanked_in_headers_and_urls() -> None:
    headers = scrub_headers({"X-Echo": "Bearer sk-abcdefghijklmnopqrstu", "Authorization": "x"}, ())
    assert headers == {"X-Echo": f"Bearer {REDACTED}"}
    assert public_url("https://u:p@h.example/v1?key=sk-abcdefghijklmnop&x=1") == (
        f"https://h.example/v1?key={REDACTED}&x={REDACTED}"
    )


def _texts() -> list[str]:
    texts = [(ROOT / "evals" / "suite.json").read_text(encoding="utf-8")]
    for cassette in sorted((ROOT / "cassettes").rglob("*.json")):
        data = json.loads(cassette.read_text(encoding="utf-8"))
        for interaction in data.get("interactions", []) if isinstance(data, dict) else []:
            texts += [
                interaction["request"]["body"] or "",
                interaction["response"]["body"]["string"],
            ]
    return texts


def test_no_committed_answer_nor_suite_reference_changes_when_scrubbed() -> None:
    # each distinct text once (models share requests): a third of the texts, the same coverage
    texts = sorted(set(_texts()))
    assert len(texts) > 500
    changed = [t[:80] for t in texts + ORDINARY if scrub_text(t, SECRETS) != t]
    assert changed == []


def test_a_body_that_is_not_utf8_keeps_every_other_byte() -> None:
    body = b"<p>caf\xe9 " + KEY.encode() + b" \xff</p>"
    assert scrub_body(body, SECRETS) == b"<p>caf\xe9 " + REDACTED.encode() + b" \xff</p>"
