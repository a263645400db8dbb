"""record's edges: a wall-clock limit per attempt, no key in any file or output, no port in any URI,
no file outside its dir, corrupt cassettes recorded again."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.endpoint import parse_base_url, stored_uri
from recorder.files import read_suite
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from replay.rescore import rescore, rescore_model
from tests.conftest import MINI_SUITE, interactions
from tests.record_helpers import LoopbackServer, cli, record_args, requests_per_case, trickle

SUITE = read_suite(MINI_SUITE)
ALL = [case.id for case in SUITE.cases]
ONE = ALL[0]


def no_sleep(_seconds: float) -> None:
    pass


# --- A wall-clock limit per attempt ---------------------------------------------------------------


@pytest.mark.parametrize("head", [False, True], ids=["body", "headers"])
def test_a_trickling_answer_times_out_and_is_retried_by_the_method(
    tmp_path: Path, head: bool
) -> None:
    """A byte every 20 ms: each read gets one within the per-read timeout, only the whole
    attempt's limit (0.1 s, about five bytes; every attempt waits it out) stops it."""
    with LoopbackServer(lambda handler, n, body: trickle(handler, server.stopping, head)) as server:
        summary = record(
            MINI_SUITE,
            "m",
            tmp_path,
            server.url,
            [ONE],
            RecordSettings(concurrency=1, timeout_s=0.1),
            sleep=no_sleep,
        )
        entry = read_manifest(summary.model_dir).cases[ONE]
        assert [a.outcome for a in entry.attempts] == ["timeout"] * 4  # the first try and 3 retries
        assert entry.status == "errored" and entry.errored_by_transport
        # every attempt reached the server (the manifest holds four, so no fifth can come): a
        # request given up on may be handled after record returns
        assert server.wait_seen(4) == 4
        assert interactions(summary.model_dir / f"{ONE}.json") == []
        assert "no whole answer within 0.1 s" in (entry.reason or "")


def test_worker_processes_enforce_the_limit_too_and_a_retry_that_answers_passes(
    gateway, tmp_path: Path
) -> None:
    """The first attempt of each case trickles; the retry is forwarded to the stand-in
    and answered."""
    import requests

    def answer(handler, number: int, body: bytes) -> None:  # type: ignore[no-untyped-def]
        if body not in first_seen:
            first_seen.add(body)
            trickle(handler, server.stopping)
            return
        real = requests.post(f"{gateway.url}/chat/completions", data=body, timeout=30)
        handler.send_response(real.status_code)
        for name in ("Content-Type", "x-lobstack-cost-usd"):
            handler.send_header(name, real.headers[name])
        handler.send_header("Content-Length", str(len(real.content)))
        handler.end_headers()
        handler.wfile.write(real.content)

    first_seen: set[bytes] = set()
    with LoopbackServer(answer) as server:
        summary = record(
            MINI_SUITE,
            "ref/oracle",
            tmp_path,
            server.url,
            ALL[:3],
            RecordSettings(concurrency=2, timeout_s=0.5, backoff_scale=0.0),
        )
    manifest = read_manifest(summary.model_dir)
    for case_id in ALL[:3]:
        assert [a.outcome for a in manifest.cases[case_id].attempts] == ["timeout", "ok"]
    results = rescore_model(summary.model_dir, SUITE)["results"]
    replayed = {
        r["id"]: [a["outcome"] for a in r["attempts"]] for r in results if r["id"] in ALL[:3]
    }
    assert replayed == {case_id: ["timeout", "ok"] for case_id in ALL[:3]}


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan", "-inf"])
def test_timeout_must_be_a_finite_positive_number(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
    value: str,
) -> None:
    code = main(
        [
            "record",
            "--model",
            "m",
            "--suite",
            str(MINI_SUITE),
            "--cassettes",
            str(tmp_path),
            "--timeout",
            value,
        ]
    )
    assert code == 2
    assert (
        capsys.readouterr().err
        == f"error: --timeout: expected a finite number of seconds > 0, got {value!r}\n"
    )
    assert not any(tmp_path.iterdir())


# --- Keys -----------------------------------------------------------------------------------------

# no sk- prefix, no "Bearer": only the known-value scrub can catch it
KEY = "hunter2-not-shaped-like-a-key-42"
USER, PASSWORD = "alice-the-user", "pw-in-the-url-7781"


