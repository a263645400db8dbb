"""A gateway that refuses the request (HTTP 401, 403, 404: the key, the access, the model name) has
not given the model's answer: `record` says so in one error line, exits 1, and the next `record`
asks again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE, ROOT
from tests.record_helpers import record_args


def _record(url: str, model: str, cassettes: Path) -> int:
    return main(["record", *record_args(model, cassettes, url, "--concurrency", "1")])


def test_an_unknown_model_is_one_error_and_is_asked_again(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model dir was there before the run (even empty): the refusals are kept in it."""
    cassettes = tmp_path / "cas"
    (cassettes / "ref_orcale").mkdir(parents=True)
    assert _record(gateway.url, "ref/orcale", cassettes) == 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    cases = len(json.loads(MINI_SUITE.read_text())["cases"])
    # The first three answers were the same refusal: the other cases are not asked
    # (METHOD.md#stop-when-futile).
    assert last.startswith(
        "error: the gateway refused the first 3 case-runs for ref/orcale the same way (step 1: "
    )
    assert "HTTP 404" in last and last.endswith(
        "(the refusals are kept as recorded; the same command records them again)"
    )
    asked = len(gateway.requests_seen)
    assert asked == 3 < cases
    manifest = json.loads((cassettes / "ref_orcale" / "run.json").read_text())
    assert len(manifest["cases"]) == 3
    assert (
        _record(gateway.url, "ref/orcale", cassettes) == 1
    )  # recorded again, not "nothing to record"
    assert len(gateway.requests_seen) == 2 * asked


