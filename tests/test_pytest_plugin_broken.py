"""The pytest plugin on broken recordings: a cassette that cannot be used errors its own case only
(never a skip, never a baseline's expected failure), every other case of the model is judged, and
each model is scored once per session, a model-wide failure included."""

from __future__ import annotations

import json
import shutil
import traceback
from pathlib import Path

import pytest

from pytest_lobstack import state
from pytest_lobstack.options import Settings
from pytest_lobstack.state import LobstackRun
from recorder.slug import model_slug
from scorer.errors import CassetteError, LobstackError
from tests.conftest import MINI_SUITE

# (the shared project fixture)
from tests.test_pytest_plugin import copy_project, run, template  # noqa: F401


@pytest.fixture
def project(template: Path, pytester: pytest.Pytester) -> Path:  # noqa: F811
    return copy_project(template, pytester)


def test_one_truncated_cassette_errors_its_case_and_the_others_are_judged(
    project: Path, pytester
) -> None:  # type: ignore[no-untyped-def]
    """The new user's trial: ref_noisy/arguments-01.json cut to 300 bytes. arguments-01 failed in
    the baseline, so a CaseErrored would have been an expected failure; a broken file is not,
    and errors."""
    broken = project / "cassettes" / "ref_noisy" / "arguments-01.json"
    broken.write_bytes(broken.read_bytes()[:300])
    baseline = json.loads(
        (project / "reports" / "ref_noisy" / "results.json").read_text(encoding="utf-8")
    )
    statuses = {r["id"]: r["status"] for r in baseline["results"]}
    assert statuses["arguments-01"] == "failed"

    plain = run(pytester, "--lobstack-cassettes", "cassettes", "-k", "ref_noisy", "-rE")
    passed = sum(1 for s in statuses.values() if s == "passed")
    plain.assert_outcomes(passed=passed, failed=80 - passed - 1, errors=1)
    line = (
        "error: cassettes/ref_noisy/arguments-01.json: corrupt cassette: not valid JSON (*); "
        "record it again: lobstack-eval record --model ref/noisy --cassettes cassettes --case "
        "arguments-01"
    )
    plain.stdout.fnmatch_lines(["*ERROR at setup of ref/noisy arguments-01*", line])
    assert "Traceback" not in plain.stdout.str()

    gated = run(
        pytester,
        "--lobstack-cassettes",
        "cassettes",
        "-k",
        "ref_noisy",
        "--lobstack-baseline",
        "reports",
    )
    gated.assert_outcomes(
        passed=passed + 1, xfailed=80 - passed - 1, errors=1
    )  # + the model's (whole run) test
    assert gated.ret == 1  # a broken recording never leaves the run green


def test_a_broken_repeat_errors_its_case(repeat_cassettes: Path, pytester: pytest.Pytester) -> None:
    """With repeats the case errors when any of its case-runs' cassettes cannot be used, whatever
    the others say."""
    (pytester.path / "evals").mkdir()
    shutil.copy(MINI_SUITE, pytester.path / "evals" / "suite.json")
    shutil.copytree(repeat_cassettes / "ref_oracle", pytester.path / "cassettes" / "ref_oracle")
    case_id = json.loads(MINI_SUITE.read_text(encoding="utf-8"))["cases"][0]["id"]
    (pytester.path / "cassettes" / "ref_oracle" / "repeat-2" / f"{case_id}.json").write_text(
        "{", encoding="utf-8"
    )
    result = run(pytester, "--lobstack-cassettes", "cassettes", "-rE")
    cases = len(json.loads(MINI_SUITE.read_text(encoding="utf-8"))["cases"])
    result.assert_outcomes(passed=cases - 1, errors=1)
    result.stdout.fnmatch_lines(
        [
            f"*ERROR at setup of ref/oracle {case_id}*",
            f"error: cassettes/ref_oracle/repeat-2/{case_id}.json: corrupt cassette: not valid "
            "JSON (*); record it again: lobstack-eval record --model ref/oracle --cassettes "
            f"cassettes --repeats 3 --case {case_id}",
        ]
    )


def _session(cassettes: Path) -> LobstackRun:
    settings = Settings(cassettes, MINI_SUITE, (), "none", None, 1, (), (), cassettes.parent)
    return LobstackRun(settings, lambda _text: None)


def test_each_model_is_scored_once_per_session_and_a_failure_is_kept(
    repeat_cassettes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """80 tests of a model score it once; when the whole model fails, every test gets the same error
    without scoring again, and each raise has a fresh traceback (re-raising one exception object
    piles up the tracebacks of every earlier test, which pytest renders for each: 23 s for 80
    tests before)."""
    cassettes = tmp_path / "cassettes"
    for slug in ("ref_oracle", "ref_first-tool"):
        shutil.copytree(repeat_cassettes / slug, cassettes / slug)
    calls: list[str] = []
    real = state.score_model

    def counted(model_dir: Path, suite):  # type: ignore[no-untyped-def]
        calls.append(model_dir.name)
        return real(model_dir, suite)

    monkeypatch.setattr(state, "score_model", counted)
    session = _session(cassettes)
    good, bad = session.open_model("ref_oracle"), session.open_model(model_slug("ref/first-tool"))
    (cassettes / "ref_first-tool" / "run.json").write_text(
        "{", encoding="utf-8"
    )  # broken after collection
    assert all(session.results(good) is session.results(good) for _ in range(40))
    depths = []
    for _ in range(40):
        with pytest.raises(
            CassetteError, match=r"run\.json: the run manifest is not valid JSON"
        ) as caught:
            session.results(bad)
        depths.append(len(traceback.extract_tb(caught.value.__traceback__)))
    assert calls == ["ref_oracle", "ref_first-tool"]
    assert (
        depths[1:] == [depths[1]] * 39 and depths[1] <= depths[0]
    )  # no pile-up (it grew by 2 frames a raise)


def test_an_unforeseen_failure_is_one_line_and_kept_too(
    tmp_path: Path, repeat_cassettes: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "cassettes"
    shutil.copytree(repeat_cassettes / "ref_oracle", cassettes / "ref_oracle")
    calls = []

    def broken(model_dir: Path, suite):  # type: ignore[no-untyped-def]
        calls.append(model_dir.name)
        raise KeyError("status")

    monkeypatch.setattr(state, "score_model", broken)
    session = _session(cassettes)
    model = session.open_model("ref_oracle")
    for _ in range(3):
        with pytest.raises(LobstackError) as caught:
            session.results(model)
        assert (
            caught.value.message
            == f"{cassettes / 'ref_oracle'}: cannot be scored (KeyError: 'status')"
        )
    assert calls == ["ref_oracle"]
