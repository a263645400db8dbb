"""``ref/drifting`` (issue 31): stable before its change point, chosen cases broken from it on,
deterministic by seed and run, and another identity (model, fingerprint, routing header) from the
change on; ``gateway --run``."""

from __future__ import annotations

import json

import pytest

from lobstack_eval.main import main
from standin import GatewayConfig, StandInGateway
from standin.drifting import is_broken, is_wobbly
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
