"""record against a hostile stand-in gateway, then rescore: no traceback, every case kept, the
method's verdict.

One row per fault of issue 28's recording side (a model suffix of the stand-in,
``standin.hostile``); each row records three cases, checks the statuses and reasons record gives,
and that rescore of the cassettes gives the same.
"""

from __future__ import annotations

import base64
import json
import time
import urllib.request
from pathlib import Path

import pytest

from recorder.endpoint import Endpoint
from recorder.files import read_suite
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from replay.rescore import rescore_model
from scorer.errors import GatewayError
from standin.hostile import BROKEN_GZIP, LATIN1_PAGE
from tests.conftest import MINI_SUITE, interactions

SUITE = read_suite(MINI_SUITE)
CASES = ["selection-01", "no_call-01", "chains-01"]
# A base64-style key with "/" and "+": a gateway writing "/" as "\/" used to leave 29 of its
# 38 characters.
KEY = "Zm9v/YmFyYmF6+cXV4/MTIzNDU2Nzg5MDEyMzQ"
REDIRECT = "HTTP 307: the gateway redirected to http://127.0.0.1/v1: use it as --base-url"
TOO_LARGE = "the answer is larger than 1 MiB once decoded; raise --max-answer-mb to keep it"
UNDECODED = " (its body did not decode as content-encoding: gzip; kept as received)"
FOUR = lambda kind: ",".join([kind] * 4)  # noqa: E731 - every attempt of every request

# (suffix, {case: (status, reason part)}); None as the case map: every case (status, reason part)
ROWS = {
    "latin1": ("latin1", ("errored", "step 1: HTTP 500")),
    "status-999": ("999", ("errored", "step 1: HTTP 999: Injected fault")),
    "status-600": ("600", ("errored", "step 1: HTTP 600: Injected fault")),
    "redirect": ("redirect", ("errored", f"step 1: {REDIRECT}")),
    "gzip-bomb": (FOUR("gzipbomb"), ("errored", TOO_LARGE)),
    "gzip-bomb-once": ("gzipbomb", ("passed-or-no-call", None)),
    "big-header": (FOUR("bigheader"), ("errored", "more than 100 headers")),
    # Two Content-Length values that disagree: a network error of that case, not the end of the run.
    "two-lengths": (
        FOUR("twolengths"),
        ("errored", "Content-Length contained multiple unmatching values"),
    ),
    "bad-gzip": (FOUR("badgzip"), ("errored", "content-encoding: gzip, but failed to decode it")),
    # An error status whose gzip body is broken: its status is kept (the model's result, errored),
    # with a note that the body did not decode.
    "bad-gzip-500": ("badgzip500", ("errored", f"step 1: HTTP 500{UNDECODED}")),
    # Stacked codings, in two headers (gzip then deflate), and a gzip body of two members: decoded
    # whole, the answer judged.
    "gzip-then-deflate": ("gzip2", ("passed-or-no-call", None)),
    "two-gzip-members": ("multigzip", ("passed-or-no-call", None)),
    # A coding the request did not offer: a network error naming it, never a body left encoded.
    "unknown-coding": (
        FOUR("brcoding"),
        ("errored", "content-encoding: br, which the recorder does not decode"),
    ),
    # Three identical refusals: record stops as futile (an error line), the refusals kept
    # as recorded.
    "echoed-key": ("echo", ("errored", "step 1: HTTP 401: invalid key")),
    "surrogate-reasoning": ("surrogatereasoning", ("passed-or-no-call", None)),
    # A 103 Early Hints before the 200: skipped (RFC 9110 section 15.2), the 200 recorded
    # and judged.
    "early-hints": ("earlyhints", ("passed-or-no-call", None)),
    # An unsolicited 101 Switching Protocols: no HTTP answer follows, so a network error, retried.
    "unsolicited-101": (FOUR("upgrade"), ("errored", "101 Switching Protocols, which no request")),
    "unsolicited-101-once": ("upgrade", ("passed-or-no-call", None)),
    # A UTF-8 byte order mark before the JSON: ignored when parsing (RFC 8259 section 8.1), the
    # bytes kept.
    "bom": ("bom", ("passed-or-no-call", None)),
    # A 5000-digit integer in a field nobody reads: valid JSON, parsed (kept as its text,
    # like 1e400).
    "huge-integer": ("hugeint", ("passed-or-no-call", None)),
}


def _statuses(model_dir: Path) -> dict[str, tuple[str, str | None]]:
    results = rescore_model(model_dir, SUITE)["results"]
    return {r["id"]: (r["status"], r.get("reason")) for r in results if r["id"] in CASES}


