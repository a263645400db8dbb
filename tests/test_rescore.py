"""rescore: offline, byte-identical, unrecorded detection and refill, corrupt input named,
plain-vcrpy cassettes."""

from __future__ import annotations

import copy
import json
import shutil
import socket
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from replay.rescore import rescore, rescore_model
from tests.conftest import MINI_SUITE, ROOT, interactions

SUITE = read_suite(MINI_SUITE)
ALL = [case.id for case in SUITE.cases]
MODELS = ("ref/oracle", "ref/noisy", "ref/abstain")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mini suite recorded once for three reference models (module-wide: recording is the
    slow part)."""
    from standin import GatewayConfig, StandInGateway

    cassettes = tmp_path_factory.mktemp("recorded") / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in MODELS:
            record(
                MINI_SUITE,
                model,
                cassettes,
                gateway.url,
                ALL,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
    return cassettes


@pytest.fixture
def cassettes(recorded: Path, tmp_path: Path) -> Path:
    """A private copy of the recordings, free to corrupt."""
    copy_dir = tmp_path / "cassettes"
    shutil.copytree(recorded, copy_dir)
    return copy_dir


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_rescore_twice_is_byte_identical_and_independent_of_the_pool(
    recorded: Path, tmp_path: Path
) -> None:
    rescore(recorded, MINI_SUITE, tmp_path / "a", workers=1)
    rescore(recorded, MINI_SUITE, tmp_path / "b", workers=2)
    a, b = tree_bytes(tmp_path / "a"), tree_bytes(tmp_path / "b")
    assert a == b
    assert {"leaderboard.md", "leaderboard.csv", "index.html", "ref_oracle/results.json"} <= set(a)


def test_rescore_needs_no_network(
    recorded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("rescore tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    rescore(recorded, MINI_SUITE, tmp_path / "out", workers=1)
    oracle = json.loads((tmp_path / "out" / "ref_oracle" / "results.json").read_text())
    assert oracle["metrics"]["overall"]["rate"] == 100.0


def test_cli_prints_the_leaderboard(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["rescore", str(recorded), "--suite", str(MINI_SUITE), "--out", str(tmp_path / "out")])
        == 0
    )
    captured = capsys.readouterr()
    assert "ref/oracle" in captured.out and "Overall" in captured.out
    lines = (tmp_path / "out" / "leaderboard.md").read_text().splitlines()
    rows = [line for line in lines if line.startswith("| ref/")]
    assert [row.split("|")[1].strip() for row in rows] == ["ref/oracle", "ref/noisy", "ref/abstain"]
    assert "wrote " in captured.err


def test_rescore_of_the_committed_models_is_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: the 12 committed models print the leaderboard, the tier legend and one line saying
    where the files are (36 lines at most, in an 80-column terminal); the power table only with
    --power, one row per model. Scored in this process (``--workers 1``): what rescore prints
    comes from this process either way, and the pool's files are the same
    (test_rescore_twice_is_byte_identical_and_independent_of_the_pool; tests/test_golden.py
    rescores these 12 models with the pool); a pool of two here took about 2.3 s of CPU against
    0.5 s in process (its processes import the scorer and polars), and the test waited, twice."""
    monkeypatch.setenv(
        "COLUMNS", "80"
    )  # the acceptance's width; a narrower terminal wraps notes onto more lines
    monkeypatch.chdir(
        tmp_path
    )  # `--out reports` as a user types it: a long temp path would wrap the notes
    out = Path("reports")
    one = ["--workers", "1"]
    assert main(["rescore", str(ROOT / "cassettes"), "--out", str(out), *one]) == 0
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert len(lines) <= 36, len(lines)
    # Suite 1.2.0 changed checks only: the 12 models recorded with 1.1.0 are said in one line,
    # not twelve.
    older = [line for line in lines if "recorded with" in line]
    assert older == ["warning: 12 models were recorded with suite 1.1.0, re-scored with 1.2.0"]
    # It is the first line (after the bundled-suite notice, which the README's command, run where
    # evals/suite.json is, does not print), and the README, where that command is, says it is
    # expected.
    said = [line for line in captured.err.splitlines() if not line.startswith("using the suite ")]
    assert said[0] == older[0]
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"The first command's first line, `{older[0]}`, is expected" in readme
    assert (
        captured.err.splitlines()[-1]
        == f"wrote 18 files to {out}/ (open {out / 'index.html'} in a browser)"
    )
    assert not any("power" in line.lower() or "drop" in line.lower() for line in lines)
    assert max(len(line) for line in captured.out.splitlines()) <= 130  # no 408-character paragraph
    assert (
        main(["rescore", str(ROOT / "cassettes"), "--out", str(out), "--no-html", "--power", *one])
        == 0
    )
    power = capsys.readouterr().out.splitlines()
    table = power[power.index(next(line for line in power if line.startswith("Re-run power"))) :]
    assert len(table) == 2 + 12 + 3  # heading, header, one row per model, three legend lines
    assert max(len(line) for line in table) <= 80
    assert table[2].split() == ["ref/content-parts", "1", "at", "most", "9.7", "about", "2"]


