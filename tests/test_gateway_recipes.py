"""docs/GATEWAYS.md's recipes, run against the stand-in: a LiteLLM proxy's renamed price header, and
a self-hosted server whose tool parser is off (its calls arrive as text; the reason says so, the
verdict stays a fail)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer.wire.text_calls import MAX_OBJECTS, PREFIX_CHARS, text_call_name
from tests.conftest import MINI_SUITE
from tests.gateway_fixtures import chat_body, post, verdict

LITELLM_PRICE = "llm_provider-x-lobstack-cost-usd"
HINT = "the server's tool parser may be off"
OFFERED = ("read_file", "web_search")


def record_and_rescore(gateway_url: str, model: str, tmp_path: Path, *extra: str) -> dict[str, Any]:
    """Record ``model`` on the mini suite through the real recorder, rescore from the cassettes,
    read results.json."""
    cassettes, out = tmp_path / "cassettes", tmp_path / "reports"
    record = [
        "record",
        "--model",
        model,
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(cassettes),
        *extra,
    ]
    assert main([*record, "--base-url", gateway_url, "--concurrency", "1"]) == 0
    rescore = [
        "rescore",
        str(cassettes),
        "--suite",
        str(MINI_SUITE),
        "--out",
        str(out),
        "--no-html",
        "-q",
    ]
    assert main(rescore) == 0
    slug = model.replace("/", "_")
    return json.loads((out / slug / "results.json").read_text(encoding="utf-8"))


def header_prices(model_dir: Path, header: str) -> list[Decimal]:
    """Every recorded response's price header ``header``, read from the cassettes with nothing of
    lobstack-eval."""
    prices = []
    for cassette in sorted(model_dir.glob("*.json")):
        if cassette.name == "run.json":
            continue
        for interaction in json.loads(cassette.read_text(encoding="utf-8"))["interactions"]:
            headers = {k.lower(): v for k, v in interaction["response"]["headers"].items()}
            assert "x-lobstack-cost-usd" not in headers and "x-litellm-response-cost" not in headers
            prices.append(Decimal(headers[header][0]))
    return prices


# --- LiteLLM: the upstream's price arrives renamed ------------------------------------------------


def test_behind_a_prefixing_proxy_every_stand_in_header_is_renamed(  # type: ignore[no-untyped-def]
    start_gateway,
) -> None:
    gateway = start_gateway(upstream_prefix="llm_provider-")
    answer = post(gateway, chat_body("arguments-01", "ref/no-temperature"))
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/json"
    assert float(answer.headers[LITELLM_PRICE]) > 0
    assert answer.headers["llm_provider-x-lobstack-dropped-params"] == "temperature"
    assert not {"x-lobstack-cost-usd", "x-lobstack-dropped-params"} & {
        h.lower() for h in answer.headers
    }


def test_litellm_recipe_reads_the_renamed_price(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    gateway = start_gateway(upstream_prefix="llm_provider-")
    results = record_and_rescore(
        gateway.url, "ref/no-temperature", tmp_path, "--cost-header", LITELLM_PRICE
    )
    prices = header_prices(tmp_path / "cassettes" / "ref_no-temperature", LITELLM_PRICE)
    assert len(prices) == 10 and all(p > 0 for p in prices)
    attempts = [a for r in results["results"] for a in r["attempts"]]
    assert sorted(Decimal(a["cost_usd"]) for a in attempts) == sorted(prices)
    assert (
        results["cost_usd"] == float(sum(prices)) and results["metrics"]["overall"]["rate"] == 100.0
    )
    # The dropped-params header arrives renamed too, and is read under LiteLLM's prefix.
    assert results["temperature_ignored"] is True


def test_through_litellm_the_default_options_read_the_price_and_the_dropped_temperature(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    """No --cost-header: the Lobstack headers are found under LiteLLM's ``llm_provider-`` prefix,
    and the leaderboard says yes, with a price (issue 45)."""
    gateway = start_gateway(upstream_prefix="llm_provider-")
    results = record_and_rescore(gateway.url, "ref/no-temperature", tmp_path)
    prices = header_prices(
        tmp_path / "cassettes" / "ref_no-temperature", "llm_provider-x-lobstack-cost-usd"
    )
    assert len(prices) == 10 and all(p > 0 for p in prices)
    assert results["cost_usd"] == float(sum(prices))
    assert results["temperature_ignored"] is True
    board = (tmp_path / "reports" / "leaderboard.md").read_text(encoding="utf-8")
    row = next(line for line in board.splitlines() if line.startswith("| ref/no-temperature "))
    assert row.rstrip().endswith("| 0 | yes | a |")


def test_a_gateway_that_reports_no_dropped_parameters_leaves_temperature_unknown(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    """A gateway that is not Lobstack's (a model priced in the body, so no Lobstack header on any
    answer, and another Server) behind a proxy: whether the temperature was dropped is unknown,
    a dash, not "no"."""
    gateway = start_gateway(upstream_prefix="llm_provider-", server="vllm")
    results = record_and_rescore(gateway.url, "ref/openrouter-style", tmp_path)
    assert results["temperature_ignored"] is None
    assert results["metrics"]["overall"]["rate"] == 100.0
    board = (tmp_path / "reports" / "leaderboard.md").read_text(encoding="utf-8")
    row = next(line for line in board.splitlines() if line.startswith("| ref/openrouter-style "))
    assert row.rstrip().endswith("| 0 | - | a |")
    csv_rows = (tmp_path / "reports" / "leaderboard.csv").read_text(encoding="utf-8").splitlines()
    header = csv_rows[0].split(",")
    cells = next(r for r in csv_rows if r.startswith("ref/openrouter-style,")).split(",")
    assert cells[header.index("temperature_ignored")] == ""


def test_litellm_price_header_absent_leaves_the_run_unpriced(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    """LiteLLM sends no x-litellm-response-cost for a model it has no price for: the Cost is a dash,
    all else is scored."""
    gateway = start_gateway(upstream_prefix="llm_provider-")
    results = record_and_rescore(
        gateway.url, "ref/oracle", tmp_path, "--cost-header", "x-litellm-response-cost"
    )
    assert results["cost_usd"] is None and results["cost_per_100_cases_usd"] is None
    assert results["metrics"]["overall"]["rate"] == 100.0


def test_reasoning_details_moved_as_litellm_does_are_refused(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    """LiteLLM's ``openai/`` route moves ``reasoning_details`` into ``provider_specific_fields`` and
    sends the follow-up without them (issue 26's measurement): the reasoning model answers 400,
    so the chain is errored."""
    from tests.test_provider_models import reference_step

    _, history = reference_step(gateway, "chains-01", "ref/reasoning")
    moved = {k: v for k, v in history[0].items() if k != "reasoning_details"}
    moved["provider_specific_fields"] = {"reasoning_details": history[0]["reasoning_details"]}
    refused = post(gateway, chat_body("chains-01", "ref/reasoning", [moved, *history[1:]]))
    assert refused.status_code == 400 and "reasoning" in refused.json()["error"]["message"]
    assert post(gateway, chat_body("chains-01", "ref/reasoning", history)).status_code == 200


# --- a tool parser off: calls as text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            '<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}\n</tool_call>',
            "read_file",
        ),
        (
            'Sure.\n<tool_call>{"name": "read_file", "arguments": {',
            "read_file",
        ),  # cut off: the quoted name
        ("<tool_call>garbage</tool_call>", "a tool"),
        ('{"name": "web_search", "arguments": {"query": "x"}}', "web_search"),
        (
            'I will call it: {"type": "function", "function": {"name": "read_file", "arguments": '
            '"{}"}}',
            "read_file",
        ),
        ('{"name": "not_offered", "arguments": {}}', None),
        ('{"path": "a"} {"name": "read_file"}', "read_file"),
        ("I will read the file read_file for you.", None),
        ("", None),
        (None, None),
        ("{" * 100_000, None),
    ],
)
def test_text_call_name(text: str | None, name: str | None) -> None:
    assert text_call_name(text, OFFERED) == name


def test_text_call_name_reads_a_bounded_prefix() -> None:
    call = '{"name": "read_file", "arguments": {}}'
    assert text_call_name(" " * (PREFIX_CHARS - len(call)) + call, OFFERED) == "read_file"
    assert text_call_name(" " * PREFIX_CHARS + call, OFFERED) is None
    assert (
        text_call_name("{} " * MAX_OBJECTS + call, OFFERED) is None
    )  # only MAX_OBJECTS objects are tried
    assert text_call_name("{} " * (MAX_OBJECTS - 1) + call, OFFERED) == "read_file"


def test_text_calls_model_answers_in_text_and_fails(  # type: ignore[no-untyped-def]
    gateway,
) -> None:
    styles = set()
    for case_id in ("selection-01", "arguments-01", "parallel-01", "chains-01"):
        answer = post(gateway, chat_body(case_id, "ref/text-calls"))
        message = answer.json()["choices"][0]["message"]
        assert "tool_calls" not in message or not message["tool_calls"]
        styles.add(message["content"].startswith("<tool_call>"))
        judged = verdict(case_id, 0, answer)
        assert not judged.passed and HINT in (judged.reason or "")
    assert styles == {True, False}  # both the Hermes tag and the bare object


def test_text_calls_reason_end_to_end(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    results = record_and_rescore(start_gateway().url, "ref/text-calls", tmp_path)
    steps = {(r["id"], s["index"]): s for r in results["results"] for s in r.get("steps", [])}
    failed = {key: s["reason"] for key, s in steps.items() if not s["passed"]}
    assert failed and all(HINT in reason for reason in failed.values())
    expected = next(
        r for r in json.loads(MINI_SUITE.read_text())["cases"] if r["id"] == "selection-01"
    )
    name = expected["steps"][0]["calls"][0]["name"]
    assert failed[("selection-01", 0)] == (
        f"names differ: expected [{name}], got [] (the text looks like a call to {name}: {HINT})"
    )
    assert {s["passed"] for key, s in steps.items() if key not in failed} <= {
        True
    }  # text steps pass


def test_an_answer_in_plain_text_gets_no_hint(gateway) -> None:  # type: ignore[no-untyped-def]
    judged = verdict("selection-01", 0, post(gateway, chat_body("selection-01", "ref/abstain")))
    assert not judged.passed and HINT not in (judged.reason or "")
