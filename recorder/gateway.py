"""Where and how a run talks to its gateway, as one frozen value: the API root, the wire (dialect,
streaming, settings) and the header that prices each answer. ``record`` builds it from its options,
rescore from run.json; the runner and the client read every fact of the wire from it."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.wire.dialect import Dialect, dialect
from scorer.wire.openai_chat import COST_HEADER
from scorer.wire.settings import METHOD_WIRE, Wire

STREAM_ACCEPT = "text/event-stream"
# Which repeat of a case a request belongs to (``record --repeats``), sent from repeat 2 on: a
# repeat's request body is the repeat 1 body, and a gateway that varies its answers across repeats
# (the stand-in's ref/flaky) keys them on this, not on how often it saw the body, so a recording
# is reproducible (docs/decisions/recording.md). Repeat 1 sends nothing: its requests, and every
# single run's, are the method's own.
REPEAT_HEADER = "X-Lobstack-Repeat"


@dataclass(frozen=True)
class Gateway:
    """A run's gateway: ``url`` is the API root (``--base-url``), ``wire`` how requests are
    written, ``cost_header`` the price header."""

    url: str
    wire: Wire = METHOD_WIRE
    cost_header: str = COST_HEADER
    repeat: int = 1  # the case-run's repeat (``REPEAT_HEADER``)

    @property
    def dialect(self) -> Dialect:
        """The wire's dialect."""
        return dialect(self.wire.dialect)

    @property
    def endpoint(self) -> str:
        """The URL requests are sent to."""
        return f"{self.url.rstrip('/')}{self.dialect.path}"

    def headers(self) -> tuple[tuple[str, str], ...]:
        """The headers every request of this case-run carries beside the key (none for the
        method's own request, repeat 1)."""
        extra = {**self.dialect.fixed_headers, **self.wire.extra_headers()}
        if self.wire.stream:
            extra["Accept"] = STREAM_ACCEPT
        if self.repeat > 1:
            extra[REPEAT_HEADER] = str(self.repeat)
        return tuple(extra.items())


METHOD_GATEWAY = Gateway("")  # the method's request and price header, for a reader with no run