@pytest.mark.parametrize("row", list(ROWS), ids=list(ROWS))
def test_a_hostile_answer_is_kept_and_judged_the_same_at_record_and_rescore(
    start_gateway, tmp_path: Path, row: str
) -> None:
    suffix, (status, reason) = ROWS[row]
    gateway = start_gateway()
    started = time.monotonic()
    model, cassettes = f"ref/oracle~{suffix}", tmp_path / "cas"
    args = (MINI_SUITE, model, cassettes, Endpoint(gateway.url, KEY), CASES)
    if row == "echoed-key":
        with pytest.raises(
            GatewayError,
            match=r"refused the first 3 case-runs .* \(step 1: HTTP 401: invalid key\)",
        ):
            record(*args, RecordSettings(concurrency=1, backoff_scale=0.0))
    else:
        record(*args, RecordSettings(concurrency=1, backoff_scale=0.0, max_answer_mb=1))
    assert time.monotonic() - started < 60  # bounded: no loop, no bomb decoded whole
    model_dir = next(cassettes.iterdir())
    manifest = read_manifest(model_dir)
    recorded = {case: (manifest.cases[case].status, manifest.cases[case].reason) for case in CASES}
    for case in CASES:
        got_status, got_reason = recorded[case]
        if status == "passed-or-no-call":
            assert got_status == "passed", (case, got_reason)
        else:
            assert got_status == status and reason in (got_reason or ""), (case, got_reason)
    rescored = _statuses(model_dir)
    assert {c: s for c, (s, _r) in rescored.items()} == {c: s for c, (s, _r) in recorded.items()}
    transport = (
        "gzip-bomb",
        "big-header",
        "two-lengths",
        "bad-gzip",
        "unsolicited-101",
        "unknown-coding",
    )
    if not row.startswith(transport):  # transport errors replay as "replayed from the recording"
        assert rescored == recorded
    files = b"".join(p.read_bytes() for p in (tmp_path / "cas").rglob("*") if p.is_file())
    assert (
        KEY.encode() not in files
        and KEY[:20].encode() not in files
        and KEY[-20:].encode() not in files
    )


def test_an_error_status_whose_body_does_not_decode_keeps_its_status(
    start_gateway, tmp_path: Path
) -> None:
    gateway = start_gateway()
    summary = record(
        MINI_SUITE,
        "ref/oracle~badgzip500",
        tmp_path,
        gateway.url,
        CASES[:1],
        RecordSettings(concurrency=1),
    )
    entry = read_manifest(summary.model_dir).cases[CASES[0]]
    assert [(a.outcome, a.status) for a in entry.attempts] == [("http_500", 500)]  # not retried
    assert entry.status == "errored" and entry.reason == f"step 1: HTTP 500{UNDECODED}"
    assert not entry.errored_by_transport  # the model's result: record does not ask it again
    (stored,) = interactions(summary.model_dir / f"{CASES[0]}.json")
    response = stored["response"]
    assert base64.b64decode(response["body"]["bytes_base64"]) == BROKEN_GZIP  # as received
    headers = {name.lower(): value for name, value in response["headers"].items()}
    assert "content-encoding" not in headers and headers["x-lobstack-undecoded"] == ["gzip"]
    assert headers["content-length"] == [str(len(BROKEN_GZIP))]


def test_a_latin1_error_page_is_stored_byte_for_byte_and_flagged(
    start_gateway, tmp_path: Path
) -> None:
    gateway = start_gateway()
    summary = record(
        MINI_SUITE,
        "ref/oracle~latin1",
        tmp_path,
        gateway.url,
        CASES[:1],
        RecordSettings(concurrency=1),
    )
    response = interactions(summary.model_dir / f"{CASES[0]}.json")[0]["response"]
    assert base64.b64decode(response["body"]["bytes_base64"]) == LATIN1_PAGE
    assert response["body"]["string"] == LATIN1_PAGE.decode("utf-8", "replace")
    assert response["status"]["code"] == 500


