"""``ref/drifting`` (issue 31): stable before its change point, chosen cases broken from it on,
deterministic by seed and run, and another identity (model, fingerprint, routing header) from the
change on; ``gateway --run``."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from lobstack_eval.cmd_gateway import gateway
from lobstack_eval.main import main
from scorer.drift.cusum import watch
from standin import GatewayConfig, StandInGateway
from standin.drifting import is_broken, is_wobbly
from standin.reply import DEFAULT_DRIFT_FROM
from tests.conftest import ROOT
from tests.gateway_fixtures import CASES, MINI_SUITE, chat_body, post, step_passes

FULL = [c["id"] for c in json.loads((ROOT / "evals" / "suite.json").read_text("utf-8"))["cases"]]


def answers(run: int | None, seed: int, case_id: str) -> list[tuple[bool, str, str, str]]:
    """(passes, model, fingerprint, provider header) of two answers to a case's first request on a
    fresh gateway serving ``run``."""
    config = GatewayConfig(suite_path=MINI_SUITE, seed=seed, run=run, drift_from=6)
    with StandInGateway(config) as gateway:
        found = []
        for _ in range(2):
            response = post(gateway, chat_body(case_id, "ref/drifting"))
            body = response.json()
            found.append(
                (
                    step_passes(case_id, 0, response),
                    body["model"],
                    body["system_fingerprint"],
                    response.headers["x-lobstack-provider"],
                )
            )
        return found


def test_the_broken_cases_are_a_tenth_chosen_by_the_seed_and_never_wobbly() -> None:
    sets = [{c for c in FULL if is_broken(c, seed)} for seed in (0, 1, 2)]
    assert sets[0] != sets[1] != sets[2]
    assert all(3 <= len(s) <= 14 for s in sets)
    assert not any(is_wobbly(c) for s in sets for c in s)


def test_a_broken_case_passes_before_the_change_and_fails_from_it() -> None:
    seed, case_id = next(
        (s, c) for s in range(50) for c in CASES if is_broken(c, s) and len(CASES[c]["steps"]) == 1
    )
    for run in (None, 1, 5):
        assert (
            answers(run, seed, case_id)
            == [(True, "ref/drifting-v1", *answers(1, seed, case_id)[0][2:])] * 2
        )
    before = answers(5, seed, case_id)[0]
    for run in (6, 9):
        after = answers(run, seed, case_id)
        assert after[0] == after[1]  # the same request, the same answer within a run
        passes, model, fingerprint, provider = after[0]
        assert not passes and model == "ref/drifting-v2"
        assert fingerprint != before[2] and (before[3], provider) == (
            "standin-east",
            "standin-west",
        )
    assert answers(6, seed + 1, case_id)[0][0] is not is_broken(case_id, seed + 1)


def test_a_stable_case_passes_in_every_run() -> None:
    case_id = next(c for c in CASES if not is_wobbly(c) and not is_broken(c, 0))
    assert all(answers(run, 0, case_id)[0][0] for run in (1, 5, 6, 12))


@pytest.mark.parametrize(("flag", "value"), [("--run", "0"), ("--drift-from", "x")])
def test_gateway_run_flags_are_checked(
    flag: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["gateway", "--port", "0", flag, value]) == 2
    assert f"error: {flag}" in capsys.readouterr().err


def test_with_the_default_change_point_drift_sees_the_change_and_with_6_it_mostly_does_not() -> (
    None
):
    """A history recorded with the defaults (``gateway --run N``, no --drift-from) shows a change
    drift finds: drift learns from the first 10 runs, and a change among them is part of that
    baseline. Simulated with ref/drifting's cases (seed 0: its broken cases fail from the change on,
    its wobbly ones pass about half the time), 200 histories each of the default change + 9 runs:
    at the default every history alarms, at a median of <= 3 changed runs (the delay target); at
    the old default, run 6, most never do, and those that do alarm only after the baseline's 10
    runs, the change long past (the frozen reference, issue 41, holds the broken cases' early
    passes and sees some late). The CLI's default is the stand-in's."""
    wobbly = np.array([is_wobbly(c) for c in FULL])
    broken = np.array([is_broken(c, 0) for c in FULL])
    rng = np.random.default_rng(6)
    runs = DEFAULT_DRIFT_FROM + 9

    def alarm_runs(drift_from: int) -> np.ndarray:
        """The 1-based run of each history's first alarm (0: none)."""
        probability = np.tile(np.where(wobbly, 0.5, 1.0), (200, runs, 1))
        probability[:, drift_from - 1 :, broken] = 0.0
        passes = rng.binomial(1, probability)
        over = watch(passes, np.ones_like(passes)).alarms  # drift's rule, as the CLI runs it
        return np.where(over.any(-1), over.argmax(-1) + 1, 0)

    seen = alarm_runs(DEFAULT_DRIFT_FROM)
    assert (seen >= DEFAULT_DRIFT_FROM).all()
    assert np.median(seen - DEFAULT_DRIFT_FROM + 1) <= 3
    early = alarm_runs(6)
    assert (early == 0).mean() > 0.5
    assert (early[early > 0] > 15).all()
    assert GatewayConfig(MINI_SUITE).drift_from == DEFAULT_DRIFT_FROM
    option = inspect.signature(gateway).parameters["drift_from"].default
    assert int(option.default) == DEFAULT_DRIFT_FROM
