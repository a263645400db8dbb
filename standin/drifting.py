"""``ref/drifting``: a model that changes under its name at a known run, for history and
drift tests.

The stand-in serves one "run" at a time (``GatewayConfig.run``, ``gateway --run N``: the provider's
day N). Before ``drift_from`` (``gateway --drift-from N``, default 16) the model is version 1: the
oracle on every case but the wobbly ones (a tenth of the cases, by id alone), each of which passes
or fails by a draw of (seed, run, case, step), so daily runs differ by a case or two as real ones
do. From run ``drift_from`` on it is version 2: the same, but the broken cases (a tenth of the other
cases, chosen by the seed) always fail. The identity changes with it: the answer's ``model``
(``ref/drifting-v1`` -> ``ref/drifting-v2``), its ``system_fingerprint``, and the routing header
``x-lobstack-provider`` (``standin-east`` -> ``standin-west``). Without a run (``run`` None) it is
run 0: version 1, the default gateway's answers every time.
"""

from __future__ import annotations

from standin.flaky import FAILING_MISTAKES
from standin.hashing import pick, unit
from standin.models import NONE_MISTAKE, UNKNOWN_TEXT, mistaken, oracle
from standin.reply import Ask, Reply

NAME = "ref/drifting"
PROVIDER_HEADER = "x-lobstack-provider"
PROVIDERS = {1: "standin-east", 2: "standin-west"}
WOBBLY_SHARE = 0.1  # of the cases, by id: pass or fail by a draw per run
BROKEN_SHARE = 0.1  # of the other cases, by seed: fail from the change on


def drifting_version(run: int | None, drift_from: int) -> int:
    """1 before run ``drift_from``, 2 from it on (run None counts as run 0)."""
    return 2 if (run or 0) >= drift_from else 1


def is_wobbly(case_id: str) -> bool:
    """True for a case that passes or fails by a draw per run (the same cases whatever the seed)."""
    return unit("drifting-wobbly", case_id) < WOBBLY_SHARE


def is_broken(case_id: str, seed: int) -> bool:
    """True for a case that version 2 always fails (never a wobbly one)."""
    return not is_wobbly(case_id) and unit("drifting-broken", seed, case_id) < BROKEN_SHARE


def drifting(ask: Ask) -> Reply:
    """Version 1 or 2 of the model (``drifting_version``), with that version's identity."""
    version = drifting_version(ask.run, ask.drift_from)
    served = f"{NAME}-v{version}"
    headers = ((PROVIDER_HEADER, PROVIDERS[version]),)
    pos = ask.position
    if pos is None:
        return Reply(UNKNOWN_TEXT, model=served, headers=headers)
    case_id, step = pos.case.id, pos.step
    keys = ("drifting", ask.seed, ask.run or 0, case_id, pos.step_index)
    fails = (version == 2 and is_broken(case_id, ask.seed)) or (
        is_wobbly(case_id) and unit(*keys) < 0.5 ** (1 / len(pos.case.steps))
    )
    if step is None or not fails:
        reply = oracle(ask)
    elif step.expect != "call":
        reply = mistaken(ask, NONE_MISTAKE)
    else:
        reply = mistaken(ask, FAILING_MISTAKES[pick(len(FAILING_MISTAKES), "drift-mistake", *keys)])
    return Reply(reply.content, reply.tool_calls, model=served, headers=headers)