def _echo(handler, number: int, body: bytes) -> None:  # type: ignore[no-untyped-def]
    """A gateway that repeats the credentials it got in its error, its headers, and a 200
    answer's text."""
    auth = handler.headers.get("Authorization", "")
    said = f"Invalid API key: {auth} (key {KEY}, password {PASSWORD}, user {USER})"
    if json.loads(body)["messages"][1]["content"] == SUITE.case(ALL[1]).messages[0]["content"]:
        status, text = (
            200,
            json.dumps({"choices": [{"message": {"role": "assistant", "content": said}}]}),
        )
    else:
        # 400, not 401: a refusal (401/403/404) is asked again by the next record (METHOD
        # decision 85).
        status, text = 400, json.dumps({"error": {"message": said}})
    data = text.encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("X-Echo", said)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def test_no_key_or_userinfo_in_any_file_or_output_and_replay_still_matches(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LOBSTACK_API_KEY", KEY)
    secrets = [KEY, PASSWORD, USER, base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()]
    with LoopbackServer(_echo) as server:
        url = server.url.replace("http://", f"http://{USER}:{PASSWORD}@")
        args = [
            "record",
            "--model",
            "m",
            "--suite",
            str(MINI_SUITE),
            "--cassettes",
            str(tmp_path / "cas"),
        ]
        args += ["--base-url", url, "--case", ALL[0], "--case", ALL[1], "--concurrency", "2"]
        assert main(args) == 0
        assert main(args) == 0  # replays what was recorded: nothing is asked again
        assert len(server.seen) == 2
        # The userinfo was sent, as Basic auth (it replaces the Bearer key); the URL itself never
        # held it.
        assert {h["Authorization"] for h, _ in server.seen} == {f"Basic {secrets[3]}"}
    assert (
        main(
            [
                "rescore",
                str(tmp_path / "cas"),
                "--suite",
                str(MINI_SUITE),
                "--out",
                str(tmp_path / "rep"),
            ]
        )
        == 0
    )
    output = capsys.readouterr()
    assert "Nothing to record" in output.err
    assert "Invalid API key: Basic <redacted>" in output.err
    texts = [output.out, output.err] + [
        p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file()
    ]
    for secret in secrets:
        assert not [t for t in texts if secret in t], secret
    manifest = read_manifest(tmp_path / "cas" / "m")
    assert manifest.base_url == "http://127.0.0.1/v1"
    statuses = {
        r["id"]: r["status"] for r in rescore_model(tmp_path / "cas" / "m", SUITE)["results"]
    }
    assert (
        statuses[ALL[0]] == "errored" and statuses[ALL[1]] == "failed"
    )  # replayed, not "unrecorded"


def test_a_bad_base_url_is_refused_without_repeating_its_credentials(  # type: ignore[no-untyped-def]
    capsys,
) -> None:
    assert main(["record", "--model", "m", "--base-url", f"ftp://{USER}:{PASSWORD}@host/v1"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("error: --base-url 'ftp://host/v1' is not an http(s) URL")
        and PASSWORD not in err
    )


def test_userinfo_is_split_off_the_url() -> None:
    endpoint = parse_base_url("https://us%40r:p%3Ass@GateWay.example:443/api/v1/")
    assert (endpoint.url, endpoint.auth) == ("https://gateway.example:443/api/v1", ("us@r", "p:ss"))
    assert endpoint.stored == "https://gateway.example/api/v1"


@pytest.mark.parametrize(
    ("uri", "stored"),
    [
        ("http://127.0.0.1:44123/v1/chat/completions", "http://127.0.0.1/v1/chat/completions"),
        ("http://user:key@localhost:8099/v1", "http://localhost/v1"),
        ("http://[::1]:9/v1", "http://[::1]/v1"),
        ("https://gw.example:443/v1", "https://gw.example/v1"),
        ("https://gw.example:8443/v1", "https://gw.example:8443/v1"),
        ("http://gw.example/v1", "http://gw.example/v1"),
        ("not a url", "not a url"),
    ],
)
def test_stored_uris_keep_no_userinfo_no_default_port_and_no_loopback_port(
    uri: str, stored: str
) -> None:
    assert stored_uri(uri) == stored


# --- Ports ----------------------------------------------------------------------------------------


def _without_timings(path: Path) -> object:
    data = json.loads(path.read_text(encoding="utf-8"))
    for case in data["cases"].values():
        for attempt in case["attempts"]:
            attempt.pop("wall_ms")
    return data


def test_recording_from_another_port_changes_nothing_but_timings(
    start_gateway, tmp_path: Path
) -> None:
    first, second = start_gateway(), start_gateway()
    assert first.url != second.url
    for name, gateway, hash_seed in (
        ("a", first, "1"),
        ("b", second, "2"),
    ):  # processes that order sets apart
        with cli(record_args("ref/noisy", tmp_path / name, gateway.url), tmp_path / f"{name}.log",
                 {"PYTHONHASHSEED": hash_seed}) as run:  # fmt: skip
            assert run.wait() == 0, run.output()
    a, b = tmp_path / "a" / "ref_noisy", tmp_path / "b" / "ref_noisy"
    files = sorted(p.name for p in a.iterdir())
    assert files == sorted(p.name for p in b.iterdir())
    for name in files:
        if name == "run.json":
            assert _without_timings(a / name) == _without_timings(b / name)
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name
    # Resuming on yet another port is the same endpoint: nothing is recorded again.
    third = start_gateway()
    assert (
        main(
            [
                "record",
                "--model",
                "ref/noisy",
                "--suite",
                str(MINI_SUITE),
                "--cassettes",
                str(tmp_path / "a"),
                "--base-url",
                third.url,
            ]
        )
        == 0
    )
    assert third.requests_seen == []


def test_old_recordings_with_a_port_in_their_uris_still_replay(gateway, tmp_path: Path) -> None:
    model_dir = record(
        MINI_SUITE,
        "ref/oracle",
        tmp_path,
        gateway.url,
        ALL,
        RecordSettings(concurrency=1),
        sleep=no_sleep,
    ).model_dir
    expected = rescore_model(model_dir, SUITE)
    port_url = gateway.url  # what recorder versions before this one stored
    for path in model_dir.glob("*.json"):
        text = path.read_text(encoding="utf-8").replace("http://127.0.0.1/v1", port_url)
        path.write_text(text, encoding="utf-8")
    assert port_url in (model_dir / "run.json").read_text(encoding="utf-8")
    assert rescore_model(model_dir, SUITE) == expected
    paid = len(gateway.requests_seen)
    assert (
        main(
            [
                "record",
                "--model",
                "ref/oracle",
                "--suite",
                str(MINI_SUITE),
                "--cassettes",
                str(tmp_path),
                "--base-url",
                gateway.url,
            ]
        )
        == 0
    )
    assert (
        len(gateway.requests_seen) == paid
    )  # every old answer still matches: nothing is paid again


# --- Paths ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["", ".", ".."])
def test_a_model_name_that_is_not_a_folder_is_refused(
    gateway, tmp_path: Path, capsys, model: str
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "a" / "cas"
    cassettes.mkdir(parents=True)
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
    assert capsys.readouterr().err.startswith(f"error: --model {model!r}: not a model name")
    assert [p for p in tmp_path.rglob("*")] == [tmp_path / "a", cassettes]
    assert gateway.requests_seen == []


def _suite_with_id(tmp_path: Path, case_id: str) -> Path:
    data = json.loads(MINI_SUITE.read_text(encoding="utf-8"))
    data["cases"][0]["id"] = case_id
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "case_id", ["../../evil", "a/b", ".hidden", "run", "RUN", "", "x" * 101, "sp ace"]
)
def test_a_case_id_that_is_not_a_file_name_fails_suite_check_and_record(
    gateway, tmp_path: Path, capsys, case_id: str
) -> None:  # type: ignore[no-untyped-def]
    suite = _suite_with_id(tmp_path, case_id)
    assert main(["suite", "check", str(suite)]) == 1
    out = capsys.readouterr()
    assert (f"case {case_id}.id: " if case_id else "cases[0].id: ") in out.out + out.err
    cassettes = tmp_path / "deep" / "er" / "cas"
    assert main(["record", "--model", "m", "--suite", str(suite), "--cassettes", str(cassettes),
                 "--base-url", gateway.url]) == 1  # fmt: skip
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["suite.json"]
    assert gateway.requests_seen == []


def test_case_ids_differing_only_in_letter_case_are_duplicates(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    data = json.loads(MINI_SUITE.read_text(encoding="utf-8"))
    data["cases"][1]["id"] = data["cases"][0]["id"].upper()
    (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["suite", "check", str(tmp_path / "s.json")]) == 1
    assert "case SELECTION-01.id: " in capsys.readouterr().err


def test_no_file_is_written_through_a_link_out_of_its_dir(  # type: ignore[no-untyped-def]
    gateway,
    tmp_path: Path,
    capsys,
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "cas").mkdir()
    (tmp_path / "cas" / "m").symlink_to(outside)
    code = main(
        [
            "record",
            "--model",
            "m",
            "--suite",
            str(MINI_SUITE),
            "--cassettes",
            str(tmp_path / "cas"),
            "--base-url",
            gateway.url,
        ]
    )
    assert code == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {tmp_path / 'cas' / 'm'}: a symbolic link (to {outside}) below "
        f"{tmp_path / 'cas'}; refusing to write through it"
    )
    assert list(outside.iterdir()) == []
    # rescore: a report folder that links elsewhere is refused the same way.
    record(
        MINI_SUITE, "ref/oracle", tmp_path / "ok", gateway.url, [ONE], RecordSettings(concurrency=1)
    )
    (tmp_path / "rep").mkdir()
    (tmp_path / "rep" / "ref_oracle").symlink_to(outside)
    assert (
        main(
            [
                "rescore",
                str(tmp_path / "ok"),
                "--suite",
                str(MINI_SUITE),
                "--out",
                str(tmp_path / "rep"),
            ]
        )
        == 2
    )
    assert "refusing to write through it" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


# --- Corrupt cassettes ----------------------------------------------------------------------------


def _break(path: Path, how: str) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    interaction = data["interactions"][0]
    if how == "request body not JSON":
        interaction["request"]["body"] = "not json"
    elif how == "response body a string":
        interaction["response"]["body"] = "x"
    elif how == "status a string":
        interaction["response"]["status"] = "x"
    elif how == "headers a list":
        interaction["response"]["headers"] = ["x"]
    elif how == "an extra interaction":  # 2 interactions where run.json lists 1 answered attempt
        data["interactions"].append(interaction)
    path.write_text(json.dumps(data) if how != "not JSON" else "{", encoding="utf-8")


@pytest.mark.parametrize(
    "how",
    [
        "request body not JSON",
        "response body a string",
        "status a string",
        "headers a list",
        "an extra interaction",
        "not JSON",
    ],
)
def test_a_corrupt_cassette_is_recorded_again_not_a_traceback(
    gateway, tmp_path: Path, capsys, how: str
) -> None:  # type: ignore[no-untyped-def]
    args = [
        "record",
        "--model",
        "ref/oracle",
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(tmp_path),
        "--base-url",
        gateway.url,
    ]
    assert main(args) == 0
    paid = requests_per_case(gateway.requests_seen, SUITE)
    _break(tmp_path / "ref_oracle" / f"{ONE}.json", how)
    capsys.readouterr()
    assert main(args) == 0
    assert "Recording 1 case(s)" in capsys.readouterr().err
    assert requests_per_case(gateway.requests_seen, SUITE) - paid == {ONE: 1}
    assert rescore_model(tmp_path / "ref_oracle", SUITE)["cases"]["unrecorded"] == 0


def test_rescore_names_a_corrupt_cassette_in_one_line(  # type: ignore[no-untyped-def]
    gateway,
    tmp_path: Path,
    capsys,
) -> None:
    record(
        MINI_SUITE, "ref/oracle", tmp_path / "cas", gateway.url, ALL, RecordSettings(concurrency=1)
    )
    _break(tmp_path / "cas" / "ref_oracle" / f"{ONE}.json", "status a string")
    summary = rescore(tmp_path / "cas", MINI_SUITE, tmp_path / "rep", html=False)
    [bad] = summary.reports[0].unusable
    assert (bad.case_id, bad.repeat, summary.reports[0].error) == (ONE, 1, None)
    assert bad.line().startswith(
        f"{tmp_path}/cas/ref_oracle/{ONE}.json: corrupt cassette: interactions[0].response.status: "
    )