@pytest.mark.parametrize("kind", ["gzip2", "multigzip"])
def test_a_decoded_answer_is_stored_as_the_plain_one(
    start_gateway, tmp_path: Path, kind: str
) -> None:
    gateway = start_gateway()
    summary = record(MINI_SUITE, f"ref/oracle~{kind}", tmp_path, gateway.url, CASES[:1])
    stored = interactions(summary.model_dir / f"{CASES[0]}.json")[0]
    # The script codes the first attempt only: the same request again gets the plain answer.
    again = urllib.request.Request(
        f"{gateway.url}/chat/completions",
        stored["request"]["body"].encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(again, timeout=30) as answer:
        assert answer.headers.get("Content-Encoding") is None
        plain = answer.read()
    response = stored["response"]
    assert response["body"] == {"string": plain.decode("utf-8")}
    assert not any(name.lower() == "content-encoding" for name in response["headers"])
    assert response["headers"]["Content-Length"] == [str(len(plain))]


def test_a_redirect_is_asked_once_not_followed(start_gateway, tmp_path: Path) -> None:
    gateway = start_gateway(faults="redirect:1")
    record(
        MINI_SUITE,
        "ref/oracle",
        tmp_path,
        gateway.url,
        CASES,
        RecordSettings(concurrency=1, backoff_scale=0.0),
    )
    assert len(gateway.requests_seen) == len(CASES)


def test_a_lone_surrogate_in_a_call_name_round_trips(start_gateway, tmp_path: Path) -> None:
    gateway = start_gateway()
    summary = record(
        MINI_SUITE,
        "ref/oracle~surrogatename",
        tmp_path,
        gateway.url,
        CASES[:1],
        RecordSettings(concurrency=1),
    )
    entry = read_manifest(summary.model_dir).cases[CASES[0]]
    assert entry.status == "failed" and "create_issue\udfff" in (entry.reason or "")
    assert _statuses(summary.model_dir)[CASES[0]] == ("failed", entry.reason)
    assert not (summary.model_dir / ".partial").exists()
    assert (
        json.loads((summary.model_dir / "run.json").read_bytes())["cases"][CASES[0]]["reason"]
        == entry.reason
    )


def test_a_basic_prefix_in_model_output_is_not_scrubbed(start_gateway, tmp_path: Path) -> None:
    data = json.loads(MINI_SUITE.read_text(encoding="utf-8"))
    case = next(c for c in data["cases"] if c["id"] == "arguments-01")
    call = case["steps"][0]["calls"][0]
    call["args"] = {"path": {"eq": "Basic overview.md"}}
    call["reference"] = {"path": "Basic overview.md"}
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps(data), encoding="utf-8")
    gateway = start_gateway(suite=suite)
    summary = record(
        suite, "ref/oracle", tmp_path / "cas", Endpoint(gateway.url, KEY), ["arguments-01"]
    )
    assert read_manifest(summary.model_dir).cases["arguments-01"].status == "passed"
    assert "Basic overview.md" in (summary.model_dir / "arguments-01.json").read_text(
        encoding="utf-8"
    )
    assert rescore_model(summary.model_dir, read_suite(suite))["results"][1]["status"] == "passed"


# --- What the command line says -------------------------------------------------------------------


def _record_cli(gateway_url: str, cassettes: Path, *extra: str) -> int:
    from lobstack_eval.main import main

    args = [
        "record",
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(cassettes),
        "--base-url",
        gateway_url,
    ]
    return main([*args, *extra])


