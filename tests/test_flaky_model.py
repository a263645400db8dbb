"""``ref/flaky``: the repeats of one request get different answers, reproducibly from the
gateway's seed and the repeat each request names (``X-Lobstack-Repeat``), never from the order
or number of the requests the gateway saw before."""

from __future__ import annotations

from recorder.gateway import REPEAT_HEADER, Gateway
from standin import GatewayConfig, StandInGateway
from standin.flaky import flaky_probability
from standin.reply import REPEAT_HEADER as STANDIN_REPEAT_HEADER
from tests.gateway_fixtures import CASES, MINI_SUITE, chat_body, post, step_passes

TIMES = 24


def repeat(n: int) -> dict[str, str]:
    """The headers of a request of repeat ``n``, as the recorder sends them."""
    return dict(Gateway("", repeat=n).headers())


def verdicts(seed: int, case_id: str, times: int = TIMES) -> list[bool]:
    """Whether the answer to the step-1 request of ``case_id`` passes in each of repeats
    1..``times``, on a fresh gateway."""
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE, seed=seed)) as gateway:
        body = chat_body(case_id, "ref/flaky")
        return [
            step_passes(case_id, 0, post(gateway, body, headers=repeat(n)))
            for n in range(1, times + 1)
        ]


def flaky_case() -> str:
    return next(c for c in CASES if 0 < flaky_probability(c) < 1 and len(CASES[c]["steps"]) == 1)


def test_the_recorder_and_the_stand_in_name_the_repeat_alike() -> None:
    assert REPEAT_HEADER == STANDIN_REPEAT_HEADER
    assert repeat(1) == {}  # repeat 1 is the method's own request: no header
    assert repeat(3) == {REPEAT_HEADER: "3"}


def test_an_answer_depends_on_the_request_and_its_repeat_not_on_what_came_before() -> None:
    """The nondeterminism two recordings on one gateway showed (a 3-repeat recording at
    --concurrency 1 then 4 got other verdicts): the draw counted the gateway's answers to a body.
    Now the same repeats in another order, asked twice, get the same answers."""
    case_id = flaky_case()
    expected = verdicts(7, case_id, 6)
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE, seed=7)) as gateway:
        body = chat_body(case_id, "ref/flaky")
        for order in ([6, 5, 4, 3, 2, 1], [2, 4, 6, 1, 3, 5]):
            got = {
                n: step_passes(case_id, 0, post(gateway, body, headers=repeat(n))) for n in order
            }
            assert [got[n] for n in range(1, 7)] == expected
        # a request that names no repeat is repeat 1, however often it is asked
        assert [step_passes(case_id, 0, post(gateway, body)) for _ in range(3)] == [expected[0]] * 3


def test_the_probabilities_cover_always_never_and_in_between() -> None:
    probabilities = {case_id: flaky_probability(case_id) for case_id in CASES}
    assert 1.0 in probabilities.values() and 0.0 in probabilities.values()
    assert any(0 < p < 1 for p in probabilities.values())


def test_always_and_never_cases_answer_the_same_verdict_every_time() -> None:
    for case_id, p in ((c, flaky_probability(c)) for c in CASES):
        if p in (0.0, 1.0) and len(CASES[case_id]["steps"]) == 1:
            assert verdicts(0, case_id, 8) == [p == 1.0] * 8, case_id


def test_repeats_of_one_request_differ_and_reproduce_from_the_seed() -> None:
    first = verdicts(7, flaky_case())
    assert True in first and False in first  # the same body got both a right and a wrong answer
    assert verdicts(7, flaky_case()) == first  # a fresh gateway, the same seed: the same answers
    assert verdicts(8, flaky_case()) != first  # another seed: other answers


def test_faulted_attempts_do_not_change_the_draw() -> None:
    """A 429 is not an answer: the retried request of a repeat gets that repeat's answer."""
    case_id = flaky_case()
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE, seed=7)) as gateway:
        body = chat_body(case_id, "ref/flaky~429,200,429,200")
        answers = [post(gateway, body, headers=repeat(n)) for n in (1, 1, 2, 2)]
    assert [a.status_code for a in answers] == [429, 200, 429, 200]
    assert [step_passes(case_id, 0, a) for a in answers if a.status_code == 200] == verdicts(
        7, case_id, 2
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
