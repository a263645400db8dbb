"""Benchmark of scoring alone: judge + metrics for 100 synthetic models x 80 cases, all in memory.

Goal (issue): judging every step and computing the metrics of 8,000 cases takes under 0.3 s.

    uv run python benchmarks/score.py [--models 100] [--repeat 3] [--seed 7] [--check]

The answers come from the committed ``ref/oracle`` recordings (parsed once, before any clock
starts), with seeded perturbations per model (wrong argument, made-up tool, bad JSON, extra or
missing call, a call where none was wanted, another reference model's answer) so that a realistic
share of steps fails and every judge path runs. A chain is judged step by step and stops at its
first failing step, as the runner does. Model 0 is the oracle unperturbed and must pass all 80
cases: a check that the setup itself is sound.

Timed, best of ``--repeat``: ``judge`` (``scorer.judge.judge_step`` on every reached step, building
the ``CaseOutcome`` objects), ``metrics`` (the case-run rows of every model and ``scorer.summarize``
over them: one polars computation for all models), and, on its own line and outside the goal,
``results_document`` (the entries of results.json: the per-case documents). Imports (polars among
them) happen before the clock starts.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import best_of  # noqa: E402
from replay.rows.build import frames  # noqa: E402
from scorer.judge import judge_step  # noqa: E402
from scorer.outcome import Attempt, CaseOutcome, StepRecord  # noqa: E402
from scorer.results import results_document  # noqa: E402
from scorer.suite.model import Case, Suite  # noqa: E402
from scorer.summarize import summarize  # noqa: E402
from scorer.wire.response import ModelResponse, parse_completion  # noqa: E402

GOAL_SECONDS = 0.3
SUITE = ROOT / "evals" / "suite.json"
CASSETTES = ROOT / "cassettes"
ORACLE = "ref_oracle"
OTHERS = ("ref_first-tool", "ref_noisy", "ref_abstain")

Answers = dict[str, dict[int, dict[str, Any]]]  # case id -> step index -> chat-completion body


@dataclass(frozen=True)
class SyntheticCase:
    """One model's answers to one case: a response per step, and the attempts (one per step) for
    the metrics."""

    case: Case
    responses: tuple[ModelResponse, ...]
    attempts: tuple[Attempt, ...]


def load_answers(model_dir: Path) -> Answers:
    """Every answered body of a model dir, by case and step (from run.json's attempts, in
    recorded order)."""
    manifest = json.loads((model_dir / "run.json").read_text(encoding="utf-8"))
    answers: Answers = {}
    for case_id, entry in manifest["cases"].items():
        cassette = json.loads((model_dir / f"{case_id}.json").read_text(encoding="utf-8"))
        answered = [a for a in entry["attempts"] if a.get("status") is not None]
        for attempt, interaction in zip(answered, cassette["interactions"], strict=True):
            if attempt["status"] == 200:
                answers.setdefault(case_id, {})[attempt["step"]] = json.loads(
                    interaction["response"]["body"]["string"]
                )
    return answers


def _message(body: dict[str, Any]) -> dict[str, Any]:
    return body["choices"][0]["message"]


def _calls(body: dict[str, Any]) -> list[dict[str, Any]]:
    return _message(body).get("tool_calls") or []


def _wrong_argument(body: dict[str, Any], rng: random.Random) -> None:
    call = rng.choice(_calls(body))
    args = json.loads(call["function"]["arguments"])
    if not args:
        args["unexpected"] = 1
    else:
        key = rng.choice(sorted(args))
        value = args[key]
        if isinstance(value, bool):
            args[key] = not value
        elif isinstance(value, int | float):
            args[key] = value + 1
        elif isinstance(value, str):
            args[key] = value[::-1] + "x"
        else:
            del args[key]
    call["function"]["arguments"] = json.dumps(args)


def _made_up_tool(body: dict[str, Any], rng: random.Random) -> None:
    rng.choice(_calls(body))["function"]["name"] = "run_shell_command"


def _bad_json(body: dict[str, Any], rng: random.Random) -> None:
    rng.choice(_calls(body))["function"]["arguments"] = rng.choice(['{"path": ', "NaN", "[]", ""])


def _extra_call(body: dict[str, Any], rng: random.Random) -> None:
    calls = _calls(body)
    calls.append(copy.deepcopy(rng.choice(calls)))


def _missing_call(body: dict[str, Any], rng: random.Random) -> None:
    calls = _calls(body)
    calls.pop(rng.randrange(len(calls)))
    if not calls:
        _abstain(body, rng)


def _abstain(body: dict[str, Any], rng: random.Random) -> None:
    message = _message(body)
    message.pop("tool_calls", None)
    message["content"] = "I would need more details before doing that."


CALL_PERTURBATIONS: tuple[Callable[[dict[str, Any], random.Random], None], ...] = (
    _wrong_argument,
    _wrong_argument,
    _made_up_tool,
    _bad_json,
    _extra_call,
    _missing_call,
    _abstain,
)


def _stray_call(body: dict[str, Any], rng: random.Random) -> None:
    message = _message(body)
    message["content"] = None
    message["tool_calls"] = [
        {
            "id": "call_stray",
            "type": "function",
            "function": {"name": "web_search", "arguments": '{"query": "help"}'},
        }
    ]


def perturbed(
    oracle: dict[str, Any], others: list[dict[str, Any]], expects_call: bool, rng: random.Random
) -> dict[str, Any]:
    """A wrong answer for one step: another reference model's (when it differs), else a seeded
    perturbation."""
    different = [o for o in others if _message(o) != _message(oracle)]
    if different and rng.random() < 0.3:
        return rng.choice(different)
    body = copy.deepcopy(oracle)
    if expects_call and _calls(body):
        rng.choice(CALL_PERTURBATIONS)(body, rng)
    else:
        _stray_call(body, rng)
    return body


def build_models(suite: Suite, n_models: int, seed: int) -> list[list[SyntheticCase]]:
    """``n_models`` synthetic models; each step of model ``m > 0`` goes wrong with its own
    seeded probability."""
    oracle = load_answers(CASSETTES / ORACLE)
    others = [load_answers(CASSETTES / name) for name in OTHERS]
    rng = random.Random(seed)
    models = []
    for m in range(n_models):
        error_rate = 0.0 if m == 0 else rng.uniform(0.02, 0.35)
        cases = []
        for case in suite.cases:
            bodies = []
            for index, step in enumerate(case.steps):
                right = oracle[case.id][index]
                if rng.random() < error_rate:
                    alternatives = [
                        o[case.id][index] for o in others if index in o.get(case.id, {})
                    ]
                    bodies.append(perturbed(right, alternatives, step.expect == "call", rng))
                else:
                    bodies.append(right)
            attempts = tuple(
                Attempt(
                    i,
                    1,
                    "ok",
                    200,
                    round(rng.uniform(150, 3000), 3),
                    f"{rng.uniform(0, 0.004):.6f}",
                )
                for i in range(len(bodies))
            )
            cases.append(SyntheticCase(case, tuple(parse_completion(b) for b in bodies), attempts))
        models.append(cases)
    return models


def judge_model(suite: Suite, cases: list[SyntheticCase]) -> list[CaseOutcome]:
    """Every case's outcome: steps judged in order until one fails (the runner's rule)."""
    outcomes = []
    for synthetic in cases:
        case, steps = synthetic.case, []
        status, reason = "passed", None
        for index, (step, response) in enumerate(zip(case.steps, synthetic.responses, strict=True)):
            verdict = judge_step(step, response, case, suite)
            steps.append(StepRecord(index, response, verdict))
            if not verdict.passed:
                status, reason = "failed", f"step {index + 1}: {verdict.reason}"
                break
        outcomes.append(
            CaseOutcome(case, status, reason, tuple(steps), synthetic.attempts[: len(steps)])
        )  # type: ignore[arg-type]
    return outcomes


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures; with ``--check``, exit 1 when the goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="exit 1 when the goal is missed")
    args = parser.parse_args(argv)

    from recorder.files import read_suite

    suite = read_suite(SUITE)
    models = build_models(suite, args.models, args.seed)
    n_cases = sum(len(cases) for cases in models)
    n_steps = sum(len(c.responses) for cases in models for c in cases)
    warm = results_document(suite, "w", "w", judge_model(suite, models[0]))
    summarize(frames(suite, [warm])["cases"])  # warm-up: polars' lazy import and first-call setup

    judge_s, outcomes = best_of(
        args.repeat, lambda: [judge_model(suite, cases) for cases in models]
    )
    document_s, documents = best_of(
        args.repeat,
        lambda: [
            results_document(suite, f"bench/m{i:03d}", f"bench_m{i:03d}", o)
            for i, o in enumerate(outcomes)
        ],
    )
    # The metrics: the documents' case-run rows, then every figure from them (scorer.summarize).
    metrics_s, by_model = best_of(args.repeat, lambda: summarize(frames(suite, documents)["cases"]))
    metrics = list(by_model.values())

    if metrics[0].metrics["overall"].count != len(suite.cases):
        print("setup broken: the unperturbed oracle does not pass every case", file=sys.stderr)
        return 1
    judged = sum(len(o.steps) for model in outcomes for o in model)
    overall = sorted(m.metrics["overall"].rate or 0.0 for m in metrics)
    total_s = judge_s + metrics_s
    print(f"models={args.models} cases={n_cases} steps_answered={n_steps} steps_judged={judged}")
    median = overall[len(overall) // 2]
    print(
        f"overall % across models: min {overall[0]:.1f}  median {median:.1f}  max {overall[-1]:.1f}"
    )
    print(f"best of {args.repeat}        seconds   cases/s")
    print(f"judge            {judge_s:8.4f}  {n_cases / judge_s:9.0f}")
    print(f"metrics          {metrics_s:8.4f}  {n_cases / metrics_s:9.0f}")
    print(f"total            {total_s:8.4f}  {n_cases / total_s:9.0f}   (goal < {GOAL_SECONDS} s)")
    print(
        f"results_document {document_s:8.4f}  {n_cases / document_s:9.0f}   (results.json entries, "
        "not in goal)"
    )
    missed = total_s >= GOAL_SECONDS
    if missed:
        print("goal missed", file=sys.stderr)
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
