"""The stand-in gateway over real HTTP on 127.0.0.1 port 0: shape, reference models, faults, CLI."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import requests

from lobstack_eval.main import main
from scorer import check_suite
from scorer.errors import SuiteError, UsageError
from standin import (
    COST_HEADER,
    DROPPED_HEADER,
    FaultRule,
    GatewayConfig,
    StandInGateway,
    parse_faults,
)
from standin.dispatch import CHAT_PATH, Answer, Dispatcher, Hangup
from standin.models import noisy_behaviour
from standin.suite_follow import SuiteFollower
from tests.conftest import FIXTURES
from tests.gateway_fixtures import (
    CASES,
    MINI_SUITE,
    SUITE_JSON,
    answer,
    chat_body,
    every_step,
    post,
    reference_history,
    step_passes,
    verdict,
)

SECRET = "sk-test-very-secret-0123456789"


def gateway_with(**options: Any) -> StandInGateway:
    return StandInGateway(GatewayConfig(suite_path=MINI_SUITE, **options))


def step_body(case_id: str, step: int, model: str) -> dict[str, Any]:
    return chat_body(case_id, model, reference_history(case_id, step))


# --- the fixture suite ----------------------------------------------------------------------------


def test_mini_suite_is_valid_and_covers_what_the_tests_need() -> None:
    """The scorer's own suite check finds no problem; every group, a 3-step chain ending `none`,
    2-call parallel."""
    report = check_suite(MINI_SUITE.read_bytes(), str(MINI_SUITE))
    assert report.problems == ()
    assert all(count >= 1 for count in report.group_counts.values())
    shapes = {c["id"]: [s["expect"] for s in c["steps"]] for c in SUITE_JSON["cases"]}
    assert ["call", "call", "none"] in shapes.values()
    assert any(len(s.get("calls", [])) == 2 for c in SUITE_JSON["cases"] for s in c["steps"])
    schemas = [t["function"]["parameters"] for t in SUITE_JSON["tools"].values()]
    assert len(schemas) >= 6 and all(s["additionalProperties"] is False for s in schemas)


# --- shape, determinism, headers ------------------------------------------------------------------


def test_answer_has_the_openai_shape_and_never_echoes_the_key() -> None:
    """id, object, created, model, choices[0].message.tool_calls, finish_reason, usage; no
    Authorization back."""
    with gateway_with() as gw:
        response = post(
            gw,
            chat_body("arguments-01", "ref/oracle"),
            headers={"Authorization": f"Bearer {SECRET}"},
        )
    assert response.status_code == 200
    body = response.json()
    assert body["id"].startswith("chatcmpl-")
    assert (body["object"], body["created"], body["model"]) == (
        "chat.completion",
        1792540800,
        "ref/oracle",
    )
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    message = choice["message"]
    assert message["role"] == "assistant" and message["content"] is None
    [call] = message["tool_calls"]
    assert call["type"] == "function" and call["id"].startswith("call_")
    assert call["function"]["name"] == "read_file"
    assert isinstance(call["function"]["arguments"], str)
    assert json.loads(call["function"]["arguments"]) == {
        "path": "src/app.py",
        "start_line": 10,
        "end_line": 20,
    }
    usage = body["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert SECRET not in response.text and all(SECRET not in v for v in response.headers.values())
    assert "authorization" not in {k.lower() for k in response.headers}


def test_same_request_gives_the_same_bytes_on_two_servers() -> None:
    """Fixed created, id from the request, usage from sizes: byte-identical answers and headers."""
    body = step_body("chains-01", 1, "ref/oracle")
    with gateway_with() as a, gateway_with() as b:
        first, again, other = post(a, body), post(a, body), post(b, body)
    assert first.content == again.content == other.content
    assert dict(first.headers) == dict(again.headers) == dict(other.headers)
    different = step_body("chains-01", 0, "ref/oracle")
    with gateway_with() as gw:
        assert post(gw, different).json()["id"] != first.json()["id"]


def test_usage_and_cost_follow_the_sizes_and_the_price_table() -> None:
    """prompt tokens = len(canonical request JSON)//4; ref/oracle costs $2.5 / $10 per
    million tokens."""
    body = chat_body("selection-01", "ref/oracle")
    with gateway_with() as gw:
        response = post(gw, body)
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    usage = response.json()["usage"]
    assert usage["prompt_tokens"] == len(canonical) // 4
    expected = (usage["prompt_tokens"] * 2.5 + usage["completion_tokens"] * 10.0) / 1e6
    header = response.headers[COST_HEADER]
    assert "e" not in header and float(header) == pytest.approx(expected, abs=1e-10)


def test_cost_header_is_on_every_answer_including_errors(  # type: ignore[no-untyped-def]
    start_gateway,
) -> None:
    """200s carry a positive cost; every error and fault answer carries 0.0."""
    gw = start_gateway()
    ok = post(gw, chat_body("no_call-01", "ref/abstain"))
    assert float(ok.headers[COST_HEADER]) > 0
    errors = [
        post(gw, b"{not json"),
        post(gw, {"messages": [{"role": "user", "content": "hi"}]}),
        post(gw, chat_body("no_call-01", "nobody/none")),
        post(gw, chat_body("no_call-01", "ref/oracle~429")),
        post(gw, chat_body("no_call-01", "ref/oracle~garbage")),
        post(gw, chat_body("no_call-01", "ref/oracle~empty")),
        requests.get(gw.url + "/no/such/route", timeout=10),
    ]
    assert [r.status_code for r in errors] == [400, 400, 404, 429, 200, 200, 404]
    assert [r.headers[COST_HEADER] for r in errors] == ["0.0"] * len(errors)
    assert requests.get(gw.url + "/models", timeout=10).headers[COST_HEADER] == "0.0"


def test_dropped_params_header_only_for_the_model_that_drops_temperature(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    """ref/no-temperature says it dropped temperature (when sent) and otherwise answers like
    the oracle."""
    dropped = post(gateway, chat_body("arguments-01", "ref/no-temperature"))
    assert dropped.headers[DROPPED_HEADER] == "temperature"
    assert dropped.json()["model"] == "ref/no-temperature"
    assert step_passes("arguments-01", 0, dropped)
    without = chat_body("arguments-01", "ref/no-temperature")
    del without["temperature"]
    assert DROPPED_HEADER not in post(gateway, without).headers
    assert DROPPED_HEADER not in post(gateway, chat_body("arguments-01", "ref/oracle")).headers


def test_models_route_lists_every_reference_model_and_auto(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    body = requests.get(gateway.url + "/models", timeout=10).json()
    names = [m["id"] for m in body["data"]]
    expected = [
        "ref/oracle",
        "ref/abstain",
        "ref/first-tool",
        "ref/noisy",
        "ref/flaky",
        "ref/no-temperature",
    ]
    expected += ["ref/xss", "ref/drifting"]
    expected += [
        "ref/reasoning",
        "ref/gemini-style",
        "ref/content-parts",
        "ref/error-in-200",
        "ref/malformed",
    ]
    expected += ["ref/openrouter-style", "ref/text-calls", "ref/oracle-mini", "ref/mini-worse"]
    expected += ["auto"]
    assert body["object"] == "list" and sorted(names) == sorted(expected)


# --- request errors -------------------------------------------------------------------------------


def test_bad_requests_get_openai_error_bodies(gateway) -> None:  # type: ignore[no-untyped-def]
    """400 bad JSON / missing model / missing messages, 404 unknown model (model_not_found) and
    unknown route."""
    no_messages = chat_body("no_call-01", "ref/oracle")
    del no_messages["messages"]
    cases = [
        (post(gateway, b'{"model": "ref/oracle",'), 400, None, None),
        (post(gateway, {"messages": [{"role": "user", "content": "hi"}]}), 400, "model", None),
        (post(gateway, no_messages), 400, "messages", None),
        (post(gateway, chat_body("no_call-01", "openai/gpt-4o")), 404, "model", "model_not_found"),
        (
            post(gateway, chat_body("no_call-01", "ref/oracle~bogus")),
            404,
            "model",
            "model_not_found",
        ),
        (
            requests.post(gateway.url + "/completions", json={}, timeout=10),
            404,
            None,
            "unknown_url",
        ),
    ]
    for response, status, param, code in cases:
        assert response.status_code == status
        error = response.json()["error"]
        assert set(error) == {"message", "type", "param", "code"}
        assert error["message"] and (error["param"], error["code"]) == (param, code)
    assert "openai/gpt-4o" in cases[3][0].json()["error"]["message"]


def test_unknown_conversation_gets_plain_text(gateway) -> None:  # type: ignore[no-untyped-def]
    """A system prompt that is not the suite's: text, never a crash."""
    body = chat_body("arguments-01", "ref/oracle")
    body["messages"][0]["content"] = "You are someone else."
    response = post(gateway, body)
    assert response.status_code == 200
    assert (
        answer(response).tool_calls == () and answer(response).content == "I can't help with that."
    )


