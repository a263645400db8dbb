"""``diff runs --markdown``: the pull-request comment (verdict, deltas with intervals, capped flips,
size bound) and the same summary appended to ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from lobstack_eval.main import main
from replay.diff_runs import METRICS, compare, decide, to_markdown
from replay.diff_runs.markdown import MAX_CHARS
from tests.test_diff_runs import BASE, CAND


def results(model: str, statuses: dict[str, str], reason: str = "wrong") -> dict[str, Any]:
    metric = {"count": 1, "of": 2, "rate": 50.0, "ci": [10.0, 90.0]}
    return {
        "model": model,
        "suite": {"name": "s", "version": "1.0.0", "sha256": "0" * 64},
        "metrics": {name: dict(metric) for name in METRICS},
        "results": [
            {
                "id": cid,
                "status": st,
                "reason": None if st == "passed" else case_reason(cid, reason),
            }
            for cid, st in statuses.items()
        ],
    }


@functools.cache
def case_reason(case_id: str, reason: str) -> str:
    """``case_id: reason``, built once: the size test's 400 models share their 80 cases' reasons
    of 20,000 characters (equal text, as it would be when each model built its own)."""
    return f"{case_id}: {reason}"


def flipped(model: str, count: int, reason: str = "wrong") -> tuple[dict[str, Any], dict[str, Any]]:
    """Model ``model`` in runs A and B, with ``count`` cases that went passed -> failed."""
    ids = [f"case-{i:03d}" for i in range(count)]
    return results(model, dict.fromkeys(ids, "passed")), results(
        model, dict.fromkeys(ids, "failed"), reason
    )


def test_the_comment_has_the_verdict_the_deltas_with_intervals_and_the_flips(
    tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    comment = tmp_path / "comment.md"
    assert main(["diff", "runs", str(BASE), str(CAND), "--markdown", str(comment)]) == 0
    verdict = capsys.readouterr().out.splitlines()[0]
    text = comment.read_text(encoding="utf-8")
    assert verdict == (
        "regression: 3 cases scored in A errored or vanished in B (ref/noisy: arguments-02, "
        "no_call-01; ref/oracle: no_call-01)"
    )
    assert text.startswith("### lobstack-eval: regression\n")
    # The comment escapes markdown: the ids' underscores are written as "\\_".
    assert f"**Verdict:** {verdict.replace('_', chr(92) + '_')}\n" in text
    assert "**Decided by:** errored or vanished\n" in text
    # The flips are noise to the paired test: the gate failed on the lost cases alone, and the
    # comment says so.
    assert (
        "> note: ref/noisy: 2 cases flipped to failed, but with one sample per case the paired test"
        in text
    )
    # tests/fixtures/runs/*/ref_noisy/results.json: Overall 4/6 [30.0, 90.32] in A, 3/6 [18.76,
    # 81.24] in B.
    assert "| Overall | 66.67 [30.00, 90.32] | 50.00 [18.76, 81.24] | -16.67 |" in text
    # Each case once, under its verdict: the lost cases are the regressions; the flips are
    # noise (folded).
    assert (
        "**Regressions (2)**\n\n| Case | Verdict |\n|---|---|\n| arguments-02 | passed in A, "
        "errored in B: " in text
    )
    assert "<details><summary>Worse, not a regression on its own (2)</summary>" in text
    row = (
        "| chains-03 | noise: passed in A, failed in B: step 2: run\\_tests.path: expected eq "
        '"tests/", got "test/" |'
    )
    assert row in text
    assert "1 known failure (failed in A and in B), not listed." in text
    # The paired difference of Overall with its 95% interval (4 paired cases: -1, -1, +1, 0 -> mean
    # -25 points).
    assert (
        "Overall: paired difference B - A -25.00 points \\[-100.00, +100.00\\] (95%, 4 paired "
        "cases)." in text
    )
    assert "McNemar exact p = 1 on 3 discordant pairs" in text
    assert text.endswith("Models only in B: ref/abstain.\n")


def test_flipped_cases_are_capped_with_a_count_of_the_rest() -> None:
    a, b = flipped("m", 40)
    diff = compare({"m": a}, {"m": b})
    text = to_markdown(diff, decide(diff), "a", "b")
    assert "| case-024 |" in text and "| case-025 |" not in text
    assert "| … | and 15 more (see the job log) |" in text


def test_the_comment_never_exceeds_github_size_whatever_the_input() -> None:
    huge = "x" * 20_000
    run_a, run_b = {}, {}
    for i in range(400):
        name = f"model-{i:03d}-{huge}"
        run_a[name], run_b[name] = flipped(name, 80, reason=huge)
    diff = compare(run_a, run_b)
    decision = decide(diff)
    assert len(decision.line) > MAX_CHARS  # the verdict alone would not fit
    text = to_markdown(diff, decision, huge, huge)
    assert len(text) <= MAX_CHARS
    assert "more model(s), left out to stay under GitHub's comment size" in text
    assert "#### model-000-" in text


def test_a_long_listing_gives_way_to_counts_before_models_are_left_out() -> None:
    run_a, run_b = {}, {}
    for i in range(10):
        run_a[f"m{i}"], run_b[f"m{i}"] = flipped(f"m{i}", 80, reason="r" * 230)
    diff = compare(run_a, run_b)
    assert (
        len(to_markdown(diff, decide(diff), "a", "b", limit=10**9)) > MAX_CHARS
    )  # 25 cases each do not fit
    text = to_markdown(diff, decide(diff), "a", "b")
    assert len(text) <= MAX_CHARS
    assert text.count("#### m") == 10  # every model is there, with 5 cases listed each
    assert text.count("| … | and 75 more (see the job log) |") == 10


def test_reasons_cannot_break_the_table_or_inject_html() -> None:
    a, b = flipped("m", 1, reason="a | b <script>alert(1)</script>\n| new row")
    diff = compare({"m": a}, {"m": b})
    text = to_markdown(diff, decide(diff), "a", "b")
    row = next(line for line in text.splitlines() if line.startswith("| case-000 |"))
    escaped = "case-000: a \\| b \\<script\\>alert(1)\\</script\\> \\| new row"
    assert row == f"| case-000 | noise: passed in A, failed in B: {escaped} |"
    assert "<script>" not in text


def test_github_step_summary_gets_the_same_summary_appended(
    tmp_path: Path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    comment = tmp_path / "comment.md"
    code = main(
        [
            "diff",
            "runs",
            str(BASE),
            str(CAND),
            "--fail-on-regression",
            "--strict",
            "--markdown",
            str(comment),
        ]
    )
    assert code == 1  # the gate still decides; the comment and the summary are written first
    assert (
        summary.read_text(encoding="utf-8")
        == "# earlier step\n" + comment.read_text(encoding="utf-8") + "\n"
    )
    assert (
        main(["diff", "runs", str(BASE), str(BASE)]) == 0
    )  # without --markdown: the summary alone
    assert summary.read_text(encoding="utf-8").count("### lobstack-eval: ") == 2
    assert "### lobstack-eval: no regression\n" in summary.read_text(encoding="utf-8")


def test_an_unwritable_step_summary_is_one_warning_and_the_verdict_still_decides(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch, capsys
) -> None:
    # The job summary is the runner's copy, not an output asked for: a warning, then the verdict and
    # its exit code.
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "no" / "such" / "dir" / "summary.md"))
    assert main(["diff", "runs", str(BASE), str(CAND)]) == 0
    captured = capsys.readouterr()
    [warning] = captured.err.splitlines()
    assert (
        warning.startswith("warning: ")
        and "($GITHUB_STEP_SUMMARY): cannot write: No such file" in warning
    )
    assert captured.out.rstrip("\n").splitlines()[0].startswith("regression: ")
    assert main(["diff", "runs", str(BASE), str(CAND), "--fail-on-regression", "--strict"]) == 1
    assert main(["diff", "runs", str(BASE), str(BASE), "--fail-on-regression"]) == 0


def test_every_model_block_lists_metric_rows_in_method_order() -> None:
    a, b = flipped("m", 1)
    diff = compare({"m": a}, {"m": b})
    lines = to_markdown(diff, decide(diff), "a", "b").splitlines()
    rows = [
        line.split(" | ")[0][2:]
        for line in lines
        if line.startswith("| ") and "[10.00, 90.00]" in line
    ]
    assert rows == [
        "Overall",
        "Right tool",
        "Valid args",
        "Made-up tool",
        "Chains",
        "Parallel",
        "No call needed",
    ]
