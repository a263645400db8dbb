"""The pytest plugin, end to end: an empty project with only cassettes, a suite and reports, and a
real pytest run in a subprocess (the installed ``pytest11`` entry point, no conftest), judged
against results.json."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from recorder.record import record
from recorder.settings import RecordSettings
from standin import GatewayConfig, StandInGateway, parse_faults
from tests.conftest import ROOT

# the stand-in answers 400 to the first attempt of every request: the case errors
ERRORING = "ref/oracle~400"
ERRORING_CASES = [
    "selection-01",
    "chains-01",
]  # recorded; every other case of that model is unrecorded
OUTCOME = {"passed": "passed", "failed": "failed", "errored": "error", "unrecorded": "skipped"}
TIMEOUT_S = 300
# Every inner pytest loads the installed plugins as a user's does, but hypothesis's: its plugin
# imports hypothesis at each run's summary (0.1 to 0.5 s of CPU a run, at each of the suite's
# dozens of inner runs) and no inner test uses it.
INNER = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project: evals/suite.json, cassettes of ref/noisy (committed) and of a model whose cases
    error, and the reports ``lobstack-eval rescore`` makes of them."""
    project = tmp_path_factory.mktemp("project")
    (project / "evals").mkdir()
    shutil.copy(ROOT / "evals" / "suite.json", project / "evals" / "suite.json")
    shutil.copytree(ROOT / "cassettes" / "ref_noisy", project / "cassettes" / "ref_noisy")
    config = GatewayConfig(suite_path=project / "evals" / "suite.json", faults=parse_faults(""))
    with StandInGateway(config) as gateway:
        record(
            project / "evals/suite.json",
            ERRORING,
            project / "cassettes",
            gateway.url,
            ERRORING_CASES,
            RecordSettings(concurrency=1),
        )
    rescore(project, project / "reports")
    return project


def rescore(project: Path, out: Path) -> None:
    """Every report written; exit 1 because ref/oracle~400 scored no case (2 errored, 78
    unrecorded), which fails rescore (docs/commands/rescore.md#no-scored-case-fails)."""
    cassettes, suite = project / "cassettes", project / "evals" / "suite.json"
    assert (
        main(
            ["rescore", str(cassettes), "--suite", str(suite), "--out", str(out), "--no-html", "-q"]
        )
        == 1
    )
    assert (out / "ref_oracle_400" / "results.json").is_file() and (
        out / "ref_noisy" / "results.json"
    ).is_file()


def copy_project(template: Path, pytester: pytest.Pytester) -> Path:
    """A fresh copy of the template as the directory pytest runs in (nothing else there: no
    conftest, no ini)."""
    for name in ("evals", "cassettes", "reports"):
        shutil.copytree(template / name, pytester.path / name)
    return pytester.path


