"""``ref/flaky``: repeated identical requests get different answers, reproducibly from the
gateway's seed."""

from __future__ import annotations

from standin import GatewayConfig, StandInGateway
from standin.flaky import flaky_probability
from tests.gateway_fixtures import CASES, MINI_SUITE, chat_body, post, step_passes

TIMES = 24


def verdicts(seed: int, case_id: str, times: int = TIMES) -> list[bool]:
    """Whether each of ``times`` answers to the same step-1 request of ``case_id`` passes, on a
    fresh gateway."""
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE, seed=seed)) as gateway:
        body = chat_body(case_id, "ref/flaky")
        return [step_passes(case_id, 0, post(gateway, body)) for _ in range(times)]


def test_the_probabilities_cover_always_never_and_in_between() -> None:
    probabilities = {case_id: flaky_probability(case_id) for case_id in CASES}
    assert 1.0 in probabilities.values() and 0.0 in probabilities.values()
    assert any(0 < p < 1 for p in probabilities.values())


def test_always_and_never_cases_answer_the_same_verdict_every_time() -> None:
    for case_id, p in ((c, flaky_probability(c)) for c in CASES):
        if p in (0.0, 1.0) and len(CASES[case_id]["steps"]) == 1:
            assert verdicts(0, case_id, 8) == [p == 1.0] * 8, case_id


def test_repeated_identical_requests_differ_and_reproduce_from_the_seed() -> None:
    flaky_case = next(
        c for c in CASES if 0 < flaky_probability(c) < 1 and len(CASES[c]["steps"]) == 1
    )
    first = verdicts(7, flaky_case)
    assert True in first and False in first  # the same body got both a right and a wrong answer
    assert verdicts(7, flaky_case) == first  # a fresh gateway with the same seed: the same sequence
    assert verdicts(8, flaky_case) != first  # another seed: another sequence


def test_faulted_attempts_do_not_use_up_draws() -> None:
    """A 429 is not an answer: the draw sequence only counts what the model answered."""
    flaky_case = next(
        c for c in CASES if 0 < flaky_probability(c) < 1 and len(CASES[c]["steps"]) == 1
    )
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE, seed=7)) as gateway:
        body = chat_body(flaky_case, "ref/flaky~429,200,429,200")
        answers = [post(gateway, body) for _ in range(4)]
    assert [a.status_code for a in answers] == [429, 200, 429, 200]
    assert [step_passes(flaky_case, 0, a) for a in answers if a.status_code == 200] == verdicts(
        7, flaky_case, 2
    )


def test_ref_noisy_answers_a_repeated_request_the_same_and_the_readme_says_so() -> None:
    """Issue 25: ``ref/noisy`` gives identical repeats; the docs name ``ref/flaky`` as the model
    that varies."""
    from tests.conftest import ROOT

    case_id = next(c for c in CASES if len(CASES[c]["steps"]) == 1)
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE, seed=7)) as gateway:
        body = chat_body(case_id, "ref/noisy")
        answers = [post(gateway, body).json()["choices"][0]["message"] for _ in range(6)]
    assert all(a == answers[0] for a in answers)
    readme = " ".join((ROOT / "docs" / "guide-comparing.md").read_text(encoding="utf-8").split())
    assert (
        "To watch repeats disagree on the stand-in gateway, record `ref/flaky`: `ref/noisy`"
        in readme
    )
