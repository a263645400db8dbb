"""A gateway that refuses the request (HTTP 401, 403, 404: the key, the access, the model name) has not given the
model's answer: `record` says so in one error line, exits 1, and the next `record` asks again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE


def _record(url: str, model: str, cassettes: Path) -> int:
    return main(["record", "--model", model, "--suite", str(MINI_SUITE), "--cassettes", str(cassettes),
                 "--base-url", url, "--concurrency", "1"])  # fmt: skip


def test_an_unknown_model_is_one_error_and_is_asked_again(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = tmp_path / "cas"
    assert _record(gateway.url, "ref/orcale", cassettes) == 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    cases = len(json.loads(MINI_SUITE.read_text())["cases"])
    # The first three answers were the same refusal: the other cases are not asked (METHOD.md#stop-when-futile).
    assert last.startswith("error: the gateway refused the first 3 case-runs for ref/orcale the same way (step 1: ")
    assert "HTTP 404" in last and last.endswith("(the refusals are kept as recorded; the same command records "
                                                "them again)")  # fmt: skip
    asked = len(gateway.requests_seen)
    assert asked == 3 < cases
    assert _record(gateway.url, "ref/orcale", cassettes) == 1  # recorded again, not "nothing to record"
    assert len(gateway.requests_seen) == 2 * asked


def test_a_400_is_the_models_answer_and_is_kept(gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only refusals are asked again: another error status is the model's result (the method page), kept."""
    cassettes = tmp_path / "cas"
    assert _record(gateway.url, "ref/oracle~400", cassettes) == 0
    asked = len(gateway.requests_seen)
    capsys.readouterr()
    assert _record(gateway.url, "ref/oracle~400", cassettes) == 0
    assert len(gateway.requests_seen) == asked
    assert "Nothing to record" in capsys.readouterr().err