@pytest.fixture
def project(template: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    # pytest cuts a summary line at the terminal's width except on CI (when $CI is set): the
    # inner runs see CI set everywhere, so their lines are whole here and on the CI machine.
    monkeypatch.setenv("CI", "true")
    return copy_project(template, pytester)


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(*INNER, *args, timeout=TIMEOUT_S)


def refused(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A run stopped by a usage error before collection, in this process (as
    tests/test_pytest_plugin_wire.py's: nothing is collected, imported or recorded, so pytester's
    restored sys.modules do not matter; a subprocess costs seconds of CPU a run)."""
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *args)


def results_of(reports: Path) -> dict[str, dict[str, Any]]:
    """Model slug -> results.json document."""
    return {
        p.parent.name: json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(reports.glob("*/results.json"))
    }


def junit_outcomes(path: Path) -> dict[tuple[str, str], str]:
    """(model slug, case id) -> passed / failed / error / skipped / xfailed, from pytest's
    JUnit XML."""
    found = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        slug = case.get("classname", "").rsplit(".", 1)[-1]
        children = {child.tag: child for child in case}
        if "failure" in children:
            outcome = "failed"
        elif "error" in children:
            outcome = "error"
        elif "skipped" in children:
            outcome = "xfailed" if children["skipped"].get("type") == "pytest.xfail" else "skipped"
        else:
            outcome = "passed"
        found[(slug, case.get("name", ""))] = outcome
    return found


def edit_answer(cassette: Path, tool_name: str) -> None:
    """The model's first answer now calls ``tool_name`` instead (a regression in the
    recorded answer)."""
    data = json.loads(cassette.read_text(encoding="utf-8"))
    body = data["interactions"][0]["response"]["body"]
    answer = json.loads(body["string"])
    answer["choices"][0]["message"]["tool_calls"][0]["function"]["name"] = tool_name
    body["string"] = json.dumps(answer)
    cassette.write_text(json.dumps(data), encoding="utf-8")


def test_one_item_per_model_and_case_with_the_outcomes_rescore_wrote(
    project: Path, pytester: pytest.Pytester
) -> None:
    result = run(
        pytester, "--lobstack-cassettes", "cassettes", "--junitxml=junit.xml", "-vv", "-rfEs"
    )
    reports = results_of(project / "reports")
    expected = {
        (slug, r["id"]): OUTCOME[r["status"]]
        for slug, doc in reports.items()
        for r in doc["results"]
    }
    assert junit_outcomes(project / "junit.xml") == expected
    counts = Counter(expected.values())
    result.assert_outcomes(
        passed=counts["passed"],
        failed=counts["failed"],
        errors=counts["error"],
        skipped=counts["skipped"],
    )
    # Checked by hand in the committed reports: ref/noisy passes 41 of 80 cases; the other model
    # errors twice.
    assert counts == {"passed": 41, "failed": 39, "error": 2, "skipped": 78}
    assert result.ret == 1
    out = result.stdout.str()
    assert (
        "FAILED cassettes/ref_noisy::selection-01 - step 1: names differ: expected [read_file], "
        "got []" in out
    )
    errored = results_of(project / "reports")["ref_oracle_400"]["results"][0]
    assert f"ERROR cassettes/ref_oracle_400::selection-01 - {errored['reason']}" in out
    assert (
        "cassettes/ref_oracle_400/arguments-01.json:1: not recorded yet; record it: "
        "lobstack-eval record --model 'ref/oracle~400' --cassettes cassettes --case arguments-01"
    ) in out
    assert "Traceback" not in out


def test_with_the_baseline_known_failures_are_xfails_and_a_model_with_no_score_fails(
    project: Path, pytester
) -> None:  # type: ignore[no-untyped-def]
    """The baseline is what rescore made of the same cassettes: ref/noisy's failures are known
    failures (xfail) and its (whole run) test passes; ref/oracle~400 scored no case, which the
    gate always fails (as ``diff runs`` does): its (whole run) test fails, its errored cases are
    xfails, its unrecorded ones skips."""
    result = run(
        pytester, "--lobstack-cassettes", "cassettes", "--lobstack-baseline", "reports", "-rfx"
    )
    result.assert_outcomes(passed=41 + 1, xfailed=39 + 2, skipped=78, failed=1)
    assert result.ret == 1
    failed = [line for line in result.stdout.lines if line.startswith("FAILED ")]
    assert len(failed) == 1 and failed[0].startswith(
        "FAILED cassettes/ref_oracle_400::(whole run) - B has no scored"
    )
    assert "B has no scored case (every case errored or is missing)" in result.stdout.lines
    result.stdout.fnmatch_lines(
        [
            "XFAIL*cassettes/ref_noisy::selection-01 - known failure (failed in A and in B): step "
            "1: names differ: *"
        ]
    )


def test_one_flip_at_one_sample_per_case_is_noise_as_diff_runs_says(
    project: Path, pytester
) -> None:  # type: ignore[no-untyped-def]
    """A copy where one case that passed in the baseline fails now: at one sample per case the
    paired test cannot tell one flip from noise, so ``diff runs --fail-on-regression`` passes,
    and so does the plugin (an xfail saying why); a scoring change or a lost case would fail both
    (tests/test_one_verdict.py)."""
    edit_answer(project / "cassettes" / "ref_noisy" / "arguments-03.json", "delete_everything")
    rescore(project, project / "candidate")  # what rescore says of the edited copy
    candidate = results_of(project / "candidate")["ref_noisy"]["results"]
    reason = next(r["reason"] for r in candidate if r["id"] == "arguments-03")
    baseline = results_of(project / "reports")["ref_noisy"]["results"]
    assert next(r["status"] for r in baseline if r["id"] == "arguments-03") == "passed"
    assert "got [delete_everything]" in reason

    args = [
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-baseline",
        "reports",
        "-k",
        "ref_noisy",
        "-rx",
    ]
    result = run(pytester, *args)
    result.assert_outcomes(passed=40 + 1, xfailed=40)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "XFAIL*cassettes/ref_noisy::arguments-03 - passed in A, failed in B; not a regression "
            "by itself: the paired test cannot tell it from noise (p = 1); --lobstack-strict "
            "counts every flip: " + reason.replace("[", "[[]")
        ]
    )
    gate = main(
        [
            "diff",
            "runs",
            str(project / "reports" / "ref_noisy"),
            str(project / "candidate" / "ref_noisy"),
            "--fail-on-regression",
        ]
    )
    assert gate == 0

    # --lobstack-strict is diff runs --strict: the one flip fails both
    strict = run(pytester, *args, "--lobstack-strict", "-rf")
    strict.assert_outcomes(passed=40 + 1, xfailed=39, failed=1)
    assert strict.ret == 1
    assert [line for line in strict.stdout.lines if line.startswith("FAILED ")] == [
        "FAILED cassettes/ref_noisy::arguments-03 - step 1: names differ: expected "
        "[create_issue], got [delete_everything]"
    ]
    assert reason in strict.stdout.lines
    gate = main(
        [
            "diff",
            "runs",
            str(project / "reports" / "ref_noisy"),
            str(project / "candidate" / "ref_noisy"),
            "--fail-on-regression",
            "--strict",
        ]
    )
    assert gate == 1


def test_a_case_that_now_passes_says_how_to_refresh_the_baseline(  # type: ignore[no-untyped-def]
    project: Path,
    pytester,
) -> None:
    """A case that failed in the baseline (with other answers) and passes now passes (a fix), and
    the summary says how to refresh the baseline. The same answers with another verdict would be
    a scoring change, which fails."""
    baseline = project / "reports" / "ref_noisy" / "results.json"
    data = json.loads(baseline.read_text(encoding="utf-8"))
    next(r for r in data["results"] if r["id"] == "arguments-03").update(
        status="failed", reason="step 1: older", steps=[]
    )
    baseline.write_text(json.dumps(data), encoding="utf-8")
    result = run(
        pytester,
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-baseline",
        "reports",
        "-k",
        "ref_noisy",
    )
    result.assert_outcomes(passed=41 + 1, xfailed=39)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "*= lobstack-eval =*",
            "1 case(s) pass now but did not pass in the baseline; refresh it with: "
            "lobstack-eval rescore cassettes --suite evals/suite.json --out reports",
        ]
    )


def test_a_model_in_the_baseline_but_not_in_the_cassettes_fails_as_diff_runs_says(
    project: Path, pytester: pytest.Pytester
) -> None:
    """The baseline has ref/noisy and ref/oracle~400; the cassettes now lack ref/noisy (deleted, or
    never recorded in this checkout). ``diff runs --fail-on-regression`` fails on it ("in A, not
    in B"), so the plugin fails too, with one (whole run) test naming the model; ``-k`` that
    leaves it out leaves it out."""
    shutil.rmtree(project / "cassettes" / "ref_noisy")
    # what the CI's other step sees: no ref_noisy either (exit 1: ref/oracle~400 scored no case)
    assert (
        main(
            [
                "rescore",
                "cassettes",
                "--suite",
                "evals/suite.json",
                "--out",
                "candidate",
                "--no-html",
                "-q",
            ]
        )
        == 1
    )
    gate = main(
        [
            "diff",
            "runs",
            str(project / "reports"),
            str(project / "candidate"),
            "--fail-on-regression",
        ]
    )
    assert gate == 1
    result = run(
        pytester, "--lobstack-cassettes", "cassettes", "--lobstack-baseline", "reports", "-rf"
    )
    assert result.ret == 1
    failed = sorted(line for line in result.stdout.lines if line.startswith("FAILED "))
    assert [line.split(" - ")[0] for line in failed] == [
        "FAILED cassettes/ref_noisy::(whole run)",
        "FAILED cassettes/ref_oracle_400::(whole run)",  # no scored case, as before
    ]
    assert (
        "in A, not in B: the baseline has ref/noisy, and cassettes/ref_noisy holds no recordings; "
        "record them (lobstack-eval record --model ref/noisy --cassettes cassettes), or take the "
        "model out of the baseline"
    ) in result.stdout.lines
    other = run(
        pytester,
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-baseline",
        "reports",
        "-k",
        "ref_oracle",
    )
    assert "ref_noisy" not in other.stdout.str()
    other.assert_outcomes(xfailed=2, skipped=78, failed=1)


def test_a_missing_baseline_names_its_option(project: Path, pytester: pytest.Pytester) -> None:
    """`nosuch: no such file or directory` would not say it is the baseline (or an earlier run)."""
    base = ["--lobstack-cassettes", "cassettes", "--lobstack-baseline"]
    result = run(pytester, *base, "nosuch/", "-q")
    assert "error: --lobstack-baseline nosuch: no such file or directory" in result.stdout.lines
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result = run(pytester, *base, "reports", "--lobstack-history", "old", "-q")
    assert "error: --lobstack-history old: no such file or directory" in result.stdout.lines
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_models_recorded_with_an_older_suite_are_one_line_as_rescore_says(
    pytester: pytest.Pytester,
) -> None:
    """Every committed model was recorded with an older suite version than evals/suite.json: one
    line for them all, the line rescore prints, not one per model."""
    shutil.copytree(ROOT / "cassettes", pytester.path / "cassettes")
    shutil.copytree(ROOT / "evals", pytester.path / "evals")
    recorded = [json.loads(p.read_text(encoding="utf-8"))["suite"]["version"]
                for p in sorted((ROOT / "cassettes").glob("*/run.json"))]  # fmt: skip
    current = json.loads((ROOT / "evals" / "suite.json").read_text(encoding="utf-8"))["version"]
    assert len(recorded) >= 2 and set(recorded) == {"1.1.0"} and current == "1.2.0"
    result = run(pytester, "--lobstack-cassettes", "cassettes", "--collect-only", "-q")
    warnings = [line for line in result.stdout.lines if " recorded with " in line]
    assert warnings == [
        f"warning: {len(recorded)} models were recorded with suite 1.1.0, re-scored with 1.2.0"
    ]  # replay.version_note.version_lines, rescore's: tests/test_rescore.py
    # -k counts only the models it selected: one here, said as rescore says one model
    one = run(pytester, "--lobstack-cassettes", "cassettes", "-q", "-k", "ref_oracle")
    assert [line for line in one.stdout.lines if " recorded with " in line] == [
        "warning: ref_oracle was recorded with lobstack-tool-calling 1.1.0, re-scored with 1.2.0; "
        "results carry both versions"
    ]
    one.assert_outcomes(passed=80, deselected=len(recorded) * 80 - 80)


def test_k_selects_a_case_or_a_model(project: Path, pytester: pytest.Pytester) -> None:
    by_case = run(
        pytester, "--lobstack-cassettes", "cassettes", "--collect-only", "-q", "-k", "arguments-03"
    )
    assert [line for line in by_case.stdout.lines if "::" in line] == [
        "cassettes/ref_noisy::arguments-03",
        "cassettes/ref_oracle_400::arguments-03",
    ]
    by_model = run(
        pytester, "--lobstack-cassettes", "cassettes", "--collect-only", "-q", "-k", "ref_noisy"
    )
    ids = [line for line in by_model.stdout.lines if "::" in line]
    assert len(ids) == 80 and all(i.startswith("cassettes/ref_noisy::") for i in ids)


def test_metric_floors_fail_the_run_with_one_line_per_miss(
    project: Path, pytester: pytest.Pytester
) -> None:
    base = [
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-baseline",
        "reports",
        "-k",
        "ref_noisy",
    ]
    missed = run(
        pytester,
        *base,
        "--lobstack-min",
        "overall=60",
        "--lobstack-min",
        "chains=10",
        "--lobstack-max",
        "made_up_tool=5",
    )
    assert missed.ret == 1
    missed.assert_outcomes(
        passed=41 + 1, xfailed=39
    )  # with the baseline: one (whole run) test per model
    # ref/noisy's committed results.json (Wilson intervals checked by hand): overall 41/80, chains
    # 2/12 (16.7%), made-up tool 8 of 90 calls (8.9%; its interval clustered by case,
    # METHOD.md#clustered-interval-rule).
    lines = [line for line in missed.stdout.lines if line.startswith("ref/noisy:")]
    assert lines == [
        "ref/noisy: overall 51.25% [40.49, 61.89] is below the floor of 60%",
        "ref/noisy: made_up_tool 8.89% [4.51, 16.79] is above the ceiling of 5%",
    ]
    met = run(pytester, *base, "--lobstack-min", "overall=50", "--lobstack-max", "made_up_tool=10")
    assert met.ret == 0
    assert not [
        line for line in met.stdout.lines if "the floor of" in line or "the ceiling of" in line
    ]


def test_a_model_with_nothing_scored_misses_every_floor(
    project: Path, pytester: pytest.Pytester
) -> None:
    result = run(
        pytester,
        "--lobstack-cassettes",
        "cassettes",
        "-k",
        "ref_oracle_400",
        "--lobstack-min",
        "overall=1%",  # a bound of 1% or less says % (a bare 1 looks like a share)
    )
    assert result.ret == 1
    assert (
        "ref/oracle~400: overall has no rate (no scored case), so it cannot meet the floor of 1%"
        in result.stdout.lines
    )


def test_the_fixture_gives_a_test_the_scored_run(project: Path, pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_custom="""
        import json

        import pytest

        def test_noisy(lobstack_results):
            run = lobstack_results("ref/noisy")
            assert run["metrics"]["overall"]["count"] == 41
            assert run is lobstack_results("ref_noisy")  # by slug, scored once
            rate = run["metrics"]["overall"]["rate"]
            assert rate == 51.25 and rate.percent == 51.25 and rate.share == 0.5125
            assert rate > 50 and rate.share > 0.5 and not rate.share > 0.6
            json.dumps(run)  # still the results.json document

        def test_a_share_against_a_percent_is_refused(lobstack_results):
            rate = lobstack_results("ref/noisy")["metrics"]["overall"]["rate"]
            with pytest.raises(TypeError, match=r"rates are in percent .* or use rate.share > 0.6"):
                assert rate > 0.6  # 51.25% is not more than 60%; a plain float would pass

        def test_unknown(lobstack_results):
            lobstack_results("openai/gpt-4o")
        """
    )
    only = "test_noisy or test_unknown or test_a_share"
    result = run(pytester, "--lobstack-cassettes", "cassettes", "-k", only, "-rf")
    result.assert_outcomes(passed=2, failed=1)
    assert "During handling" not in result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "error: no model 'openai/gpt-4o' in */cassettes (models collected: ref/noisy, "
            "ref/oracle~400)"
        ]
    )


def test_without_its_options_the_plugin_changes_nothing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert not [
        line
        for line in result.stdout.lines
        if line.startswith("lobstack:") or "= lobstack-eval =" in line
    ]
    assert result.ret == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lobstack-baseline", "reports"], "--lobstack-baseline needs --lobstack-cassettes DIR"),
        (["--lobstack-cassettes", "c", "--lobstack-min", "overal=90"], "unknown metric 'overal'"),
        (
            ["--lobstack-cassettes", "c", "--lobstack-min", "overall=120"],
            "expected a percentage from 0 to 100",
        ),
        (
            ["--lobstack-cassettes", "c", "--lobstack-min", "made_up_tool=5"],
            "use --lobstack-max made_up_tool=5",
        ),
        (
            ["--lobstack-cassettes", "c", "--lobstack-min", "overall=0.5"],
            "argument --lobstack-min: 'overall=0.5': bounds are in percent and 0.5 looks like a "
            "share: write overall=50 for 50%, or overall=0.5% for 0.5%",
        ),
        (
            ["--lobstack-cassettes", "c", "--lobstack-max", "made_up_tool=1"],
            "argument --lobstack-max: 'made_up_tool=1': bounds are in percent and 1 looks like a "
            "share: write made_up_tool=100 for 100%, or made_up_tool=1% for 1%",
        ),
        (
            ["--lobstack-cassettes", "c", "--lobstack-strict"],
            "--lobstack-strict needs --lobstack-baseline REPORTS",
        ),
        (["--lobstack-strict"], "--lobstack-strict needs --lobstack-cassettes DIR"),
        (
            ["--lobstack-cassettes", "c", "--lobstack-record-mode", "once"],
            "needs --lobstack-model M",
        ),
        (
            ["--lobstack-cassettes", "c", "--lobstack-record-mode", "sometimes"],
            "invalid choice: 'sometimes'",
        ),
        (
            [
                "--lobstack-cassettes",
                "c",
                "--lobstack-record-mode",
                "all",
                "--lobstack-model",
                "m",
                "--lobstack-base-url",
                "ftp://x/v1",
            ],
            "--lobstack-base-url 'ftp://x/v1' is not an http(s) URL",
        ),
    ],
    ids=[
        "baseline-alone",
        "unknown-metric",
        "over-100",
        "wrong-direction",
        "share-min",
        "share-max",
        "strict-alone",
        "strict-no-cassettes",
        "no-model",
        "bad-mode",
        "bad-url",
    ],
    # the missing key is asked for once the plan holds something to record:
    # test_pytest_plugin_record.py
)
def test_bad_usage_stops_before_collecting(
    pytester: pytest.Pytester, args: list[str], message: str
) -> None:
    result = refused(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()


def test_a_missing_cassettes_dir_is_one_collection_error(pytester: pytest.Pytester) -> None:
    (pytester.path / "evals").mkdir()
    shutil.copy(ROOT / "evals" / "suite.json", pytester.path / "evals" / "suite.json")
    result = run(pytester, "--lobstack-cassettes", "nowhere")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert f"error: {pytester.path / 'nowhere'}: no such cassettes directory" in result.stdout.lines
    assert "Traceback" not in result.stdout.str()


def test_a_bad_model_dir_errors_alone(project: Path, pytester: pytest.Pytester) -> None:
    (project / "cassettes" / "ref_noisy" / "run.json").write_text("{not json", encoding="utf-8")
    result = run(
        pytester,
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-baseline",
        "reports",
        "-rE",
        "-vv",
    )
    # ref/oracle~400 is judged alone: its (whole run) test fails (no scored case), as diff
    # runs says.
    result.assert_outcomes(errors=1, xfailed=2, skipped=78, failed=1)
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["ERROR cassettes/ref_noisy::run.json - error: */cassettes/ref_noisy/run.json: *"]
    )


def test_a_newer_suite_version_warns_and_a_baseline_of_the_older_one_is_an_error(
    project: Path, pytester
) -> None:  # type: ignore[no-untyped-def]
    suite_path = project / "evals" / "suite.json"
    suite = json.loads(suite_path.read_text(encoding="utf-8"))
    # The version the cassettes were recorded with (run.json), which a check-only bump leaves behind
    # the suite's.
    recorded = json.loads(
        (project / "cassettes" / "ref_noisy" / "run.json").read_text(encoding="utf-8")
    )["suite"]["version"]
    baseline = json.loads(
        (project / "reports" / "ref_noisy" / "results.json").read_text(encoding="utf-8")
    )
    scored = baseline["suite"]["version"]
    suite["version"] = newer = "9.0.0"
    suite_path.write_text(json.dumps(suite, indent=2), encoding="utf-8")
    plain = run(pytester, "--lobstack-cassettes", "cassettes", "-k", "ref_noisy")
    plain.assert_outcomes(passed=41, failed=39)
    assert (
        f"warning: ref_noisy was recorded with lobstack-tool-calling {recorded}, re-scored with "
        f"{newer}; results carry both versions"
    ) in plain.stdout.lines
    with_baseline = run(
        pytester, "--lobstack-cassettes", "cassettes", "--lobstack-baseline", "reports", "-vv"
    )
    with_baseline.assert_outcomes(
        errors=2
    )  # one per model: neither can be judged against that baseline
    with_baseline.stdout.fnmatch_lines(
        [
            "ERROR cassettes/ref_noisy::run.json - error: the baseline of ref/noisy was scored "
            f"with suite lobstack-tool-calling {scored}, but the suite is lobstack-tool-calling "
            f"{newer}; refresh it with: lobstack-eval rescore cassettes --suite evals/suite.json "
            "--out reports"
        ]
    )


def test_a_model_asked_for_but_never_recorded_is_an_error_not_a_green_run(
    project: Path, pytester
) -> None:  # type: ignore[no-untyped-def]
    result = run(
        pytester, "--lobstack-cassettes", "cassettes", "--lobstack-model", "openai/gpt-4o", "-vv"
    )
    result.assert_outcomes(errors=1)
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            "ERROR cassettes/openai_gpt-4o::run.json - error: */cassettes/openai_gpt-4o: no "
            "recordings of openai/gpt-4o; record them with `lobstack-eval record --model "
            "openai/gpt-4o --cassettes cassettes` or --lobstack-record-mode once"
        ]
    )


def test_a_baseline_of_another_format_version_is_refused(
    project: Path, pytester: pytest.Pytester
) -> None:
    """A baseline results.json with ``"format_version": 99`` is named with its field, as run.json is
    (METHOD decision 118), instead of being read as if this lobstack-eval wrote it."""
    baseline = project / "reports" / "ref_noisy" / "results.json"
    baseline.write_text(
        json.dumps({**results_of(project / "reports")["ref_noisy"], "format_version": 99})
    )
    result = run(
        pytester,
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-baseline",
        "reports",
        "-rE",
        "-vv",
    )
    assert (
        result.ret == pytest.ExitCode.INTERRUPTED
    )  # the baseline is read first: nothing is judged without it
    assert (
        f"error: {baseline}: format_version: 99 is not one this lobstack-eval reads (1); a newer "
        "lobstack-eval wrote it, or it is corrupt"
    ) in result.stdout.lines
    assert "Traceback" not in result.stdout.str()
