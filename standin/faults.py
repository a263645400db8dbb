"""Fault injection: which requests the stand-in gateway answers badly, decided reproducibly.

Two sources, never mixed for one model name:

- Probabilistic faults from
  ``--faults "429:0.2,503:0.1,timeout:0.05,drop:0.05,garbage:0.02,slow:0.1"``. Each token is
  ``kind:probability``; the kinds are checked in the order written against one seeded draw
  ``unit(seed, body digest, attempt)``, so their probabilities add up (the sum must be at most 1).
  ``attempt`` counts how often this same model + body was seen before, which lets a retried
  identical request get a different outcome while a whole run stays reproducible for a given seed.
- Scripted faults by model suffix: ``ref/oracle~429,200`` answers 429 to the first attempt of every
  distinct body and normally to the second; after the list, answers are normal. A model with a
  suffix gets no probabilistic faults, so tests see exactly their script.

Kinds: an HTTP status 400-599 (an OpenAI error body), ``inbody<status>`` (a 200 whose body is
``{"error": {"code": <status>, ...}}``, as OpenRouter sends), ``timeout`` (stall ``timeout_sleep_s``
and close without answering), ``drop`` (close without answering), ``garbage`` (200 with a non-JSON
body), ``empty`` (200 with ``{}``), ``slow`` (answer normally 1 s later), the hostile kinds of
``standin.hostile`` (a status 600-999 among them), the coded kinds of ``standin.codings``, the
streamed kinds of ``standin.streamed`` (an endless body, a 1 TiB ``Content-Length``, a drip) and, in
scripts only, ``200`` (answer normally), the hostile-text kinds and ``#label`` tokens of
standin/hostile_text.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.errors import UsageError
from standin.codings import CODED_KINDS
from standin.hashing import unit
from standin.hostile import HOSTILE_KINDS
from standin.hostile_text import TEXT_KINDS, is_label
from standin.sse import STREAM_KINDS
from standin.streamed import STREAMED_KINDS

NAMED_KINDS = (
    "timeout",
    "drop",
    "garbage",
    "empty",
    "slow",
    *HOSTILE_KINDS,
    *CODED_KINDS,
    *STREAMED_KINDS,
)
# Users reach for --faults to script a sequence; the error says where a script goes.
SCRIPT_HINT = (
    'a scripted sequence goes in the model name instead: record --model "ref/oracle~429,200"'
)
NORMAL = "200"
SLOW_EXTRA_S = 1.0


@dataclass(frozen=True)
class FaultRule:
    """One ``kind:probability`` token."""

    kind: str
    probability: float


@dataclass(frozen=True)
class FaultSpec:
    """The probabilistic faults of a gateway; the default (no rules) never injects anything."""

    rules: tuple[FaultRule, ...] = ()

    def decide(self, seed: int, body_digest: str, attempt: int) -> str | None:
        """The fault kind for this attempt (1-based) of this body, or ``None`` for a
        normal answer."""
        if not self.rules:
            return None
        draw = unit("fault", seed, body_digest, attempt)
        edge = 0.0
        for rule in self.rules:
            edge += rule.probability
            if draw < edge:
                return rule.kind
        return None


IN_BODY = "inbody"
IN_CHOICE = "inchoice"  # OpenRouter's upstream failure: the error inside choices[0] of a 200


def is_fault_kind(token: str) -> bool:
    """True for a status 400-999 written as digits (400-599 after ``inbody``) or one of the
    named kinds."""
    if token in NAMED_KINDS or token in TEXT_KINDS or token in STREAM_KINDS:
        return True
    status = token.removeprefix(IN_BODY).removeprefix(IN_CHOICE)
    highest = 599 if token.startswith((IN_BODY, IN_CHOICE)) else 999
    return (
        status.isascii() and status.isdigit() and len(status) == 3 and 400 <= int(status) <= highest
    )


def parse_faults(spec: str) -> FaultSpec:
    """Parse a ``--faults`` value; raises ``UsageError`` naming the bad token. An empty string
    means none."""
    rules: list[FaultRule] = []
    seen: set[str] = set()
    for raw in spec.split(","):
        token = raw.strip()
        if not token:
            continue
        kind, sep, prob_text = token.partition(":")
        kind = kind.strip()
        if not sep or not is_fault_kind(kind):
            raise UsageError(
                f"--faults: bad token {token!r}: expected kind:probability with kind an HTTP "
                "status 400-999, inbody<status>, inchoice<status> or one of "
                f"{', '.join(NAMED_KINDS)}; {SCRIPT_HINT}"
            )
        try:
            probability = float(prob_text)
        except ValueError:
            probability = float("nan")
        if not 0.0 <= probability <= 1.0:  # also rejects NaN
            raise UsageError(
                f"--faults: bad token {token!r}: probability must be a number from 0 to 1"
            )
        if kind in seen:
            raise UsageError(f"--faults: bad token {token!r}: kind {kind} given twice")
        seen.add(kind)
        rules.append(FaultRule(kind, probability))
    total = sum(rule.probability for rule in rules)
    if total > 1.0 + 1e-9:
        raise UsageError(f"--faults: probabilities add up to {total!r}, more than 1")
    return FaultSpec(tuple(rules))


def split_model_suffix(model: str) -> tuple[str, tuple[str, ...]] | None:
    """Split ``base~k1,k2`` into ``(base, (k1, k2))``; ``None`` when a scripted token is not a
    fault kind."""
    base, sep, script_text = model.partition("~")
    if not sep:
        return base, ()
    script = tuple(t.strip() for t in script_text.split(","))
    if not script or not all(t == NORMAL or is_fault_kind(t) or is_label(t) for t in script):
        return None
    return base, tuple(t for t in script if not is_label(t))


def scripted_fault(script: tuple[str, ...], attempt: int) -> str | None:
    """The scripted kind for attempt ``attempt`` (1-based), ``None`` once the script is used up
    or says 200."""
    if attempt > len(script) or script[attempt - 1] == NORMAL:
        return None
    return script[attempt - 1]
