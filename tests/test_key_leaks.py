"""The key never leaves the process, whatever encoding an echoing gateway applies to it.

The stand-in's ``~echoencoded`` (a JSON 401 whose message quotes the header) and ``~echohtml`` (an
HTML 401 page) echo ``Authorization: Bearer KEY`` in the encodings of ``ENCODINGS`` below (computed
here, independently of the stand-in and of the scrubber). Each row records through the command line,
rescores with the HTML report, and greps every output (cassettes, run.json, results.json,
index.html, the leaderboard files, the terminal) for the key in every encoding; the raw answer is
checked to hold every one of them first, so a stand-in that stopped echoing could not make the
test pass.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
import requests

from lobstack_eval.main import main
from recorder.secrets import scrub_text
from tests.conftest import MINI_SUITE

# base64-style: "+" and "/" in it, so every escape of them matters; 38 characters
KEY = "Zm9v/YmFyYmF6+cXV4/MTIzNDU2Nzg5MDEyMzQ"
TEXTS = (KEY, f"Bearer {KEY}", f"Authorization: Bearer {KEY}")  # prefixes of 0, 7 and 22 characters


def _b64(text: str, urlsafe: bool = False, pad: bool = True) -> str:
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    encoded = encode(text.encode()).decode()
    return encoded if pad else encoded.rstrip("=")


def _hex_entities(text: str) -> str:
    return text.replace("+", "&#43;").replace("/", "&#x2F;").replace("=", "&equals;")


ENCODINGS: dict[str, Callable[[str], str]] = {
    "raw": lambda t: t,
    "base64": _b64,
    "base64-unpadded": lambda t: _b64(t, pad=False),
    "base64-urlsafe": lambda t: _b64(t, urlsafe=True),
    "base64-urlsafe-unpadded": lambda t: _b64(t, urlsafe=True, pad=False),
    "html-numeric": _hex_entities,
    "html-named": lambda t: t.replace("+", "&plus;").replace("/", "&sol;"),
    "html-upper-hex-no-semicolon": lambda t: t.replace("+", "&#X2b;").replace("/", "&#0047"),
    "url": lambda t: quote(t, safe=""),
    "json-u-escapes": lambda t: "".join(f"\\u{ord(c):04x}" for c in t),
    "base64-then-html": lambda t: _hex_entities(_b64(t)),
    "base64-then-url": lambda t: quote(_b64(t, urlsafe=False), safe=""),
    "base64-then-json": lambda t: "".join(f"\\u{ord(c):04X}" if c in "+/" else c for c in _b64(t)),
    "html-twice": lambda t: _hex_entities(t).replace("&", "&amp;"),
    "html-then-url": lambda t: quote(_hex_entities(t), safe=""),
}
# The forms the stand-in sends: every encoding but raw of the header value, and base64 of the whole
# header line.
SENT = [
    ENCODINGS[name](text)
    for name in list(ENCODINGS)[1:]  # raw: the ``echo`` kind's, tested in test_hostile_record.py
    for text in TEXTS[1:]
    if name.startswith("base64") or text == TEXTS[1]
]


def _leaks(text: str) -> list[str]:
    found = [
        f"{name}({text_!r})"
        for name, encode in ENCODINGS.items()
        for text_ in TEXTS
        if encode(text_) in text
    ]
    # what an attacker would try too: a third of the key, or its base64, anywhere
    for part in (KEY[:13], KEY[13:26], KEY[26:], html.escape(KEY[:13])):
        if part in text:
            found.append(f"part {part!r}")
    return found


@pytest.mark.parametrize("kind", ["echoencoded", "echohtml"])
def test_the_gateway_really_echoes_every_encoding(gateway, kind: str) -> None:
    answer = requests.post(
        f"{gateway.url}/chat/completions",
        json={"model": f"ref/oracle~{kind}", "messages": [{"role": "user", "content": "hi"}]},
        headers={"Authorization": f"Bearer {KEY}"},
        timeout=30,
    )
    # the JSON message as the gateway meant it (its own JSON escapes undone); the page as sent
    text = answer.json()["error"]["message"] if kind == "echoencoded" else answer.text
    missing = [form for form in SENT if form not in text]
    assert answer.status_code == 401 and missing == []


@pytest.mark.parametrize("kind", ["echoencoded", "echohtml"])
def test_no_output_holds_the_key_in_any_encoding(
    gateway, tmp_path: Path, kind: str, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LOBSTACK_API_KEY", KEY)
    cassettes, out = tmp_path / "cassettes", tmp_path / "reports"
    record = ["record", "--suite", str(MINI_SUITE), "--cassettes", str(cassettes)]
    record += ["--base-url", gateway.url, "--model", f"ref/oracle~{kind}", "--concurrency", "1"]
    assert main([*record, "--case", "selection-01", "--case", "no_call-01"]) == 1
    # exit 1: no case of the model could be scored; every file is written all the same
    assert main(["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out)]) == 1
    terminal = capsys.readouterr()
    outputs = {"terminal": terminal.out + terminal.err}
    for path in sorted(tmp_path.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".html", ".md", ".csv", ".txt"):
            outputs[str(path.relative_to(tmp_path))] = path.read_text(encoding="utf-8")
    assert any(p.endswith("index.html") for p in outputs) and any(
        p.endswith("results.json") for p in outputs
    )
    assert any(p.endswith("run.json") for p in outputs)
    leaks = {name: found for name, text in outputs.items() if (found := _leaks(text))}
    assert leaks == {}


@pytest.mark.parametrize("name", list(ENCODINGS))
@pytest.mark.parametrize("text", TEXTS, ids=["key", "bearer", "header-line"])
@pytest.mark.parametrize("around", ["", "x", "xy"], ids=["at-0", "after-1", "after-2"])
def test_every_encoding_at_every_offset_is_scrubbed(name: str, text: str, around: str) -> None:
    echoed = ENCODINGS[name](around + text + around)
    scrubbed = scrub_text(f'<p class="echo">{echoed}</p>', (KEY,))
    assert _leaks(scrubbed) == [] and "<redacted>" in scrubbed
    assert scrubbed.startswith('<p class="echo">') and scrubbed.endswith("</p>")