def test_a_mistyped_model_leaves_no_dir_behind(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model dir the futile run made itself, holding only its refusals, is removed
    (docs/decisions/recording.md#a-futile-run-leaves-no-new-dir): the next rescore of the
    cassettes dir does not fail on it. Another model's dir and the cassettes dir stay."""
    cassettes = tmp_path / "cas"
    other = cassettes / "other_model"
    other.mkdir(parents=True)
    (other / "notes.txt").write_text("kept\n", encoding="utf-8")
    assert _record(gateway.url, "ref/orcale", cassettes) == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("error: the gateway refused the first 3 case-runs for ref/orcale")
    assert last.endswith(
        f"({cassettes / 'ref_orcale'} was made by this run and held only these refusals, so it "
        "is removed)"
    )
    assert len(gateway.requests_seen) == 3
    assert sorted(p.name for p in cassettes.iterdir()) == ["other_model"]
    assert (other / "notes.txt").read_text(encoding="utf-8") == "kept\n"
    # the same typo again: asked again from scratch, removed again
    assert _record(gateway.url, "ref/orcale", cassettes) == 1
    assert len(gateway.requests_seen) == 6
    assert sorted(p.name for p in cassettes.iterdir()) == ["other_model"]


def test_a_futile_run_removes_the_folders_it_made_and_never_a_foreign_file(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--cassettes new/deeper: both folders were made by the run and are removed; a folder that
    was there before (tmp_path) stays."""
    assert _record(gateway.url, "ref/orcale", tmp_path / "new" / "deeper") == 1
    assert "so it is removed" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_base_url_without_v1_is_one_error_naming_it(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--base-url http://127.0.0.1:PORT` (no /v1): every request is a 404 on an unknown URL; the
    line that stops the run names --base-url, where it used to say only the key and --model."""
    assert gateway.url.endswith("/v1")
    assert _record(gateway.url.removesuffix("/v1"), "ref/oracle", tmp_path / "cas") == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("error: the gateway refused the first 3 case-runs for ref/oracle")
    assert "HTTP 404" in last
    assert "Check the key, --model and --base-url (an OpenAI-style one usually ends in /v1)" in last
    assert len(gateway.requests_seen) == 3


def test_a_400_is_the_models_answer_and_is_kept(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only refusals are asked again: another error status is the model's result (the method
    page), kept."""
    cassettes = tmp_path / "cas"
    assert _record(gateway.url, "ref/oracle~400", cassettes) == 0
    asked = len(gateway.requests_seen)
    capsys.readouterr()
    assert _record(gateway.url, "ref/oracle~400", cassettes) == 0
    assert len(gateway.requests_seen) == asked
    assert "Nothing to record" in capsys.readouterr().err


def _rescore(cassettes: Path, out: Path, *extra: str) -> int:
    return main(
        [
            "rescore",
            str(cassettes),
            "--suite",
            str(MINI_SUITE),
            "--out",
            str(out),
            "--no-html",
            "-q",
            *extra,
        ]
    )


def test_a_model_dir_of_refusals_fails_rescore_and_merge(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What `record --model <typo>` leaves in a model dir that was there before (the first 3 cases
    an HTTP 404, then record stops) scores no case: rescore and merge of report shards each end
    with one error line and exit 1 (docs/commands/rescore.md#no-scored-case-fails), as
    docs/errors.md says."""
    cassettes = tmp_path / "cas"
    (cassettes / "ref_orcale").mkdir(parents=True)  # there before: the refusals are kept in it
    assert _record(gateway.url, "ref/orcale", cassettes) == 1
    cases = len(json.loads(MINI_SUITE.read_text())["cases"])
    capsys.readouterr()
    assert _rescore(cassettes, tmp_path / "reports") == 1
    err = capsys.readouterr().err.strip().splitlines()
    command = (
        f"lobstack-eval record --model ref/orcale --cassettes {cassettes} --suite {MINI_SUITE} "
        "--base-url 'http://127.0.0.1:<port>/v1'"
    )
    counts = f"3 errored, {cases - 3} unrecorded"  # record stopped after 3 identical refusals
    line = (
        f"error: {cassettes / 'ref_orcale'}: no case of model ref/orcale could be scored ({counts})"
    )
    # Every attempt refused, none answered: the name may be a typo, so deleting the dir is a fix.
    typo = (
        "; the gateway refused every attempt (HTTP 401/403/404), none was answered: if ref/orcale "
        f"is a typo, delete {cassettes / 'ref_orcale'}, else record it: {command}"
    )
    assert [e for e in err if e.startswith("error:")] == [f"{line}{typo}"]
    # docs/errors.md gives this line word for word (with 80 cases, the placeholders filled in).
    readme = " ".join((ROOT / "docs" / "errors.md").read_text(encoding="utf-8").split())
    said = (
        "`error: <model dir>: no case of model X could be scored (3 errored, 77 unrecorded); "
        "the gateway refused every attempt (HTTP 401/403/404), none was answered: if X is a typo, "
        "delete <model dir>, else record it: lobstack-eval record ...`"
    )
    assert said in readme
    filled = (
        said.strip("`")
        .replace("<model dir>", str(cassettes / "ref_orcale"))
        .replace("X", "ref/orcale")
    )
    assert f"{line}{typo}" == filled.replace("(3 errored, 77 unrecorded)", f"({counts})").replace(
        "record ...", command.removeprefix("lobstack-eval ")
    )
    for n in (1, 2):
        assert _rescore(cassettes, tmp_path / f"s{n}", "--shard", f"{n}/2") == 0
    merged = tmp_path / "merged"
    assert (
        main(
            ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(merged), "--no-html"]
        )
        == 1
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert [e for e in err if e.startswith("error:")] == [
        f"error: {merged / 'ref_orcale'}: no case of model ref/orcale could be scored ({counts})"
    ]


def test_a_model_whose_every_answer_is_an_error_fails_rescore_without_a_record_command(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An HTTP 400 is the model's answer, kept (record would not ask again), so the line offers
    no command."""
    cassettes = tmp_path / "cas"
    assert _record(gateway.url, "ref/oracle~400", cassettes) == 0
    capsys.readouterr()
    assert _rescore(cassettes, tmp_path / "reports") == 1
    err = capsys.readouterr().err.strip().splitlines()
    cases = len(json.loads(MINI_SUITE.read_text())["cases"])
    assert [e for e in err if e.startswith("error:")] == [
        f"error: {cassettes / 'ref_oracle_400'}: no case of model ref/oracle~400 could be scored "
        f"({cases} errored)"
    ]


def test_only_a_dir_of_refusals_alone_is_called_a_possible_typo() -> None:
    """The typo hint needs every attempt refused and none answered: one answer (a 200, a 400) or
    a transport error among the refusals, or no attempt at all, is no typo's dir."""
    from replay.hints import only_refused

    def doc(*outcomes: str) -> dict[str, object]:
        attempts = [{"outcome": outcome} for outcome in outcomes]
        return {"results": [{"status": "errored", "attempts": attempts}]}

    assert only_refused(doc("http_404", "http_401", "http_403"))
    for outcomes in (("http_404", "ok"), ("http_404", "http_400"), ("http_404", "timeout"), ()):
        assert not only_refused(doc(*outcomes)), outcomes
    repeated = {"results": [{"runs": [{"attempts": [{"outcome": "http_404"}]}, {"attempts": []}]}]}
    assert only_refused(repeated)  # an unrecorded repeat holds no attempt, so no answer
