"""``ref/flaky``: right or wrong by a seeded draw per answer, so repeated identical requests get
different answers. It imitates a real model's non-determinism at temperature 0 (for
``record --repeats``).

Each case has a pass probability fixed by its id alone (``flaky_probability``: some cases always
pass, some never, the rest 1/4, 1/2 or 3/4). Each step of a case of s steps is answered right with
probability p^(1/s), so the case passes with probability p. The draw hashes (seed, case id, step,
the repeat the request names: ``Ask.occurrence``, the ``X-Lobstack-Repeat`` header that ``record
--repeats`` sends from repeat 2 on, else 1, and the gateway's run when it serves one), so the
answer depends on the request and its repeat alone: any gateway with the same seed answers a
recording the same way, whatever it answered before and in whatever order the requests come
(``--concurrency``), while the repeats of one case differ. A wrong step gets one of the
mistakes that always fail a step (a schema-invalid argument or a wrong unchecked value may still
pass one), picked by the same draw.
"""

from __future__ import annotations

from standin.hashing import pick, unit
from standin.models import NONE_MISTAKE, UNKNOWN_TEXT, mistaken, oracle
from standin.reply import Ask, Reply

FAILING_MISTAKES = (
    "missing_or_extra_call",
    "made_up_tool",
    "non_json_arguments",
    "text_instead_of_calls",
)
FLAKY_PROBABILITIES = (1.0, 0.0, 0.25, 0.5, 0.75)


def flaky_probability(case_id: str) -> float:
    """The chance that ``ref/flaky`` passes case ``case_id`` (by the id alone, whatever
    the seed)."""
    return FLAKY_PROBABILITIES[pick(len(FLAKY_PROBABILITIES), "flaky-p", case_id)]


def flaky(ask: Ask) -> Reply:
    """Right with the case's probability, drawn afresh for every repeat of the same request."""
    pos = ask.position
    if pos is None:
        return Reply(UNKNOWN_TEXT)
    step = pos.step
    keys: tuple[object, ...] = ("flaky", ask.seed, pos.case.id, pos.step_index, ask.occurrence)
    if (
        ask.run is not None
    ):  # each run of a history draws afresh; without a run, the draws as they always were
        keys += ("run", ask.run)
    if step is None or unit(*keys) < flaky_probability(pos.case.id) ** (1 / len(pos.case.steps)):
        return oracle(ask)
    if step.expect != "call":
        return mistaken(ask, NONE_MISTAKE)
    return mistaken(ask, FAILING_MISTAKES[pick(len(FAILING_MISTAKES), "flaky-mistake", *keys)])
