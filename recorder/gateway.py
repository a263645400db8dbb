"""Where and how a run talks to its gateway, as one frozen value: the API root, the wire (dialect,
streaming, settings) and the header that prices each answer. ``record`` builds it from its options,
rescore from run.json; the runner and the client read every fact of the wire from it."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.wire.dialect import Dialect, dialect
from scorer.wire.openai_chat import COST_HEADER
from scorer.wire.settings import METHOD_WIRE, Wire

STREAM_ACCEPT = "text/event-stream"


@dataclass(frozen=True)
class Gateway:
    """A run's gateway: ``url`` is the API root (``--base-url``), ``wire`` how requests are
    written, ``cost_header`` the price header."""

    url: str
    wire: Wire = METHOD_WIRE
    cost_header: str = COST_HEADER

    @property
    def dialect(self) -> Dialect:
        """The wire's dialect."""
        return dialect(self.wire.dialect)

    @property
    def endpoint(self) -> str:
        """The URL requests are sent to."""
        return f"{self.url.rstrip('/')}{self.dialect.path}"

    def headers(self) -> tuple[tuple[str, str], ...]:
        """The headers every request of this run carries beside the key (none for the
        method's own request)."""
        extra = {**self.dialect.fixed_headers, **self.wire.extra_headers()}
        if self.wire.stream:
            extra["Accept"] = STREAM_ACCEPT
        return tuple(extra.items())


METHOD_GATEWAY = Gateway("")  # the method's request and price header, for a reader with no run
