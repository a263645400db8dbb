"""``--debug`` / ``LOBSTACK_DEBUG=1`` (issue 26): the traceback behind a
``cannot be scored (KeyError: ...)`` line and the CLI's other one-line internal errors; without
it, the line alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import replay.score_models
from lobstack_eval.main import main
from tests.conftest import ROOT

LINE = "cannot be scored (KeyError: 'status')"


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """One model dir whose scoring raises a KeyError (a bug inside the scorer); the rescore
    command's arguments."""
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", tmp_path / "cassettes" / "ref_oracle")

    def score_model(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyError("status")

    monkeypatch.setattr(replay.score_models, "score_model", score_model)
    monkeypatch.delenv("LOBSTACK_DEBUG", raising=False)
    out = tmp_path / "out"
    return [
        "rescore",
        str(tmp_path / "cassettes"),
        "--out",
        str(out),
        "--no-html",
        "-q",
        "--workers",
        "1",
    ]


def test_without_debug_the_error_is_one_line(
    broken: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(broken) == 1
    err = capsys.readouterr().err
    assert LINE in err and "Traceback" not in err


@pytest.mark.parametrize("how", ["flag", "env"])
def test_debug_shows_the_traceback_behind_the_line(
    broken: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    if how == "env":
        monkeypatch.setenv("LOBSTACK_DEBUG", "1")
    else:
        monkeypatch.setattr(
            "os.environ", dict(__import__("os").environ)
        )  # --debug sets it: undone after the test
    assert main(["--debug", *broken] if how == "flag" else broken) == 1
    err = capsys.readouterr().err
    lines = err.splitlines()
    at = next(i for i, line in enumerate(lines) if LINE in line)
    assert lines[at + 1] == "Traceback (most recent call last):", err
    assert (
        'raise KeyError("status")' in err and "KeyError: 'status'" in lines[at + 2 :][-1]
    ) or "KeyError" in err
    assert any("test_debug.py" in line and "score_model" in line for line in lines), err


def test_debug_off_when_the_variable_is_0(monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.debug import with_traceback

    monkeypatch.setenv("LOBSTACK_DEBUG", "0")
    assert with_traceback("x", KeyError("k")) == "x"


def test_an_os_error_line_gets_its_traceback_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import lobstack_eval.main as cli

    def failing(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device", str(tmp_path / "x"))

    monkeypatch.setattr(cli, "_cli", lambda: failing)  # the command main runs
    monkeypatch.setenv("LOBSTACK_DEBUG", "1")
    assert cli.main(["rescore"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"error: {tmp_path / 'x'}: No space left on device"
    assert err[1] == "Traceback (most recent call last):"
