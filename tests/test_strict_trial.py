"""A second new user's trial (METHOD.md, decisions 99-102): a cassette's format version, an --out
inside the cassettes, a blank API key, run.json fields of the wrong type."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from replay.cassettes.transport import load_interactions
from scorer.errors import CassetteError
from tests.conftest import ROOT

CASSETTE = "ref_oracle/selection-01.json"


def _with_version(tmp_path: Path, version: object) -> Path:
    """A copy of a committed cassette with ``version`` set (``...`` removes the field)."""
    data = json.loads((ROOT / "cassettes" / CASSETTE).read_text(encoding="utf-8"))
    assert data["version"] == 1  # what vcrpy writes
    if version is ...:
        del data["version"]
    else:
        data["version"] = version
    path = tmp_path / "selection-01.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_cassette_version_other_than_1_is_refused_and_a_missing_one_reads_as_1(
    tmp_path: Path,
) -> None:
    """vcrpy's loader reads neither: it loads version 99 and a missing version alike. We keep its
    missing-is-fine and refuse any other number, a format the shape check cannot vouch for."""
    from vcr.serialize import deserialize
    from vcr.serializers import jsonserializer

    committed = load_interactions(ROOT / "cassettes" / CASSETTE)
    (tmp_path / "missing").mkdir()
    missing = _with_version(tmp_path / "missing", ...)
    assert load_interactions(missing) == committed
    assert len(deserialize(missing.read_text(encoding="utf-8"), jsonserializer)[0]) == len(
        committed
    )

    future = _with_version(tmp_path, 99)
    assert len(deserialize(future.read_text(encoding="utf-8"), jsonserializer)[0]) == len(committed)
    with pytest.raises(CassetteError) as refused:
        load_interactions(future)
    assert (
        refused.value.message
        == f"{future}: corrupt cassette: version: expected 1 (vcrpy's cassette format), got 99"
    )


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize(
    ("option", "where"),
    [("--out", "."), ("--out", "ref_oracle"), ("--out", "ref_oracle/reports"), ("--rows", "rows")],
)
def test_rescore_refuses_to_write_inside_the_cassettes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, where: str
) -> None:
    """As merge does: reports in the cassettes dir would be read back as (broken) model dirs by
    every rescore."""
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    before = _tree(cassettes)
    target = cassettes / where
    out = target if option == "--out" else tmp_path / "reports"
    args = ["rescore", str(cassettes), "--out", str(out), "-q", "--no-html"]
    assert main([*args, "--rows", str(target)] if option == "--rows" else args) == 2
    err = capsys.readouterr().err
    assert err == f"error: {option} {target}: must not be {cassettes} or inside it\n"
    assert _tree(cassettes) == before
    assert sorted(p.name for p in cassettes.iterdir()) == ["ref_oracle"]
    assert not (cassettes / "ref_oracle" / "reports").exists()


def test_rescore_out_beside_the_cassettes_is_fine(tmp_path: Path) -> None:
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    assert (
        main(
            [
                "rescore",
                str(cassettes),
                "--out",
                str(tmp_path / "cassettes-reports"),
                "-q",
                "--no-html",
            ]
        )
        == 0
    )
    assert (tmp_path / "cassettes-reports" / "ref_oracle" / "results.json").is_file()


@pytest.mark.parametrize("blank", ["", "   ", "\t\n"])
def test_a_blank_api_key_is_a_missing_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, blank: str
) -> None:
    monkeypatch.setenv("LOBSTACK_API_KEY", blank)
    cassettes = tmp_path / "cassettes"
    args = ["record", "--model", "m", "--suite", str(ROOT / "tests/fixtures/mini_suite.json")]
    assert (
        main([*args, "--cassettes", str(cassettes), "--base-url", "https://gateway.invalid/v1"])
        == 1
    )
    assert capsys.readouterr().err == (
        "error: LOBSTACK_API_KEY is not set; it is needed for https://gateway.invalid/v1 "
        "(a loopback URL needs no key)\n"
    )
    assert not cassettes.exists()


def _answer_text(handler, number: int, body: bytes) -> None:  # type: ignore[no-untyped-def]
    data = json.dumps({"choices": [{"message": {"role": "assistant", "content": "ok"}}]}).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def test_the_key_is_sent_without_surrounding_whitespace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pasted key with a space or newline around it is the key (no key has whitespace; an HTTP
    header value may not start with one)."""
    from tests.record_helpers import LoopbackServer

    monkeypatch.setenv("LOBSTACK_API_KEY", "  key-123\n")
    with LoopbackServer(_answer_text) as server:
        args = ["record", "--model", "m", "--suite", str(ROOT / "tests/fixtures/mini_suite.json")]
        args += [
            "--cassettes",
            str(tmp_path / "cas"),
            "--base-url",
            server.url,
            "--case",
            "no_call-01",
        ]
        assert main(args) == 0
    assert [h["Authorization"] for h, _ in server.seen] == ["Bearer key-123"]


def test_a_key_with_a_line_break_inside_is_refused_without_showing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOBSTACK_API_KEY", "abc\ndef-secret")
    cassettes = tmp_path / "cassettes"
    args = ["record", "--model", "m", "--suite", str(ROOT / "tests/fixtures/mini_suite.json")]
    assert (
        main([*args, "--cassettes", str(cassettes), "--base-url", "https://gateway.invalid/v1"])
        == 1
    )
    captured = capsys.readouterr()
    assert captured.err == (
        "error: LOBSTACK_API_KEY holds a line break or another control character; a key is one "
        "line\n"
    )
    assert "def-secret" not in captured.out and not cassettes.exists()


def test_a_file_size_limit_names_the_file(tmp_path: Path) -> None:
    """Under ``ulimit -f`` a write fails with EFBIG, which names no file: the error line names
    the one written."""
    import os
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20 * 1024, 20 * 1024))

    out = tmp_path / "out"
    # One model is enough: its results.json (~95 KB) is over the limit (12 models took 4x longer)
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    code = "from lobstack_eval.main import main; raise SystemExit(main())"
    # No bytecode written by the child: importlib does not check that a .pyc was written whole,
    # and under the limit a module's .pyc over 20 KB is cut short, then found by every later
    # Python that shares the cache (.tmp/pycache: "EOFError: marshal data too short").
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code, "rescore", str(cassettes), "--out", str(out), "--no-html"],
        capture_output=True,
        text=True,
        preexec_fn=limit,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {out}") and line.endswith(": File too large"), line
    assert "Traceback" not in done.stderr
