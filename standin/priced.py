"""Two models for the pick (``lobstack-eval pick``): the oracle at a fifth of its price, and the
same cheap model wrong on a twentieth of the cases (by case id), 5 points worse on the Lobstack
suite (4 of its 80 cases).

- ``ref/oracle-mini``: answers exactly as ``ref/oracle``; priced at a fifth of it (pricing.py).
- ``ref/mini-worse``: ``ref/oracle-mini``, but in a case whose id a seeded hash picks (1 in 20) its
  first step is answered wrong (text instead of its calls; a call where none is needed).
"""

from __future__ import annotations

from standin.hashing import pick
from standin.models import NONE_MISTAKE, mistaken, oracle
from standin.reply import Ask, Reply

# The salt that picks 4 of the Lobstack suite's 80 cases (5 points): no_call-12, parallel-11,
# chains-05, chains-08.
WORSE_SALT = "mini-worse-1"


def oracle_mini(ask: Ask) -> Reply:
    """The oracle's answers (only the price differs)."""
    return oracle(ask)


def worse_case(case_id: str) -> bool:
    """Whether ``ref/mini-worse`` fails this case."""
    return pick(20, WORSE_SALT, case_id) == 0


def mini_worse(ask: Ask) -> Reply:
    """The oracle but at the first step of a case ``worse_case`` picks."""
    pos = ask.position
    if pos is None or pos.step_index != 0 or not worse_case(pos.case.id):
        return oracle(ask)
    step = pos.step
    if step is not None and step.expect == "call":
        return mistaken(ask, "text_instead_of_calls")
    return mistaken(ask, NONE_MISTAKE)
