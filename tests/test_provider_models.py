"""The stand-in's provider-style models end to end: record through the real recorder, rescore
byte-identically, and the verdict the method requires for each shape; the stand-in refuses what
real providers refuse."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from replay.plan import cases_to_record
from replay.rescore import rescore, rescore_model
from standin.malformed import malformed_shape
from standin.styles import ERROR_400, error_fate
from tests.conftest import MINI_SUITE, ROOT
from tests.gateway_fixtures import answer, chat_body, post

SUITE_PATH = ROOT / "evals" / "suite.json"
SUITE = read_suite(SUITE_PATH)
CHAINS = [c.id for c in SUITE.cases if c.group == "chains"]
MINI = read_suite(MINI_SUITE)
MINI_IDS = [c.id for c in MINI.cases]


def record_models(
    gateway, cassettes: Path, models: list[str], suite: Path, cases: list[str]
) -> None:  # type: ignore[no-untyped-def]
    for model in models:
        record(
            suite,
            model,
            cassettes,
            gateway.url,
            cases,
            RecordSettings(concurrency=1),
            sleep=lambda _s: None,
        )


def refuse_constant(literal: str) -> None:
    raise AssertionError(f"{literal} in an output file")


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_reasoning_and_gemini_style_chains_pass_12_of_12_and_rescore_byte_identically(
    start_gateway,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    gateway = start_gateway(suite=SUITE_PATH)
    cassettes = tmp_path / "cas"
    record_models(gateway, cassettes, ["ref/reasoning", "ref/gemini-style"], SUITE_PATH, CHAINS)
    assert len(CHAINS) == 12
    rescore(cassettes, SUITE_PATH, tmp_path / "a", workers=1, html=False)
    rescore(cassettes, SUITE_PATH, tmp_path / "b", workers=2, html=False)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    for slug in ("ref_reasoning", "ref_gemini-style"):
        results = json.loads((tmp_path / "a" / slug / "results.json").read_text())
        chains = results["metrics"]["chains"]
        assert (chains["count"], chains["of"]) == (12, 12), slug
        assert results["cases"]["errored"] == 0
    # Every follow-up carried the model's own reasoning / signatures back (else the stand-in would
    # have said 400).
    longest = max(SUITE.cases, key=lambda c: len(c.steps) if c.group == "chains" else 0)
    recorded = json.loads((cassettes / "ref_gemini-style" / f"{longest.id}.json").read_text())[
        "interactions"
    ]
    last = json.loads(recorded[-1]["request"]["body"])["messages"]
    echoed = [m for m in last if m["role"] == "assistant"]
    assert len(echoed) == len(longest.steps) - 1
    for message in echoed:
        call = message["tool_calls"][0]
        assert call["extra_content"]["google"]["thought_signature"] and call["id"].startswith(
            "call_"
        )
    results = json.loads((tmp_path / "a" / "ref_gemini-style" / "results.json").read_text())
    ids = [
        c["id"] for r in results["results"] for s in r["steps"] for c in s["response"]["tool_calls"]
    ]
    assert ids and set(ids) == {""}  # results keep what the model sent


def reference_step(  # type: ignore[no-untyped-def]
    gateway,
    case_id: str,
    model: str,
) -> tuple[dict, list[dict]]:
    """The model's first answer to ``case_id`` and the runner's way of sending it back (as the
    recorder does)."""
    from recorder.runner import follow_up
    from scorer import judge_step, parse_completion

    first = post(gateway, chat_body(case_id, model)).json()
    case = MINI.case(case_id)
    response = parse_completion(first)
    verdict = judge_step(case.steps[0], response, case, MINI)
    assert verdict.passed
    return first["choices"][0]["message"], follow_up(case.steps[0], response, verdict, case_id, 0)


def test_reasoning_model_refuses_a_follow_up_without_its_reasoning(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    message, history = reference_step(gateway, "chains-01", "ref/reasoning")
    assert message["reasoning_content"] and message["reasoning_details"][0]["signature"]
    assert post(gateway, chat_body("chains-01", "ref/reasoning", history)).status_code == 200
    rebuilt = {
        k: history[0][k] for k in ("role", "content", "tool_calls")
    }  # what the old runner sent back
    refused = post(gateway, chat_body("chains-01", "ref/reasoning", [rebuilt, *history[1:]]))
    assert refused.status_code == 400 and "reasoning_content" in refused.json()["error"]["message"]
    changed = {**history[0], "reasoning_details": []}
    assert (
        post(gateway, chat_body("chains-01", "ref/reasoning", [changed, *history[1:]])).status_code
        == 400
    )


def test_gemini_style_refuses_lost_signatures_and_empty_ids(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    message, history = reference_step(gateway, "chains-01", "ref/gemini-style")
    assert [c["id"] for c in message["tool_calls"]] == [""] and "content" not in message
    assert post(gateway, chat_body("chains-01", "ref/gemini-style", history)).status_code == 200
    unsigned = json.loads(json.dumps(history))
    del unsigned[0]["tool_calls"][0]["extra_content"]
    refused = post(gateway, chat_body("chains-01", "ref/gemini-style", unsigned))
    assert refused.status_code == 400 and "thought_signature" in refused.json()["error"]["message"]
    as_sent = json.loads(json.dumps(history))
    as_sent[0]["tool_calls"][0]["id"] = as_sent[1]["tool_call_id"] = ""  # what the old runner sent
    refused = post(gateway, chat_body("chains-01", "ref/gemini-style", as_sent))
    assert refused.status_code == 400 and "tool_call_id" in refused.json()["error"]["message"]


def test_stream_true_is_answered_as_sse_chunks(gateway) -> None:  # type: ignore[no-untyped-def]
    streamed = post(gateway, chat_body("no_call-01", "ref/oracle", stream=True))
    assert streamed.status_code == 200
    assert streamed.headers["content-type"] == "text/event-stream"
    frames = [line for line in streamed.text.split("\n") if line.startswith("data: ")]
    assert frames[-1] == "data: [DONE]"
    assert json.loads(frames[0][6:])["object"] == "chat.completion.chunk"
    assert post(gateway, chat_body("no_call-01", "ref/oracle", stream=False)).status_code == 200


def test_answers_carry_what_real_clients_read(gateway) -> None:  # type: ignore[no-untyped-def]
    body = post(gateway, chat_body("arguments-01", "ref/oracle")).json()
    assert body["system_fingerprint"].startswith("fp_")
    choice = body["choices"][0]
    assert (
        choice["index"] == 0 and choice["logprobs"] is None and choice["message"]["refusal"] is None
    )


def test_content_parts_keep_their_text_in_results(  # type: ignore[no-untyped-def]
    gateway,
    tmp_path: Path,
) -> None:
    raw = answer(post(gateway, chat_body("no_call-01", "ref/content-parts")))
    assert isinstance(raw.message["content"], list) and raw.content
    record_models(gateway, tmp_path, ["ref/content-parts"], MINI_SUITE, MINI_IDS)
    results = rescore_model(tmp_path / "ref_content-parts", MINI)
    assert results["metrics"]["overall"]["rate"] == 100.0
    texts = {r["id"]: r["steps"][-1]["response"]["content"] for r in results["results"]}
    assert texts["no_call-01"] == raw.content


def test_errors_inside_a_200_are_retried_or_errored_with_the_providers_words(
    start_gateway, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway(suite=SUITE_PATH)
    record_models(gateway, tmp_path, ["ref/error-in-200"], SUITE_PATH, [c.id for c in SUITE.cases])
    results = rescore_model(tmp_path / "ref_error-in-200", SUITE)
    fates: Counter[str] = Counter()
    for result in results["results"]:
        case = SUITE.case(result["id"])
        steps = [error_fate(0, case.id, s) for s in range(len(case.steps))]
        fates.update(steps)
        # Every step's answer is right once it comes: a case errors only on its first in-body 400.
        expected = []
        for step, fate in enumerate(steps):
            expected += {"retry_502": ["in_body_502", "ok"], "mid_503": ["in_body_503", "ok"]}.get(
                fate, []
            )
            if fate == "error_400":
                assert result["status"] == "errored"
                assert (
                    result["reason"] == f"step {step + 1}: error 400 in a 200 answer: {ERROR_400}"
                )
                assert [a["outcome"] for a in result["attempts"]] == [*expected, "in_body_400"]
                break
            if fate == "normal":
                expected.append("ok")
        else:
            assert (
                result["status"] == "passed"
                and [a["outcome"] for a in result["attempts"]] == expected
            )
    assert all(fates[f] for f in ("retry_502", "mid_503", "error_400", "normal"))


def test_in_body_transport_error_is_recorded_again_by_the_next_record(
    gateway, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    model = "ref/oracle~inbody503,inbody503,inbody503,inbody503"
    record_models(gateway, tmp_path, [model], MINI_SUITE, MINI_IDS[:1])
    entry = read_manifest(next(tmp_path.iterdir())).cases[MINI_IDS[0]]
    assert [a.outcome for a in entry.attempts] == ["in_body_503"] * 4 and entry.errored_by_transport
    assert (
        entry.reason
        == "step 1: error 503 in a 200 answer: Injected fault: error 503 in a 200 (after 4 "
        "attempt(s))"
    )
    assert cases_to_record(tmp_path, model, MINI, MINI_IDS[:1]) == MINI_IDS[:1]


def test_malformed_answers_are_judged_never_errored(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    gateway = start_gateway(suite=SUITE_PATH)
    record_models(gateway, tmp_path, ["ref/malformed"], SUITE_PATH, [c.id for c in SUITE.cases])
    results = rescore_model(tmp_path / "ref_malformed", SUITE)
    assert results["cases"]["errored"] == 0 and results["cases"]["scored"] == len(SUITE.cases)
    expected_prefix = {
        "tool_calls_object": "malformed tool calls: tool_calls is an object, not a list",
        "null_entry": "malformed tool calls: tool_calls[1] is null, not an object",
        "function_string": "malformed tool calls: tool_calls[0].function is a string, not an "
        "object",
        "missing_arguments": ".arguments: not a JSON object",
        "nan_arguments_object": ".arguments: not a JSON object (NaN is not JSON)",
        "nan_arguments_string": ".arguments: not a JSON object (NaN is not JSON)",
        "truncated_length": ".arguments: not a JSON object (the answer was cut off: finish_reason "
        "is length)",
        "deep_arguments": ".arguments: not a JSON object (nested deeper than 100 levels)",
    }
    seen = set()
    for result in results["results"]:
        case = SUITE.case(result["id"])
        if case.steps[0].expect != "call":
            assert result["status"] == "passed"
            continue
        shape = malformed_shape(0, case.id, 0)
        seen.add(shape)
        reason = result["reason"] or ""
        if shape in ("correct", "legacy_function_call") and len(case.steps[0].calls) == 1:
            assert result["steps"][0]["passed"], (case.id, shape, reason)
        elif shape in expected_prefix:
            assert reason.startswith("step 1: ") and expected_prefix[shape] in reason, (
                case.id,
                shape,
                reason,
            )
    assert seen == set(expected_prefix) | {"correct", "legacy_function_call"}


def test_one_poisoned_answer_among_many_models_leaves_every_other_model_scored(
    gateway,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cassettes = tmp_path / "cas"
    models = ["ref/oracle", "ref/reasoning", "ref/gemini-style", "ref/content-parts", "ref/noisy"]
    record_models(gateway, cassettes, models, MINI_SUITE, MINI_IDS)
    # Poison an answer of ref/oracle: NaN arguments sent as an object and a price of 1e400.
    target = cassettes / "ref_oracle" / "arguments-01.json"
    data = json.loads(target.read_text())
    response = data["interactions"][0]["response"]
    body = json.loads(response["body"]["string"])
    body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = {"path": float("nan")}
    response["body"]["string"] = json.dumps(body)
    response["headers"]["x-lobstack-cost-usd"] = ["1e400"]
    target.write_text(json.dumps(data))
    # And make one of ref/noisy's cassettes unreadable: that case alone is not scored.
    broken = cassettes / "ref_noisy" / "chains-01.json"
    broken.write_text("[" * 100_000)
    out = tmp_path / "out"
    assert main(["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out)]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: {broken}: corrupt cassette: not valid JSON (nested more than 200 levels deep)"
    ]
    oracle = json.loads((out / "ref_oracle" / "results.json").read_text())
    by_id = {r["id"]: r for r in oracle["results"]}
    assert (
        by_id["arguments-01"]["reason"]
        == "step 1: read_file.arguments: not a JSON object (NaN is not JSON)"
    )
    assert oracle["cost_usd"] is None and oracle["cases"]["scored"] == len(MINI_IDS)
    for slug in ("ref_reasoning", "ref_gemini-style", "ref_content-parts"):
        assert (
            json.loads((out / slug / "results.json").read_text())["metrics"]["overall"]["rate"]
            == 100.0
        )
    noisy = {
        r["id"]: r for r in json.loads((out / "ref_noisy" / "results.json").read_text())["results"]
    }
    assert (noisy["chains-01"]["status"], noisy["chains-01"]["reason"]) == (
        "unrecorded",
        "ref_noisy/chains-01.json: corrupt cassette: not valid JSON (nested more than 200 levels "
        "deep)",
    )
    assert sum(r["status"] in ("passed", "failed") for r in noisy.values()) == len(MINI_IDS) - 1
    for path in out.rglob("*.json"):  # strict JSON everywhere
        json.loads(path.read_text(), parse_constant=refuse_constant)
    shutil.rmtree(out)


def test_cost_header_names_another_gateways_price_header(
    start_gateway, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """A gateway that renames the price header (LiteLLM's proxy) is priced with --cost-header,
    kept in run.json."""
    litellm = start_gateway(cost_header="x-litellm-response-cost")
    plain = start_gateway()

    def run(gateway, cassettes: str, *options: str) -> int:  # type: ignore[no-untyped-def]
        args = [
            "record",
            "--model",
            "ref/oracle",
            "--suite",
            str(MINI_SUITE),
            "--cassettes",
            str(tmp_path / cassettes),
        ]
        return main([*args, "--base-url", gateway.url, "--concurrency", "1", *options])

    assert run(litellm, "renamed", "--cost-header", "X-LiteLLM-Response-Cost") == 0
    assert run(litellm, "unpriced") == 0
    assert run(plain, "plain") == 0
    renamed, unpriced, priced = (
        rescore_model(tmp_path / d / "ref_oracle", MINI) for d in ("renamed", "unpriced", "plain")
    )
    assert renamed["cost_usd"] == priced["cost_usd"] > 0 and unpriced["cost_usd"] is None
    assert (
        read_manifest(tmp_path / "renamed" / "ref_oracle").cost_header == "x-litellm-response-cost"
    )
    assert (
        json.loads((tmp_path / "plain" / "ref_oracle" / "run.json").read_text())["cost_header"]
        == "x-lobstack-cost-usd"
    )
    capsys.readouterr()
    assert (
        run(litellm, "renamed", "--case", MINI_IDS[0], "--rerecord") == 1
    )  # the default header now: refused
    assert (
        "recorded with --cost-header x-litellm-response-cost, not x-lobstack-cost-usd"
        in capsys.readouterr().err
    )
    assert run(litellm, "other", "--cost-header", "x cost") == 2
    assert (
        capsys.readouterr().err.strip() == "error: --cost-header 'x cost': not an HTTP header name"
    )
