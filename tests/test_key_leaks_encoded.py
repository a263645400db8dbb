"""Issue 42: a key the gateway echoes in MIME base64 (a line break every 76 characters) or in a
UTF-16 401 body never reaches a file or a line of output.

The stand-in's ``~echomime`` and ``~echoutf16`` echo it; each kind is recorded through the command
line, rescored (results.json, index.html, cases.parquet), and diffed with
``diff runs -v --junit``; every file and the terminal are then searched for the key in any
encoding by ``tests.leak_decoder``, which shares no code with the scrubber. The raw answers are
checked to hold the key first, so a stand-in that stopped echoing could not make this pass.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pyarrow.parquet as pq
import requests

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE
from tests.leak_decoder import recoverable

# 44 characters, as an OpenAI project key starts: a line break falls inside its base64
KEY = "sk-proj-Tq84GvX2mPzL0aNcRw7YbE5uKdHs9FjQ1oVt"
KINDS = ("echomime", "echoutf16")


def _answer(gateway, kind: str) -> requests.Response:  # type: ignore[no-untyped-def]
    return requests.post(
        f"{gateway.url}/chat/completions",
        json={"model": f"ref/oracle~{kind}", "messages": [{"role": "user", "content": "hi"}]},
        headers={"Authorization": f"Bearer {KEY}"},
        timeout=30,
    )


def test_the_gateway_echoes_the_key_in_mime_base64_split_by_a_line_break(gateway) -> None:  # type: ignore[no-untyped-def]
    answer = _answer(gateway, "echomime")
    dump = answer.json()["error"]["request_dump"]
    lines = dump.split("\r\n")
    assert answer.status_code == 401 and max(map(len, lines)) == 76
    assert KEY.encode() in base64.b64decode("".join(lines))
    # no line alone holds the key: the old search for its base64 could not see it
    assert not any(KEY.encode() in base64.b64decode(line[: len(line) // 4 * 4]) for line in lines)


def test_the_gateway_echoes_the_key_in_a_utf16_body(gateway) -> None:  # type: ignore[no-untyped-def]
    answer = _answer(gateway, "echoutf16")
    assert answer.status_code == 401 and answer.content[:2] == b"\xff\xfe"
    assert KEY.encode() not in answer.content
    assert KEY in json.loads(answer.content.decode("utf-16"))["error"]["message"]


def _parquet_cells(path: Path) -> str:
    return json.dumps(pq.read_table(path).to_pylist(), default=str)


def test_no_output_holds_the_key_in_any_encoding(
    gateway, tmp_path: Path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LOBSTACK_API_KEY", KEY)
    cassettes, out = tmp_path / "cassettes", tmp_path / "reports"
    for kind in KINDS:
        record = ["record", "--suite", str(MINI_SUITE), "--cassettes", str(cassettes)]
        record += ["--base-url", gateway.url, "--model", f"ref/oracle~{kind}"]
        # exit 1: the gateway refused every case; the refusals are kept as recorded
        assert main([*record, "--concurrency", "1", "--case", "selection-01"]) == 1
    rescore = ["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out)]
    assert main(rescore) == 1  # no case of either model could be scored
    junit = tmp_path / "junit.xml"
    assert main(["diff", "runs", str(out), str(out), "-v", "--junit", str(junit)]) == 0
    terminal = capsys.readouterr()
    outputs = {"terminal": (terminal.out + terminal.err).encode()}
    outputs.update({str(p): p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()})
    outputs.update({f"{p} cells": _parquet_cells(p).encode() for p in tmp_path.rglob("*.parquet")})
    names = {Path(name.removesuffix(" cells")).name for name in outputs}
    assert {"results.json", "index.html", "cases.parquet", "junit.xml", "run.json"} <= names
    # what was recorded: the 401s, their bodies' key replaced by a marker that says why
    bodies = [
        json.loads(p.read_text(encoding="utf-8"))["interactions"][0]["response"]["body"]["string"]
        for p in sorted(cassettes.glob("*/selection-01.json"))
    ]
    assert "held part of a credential in base64" in bodies[0]
    assert bodies[1] == "[removed: held a credential in UTF-16]"
    # a parquet file's bytes are compressed: its cells are searched in depth, its bytes as they are
    depth = {name: 1 if name.endswith(".parquet") else 3 for name in outputs}
    leaks = [name for name, data in outputs.items() if recoverable(data, KEY, depth=depth[name])]
    assert leaks == []
