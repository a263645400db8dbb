"""ref/openrouter-style, the stand-in's imitation of OpenRouter's pricing: no price header on any
answer, the price in the body as ``usage.cost``. Recorded through the real recorder, its run is
priced from the cassettes alone (docs/METHOD.md, Decisions 95-97)."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE, ROOT
from tests.gateway_fixtures import chat_body, post, reference_history, step_passes

MODEL = "ref/openrouter-style"
SLUG = "ref_openrouter-style"
HEADERS = ("x-lobstack-cost-usd", "x-litellm-response-cost")


def exact(text: str | bytes) -> Any:
    """JSON with every number as the exact decimal it was written as."""
    return json.loads(text, parse_float=Decimal, parse_int=Decimal)


def recorded_prices(model_dir: Path) -> list[Decimal]:
    """Every recorded response's ``usage.cost``, read from the cassettes with nothing of
    lobstack-eval; no response carries a price header."""
    prices = []
    for cassette in sorted(model_dir.glob("*.json")):
        if cassette.name == "run.json":
            continue
        for interaction in json.loads(cassette.read_text(encoding="utf-8"))["interactions"]:
            response = interaction["response"]
            assert not {h.lower() for h in response["headers"]} & set(HEADERS), cassette
            prices.append(exact(response["body"]["string"])["usage"]["cost"])
    return prices


def test_answers_carry_the_price_in_the_body_and_no_price_header(  # type: ignore[no-untyped-def]
    start_gateway,
) -> None:
    for gateway in (start_gateway(), start_gateway(cost_header="x-litellm-response-cost")):
        first = post(gateway, chat_body("chains-01", MODEL))
        assert first.status_code == 200 and not set(first.headers) & set(HEADERS)
        assert step_passes("chains-01", 0, first)
        body = exact(first.content)
        usage = body["usage"]
        million = Decimal(
            10**6
        )  # 3 USD per million prompt tokens, 15 per million completion tokens
        prompt, completion = (
            usage["prompt_tokens"] * 3 / million,
            usage["completion_tokens"] * 15 / million,
        )
        assert usage["cost"] == prompt + completion > 0 and usage["is_byok"] is False
        assert usage["cost_details"] == {
            "upstream_inference_cost": usage["cost"],
            "upstream_inference_prompt_cost": prompt,
            "upstream_inference_completions_cost": completion,
        }
        assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
        assert body["id"].startswith("gen-") and body["provider"] == "Stand-in"
        choice = body["choices"][0]
        assert (choice["finish_reason"], choice["native_finish_reason"]) == (
            "tool_calls",
            "tool_use",
        )
        message = choice["message"]
        assert message["content"] == "" and message["reasoning"] is None
        assert [(c["index"], c["id"][:6]) for c in message["tool_calls"]] == [(0, "toolu_")]
        # A chain goes on as with any model; the last answer is text, priced the same way.
        last = post(gateway, chat_body("chains-01", MODEL, reference_history("chains-01", 2)))
        assert step_passes("chains-01", 2, last) and not set(last.headers) & set(HEADERS)
        assert exact(last.content)["choices"][0]["native_finish_reason"] == "end_turn"
        # Its errors carry no price either; the other models keep theirs.
        faulted = post(gateway, chat_body("no_call-01", MODEL + "~429,200"))
        assert faulted.status_code == 429 and not set(faulted.headers) & set(HEADERS)
        oracle = post(gateway, chat_body("no_call-01", "ref/oracle"))
        assert set(oracle.headers) & set(HEADERS) and "cost" not in oracle.json()["usage"]


def test_a_recorded_run_is_priced_from_the_cassettes_alone(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    gateway = start_gateway()
    cassettes, out = tmp_path / "cassettes", tmp_path / "reports"
    record = ["record", "--model", MODEL, "--suite", str(MINI_SUITE), "--cassettes", str(cassettes)]
    assert main([*record, "--base-url", gateway.url, "--concurrency", "1"]) == 0
    gateway.stop()  # from here on, only the cassettes
    prices = recorded_prices(cassettes / SLUG)
    assert len(prices) == 10 and all(p > 0 for p in prices)  # 7 one-step cases and a 3-step chain
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
    results = json.loads((out / SLUG / "results.json").read_text(encoding="utf-8"))
    assert results["metrics"]["overall"]["rate"] == 100.0 and results["cases"]["scored"] == 8
    attempts = [a for r in results["results"] for a in r["attempts"]]
    assert sorted(Decimal(a["cost_usd"]) for a in attempts) == sorted(prices)
    assert {a["cost_source"] for a in attempts} == {"body"}
    assert results["cost_usd"] == float(sum(prices))
    assert results["cost_per_100_cases_usd"] == float(sum(prices) * 100 / 8)
    row = next(
        line
        for line in (out / "leaderboard.md").read_text().splitlines()
        if line.startswith(f"| {MODEL} ")
    )
    assert f"| {results['cost_per_100_cases_usd']:.4f} |" in row
    # The price came from the bodies and nothing else: without one body's usage.cost the run
    # is unpriced.
    cassette = cassettes / SLUG / "no_call-01.json"
    data = json.loads(cassette.read_text(encoding="utf-8"))
    response = data["interactions"][0]["response"]
    body = json.loads(response["body"]["string"])
    del body["usage"]["cost"]
    response["body"]["string"] = json.dumps(body)
    cassette.write_text(json.dumps(data), encoding="utf-8")
    assert main(rescore) == 0
    results = json.loads((out / SLUG / "results.json").read_text(encoding="utf-8"))
    assert results["cost_usd"] is None and results["cost_per_100_cases_usd"] is None
    assert results["metrics"]["overall"]["rate"] == 100.0


def test_the_committed_recording_is_priced_from_its_bodies(tmp_path: Path) -> None:
    """cassettes/ref_openrouter-style (recorded from the stand-in, no price header anywhere)
    rescored alone."""
    model_dir = ROOT / "cassettes" / SLUG
    prices = recorded_prices(model_dir)
    assert len(prices) >= 80 and all(p > 0 for p in prices)
    shutil.copytree(model_dir, tmp_path / "cassettes" / SLUG)
    out = tmp_path / "reports"
    suite = str(ROOT / "evals" / "suite.json")
    assert (
        main(
            [
                "rescore",
                str(tmp_path / "cassettes"),
                "--suite",
                suite,
                "--out",
                str(out),
                "--no-html",
                "-q",
            ]
        )
        == 0
    )
    results = json.loads((out / SLUG / "results.json").read_text(encoding="utf-8"))
    assert results["cases"]["scored"] == 80 and results["metrics"]["overall"]["rate"] == 100.0
    attempts = [a for r in results["results"] for a in r["attempts"]]
    assert sorted(Decimal(a["cost_usd"]) for a in attempts) == sorted(prices)
    assert {a["cost_source"] for a in attempts} == {"body"}
    assert results["cost_usd"] == float(sum(prices))
    assert results["cost_per_100_cases_usd"] == float(sum(prices) * 100 / 80)
    committed = json.loads((ROOT / "reports" / SLUG / "results.json").read_text(encoding="utf-8"))
    assert committed["cost_per_100_cases_usd"] == results["cost_per_100_cases_usd"]