def test_a_wrong_model_stops_after_three_identical_refusals(
    start_gateway, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway()
    assert _record_cli(gateway.url, tmp_path, "--model", "no-such-model", "--concurrency", "1") == 1
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "HTTP 404: The model `no-such-model` does not exist" in errors[0]
    assert len(gateway.requests_seen) == 3  # of 8 cases
    # the model dir was made by this run and holds only the refusals: removed
    # (docs/decisions/recording.md#a-futile-run-leaves-no-new-dir)
    assert errors[0].endswith("held only these refusals, so it is removed)")
    assert not (tmp_path / "no-such-model").exists()


def test_a_run_without_any_price_says_so(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
    capsys,
) -> None:
    gateway = start_gateway()
    cases = ["--case", "selection-01", "--case", "no_call-01"]
    assert (
        _record_cli(
            gateway.url,
            tmp_path / "a",
            "--model",
            "ref/oracle",
            "--cost-header",
            "x-wrong-name",
            *cases,
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "no answer of this run carried the price header x-wrong-name" in err
    assert "--cost-header" in err and "docs/GATEWAYS.md" in err
    assert _record_cli(gateway.url, tmp_path / "b", "--model", "ref/oracle", *cases) == 0
    assert "price header" not in capsys.readouterr().err
    # A header that is there but holds no price (two values, a negative one, NaN) is said too, never
    # silently "-".
    assert (
        _record_cli(
            gateway.url,
            tmp_path / "c",
            "--model",
            "ref/oracle",
            "--cost-header",
            "content-type",
            *cases,
        )
        == 0
    )
    err = capsys.readouterr().err
    assert (
        "no answer of this run carried a readable price: the header content-type held "
        "'application/json'" in err
    )


def test_a_key_in_the_base_urls_query_is_never_shown(  # type: ignore[no-untyped-def]
    capsys,
) -> None:
    from lobstack_eval.main import main

    for query in (
        "key=sk-abcdefghijklmnop1234",
        "code=AZURE-SECRET-CODE-99",
        "api-key=hunter2hunter2",
    ):
        assert (
            main(["record", "--model", "m", "--base-url", f"https://host.example/v1?{query}"]) == 2
        )
        err = capsys.readouterr().err
        assert err.startswith("error: --base-url 'https://host.example/v1?") and "<redacted>" in err
        assert query.split("=", 1)[1] not in err


def test_a_symlinked_lock_file_is_refused_and_its_target_untouched(
    start_gateway, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "precious.txt"
    target.write_text("do not truncate me\n", encoding="utf-8")
    model_dir = tmp_path / "cas" / "ref_oracle"
    model_dir.mkdir(parents=True)
    (model_dir / ".lock").symlink_to(target)
    gateway = start_gateway()
    assert (
        _record_cli(
            gateway.url, tmp_path / "cas", "--model", "ref/oracle", "--case", "selection-01"
        )
        == 1
    )
    err = capsys.readouterr().err
    assert f"error: {model_dir / '.lock'} is a symlink" in err and "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "do not truncate me\n"
    assert gateway.requests_seen == []


def test_a_latin1_error_page_in_the_worker_pool_stops_nothing(
    start_gateway, tmp_path: Path
) -> None:
    gateway = start_gateway(faults="latin1:0.5")
    everything = [case.id for case in SUITE.cases]
    summary = record(
        MINI_SUITE,
        "ref/oracle",
        tmp_path,
        gateway.url,
        everything,
        RecordSettings(concurrency=3, backoff_scale=0.0),
    )
    cases = read_manifest(summary.model_dir).cases
    assert sorted(cases) == sorted(everything)
    assert {c.status for c in cases.values()} == {"passed", "errored"}
    assert {c.reason for c in cases.values() if c.status == "errored"} <= {
        "step 1: HTTP 500",
        "step 2: HTTP 500",
    }
    assert {r["id"]: r["status"] for r in rescore_model(summary.model_dir, SUITE)["results"]} == {
        case: entry.status for case, entry in cases.items()
    }


def test_a_wrong_model_in_the_worker_pool_asks_no_more_than_its_workers(
    start_gateway, tmp_path: Path
) -> None:
    gateway = start_gateway()
    everything = [case.id for case in SUITE.cases]
    with pytest.raises(GatewayError, match="refused the first 3 case-runs"):
        record(
            MINI_SUITE,
            "no-such-model",
            tmp_path,
            gateway.url,
            everything,
            RecordSettings(concurrency=3, backoff_scale=0.0),
        )
    # Three in flight at once; a freed worker may start one more before the third refusal
    # is counted.
    asked = len(gateway.requests_seen)
    assert 3 <= asked <= 3 + 2 < len(everything)
    assert len(read_manifest(tmp_path / "no-such-model").cases) == asked  # every refusal kept


# --- Huge integers and a byte order mark in what a model sends ------------------------------------

HUGE = "9" * 5000


def test_a_huge_integer_argument_is_judged_with_a_reason_that_says_why() -> None:
    from scorer.arguments import parse_arguments

    for raw in (f'{{"n": {HUGE}}}', f'{{"n": -{HUGE}}}'):
        parsed = parse_arguments(raw)
        assert parsed.value is None and parsed.why == "a number with more than 4300 digits", (
            parsed.why
        )
    assert parse_arguments(f'{{"n": {"9" * 4300}}}').value == {"n": int("9" * 4300)}


def test_a_huge_integer_in_arguments_sent_as_an_object_says_why() -> None:
    from recorder.answer_read import read_body
    from scorer.arguments import parse_arguments

    body = (
        '\ufeff{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c", '
        f'"type": "function", "function": {{"name": "f", "arguments": {{"n": {HUGE}}}}}}}]}}}}]}}'
    ).encode()
    response = read_body(body).response  # the byte order mark is ignored
    assert response is not None
    parsed = parse_arguments(response.tool_calls[0].arguments)
    assert parsed.value is None and parsed.why == "a number with more than 4300 digits"
