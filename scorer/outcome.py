"""What a run produced for one case: its attempts, the steps it reached, and its status."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.judge import StepVerdict
from scorer.status import Status, is_scored
from scorer.suite.model import Case
from scorer.wire.response import ModelResponse


@dataclass(frozen=True)
class Attempt:
    """One HTTP attempt. ``outcome`` is ``ok``, ``http_<status>``, ``timeout``, ``network_error`` or
    ``malformed``; ``cost_usd`` is the price's text as sent (the cost header's, else the 2xx
    body's ``usage.cost``: ``cost_source`` is then ``"body"``; None when neither is there) and
    ``dropped_params`` the raw header text; ``lobstack`` says the answer came from a gateway that
    reports dropped parameters (``scorer.wire.headers.speaks_lobstack``)."""

    step: int
    attempt: int
    outcome: str
    status: int | None
    wall_ms: float | None
    cost_usd: str | None = None
    dropped_params: str | None = None
    cost_source: str | None = None
    lobstack: bool = False
    first_byte_ms: float | None = None  # streamed answers: time to the first byte of the body

    @property
    def answered(self) -> bool:
        """True when the attempt got an HTTP answer (any status)."""
        return self.status is not None


@dataclass(frozen=True)
class StepRecord:
    """A reached step: the response (None when it got none) and the judge's verdict (None when
    not judged)."""

    index: int
    response: ModelResponse | None
    verdict: StepVerdict | None


@dataclass(frozen=True)
class CaseOutcome:
    """The case's status, the reason it is not passed (None when passed), its steps and
    its attempts."""

    case: Case
    status: Status
    reason: str | None
    steps: tuple[StepRecord, ...]
    attempts: tuple[Attempt, ...]

    @property
    def scored(self) -> bool:
        return is_scored(self.status)