def test_requests_seen_counts_every_request(gateway) -> None:  # type: ignore[no-untyped-def]
    body = chat_body("no_call-02", "ref/oracle")
    post(gateway, body)
    post(gateway, b"junk")
    assert [json.loads(b) for b in gateway.requests_seen[:1]] == [body]
    assert gateway.requests_seen[1] == b"junk" and len(gateway.requests_seen) == 2


# --- reference models -----------------------------------------------------------------------------


def test_oracle_passes_every_step_of_the_chain_as_a_runner_sends_it(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    """The runner appends the model's own calls and the scripted results; every step passes
    the judge."""
    case = CASES["chains-01"]
    history: list[dict[str, Any]] = []
    for index, step in enumerate(case["steps"]):
        response = post(gateway, chat_body("chains-01", "ref/oracle", history))
        assert step_passes("chains-01", index, response), (index, response.text)
        message = response.json()["choices"][0]["message"]
        history.append(message)
        if step["expect"] == "call":
            for call, expected in zip(message["tool_calls"], step["calls"], strict=True):
                history.append(
                    {"role": "tool", "tool_call_id": call["id"], "content": expected["result"]}
                )
        else:
            assert message["content"] and "tool_calls" not in message


def test_oracle_passes_every_step_and_answers_parallel_calls_in_one_response(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    results = {
        key: step_passes(*key, post(gateway, step_body(key[0], key[1], "ref/oracle")))
        for key in every_step()
    }
    assert all(results.values()), results
    parallel = answer(post(gateway, step_body("parallel-01", 0, "ref/oracle")))
    assert [c.name for c in parallel.tool_calls] == ["get_weather", "get_weather"]
    assert len({c.id for c in parallel.tool_calls}) == 2


def test_abstain_passes_only_the_no_call_steps(gateway) -> None:  # type: ignore[no-untyped-def]
    for case_id, index in every_step():
        response = post(gateway, step_body(case_id, index, "ref/abstain"))
        assert answer(response).tool_calls == () and answer(response).content
        assert step_passes(case_id, index, response) is (
            CASES[case_id]["steps"][index]["expect"] == "none"
        )


def test_first_tool_calls_the_first_offered_tool_with_empty_arguments(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    calls = answer(post(gateway, chat_body("near_misses-01", "ref/first-tool"))).tool_calls
    assert [(c.name, c.arguments) for c in calls] == [("send_email", "{}")]
    no_tools = chat_body("near_misses-01", "ref/first-tool")
    del no_tools["tools"]
    reply = answer(post(gateway, no_tools))
    assert reply.tool_calls == () and reply.content


def noisy_answers(seed: int) -> dict[tuple[str, int], bytes]:
    with gateway_with(seed=seed) as gw:
        return {
            key: post(gw, step_body(key[0], key[1], "ref/noisy")).content for key in every_step()
        }


def test_noisy_is_deterministic_across_servers_and_seeded() -> None:
    assert noisy_answers(3) == noisy_answers(3)
    assert noisy_answers(3) != noisy_answers(4)


def test_noisy_makes_the_mistakes_the_scorer_must_catch() -> None:
    """Over seeds 0-4: made-up tools and non-JSON arguments appear, and the judge sees each mistake
    as meant.

    Schema-invalid arguments are the one mistake a step can pass with (the step judge checks names
    and argument checks; schema validity is the Valid-arguments metric), so for them the call is
    schema-invalid.
    """
    offered = {c["id"]: set(c["tools"]) for c in SUITE_JSON["cases"]}
    made_up = non_json = schema_invalid = passed = failed = 0
    for seed in range(5):
        with gateway_with(seed=seed) as gw:
            for case_id, index in every_step():
                response = post(gw, step_body(case_id, index, "ref/noisy"))
                for call in answer(response).tool_calls:
                    made_up += call.name not in offered[case_id]
                    try:
                        json.loads(call.arguments)
                    except json.JSONDecodeError:
                        non_json += 1
                judged = verdict(case_id, index, response)
                passed, failed = passed + judged.passed, failed + (not judged.passed)
                behaviour = noisy_behaviour(
                    seed, case_id, index, CASES[case_id]["steps"][index]["expect"]
                )
                if behaviour == "schema_invalid_arguments":
                    assert judged.calls[0].schema_valid is False, (seed, case_id, index)
                    schema_invalid += 1
                else:
                    assert judged.passed is (behaviour == "correct"), (
                        seed,
                        case_id,
                        index,
                        behaviour,
                    )
    assert made_up >= 1 and non_json >= 1 and schema_invalid >= 1 and passed >= 1 and failed >= 1


def test_auto_routes_by_request_and_names_the_picked_model(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    """Each answer's model is the pick; the answer equals that model's own; the same request
    picks the same."""
    picks: Counter[str] = Counter()
    for case_id, index in every_step():
        body = step_body(case_id, index, "auto")
        routed = post(gateway, body).json()
        assert post(gateway, body).json() == routed
        picked = routed["model"]
        picks[picked] += 1
        direct = post(gateway, {**body, "model": picked}).json()
        assert routed["choices"][0]["message"] == direct["choices"][0]["message"]
    assert set(picks) <= {"ref/oracle", "ref/noisy", "ref/abstain"} and len(picks) >= 2


def test_xss_answers_hostile_text_and_string_arguments(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    text = answer(post(gateway, chat_body("no_call-01", "ref/xss")))
    assert text.content == "<script>alert(1)</script>"
    [call] = answer(post(gateway, chat_body("near_misses-01", "ref/xss"))).tool_calls
    assert call.name == "send_slack_message"
    hostile = {'"><img src=x onerror=alert(1)>', "javascript:alert(1)"}
    assert set(json.loads(call.arguments).values()) == hostile


# --- faults ---------------------------------------------------------------------------------------


def test_scripted_429_then_200_per_distinct_body(gateway) -> None:  # type: ignore[no-untyped-def]
    body = chat_body("arguments-01", "ref/oracle~429,200")
    first = post(gateway, body)
    assert first.status_code == 429 and first.json()["error"]["type"] == "rate_limit_error"
    second, third = post(gateway, body), post(gateway, body)
    assert (second.status_code, third.status_code) == (200, 200)
    assert second.json()["model"] == "ref/oracle" and step_passes("arguments-01", 0, second)
    assert post(gateway, chat_body("selection-01", "ref/oracle~429,200")).status_code == 429


def test_scripted_statuses_in_order(gateway) -> None:  # type: ignore[no-untyped-def]
    body = chat_body("selection-01", "ref/oracle~503,503,503,503")
    assert [post(gateway, body).status_code for _ in range(5)] == [503, 503, 503, 503, 200]
    body = chat_body("selection-01", "ref/oracle~400")
    assert [post(gateway, body).status_code for _ in range(2)] == [400, 200]


def test_scripted_drop_closes_without_answer_then_answers(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    body = chat_body("selection-01", "ref/oracle~drop,200")
    with pytest.raises(requests.ConnectionError):
        post(gateway, body)
    assert post(gateway, body).status_code == 200


def test_scripted_timeout_stalls_past_the_client_timeout_then_answers(  # type: ignore[no-untyped-def]
    start_gateway,
) -> None:
    gw = start_gateway(timeout_sleep_s=2.0)
    body = chat_body("selection-01", "ref/oracle~timeout,200")
    with pytest.raises(requests.Timeout):
        post(gw, body, timeout=0.3)
    assert post(gw, body).status_code == 200


def test_scripted_garbage_and_empty_are_200_without_a_completion(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    garbage = post(gateway, chat_body("selection-01", "ref/oracle~garbage"))
    assert garbage.status_code == 200
    with pytest.raises(json.JSONDecodeError):
        json.loads(garbage.content)
    empty = post(gateway, chat_body("selection-01", "ref/oracle~empty"))
    assert (empty.status_code, empty.json()) == (200, {})


def fault_outcomes(seed: int) -> list[str]:
    """Three attempts of every mini-suite request at a 30% 429 / 20% 503 / 10% drop mix."""
    outcomes = []
    with gateway_with(seed=seed, faults=parse_faults("429:0.3,503:0.2,drop:0.1")) as gw:
        for case_id in CASES:
            for _ in range(3):
                try:
                    outcomes.append(str(post(gw, chat_body(case_id, "ref/oracle")).status_code))
                except requests.ConnectionError:
                    outcomes.append("drop")
    return outcomes


def test_probabilistic_faults_are_reproducible_with_a_seed() -> None:
    """Same seed, same outcomes; another seed, other outcomes; retries of one body can differ."""
    outcomes = fault_outcomes(11)
    assert outcomes == fault_outcomes(11)
    assert outcomes != fault_outcomes(12)
    assert {"200", "429", "503", "drop"} <= set(outcomes)
    per_body = [outcomes[i : i + 3] for i in range(0, len(outcomes), 3)]
    assert any(len(set(attempts)) > 1 for attempts in per_body)


def test_certain_fault_hits_every_attempt() -> None:
    with gateway_with(faults=parse_faults("503:1")) as gw:
        assert {post(gw, chat_body(c, "ref/oracle")).status_code for c in CASES} == {503}


def test_latency_and_slow_fault_delay_the_answer() -> None:
    """latency_ms=150 takes at least 0.15 s (a lower bound only); a slow fault answers as the
    model does, 1 s later. The server waits every answer's delay as the dispatcher decides it, as
    for latency here; the slow fault's second is checked in the dispatcher's answer, not waited."""
    with gateway_with(latency_ms=150) as gw:
        started = time.perf_counter()
        assert post(gw, chat_body("no_call-01", "ref/oracle")).status_code == 200
        assert time.perf_counter() - started >= 0.15
    body = json.dumps(chat_body("no_call-01", "ref/oracle")).encode()

    def outcome(faults: str) -> Answer | Hangup:
        config = GatewayConfig(suite_path=MINI_SUITE, latency_ms=150, faults=parse_faults(faults))
        return Dispatcher(config, SuiteFollower(MINI_SUITE)).handle("POST", CHAT_PATH, body)

    plain, slow = outcome(""), outcome("slow:1")
    assert isinstance(plain, Answer) and plain.status == 200 and plain.delay_s == 0.15
    assert slow == replace(plain, delay_s=0.15 + 1.0)


def test_parse_faults_reads_kinds_and_probabilities() -> None:
    spec = parse_faults(
        " 429:0.2, 503:0.1,timeout:0.05,drop:0.05,garbage:0.02,empty:0.01,slow:0.1 "
    )
    assert spec.rules[:2] == (FaultRule("429", 0.2), FaultRule("503", 0.1))
    assert [r.kind for r in spec.rules] == [
        "429",
        "503",
        "timeout",
        "drop",
        "garbage",
        "empty",
        "slow",
    ]
    assert parse_faults("inbody502:0.3").rules == (FaultRule("inbody502", 0.3),)
    assert parse_faults("").rules == ()


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("bogus:1", "'bogus:1'"),
        ("429", "'429'"),
        ("429:lots", "'429:lots'"),
        ("429:1.5", "'429:1.5'"),
        ("429:nan", "'429:nan'"),
        ("399:0.1", "'399:0.1'"),
        ("1000:0.1", "'1000:0.1'"),
        ("429:0.1,429:0.2", "'429:0.2'"),
        ("429:0.6,503:0.6", "more than 1"),
        ("inbody200:0.1", "'inbody200:0.1'"),
    ],
    ids=[
        "unknown-kind",
        "no-probability",
        "not-a-number",
        "above-1",
        "nan",
        "status-399",
        "status-1000",
        "duplicate",
        "sum-above-1",
        "inbody-200",
    ],
)
def test_parse_faults_rejects_bad_specs_naming_the_token(spec: str, named: str) -> None:
    with pytest.raises(UsageError) as raised:
        parse_faults(spec)
    assert named in raised.value.message and "\n" not in raised.value.message


# --- suite loading and the CLI --------------------------------------------------------------------


def test_missing_or_invalid_suite_is_an_error_naming_the_file(tmp_path: Path) -> None:
    for content in (None, "{not json", '{"tools": {}, "cases": []}'):
        path = tmp_path / "suite.json"
        if content is not None:
            path.write_text(content, encoding="utf-8")
        with pytest.raises(SuiteError) as raised:
            StandInGateway(GatewayConfig(suite_path=path))
        assert str(path) in raised.value.message


def test_cli_bad_faults_exit_2_with_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["gateway", "--faults", "bogus:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "bogus:1" in err and err.count("\n") == 1


def test_cli_scripted_faults_in_faults_say_where_scripts_go(  # type: ignore[no-untyped-def]
    capsys,
) -> None:
    """A script given to --faults (a new user's first try) is refused with where a script goes."""
    assert main(["gateway", "--faults", "ref/oracle~429,200"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --faults: bad token 'ref/oracle~429': ") and err.count("\n") == 1
    assert err.rstrip().endswith(
        'a scripted sequence goes in the model name instead: record --model "ref/oracle~429,200"'
    )


def test_cli_help_says_where_scripts_go_and_that_they_play_once(  # type: ignore[no-untyped-def]
    capsys,
) -> None:
    assert main(["gateway", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # rich wraps the help text
    assert 'Scripted faults go in the model name: record --model "ref/oracle~429,200"' in out
    assert "A script is used once per gateway process" in out
    assert "restart the gateway to replay it" in out


def test_cli_a_yaml_suite_with_a_typo_points_to_suite_check(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    """A typo'd key in an own YAML suite: the gateway's one line says what names the case
    and line."""
    suite = tmp_path / "notes.yaml"
    text = (FIXTURES / "own_tools" / "suite.yaml").read_text(encoding="utf-8")
    assert "expect: none" in text
    suite.write_text(text.replace("expect: none", "expct: none"), encoding="utf-8")
    assert main(["gateway", "--port", "0", "--suite", str(suite)]) == 1
    assert capsys.readouterr().err == (
        f"error: {suite}: not a suite file the gateway can use: missing key 'expect'; "
        f"`lobstack-eval suite check {suite}` names each problem with its case and field\n"
    )


def test_cli_missing_suite_exit_1(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "nope.json"
    assert main(["gateway", "--port", "0", "--suite", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(missing) in err and "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_cli_serves_until_ctrl_c_and_exits_0(  # type: ignore[no-untyped-def]
    capsys,
    signum: int,
) -> None:
    """The URL line is printed, the server answers, and a real Ctrl-C (or SIGTERM) ends it cleanly.

    The signal is a real one sent to the main thread (``_thread.interrupt_main`` only simulates one,
    and does nothing where SIGINT is ignored). A job started in the background by a non-interactive
    shell inherits SIGINT ignored, which Python keeps: the test installs Python's own handler, as an
    interactive terminal has.
    """
    seen: dict[str, Any] = {}
    printed = threading.Event()
    main_thread = threading.main_thread().ident
    assert main_thread is not None

    def client() -> None:
        try:
            deadline = time.monotonic() + 20
            # the CLI prints through capsys' buffer: read it until the URL line is there (with
            # a deadline)
            while not printed.wait(0.02) and time.monotonic() < deadline:
                out = capsys.readouterr().out
                if "http://" in out:
                    seen["line"] = out.strip()
                    seen["url"] = out.split(" on ", 1)[1].split(" ", 1)[0]
                    printed.set()
            body = chat_body("no_call-01", "ref/oracle")
            seen["status"] = requests.post(
                seen["url"] + "/chat/completions", json=body, timeout=10
            ).status_code
        finally:
            signal.pthread_kill(main_thread, signum)

    # SIGTERM, too, raises here whatever happens: never pytest's default (the end of the process)
    previous = {
        sig: signal.signal(sig, signal.default_int_handler)
        for sig in (signal.SIGINT, signal.SIGTERM)
    }
    worker = threading.Thread(target=client)
    try:
        worker.start()
        code = main(["gateway", "--port", "0", "--suite", str(MINI_SUITE)])
    finally:
        worker.join(30)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    assert not worker.is_alive()
    assert code == 0 and seen["status"] == 200
    assert (
        seen["line"].startswith("Stand-in gateway on http://127.0.0.1:")
        and "ref/oracle" in seen["line"]
    )
    assert seen["url"].endswith("/v1")


def test_cli_port_in_use_is_a_one_line_error(capsys) -> None:  # type: ignore[no-untyped-def]
    with gateway_with() as busy:
        port = busy.url.rsplit(":", 1)[1].split("/", 1)[0]
        assert main(["gateway", "--port", port, "--suite", str(MINI_SUITE)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot listen on 127.0.0.1:{port}") and err.count("\n") == 1


def test_stop_ends_the_serving_loop_at_once_not_at_its_next_poll() -> None:
    """stop() wakes the serving loop with a connection it closes unanswered: with an hour's poll
    interval it still returns, and no handler ever sees that connection."""
    from http.server import BaseHTTPRequestHandler

    from standin.serving import StoppableServer

    handled: list[Any] = []

    class Handler(BaseHTTPRequestHandler):
        def handle(self) -> None:
            handled.append(self.client_address)

    server = StoppableServer(("127.0.0.1", 0), Handler, threading.Event())
    serving = threading.Thread(target=server.serve_until_stopped, args=(3600.0,), daemon=True)
    serving.start()
    stopper = threading.Thread(target=server.stop, daemon=True)
    stopper.start()
    stopper.join(60)
    serving.join(60)
    assert not stopper.is_alive() and not serving.is_alive()
    assert handled == []
