"""What the speed work relies on (benchmarks/run.py measures the speed itself): the lighter paths
give what the standard ones give, and each command imports only what it uses."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replay.cassettes.transport import load_interactions
from tests.conftest import ROOT

COMMITTED = sorted(p for p in (ROOT / "cassettes").glob("*/*.json") if p.name != "run.json")
HEAVY = (
    "vcr",
    "requests",
    "urllib3",
    "http.client",
    "rich",
    "jinja2",
    "matplotlib",
    "numpy",
    "polars",
    "jsonschema",
)


def imported_by(args: list[str]) -> list[str]:
    """Which of HEAVY a fresh interpreter has imported after running the CLI with ``args``."""
    script = (
        "import sys\n"
        "from lobstack_eval.main import main\n"
        f"code = main({args!r})\n"
        f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=ROOT,
    ).stdout
    return [out.splitlines()[-1]]


def test_committed_cassettes_read_as_vcrpys_own_loader_reads_them() -> None:
    from vcr.serialize import deserialize
    from vcr.serializers import jsonserializer

    assert len(COMMITTED) > 800
    for path in COMMITTED:
        requests, responses, *_ = deserialize(path.read_text(encoding="utf-8"), jsonserializer)
        mine = load_interactions(path)
        assert [(r.method, r.uri, r.body) for r, _ in mine] == [
            (r.method, r.uri, r.body) for r in requests
        ], path
        for (_, response), theirs in zip(mine, responses, strict=True):
            assert response["status"] == theirs["status"], path
            assert response["headers"] == theirs["headers"], path
            assert response["body"]["string"].encode("utf-8") == theirs["body"]["string"], path


def test_version_and_help_import_no_heavy_library() -> None:
    assert imported_by(["--version"]) == ["0 []"]
    assert imported_by(["--help"]) == ["0 []"]


def test_rescore_without_html_imports_neither_vcrpy_nor_an_http_client(tmp_path: Path) -> None:
    # Scoring needs polars (metrics) and jsonschema (argument checks), and the leaderboard's note
    # numpy (the pick's case bootstrap, scorer/stats/front_bootstrap.py); reading cassettes needs
    # no HTTP
    # library. One model dir: scored in this process (many go to a pool, and then this process
    # does not even need polars).
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", tmp_path / "cassettes" / "ref_oracle")
    args = [
        "rescore",
        str(tmp_path / "cassettes"),
        "--out",
        str(tmp_path / "out"),
        "--no-html",
        "--quiet",
    ]
    assert imported_by(args) == ["0 ['jsonschema', 'numpy', 'polars']"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "x"], "error: --workers: expected a whole number >= 1, got 'x'"),
        (["--workers", "1.5"], "error: --workers: expected a whole number >= 1, got '1.5'"),
        (["--workers", "0"], "error: --workers 0: must be at least 1"),
        # --detect reads as diff runs' does: one parser, one message (lobstack_eval/options.py)
        (["--detect", "200"], "error: --detect: expected points between 0 and 100, got '200'"),
        (["--detect", "nan"], "error: --detect: expected points between 0 and 100, got 'nan'"),
        (["--detect", "0"], "error: --detect: expected points between 0 and 100, got '0'"),
    ],
)
def test_rescore_workers_must_be_a_whole_number(
    args: list[str], message: str, capsys, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from lobstack_eval.main import main

    assert main(["rescore", str(ROOT / "cassettes"), "--out", str(tmp_path / "out"), *args]) == 2
    assert capsys.readouterr().err.strip() == message
    assert not (tmp_path / "out").exists()  # bad usage: no work


@pytest.mark.parametrize(
    ("new", "recorded", "proven", "matches"),
    [
        (
            {"a": 1, "b": [1, {"c": "é"}]},
            '{"b": [1, {"c": "é"}], "a": 1}',
            True,
            True,
        ),  # key order is free
        ({"t": 1}, '{"t": 1.0}', False, True),  # not proven cheaply, but the matcher still matches
        ({"t": True}, '{"t": 1}', False, False),  # a boolean is not a number
        (
            {"n": 2**70},
            '{"n": 1180591620717411303424}',
            False,
            True,
        ),  # beyond orjson: the matcher decides
        ({"a": 1}, '{"a": 2}', False, False),
        ({"a": 1}, "not json", False, None),
    ],
)
def test_the_cheap_body_check_never_matches_what_the_matcher_would_not(
    new: dict[str, Any], recorded: str, proven: bool, matches: bool | None
) -> None:
    from recorder.cassettes import json_body
    from recorder.transport import HttpRequest
    from replay.cassettes.transport import RecordedRequest, _same_json

    assert _same_json(new, recorded.encode()) is proven
    if matches is None:
        return
    ours = RecordedRequest("POST", "u", HttpRequest("u", new).body_bytes())
    theirs = RecordedRequest("POST", "u", recorded.encode())
    try:
        json_body(ours, theirs)
        matched = True
    except AssertionError:
        matched = False
    assert matched is matches
    assert not proven or matched


def test_the_fast_cassette_parse_gives_what_the_strict_parse_gives() -> None:
    # Exactly the same value, types included (1 and 1.0 differ in sorted JSON text), for every
    # committed cassette.
    from replay.cassettes.transport import _parsed_fast, _parsed_strict

    for path in COMMITTED:
        raw = path.read_bytes()
        fast, strict = _parsed_fast(raw), _parsed_strict(path, raw)
        assert fast is not None, path
        assert json.dumps(fast, sort_keys=True) == json.dumps(strict, sort_keys=True), path


def _cassette(status: Any = 200, **extra: Any) -> bytes:
    response = {
        "status": {"code": status, "message": "OK"},
        "headers": {},
        "body": {"string": "{}"},
    }
    request = {"method": "POST", "uri": "http://h/v1/chat/completions", "body": "{}", "headers": {}}
    return json.dumps(
        {"version": 1, "interactions": [{"request": request, "response": response}], **extra}
    ).encode()


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        # An integer beyond 64 bits: orjson would read a float, the strict parse an int; the error
        # keeps the int.
        (_cassette(2**70), f"status.code: expected an integer HTTP status (100-999), got {2**70}"),
        # Deeper than a file may nest, but within orjson's own limit, in a field replay never reads.
        (
            _cassette(unread=json.loads("[" * 250 + "]" * 250)),
            "not valid JSON (nested more than 200 levels deep)",
        ),
        (
            b"\xef\xbb\xbf" + _cassette(),
            "not valid JSON (Expecting value at line 1)",
        ),  # a byte order mark
        # A lone surrogate: only the strict parse reads it, and it is no text a request could
        # have sent.
        (
            _cassette().replace(b'"{}"', b'"\\ud800"', 1),
            "interactions[0].request.body: not UTF-8 text",
        ),
    ],
)
def test_what_the_fast_parse_cannot_prove_goes_the_strict_way(
    tmp_path: Path, raw: bytes, error: str
) -> None:
    from replay.cassettes.transport import _parsed_fast, load_interactions
    from scorer.errors import CassetteError

    path = tmp_path / "case.json"
    path.write_bytes(raw)
    assert _parsed_fast(raw) is None
    with pytest.raises(CassetteError) as caught:
        load_interactions(path)
    assert error in str(caught.value)
