"""How ``record`` records, as one frozen value: how many processes, how long an attempt may take
and how fast retries back off, the largest answer kept, and what is the gateway's (the price header
and the wire: dialect, streaming, settings). ``record`` takes it whole and hands it whole to every
worker process (``CaseTask``), so a new setting is one field here, not a parameter threaded through
every layer."""

from __future__ import annotations

from dataclasses import dataclass

from recorder.answer_limits import DEFAULT_MAX_ANSWER_MB
from recorder.gateway import Gateway
from recorder.transport import DEFAULT_TIMEOUT_S
from scorer.wire.openai_chat import COST_HEADER
from scorer.wire.settings import METHOD_WIRE, Wire


@dataclass(frozen=True)
class RecordSettings:
    """``concurrency`` worker processes (1: in this process); ``timeout_s`` per attempt;
    ``backoff_scale`` multiplies the method's retry waits (0 in tests); ``max_answer_mb`` caps each
    answer's decoded body (a larger one is a transport error of its attempt); ``cost_header`` names
    the header that prices each answer and ``wire`` is the run's dialect, streaming and settings
    (both kept in run.json, so rescore reads them)."""

    concurrency: int = 4
    timeout_s: float = DEFAULT_TIMEOUT_S
    backoff_scale: float = 1.0
    max_answer_mb: float = DEFAULT_MAX_ANSWER_MB
    cost_header: str = COST_HEADER
    wire: Wire = METHOD_WIRE

    def gateway(self, url: str, repeat: int = 1) -> Gateway:
        """The run's gateway at API root ``url``, for a case-run of repeat ``repeat``."""
        return Gateway(url, self.wire, self.cost_header, repeat)


DEFAULTS = RecordSettings()  # the method's request, 4 processes, the default limits