def rescore_with_one_bad_cassette(  # type: ignore[no-untyped-def]
    recorded: Path, cassettes: Path, target: Path, out: Path, capsys
) -> tuple[list[str], dict]:
    """Rescore where one cassette of ref_oracle cannot be used: exit 1 with its error lines,
    ref_oracle written with that case unrecorded (the reason names the file from the cassettes
    dir) and every other case exactly as the untouched recording scores it, every model on the
    leaderboard. Returns the error lines and the bad case."""
    (out / "ref_oracle").mkdir(parents=True)
    (out / "ref_oracle" / "results.json").write_text("{}")  # the old results: replaced, not removed
    # --no-html: the page of a model with an unrecorded case is drawn by
    # test_every_cassette_of_a_model_broken_is_still_one_line_each (all of them) and
    # tests/test_html_report.py; here each broken file drew plots of its own for nothing checked.
    args = ["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out), "--no-html"]
    assert main(args) == 1
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert "removed" not in err and "Traceback" not in err
    for slug in ("ref_noisy", "ref_abstain"):
        assert json.loads((out / slug / "results.json").read_text())["cases"]["total"] == len(ALL)
    written = json.loads((out / "ref_oracle" / "results.json").read_text())
    clean = rescore_model(recorded / "ref_oracle", SUITE)
    bad = {r["id"]: r for r in written["results"]}.pop(target.stem)
    assert [r for r in written["results"] if r["id"] != target.stem] == [
        r for r in clean["results"] if r["id"] != target.stem
    ]
    assert (bad["status"], bad["steps"], bad["attempts"]) == ("unrecorded", [], [])
    assert bad["reason"] == errors[0].removeprefix(
        f"error: {cassettes}/"
    )  # the same line, path from cassettes/
    assert written["cases"] == {
        "total": len(ALL),
        "scored": len(ALL) - 1,
        "errored": 0,
        "unrecorded": 1,
    }
    assert written["metrics"]["overall"] == {
        **clean["metrics"]["overall"],
        "count": len(ALL) - 1,
        "of": len(ALL) - 1,
        "ci": written["metrics"]["overall"]["ci"],
    }
    assert "1 case(s) of ref/oracle need recording: lobstack-eval record --model ref/oracle" in err
    board = (out / "leaderboard.md").read_text()
    assert "ref/noisy" in board and "ref/abstain" in board and "ref/oracle" in board
    return errors, bad


def test_a_corrupt_cassette_leaves_its_case_unrecorded_and_the_model_scored(  # type: ignore[no-untyped-def]
    recorded: Path, cassettes: Path, tmp_path: Path, capsys
) -> None:
    target = cassettes / "ref_oracle" / f"{ALL[0]}.json"
    target.write_text(target.read_text()[:50])
    errors, bad = rescore_with_one_bad_cassette(recorded, cassettes, target, tmp_path / "o", capsys)
    assert errors == [
        f"error: {target}: corrupt cassette: not valid JSON (Expecting value at line 4)"
    ]
    assert (
        bad["reason"]
        == f"ref_oracle/{ALL[0]}.json: corrupt cassette: not valid JSON (Expecting value at line 4)"
    )


def test_wrong_schema_cassette(  # type: ignore[no-untyped-def]
    recorded: Path,
    cassettes: Path,
    tmp_path: Path,
    capsys,
) -> None:
    target = cassettes / "ref_oracle" / f"{ALL[0]}.json"
    target.write_text(json.dumps({"version": 1, "entries": []}))
    errors, _bad = rescore_with_one_bad_cassette(
        recorded, cassettes, target, tmp_path / "o", capsys
    )
    assert len(errors) == 1 and errors[0].startswith(
        f"error: {target}: corrupt cassette: not a vcrpy cassette"
    )


def test_deeply_nested_cassette(  # type: ignore[no-untyped-def]
    recorded: Path,
    cassettes: Path,
    tmp_path: Path,
    capsys,
) -> None:
    target = cassettes / "ref_oracle" / f"{ALL[0]}.json"
    target.write_text("[" * 100_000 + "]" * 100_000)
    errors, _bad = rescore_with_one_bad_cassette(
        recorded, cassettes, target, tmp_path / "o", capsys
    )
    assert errors == [
        f"error: {target}: corrupt cassette: not valid JSON (nested more than 200 levels deep)"
    ]


@pytest.mark.parametrize("change", ["missing", "extra"])
def test_interactions_not_matching_run_json(  # type: ignore[no-untyped-def]
    recorded: Path, cassettes: Path, tmp_path: Path, capsys, change: str
) -> None:
    """One interaction fewer (a chain's last) or one more (the first, twice) than run.json's
    answered attempts."""
    chain = next(c for c in SUITE.cases if len(c.steps) >= 3)
    target = cassettes / "ref_oracle" / f"{chain.id}.json"
    data = json.loads(target.read_text())
    recorded_count = len(data["interactions"])
    if change == "missing":
        data["interactions"].pop()
    else:
        data["interactions"].insert(0, data["interactions"][0])
    target.write_text(json.dumps(data))
    errors, _bad = rescore_with_one_bad_cassette(
        recorded, cassettes, target, tmp_path / "o", capsys
    )
    found = recorded_count + (1 if change == "extra" else -1)
    assert errors == [
        f"error: {target}: {found} interaction(s) recorded, but run.json lists {recorded_count} "
        "answered attempt(s): an interaction is missing or extra"
    ]


def test_every_cassette_of_a_model_broken_is_still_one_line_each(
    cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Nothing usable at all: the model is written with every case unrecorded (no rate), one line
    per file."""
    for case_id in ALL:
        (cassettes / "ref_oracle" / f"{case_id}.json").write_text("{")
    out = tmp_path / "o"
    assert (
        main(["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out), "-q"]) == 1
    )
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error: ")]
    assert errors == [
        f"error: {cassettes}/ref_oracle/{case_id}.json: corrupt cassette: not valid JSON "
        "(Expecting property name enclosed in double quotes at line 1)"
        for case_id in ALL
    ] + [  # and the model as a whole (decision 116)
        f"error: {cassettes}/ref_oracle: no case of model ref/oracle could be scored ({len(ALL)} "
        f"unrecorded); record it: lobstack-eval record --model ref/oracle --cassettes {cassettes} "
        f"--suite {MINI_SUITE} --base-url 'http://127.0.0.1:<port>/v1'"
    ]
    written = json.loads((out / "ref_oracle" / "results.json").read_text())
    assert written["cases"] == {
        "total": len(ALL),
        "scored": 0,
        "errored": 0,
        "unrecorded": len(ALL),
    }
    assert written["metrics"]["overall"]["rate"] is None


def test_manifest_of_another_suite(
    cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = cassettes / "ref_noisy" / "run.json"
    data = json.loads(manifest.read_text())
    data["suite"]["name"] = "someone-elses-suite"
    manifest.write_text(json.dumps(data))
    out = str(tmp_path / "o")
    assert (
        main(["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", out, "--no-html"])
        == 1
    )
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error: ")]
    assert errors == [
        f"error: {manifest}: recorded with suite 'someone-elses-suite', but the suite is "
        "'lobstack-tool-calling-mini'; pass --suite with the file it was recorded with"
    ]
    assert (tmp_path / "o" / "ref_oracle" / "results.json").exists()


def test_no_model_dirs(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "cassettes").mkdir()
    assert (
        main(
            [
                "rescore",
                str(tmp_path / "cassettes"),
                "--suite",
                str(MINI_SUITE),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 1
    )
    assert "no model dirs" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()  # nothing to score: no empty --out dir left behind


def test_one_models_dir_names_the_dir_it_is_in(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys
) -> None:
    """`rescore cassettes/ref_oracle` (a model dir, not the dir of model dirs) used to say 'no model
    dirs ...; record one', though the model was recorded: it now names the dir to give."""
    model_dir = ROOT / "cassettes" / "ref_oracle"
    out = tmp_path / "o"
    assert main(["rescore", str(model_dir), "--suite", str(MINI_SUITE), "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"error: {model_dir}: one model's recordings (it holds a run.json), not a cassettes dir of "
        f"model dirs: name the dir it is in, {ROOT / 'cassettes'}\n"
    )
    assert not out.exists()


def test_missing_cassettes_leave_no_out_dir(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    """A watch job whose record failed rescored a missing run dir: an empty reports dir was left,
    which drift then passed over as if the run had never been."""
    missing, out = tmp_path / "history" / "r05", tmp_path / "reports" / "r05"
    assert main(["rescore", str(missing), "--suite", str(MINI_SUITE), "--out", str(out)]) == 1
    assert capsys.readouterr().err == f"error: {missing}: no such cassettes directory\n"
    assert not out.exists() and not (tmp_path / "reports").exists()
    assert main(["rescore", str(tmp_path / "nope"), "--suite", str(MINI_SUITE)]) == 1
    assert "no such cassettes directory" in capsys.readouterr().err


def new_version(tmp_path: Path) -> tuple[Path, str, str]:
    """Suite 0.2.0: one case added, one case's message changed, one check changed (a minor bump)."""
    doc = json.loads(MINI_SUITE.read_text())
    doc["version"] = "0.2.0"
    added = copy.deepcopy(doc["cases"][0])
    added["id"] = "selection-99"
    added["messages"] = [{"role": "user", "content": added["messages"][0]["content"] + " Thanks!"}]
    doc["cases"].append(added)
    changed = doc["cases"][1]
    changed["messages"][-1]["content"] += " Please."
    path = tmp_path / "suite-0.2.0.json"
    path.write_text(json.dumps(doc, indent=2))
    return path, added["id"], changed["id"]


def test_new_suite_version_marks_unrecorded_and_record_fills_exactly_those(
    cassettes: Path,
    tmp_path: Path,
    start_gateway,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    suite_path, added, changed = new_version(tmp_path)
    out = tmp_path / "out"
    # --no-html: what is checked is results.json and the lines; the page is not read here.
    rescore_args = ["rescore", str(cassettes), "--suite", str(suite_path), "--out", str(out)]
    assert main([*rescore_args, "--no-html"]) == 0
    err = capsys.readouterr().err
    assert "warning: 3 models were recorded with suite 0.1.0, re-scored with 0.2.0\n" in err
    # The hint records into the same dir, with the same suite, at the same (loopback:
    # port-less) gateway.
    assert (
        "2 case(s) of ref/oracle need recording: lobstack-eval record --model ref/oracle "
        f"--cassettes {cassettes} --suite {suite_path} --base-url 'http://127.0.0.1:<port>/v1'\n"
    ) in err
    results = json.loads((out / "ref_oracle" / "results.json").read_text())
    assert (
        results["suite"]["version"] == "0.2.0" and results["recorded_suite"]["version"] == "0.1.0"
    )
    by_id = {r["id"]: r for r in results["results"]}
    assert by_id[added]["status"] == "unrecorded" and by_id[added]["reason"] == "not recorded yet"
    assert by_id[changed]["status"] == "unrecorded"
    assert (
        "step 1: the request differs from the recording (body.messages[1].content:"
        in by_id[changed]["reason"]
    )
    assert (
        results["cases"]["unrecorded"] == 2 and results["metrics"]["overall"]["of"] == len(ALL) - 1
    )

    # The recorder fills exactly those two cases (one request each), nothing else.
    gateway = start_gateway(suite=suite_path)
    manifest = json.loads((cassettes / "ref_oracle" / "run.json").read_text())
    manifest["base_url"] = gateway.url  # the recordings were made on another port of the stand-in
    (cassettes / "ref_oracle" / "run.json").write_text(json.dumps(manifest))
    # Re-point the recorded URIs too, as a user re-recording the same gateway would have them.
    for cassette in (cassettes / "ref_oracle").glob("*-*.json"):
        text = cassette.read_text()
        old = json.loads(text)["interactions"][0]["request"]["uri"].rsplit("/chat/completions", 1)[
            0
        ]
        cassette.write_text(text.replace(old, gateway.url))
    args = [
        "record",
        "--model",
        "ref/oracle",
        "--suite",
        str(suite_path),
        "--cassettes",
        str(cassettes),
        "--base-url",
        gateway.url,
        "--concurrency",
        "1",
    ]
    assert main(args) == 0
    assert "Recording 2 case(s)" in capsys.readouterr().err
    assert len(gateway.requests_seen) == 2
    assert main([*rescore_args, "--no-html"]) == 0
    results = json.loads((out / "ref_oracle" / "results.json").read_text())
    assert results["cases"]["unrecorded"] == 0 and results["metrics"]["overall"]["rate"] == 100.0


def test_check_change_rescored_offline(cassettes: Path, tmp_path: Path) -> None:
    """A changed check re-scores from the same cassettes: the oracle's answer now fails
    that check."""
    doc = json.loads(MINI_SUITE.read_text())
    doc["version"] = "0.2.0"

    def plain_string(case: dict) -> str | None:
        call = case["steps"][0].get("calls", [{}])[0]
        properties = (
            doc["tools"]
            .get(call.get("name"), {})
            .get("function", {})
            .get("parameters", {})
            .get("properties", {})
        )
        for arg in call.get("args", {}):
            schema = properties.get(arg, {})
            if schema.get("type") == "string" and not set(schema) & {
                "enum",
                "pattern",
                "const",
                "maxLength",
            }:
                return arg
        return None

    target = next(c for c in doc["cases"] if c["steps"][0]["expect"] == "call" and plain_string(c))
    call, arg = target["steps"][0]["calls"][0], plain_string(target)
    call["args"][arg] = {"eq": "changed in 0.2.0"}
    call["reference"][arg] = "changed in 0.2.0"
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(doc))
    results = rescore_model(cassettes / "ref_oracle", read_suite(path))
    by_id = {r["id"]: r for r in results["results"]}
    assert by_id[target["id"]]["status"] == "failed"
    assert f'{call["name"]}.{arg}: expected eq "changed in 0.2.0"' in by_id[target["id"]]["reason"]
    assert results["cases"]["unrecorded"] == 0


def test_cassettes_replay_under_plain_vcrpy(recorded: Path) -> None:
    import requests
    import vcr

    from recorder.cassettes import json_body

    plain = vcr.VCR(serializer="json", record_mode="none", match_on=("method", "uri", "json_body"))
    plain.register_matcher("json_body", json_body)
    for case in SUITE.cases:
        cassette = recorded / "ref_oracle" / f"{case.id}.json"
        recorded_interactions = interactions(cassette)
        with plain.use_cassette(str(cassette)):
            for interaction in recorded_interactions:
                request = interaction["request"]
                response = requests.post(
                    request["uri"],
                    data=request["body"].encode(),
                    headers={"Content-Type": "application/json"},
                )
                assert response.status_code == interaction["response"]["status"]["code"]
                assert response.json()["choices"][0]["message"]
