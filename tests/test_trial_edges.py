"""What a new-user trial found, end to end: credentials hand-edited into run.json, absurd --workers,
a model none of whose cases could be scored, and model names whose folders would be hidden
(decisions 114-117)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE, OLDER_SUITE_NOTE, ROOT

SUITE = ROOT / "evals" / "suite.json"
SECRET = "sk-abcdefghijklmnopqrstuvwxyz123456"


def _copy(tmp_path: Path, *slugs: str) -> Path:
    cassettes = tmp_path / "cas"
    for slug in slugs:
        shutil.copytree(ROOT / "cassettes" / slug, cassettes / slug)
    return cassettes


def _edit_manifest(model_dir: Path, **fields: object) -> None:
    path = model_dir / "run.json"
    path.write_text(
        json.dumps({**json.loads(path.read_text(encoding="utf-8")), **fields}), encoding="utf-8"
    )


def _rescore(cassettes: Path, out: Path, *extra: str) -> list[str]:
    return ["rescore", str(cassettes), "--suite", str(SUITE), "--out", str(out), *extra]


def test_credentials_hand_edited_into_run_json_or_a_cassette_are_never_printed_or_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = _copy(tmp_path, "ref_oracle", "ref_noisy")
    _edit_manifest(cassettes / "ref_oracle", base_url=f"https://user:{SECRET}@host/v1")
    cassette = cassettes / "ref_noisy" / "selection-01.json"
    data = json.loads(cassette.read_text(encoding="utf-8"))
    data["interactions"][0]["request"]["uri"] = (
        f"https://user:{SECRET}@elsewhere/v1/chat/completions"
    )
    cassette.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "reports"
    assert main(_rescore(cassettes, out)) == 1  # ref_oracle: nothing scored (decision 116)
    output = capsys.readouterr()
    texts = {"stdout": output.out, "stderr": output.err}
    texts |= {str(p): p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()}
    assert set(texts) >= {"stdout", "stderr", str(out / "index.html"), str(out / "leaderboard.md")}
    assert [where for where, text in texts.items() if SECRET in text or "user:" in text] == []
    # What is shown instead is the stored URL, so the hint and the reasons still say where it
    # was recorded.
    assert "--base-url https://host/v1" in output.err
    reasons = [
        r["reason"]
        for r in json.loads((out / "ref_oracle" / "results.json").read_text())["results"]
    ]
    assert reasons[0].endswith(
        "(endpoint_uri: https://host/v1/chat/completions != http://127.0.0.1/v1/chat/completions)"
    )
    noisy = json.loads((out / "ref_noisy" / "results.json").read_text())["results"]
    assert (
        "!= https://elsewhere/v1/chat/completions"
        in next(r for r in noisy if r["id"] == "selection-01")["reason"]
    )


def test_a_base_url_that_is_no_api_root_fails_its_model_without_repeating_credentials(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = _copy(tmp_path, "ref_oracle", "ref_noisy")
    _edit_manifest(cassettes / "ref_oracle", base_url=f"ftp://user:{SECRET}@host/v1")
    # --no-html: the lines are checked here; every file written (the page too) is checked for
    # credentials by test_credentials_hand_edited_into_run_json_or_a_cassette_are_never_printed_...
    assert main(_rescore(cassettes, tmp_path / "reports", "--no-html")) == 1
    output = capsys.readouterr()
    expected = (
        f"error: {cassettes / 'ref_oracle' / 'run.json'}: base_url: 'ftp://host/v1' is not "
        "an http(s) URL"
    )
    assert expected in output.err.splitlines()
    assert SECRET not in output.out + output.err
    assert (tmp_path / "reports" / "ref_noisy" / "results.json").is_file()


@pytest.mark.parametrize("workers", ["99999999999999999999", "5000", "3"])
def test_workers_beyond_the_model_dirs_are_capped_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    cassettes = _copy(tmp_path, "ref_oracle", "ref_noisy")
    assert (
        main(_rescore(cassettes, tmp_path / "reports", "--workers", workers, "--no-html", "-q"))
        == 0
    )
    err = capsys.readouterr().err
    used = err.split(f"warning: --workers {workers}: using ", 1)[1].split(" ", 1)[0]
    assert used in ("1", "2")  # two model dirs; one on a one-core machine
    assert (
        json.loads((tmp_path / "reports" / "ref_noisy" / "results.json").read_text())["cases"][
            "scored"
        ]
        == 80
    )


def test_a_model_with_no_scored_case_is_written_but_fails_rescore(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = _copy(tmp_path, "ref_oracle", "ref_noisy")
    _edit_manifest(cassettes / "ref_oracle", model="ref/other")
    out = tmp_path / "reports"
    assert main(_rescore(cassettes, out)) == 1
    err = capsys.readouterr().err.splitlines()
    command = (
        f"lobstack-eval record --model ref/other --cassettes {cassettes} --base-url "
        "'http://127.0.0.1:<port>/v1'"
    )
    assert err[-1] == (
        f"error: {cassettes / 'ref_oracle'}: no case of model ref/other could be scored (80 "
        f"unrecorded); record it: {command}"
    )
    assert not [
        line for line in err if "need recording" in line
    ]  # the error line replaces the hint
    assert (
        json.loads((out / "ref_oracle" / "results.json").read_text())["cases"]["unrecorded"] == 80
    )
    # A model with some unrecorded cases keeps the hint and exit 0.
    shutil.rmtree(cassettes / "ref_oracle")
    (cassettes / "ref_noisy" / "selection-01.json").unlink()
    cases = json.loads((cassettes / "ref_noisy" / "run.json").read_text(encoding="utf-8"))["cases"]
    _edit_manifest(
        cassettes / "ref_noisy", cases={k: v for k, v in cases.items() if k != "selection-01"}
    )
    assert main(_rescore(cassettes, out)) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("1 case(s) of ref/noisy need recording: ")]
    assert not [line for line in err if line.startswith("error:")]


def test_merged_report_shards_fail_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = _copy(tmp_path, "ref_oracle", "ref_noisy")
    _edit_manifest(cassettes / "ref_oracle", model="ref/other")
    for n in (
        1,
        2,
    ):  # a shard sees a slice only: its own error lines are its unusable cassettes, none here
        assert main(_rescore(cassettes, tmp_path / f"s{n}", "--shard", f"{n}/2")) == 0
    merged = tmp_path / "merged"
    code = main(
        [
            "merge",
            str(tmp_path / "s1"),
            str(tmp_path / "s2"),
            "--out",
            str(merged),
            "--suite",
            str(SUITE),
        ]
    )
    assert code == 1
    err = capsys.readouterr().err.splitlines()
    assert (
        err[-1]
        == f"error: {merged / 'ref_oracle'}: no case of model ref/other could be scored (80 "
        "unrecorded)"
    )
    assert (merged / "ref_oracle" / "results.json").is_file() and (merged / "index.html").is_file()


@pytest.mark.parametrize(("model", "slug"), [(".hidden", ".hidden"), ("../evil", ".._evil")])
def test_a_model_whose_folder_would_be_hidden_is_refused_before_any_request(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str, slug: str
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "cas"
    code = main(
        [
            "record",
            "--model",
            model,
            "--suite",
            str(MINI_SUITE),
            "--cassettes",
            str(cassettes),
            "--base-url",
            gateway.url,
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"error: --model {model!r}: its folder would be {slug!r}, a hidden folder"
    )
    assert len(err.splitlines()) == 1
    assert not cassettes.exists() and gateway.requests_seen == []


def test_rescore_says_it_skipped_a_hidden_folder_holding_a_run_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = _copy(tmp_path, "ref_noisy")
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / ".hidden")
    (cassettes / ".git").mkdir()  # a hidden folder without run.json is nobody's business
    assert main(_rescore(cassettes, tmp_path / "reports", "--no-html", "-q")) == 0
    err = capsys.readouterr().err.splitlines()
    warning = (
        f"warning: {cassettes / '.hidden'}: a hidden folder holding run.json is not a model "
        "dir, so it was "
    )
    warning += "skipped"
    assert [
        line for line in err if line.startswith("warning:") and OLDER_SUITE_NOTE not in line
    ] == [warning]
    assert sorted(p.name for p in (tmp_path / "reports").iterdir() if p.is_dir()) == ["ref_noisy"]
