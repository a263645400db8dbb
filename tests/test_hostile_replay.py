"""Hostile recordings and files on the replay side (issue 28): what a model, a gateway or an edited
file holds never crashes, stalls or escapes a rescore; the other models are still scored
and written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE


def _rescore(cassettes: Path, out: Path, *more: str) -> int:
    return main(
        ["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out), "-q", *more]
    )


def _errors(err: str) -> list[str]:
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line.startswith("error:")]


@contextmanager
def _lock_held(target: Path, command: str) -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``target``'s writer lock as ``command``, as a second CI job would;
    killed (its lock dies with it) on the way out."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; from pathlib import Path; from replay.out.lock import out_dir_lock\n"
            f"with out_dir_lock(Path({str(target)!r}), {command!r}):\n    print('held', "
            "flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("repeats", [101, 10000, 10**30])
def test_repeats_beyond_what_record_writes_is_one_error_and_the_others_are_scored(  # type: ignore[no-untyped-def]
    repeats: int, repeat_cassettes: Path, tmp_path: Path, capsys
) -> None:
    cassettes = tmp_path / "cassettes"
    for slug in ("ref_oracle", "ref_first-tool"):
        shutil.copytree(repeat_cassettes / slug, cassettes / slug)
    manifest = cassettes / "ref_first-tool" / "run.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["repeats"] = repeats
    manifest.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    assert _rescore(cassettes, out, "--no-html") == 1
    [line] = _errors(capsys.readouterr().err)
    shown = repr(repeats) if len(repr(repeats)) <= 40 else f"{repr(repeats)[:37]}..."
    assert line == f"error: {manifest}: repeats: expected a whole number from 1 to 100, got {shown}"
    assert (out / "ref_oracle" / "results.json").is_file()
    assert not (out / "ref_first-tool").exists()


LONG = (
    "ref/oracle~#arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/" + "x" * 44
)
WIDE = "ref/oracle~#" + "東" * 70
HOSTILE_MODELS = ("ref/oracle~hostiletext", "ref/oracle~hostile400", LONG, WIDE)


@pytest.fixture(scope="module")
def hostile_cassettes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ref/oracle and the hostile stand-in models of the mini suite, recorded once (read-only:
    copy to edit)."""
    from recorder.record import record
    from recorder.repeats import CaseRun
    from recorder.settings import RecordSettings
    from scorer.suite.file import parse_suite
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    # No chains: a chain sends the answer back, and a lone surrogate in a request is the record
    # side's (item 11).
    cases = parse_suite(MINI_SUITE.read_bytes(), str(MINI_SUITE)).cases
    case_ids = [case.id for case in cases if case.group != "chains"]
    cassettes = tmp_path_factory.mktemp("hostile") / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in ("ref/oracle", *HOSTILE_MODELS):
            runs = [CaseRun(case_id, 1) for case_id in case_ids]
            record(
                MINI_SUITE,
                model,
                cassettes,
                gateway.url,
                runs,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
    return cassettes


def test_the_lone_surrogate_round_trips_through_results_and_every_model_is_written(  # type: ignore[no-untyped-def]
    hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:
    from standin.hostile_text import HOSTILE_TEXT

    out = tmp_path / "out"
    # rescore's default pool on purpose (five model dirs): the fast loop's check that a lone
    # surrogate comes back from a pool worker and every model the pool hands back is written.
    # Every answer of ref/oracle~hostile400 is an error, so that model scores no case: one error
    # line and exit 1 (docs/commands/rescore.md#no-scored-case-fails); every model is still written.
    assert _rescore(hostile_cassettes, out) == 1
    [line] = _errors(capsys.readouterr().err)  # the chains are unrecorded: a hint each, no error
    assert "no case of model ref/oracle~hostile400 could be scored" in line
    slugs = sorted(p.name for p in hostile_cassettes.iterdir())
    assert sorted(p.parent.name for p in out.glob("*/results.json")) == slugs
    text = (out / "ref_oracle_hostiletext" / "results.json").read_text(encoding="utf-8")
    assert "\\udc80" in text  # escaped: the file is UTF-8
    results = json.loads(text)
    contents = [s["response"]["content"] for r in results["results"] for s in r.get("steps", [])]
    assert HOSTILE_TEXT in contents  # exactly as the model wrote it
    oracle = json.loads((out / "ref_oracle" / "results.json").read_text(encoding="utf-8"))
    assert [r["status"] for r in results["results"]] == [r["status"] for r in oracle["results"]]
    assert (
        out / "index.html"
    ).is_file()  # the 125-character and the 70-glyph names laid out in every plot
    page = (out / "index.html").read_text(encoding="utf-8")
    assert LONG in page and ("東" * 70) in page  # the full names are in the page's tables
    (out / "index.html").unlink()
    assert (
        main(["report", str(out), "--suite", str(MINI_SUITE)]) == 0
    )  # report draws the same plots
    assert (out / "index.html").is_file()


# What a model or a gateway can write; each must round-trip through JSON and be shown harmless
# everywhere else.
HOSTILE_STRINGS = {
    "lone-surrogate": "a\udc80b\ud800",
    "nul": "a\x00b",
    "bel-esc-csi": "\x07\x1b[2J\x1b[31mred",
    "osc-title": "\x1b]0;pwned\x07",
    "c1": "\x85\x9b31m\x90",
    "bidi": "\u202etxt.exe\u202c \u2066x\u2069 \u200f",
    "del-and-nonchars": "\x7f\ufffe\uffff",
    "markup": "<b>&amp;</b> ]]> \"'` | *x* # [l](u)",
    "all": "".join(chr(c) for c in range(0x20)) + "".join(chr(c) for c in range(0x7F, 0xA0)),
}
# Nothing that a terminal or a text viewer acts on may be left raw.
ACTED_ON = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


@pytest.mark.parametrize("text", HOSTILE_STRINGS.values(), ids=HOSTILE_STRINGS.keys())
def test_hostile_text_through_every_output(text: str, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from replay.diff_runs.markdown import _text as markdown_text
    from replay.html._env import _ENV, json_block
    from replay.html._plot_model import plain_text
    from replay.junit import _document
    from scorer.json_text import dumps_indented, loads_text
    from scorer.safe_text import for_terminal, utf8

    # JSON files (results.json, run.json, cassettes read back): exactly the same string, and the
    # file is UTF-8.
    written = dumps_indented({"reason": text})
    assert json.loads(written.encode("utf-8")) == {"reason": text} == loads_text(written)
    # Rows: UTF-8, each lone surrogate one U+FFFD, nothing else changed.
    assert utf8(text).encode("utf-8").decode("utf-8") == re.sub("[\ud800-\udfff]", "\ufffd", text)
    # JUnit: well-formed whatever the text, and the text is still there to read (escaped).
    case = ET.Element("testcase", {"name": text})
    ET.SubElement(case, "failure", {"message": text}).text = text
    suite = ET.Element("testsuite", {"name": text})
    suite.append(case)
    document = ET.fromstring(_document([suite]))
    assert document.find("testsuite/testcase/failure").get("message") == for_xml_expected(text)
    # Markdown, the terminal, the HTML page, plot labels: nothing left that a viewer acts on.
    for shown in (markdown_text(text, 500), for_terminal(text), plain_text(text)):
        assert not ACTED_ON.search(shown), repr(shown)
    page = _ENV.from_string("<p>{{ x }}</p>").render(x=text)
    assert not ACTED_ON.search(page) and "<b>" not in page
    block = str(json_block({"x": text}))
    assert json.loads(block) == {"x": text} and "<" not in block
    block.encode("utf-8")


def for_xml_expected(text: str) -> str:
    """What a reader of the JUnit file sees: characters XML 1.0 cannot hold or discourages (and bidi
    controls) as their escape text."""
    return "".join(
        (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        if (ord(c) < 0x20 and c not in "\t\n\r") or ACTED_ON.fullmatch(c) or c in "\ufffe\uffff"
        else c
        for c in text
    )


def test_a_gateways_control_characters_reach_no_output_raw(  # type: ignore[no-untyped-def]
    hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:
    """hostile400: every case errored with HOSTILE_TEXT in its reason; diff runs against a passing
    baseline of the same model lists them in the terminal, --junit and --markdown, each
    well-formed and harmless."""
    import xml.etree.ElementTree as ET

    from standin.hostile_text import HOSTILE_TEXT

    out = tmp_path / "out"
    # In process (--workers 1): what is checked is diff runs' output; the pool's hand-back of the
    # same models is the lone-surrogate test's (docs/decisions/testing.md#subprocesses-and-pools).
    assert (
        _rescore(hostile_cassettes, out, "--no-html", "--workers", "1") == 1
    )  # hostile400 scores no case (one error line)
    capsys.readouterr()
    hostile = json.loads(
        (out / "ref_oracle_hostile400" / "results.json").read_text(encoding="utf-8")
    )
    assert {r["status"] for r in hostile["results"] if r["group"] != "chains"} == {"errored"}
    assert any(HOSTILE_TEXT in (r.get("reason") or "") for r in hostile["results"])  # kept exactly
    base = json.loads((out / "ref_oracle" / "results.json").read_text(encoding="utf-8"))
    base["model"] = hostile["model"]
    (tmp_path / "a" / "x").mkdir(parents=True)
    (tmp_path / "a" / "x" / "results.json").write_text(json.dumps(base), encoding="utf-8")
    junit, markdown = tmp_path / "junit.xml", tmp_path / "summary.md"
    code = main(
        [
            "diff",
            "runs",
            str(tmp_path / "a"),
            str(out / "ref_oracle_hostile400"),
            "--junit",
            str(junit),
            "--markdown",
            str(markdown),
            "--fail-on-regression",
        ]
    )
    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err
    assert "regression" in captured.out.lower()
    for shown in (captured.out, captured.err, markdown.read_text(encoding="utf-8")):
        assert not ACTED_ON.search(shown.replace("\n", "")), repr(ACTED_ON.search(shown))
    assert "\\x1b]0;pwned\\x07" in captured.out  # shown, escaped
    root = ET.parse(junit).getroot()  # well-formed
    messages = [f.get("message") for f in root.iter("error") if "HTTP 400" in f.get("message")]
    assert messages and all("\\x00" in m and "\\udc80" in m and "\\u202e" in m for m in messages), (
        messages
    )


def test_merge_refuses_a_shard_cassette_that_links_out(
    hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    secret = tmp_path / "outside" / "secret.json"
    secret.parent.mkdir()
    secret.write_text('{"not": "a cassette"}', encoding="utf-8")
    shard = tmp_path / "shard"
    shutil.copytree(hostile_cassettes / "ref_oracle", shard / "ref_oracle")
    (shard / "ref_oracle" / "zz-link.json").symlink_to(secret)
    merged = tmp_path / "merged"
    assert main(["merge", str(shard), "--out", str(merged)]) == 2
    [line] = _errors(capsys.readouterr().err)
    assert line == (
        f"error: {shard / 'ref_oracle' / 'zz-link.json'}: a symbolic link (to {secret}); "
        "merge copies only a shard's own files"
    )
    assert not merged.exists() or not any(merged.rglob("*.json"))


def test_rescore_never_deletes_or_writes_through_a_link(
    hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "cassettes"
    shutil.copytree(hostile_cassettes / "ref_oracle", cassettes / "ref_oracle")
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    assert _rescore(cassettes, elsewhere, "--no-html") == 0
    outside = elsewhere / "ref_oracle" / "results.json"
    before = outside.read_bytes()
    out.mkdir()
    (out / "ref_gone").symlink_to(
        elsewhere / "ref_oracle", target_is_directory=True
    )  # stale, and a link
    assert _rescore(cassettes, out, "--no-html") == 0
    assert "removed" not in capsys.readouterr().err
    assert outside.read_bytes() == before  # not deleted through the link
    rows, partitions = tmp_path / "rows", tmp_path / "partitions"
    partitions.mkdir()
    (rows / "cases").mkdir(parents=True)
    (rows / "cases" / "suite_version=0.1.0").symlink_to(partitions, target_is_directory=True)
    assert _rescore(cassettes, tmp_path / "out2", "--no-html", "--rows", str(rows)) == 2
    [line] = _errors(capsys.readouterr().err)
    assert line.startswith(
        f"error: {rows / 'cases' / 'suite_version=0.1.0'}: a symbolic link (to {partitions}); "
    )
    assert list(partitions.iterdir()) == []  # nothing written through the link


@pytest.mark.parametrize("command", ["rescore", "merge", "report"])
def test_one_writer_per_output_dir(
    command: str, hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """A second rescore, merge or report into a dir another run is writing says who holds it and
    writes nothing."""
    cassettes = tmp_path / "cassettes"
    shutil.copytree(hostile_cassettes / "ref_oracle", cassettes / "ref_oracle")
    out = tmp_path / "out"
    assert _rescore(cassettes, out, "--no-html") == 0
    target = {"rescore": out, "merge": tmp_path / "merged", "report": out}[command]
    with _lock_held(target, "rescore") as holder:
        before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != ".lock"}
        capsys.readouterr()
        args = {
            "rescore": [
                "rescore",
                str(cassettes),
                "--suite",
                str(MINI_SUITE),
                "--out",
                str(out),
                "-q",
                "--no-html",
            ],
            "merge": ["merge", str(cassettes), "--out", str(target)],
            "report": ["report", str(out), "--suite", str(MINI_SUITE)],
        }[command]
        assert main(args) == 1
        [line] = _errors(capsys.readouterr().err)
        assert line == (
            f"error: {target} is being written by another run (rescore: pid {holder.pid} on "
            f"{__import__('socket').gethostname()}); wait for it to finish, then run {command} "
            "again"
        )
        assert {
            p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != ".lock"
        } == before
    assert main(args) == 0  # the lock died with its holder
    assert not (target / ".lock").exists()


def test_a_lock_file_that_is_a_link_is_refused_not_followed(
    hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "cassettes"
    shutil.copytree(hostile_cassettes / "ref_oracle", cassettes / "ref_oracle")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / ".lock").symlink_to(victim)
    assert _rescore(cassettes, out, "--no-html") == 1
    [line] = _errors(capsys.readouterr().err)
    assert (
        line
        == f"error: {out / '.lock'}: a symbolic link; remove it (the lock file is never a link)"
    )
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_the_plugin_shows_a_gateways_control_characters_escaped(  # type: ignore[no-untyped-def]
    hostile_cassettes: Path, pytester: pytest.Pytester
) -> None:
    shutil.copytree(
        hostile_cassettes / "ref_oracle_hostile400",
        pytester.path / "cassettes" / "ref_oracle_hostile400",
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-suite",
        str(MINI_SUITE),
        "-rE",
        timeout=120,
    )
    text = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in text and "errors" in result.stdout.lines[-1]
    assert "\\x1b]0;pwned\\x07" in text  # the reason, shown escaped
    assert "\x1b]0;" not in text and "\x00" not in text and "\u202e" not in text


def test_suite_check_refuses_a_pattern_only_a_backtracking_engine_can_run(
    tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    suite = tmp_path / "suite.json"
    email = "^[^@ ]+@[^@ ]+$"
    text = MINI_SUITE.read_text(encoding="utf-8")
    assert json.dumps(email) in text
    suite.write_text(
        text.replace(json.dumps(email), json.dumps(r"^([^@ ]+)@\1$")), encoding="utf-8"
    )
    assert main(["suite", "check", str(suite)]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    assert (
        f"{suite}: tools.send_email.function.parameters.properties.to.items.pattern: '^([^@ "
        "]+)@\\\\1$' does not compile: the linear-time engine (RE2) cannot run it: invalid escape "
        "sequence: \\1"
    ) in out.out + out.err


@pytest.mark.parametrize("command", ["rescore", "merge"])
def test_one_writer_per_rows_dir(
    command: str, hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """A rescore or merge appending to a --rows dir another run is writing says who holds it; no
    row is written."""
    import socket

    cassettes = tmp_path / "cassettes"
    shutil.copytree(hostile_cassettes / "ref_oracle", cassettes / "ref_oracle")
    reports, rows = tmp_path / "reports", tmp_path / "rows"
    assert _rescore(cassettes, reports, "--no-html") == 0
    with _lock_held(rows, "rescore --rows") as holder:  # another process appends to the rows
        capsys.readouterr()
        args = {
            "rescore": ["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out",
                        str(tmp_path / "out2"), "-q", "--no-html", "--rows", str(rows)],
            "merge": ["merge", str(reports), "--out", str(tmp_path / "merged"), "--no-html",
                      "--rows", str(rows)],
        }[command]  # fmt: skip
        assert main(args) == 1
        [line] = _errors(capsys.readouterr().err)
        assert line == (
            f"error: {rows} is being written by another run (rescore --rows: pid {holder.pid} on "
            f"{socket.gethostname()}); wait for it to finish, then run {command} --rows again"
        )
        assert [p.name for p in rows.iterdir()] == [".lock"]  # the holder's lock only: no partition
