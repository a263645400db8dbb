"""What the first answers of a record run already say: that the rest is futile, or that no answer
is priced.

- The same refusal (HTTP 401, 403 or 404, same reason) for each of the first ``FUTILE_AFTER``
  case-runs of a run means a wrong key or model name: the run starts no other case-run (decision
  ``METHOD.md#stop-when-futile``). So does a connection that could not be opened for each of
  them, every retry included (refused, no such host, no route: ``recorder.unreachable``): no
  gateway is there (decision ``recording.md#stop-when-unreachable``).
- After a run in which no 2xx answer carried a price (the cost header, or OpenRouter's
  ``usage.cost``), the user is told, naming the header: otherwise they learn it from a ``-`` in
  the leaderboard.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from recorder.answer_body import recorded_bytes
from recorder.manifest import RecordedCase
from recorder.repeats import CaseRun, run_cassette_path
from scorer import strict_json
from scorer.safe_text import for_terminal
from scorer.wire.headers import gateway_header, price, recorded_headers
from scorer.wire.prices import attempt_price

FUTILE_AFTER = 3


class FutileWatch:
    """Watches the case-runs of one run as they finish; ``verdict`` is the line to stop with,
    once futile (``stop_line`` adds what became of the case-runs)."""

    def __init__(self, model: str, base_url: str = "", after: int = FUTILE_AFTER) -> None:
        self.model = model
        self.base_url = base_url  # as shown: no credentials (``Endpoint.url``)
        self.after = after
        self.kinds: list[tuple[str, str] | None] = []
        self.verdict: str | None = None
        self.unreachable = False  # the verdict is that no gateway answered at the base URL

    @property
    def settled(self) -> bool:
        """True once the run is futile or cannot be: the first ``after`` case-runs are counted, or
        one counted so far already differs from the first (an answer, another refusal)."""
        return len(self.kinds) >= self.after or not self._alike()

    @property
    def awaiting(self) -> int:
        """How many case-runs are still to be counted before the run is settled."""
        return 0 if self.settled else self.after - len(self.kinds)

    def _alike(self) -> bool:
        """True while every case-run counted is futile the same way: the same refusal, or no
        connection (whatever the cause)."""
        if not self.kinds:
            return True
        first = self.kinds[0]
        if first is None:
            return False
        if first[0] == "refused":
            return all(k == first for k in self.kinds)
        return all(k is not None and k[0] == first[0] for k in self.kinds)

    def observe(self, entry: RecordedCase, unreachable: str | None = None) -> None:
        """Count one finished case-run of this run (only until settled); ``unreachable`` is why
        none of its attempts could connect, when none could."""
        if self.settled:
            return
        if entry.refused_by_gateway:
            self.kinds.append(("refused", entry.reason or "refused"))
        elif unreachable is not None and entry.errored_by_transport:
            self.kinds.append(("unreachable", unreachable))
        else:
            self.kinds.append(None)
        counted = self.kinds[0]
        if len(self.kinds) < self.after or counted is None or not self._alike():
            return
        kind, first = counted
        if kind == "refused":
            self.verdict = (
                f"the gateway refused the first {self.after} case-runs for {self.model} the same "
                f"way ({first}); stopped before sending the rest. Check the key, --model and "
                "--base-url (an OpenAI-style one usually ends in /v1)"
            )
        else:
            self.unreachable = True
            self.verdict = (
                f"no gateway answered at {self.base_url}: the first {self.after} case-runs for "
                f"{self.model} could not connect, each after its retries ({first}); stopped "
                "before sending the rest. Is the gateway running? For the local stand-in, start "
                "it with `lobstack-eval gateway`; else check --base-url"
            )

    def stop_line(self, removed: Path | None) -> str:
        """The verdict and what became of the futile case-runs: kept (the same command asks them
        again), or ``removed``, the model dir this run made and that holds no answer."""
        what = "transport errors" if self.unreachable else "refusals"
        if removed is not None:
            return (
                f"{self.verdict} ({removed} was made by this run and held only these {what}, so "
                "it is removed)"
            )
        if self.unreachable:
            return (
                f"{self.verdict} (the case-runs are kept as transport errors; the same command "
                "records them again)"
            )
        return (
            f"{self.verdict} (the refusals are kept as recorded; the same command records them "
            "again)"
        )


def _priced(cassette: Path, cost_header: str) -> bool | str | None:
    """True when a 2xx answer of ``cassette`` carries a price; else the first unreadable value of
    the cost header (a str: two values, a negative or ``NaN`` one), else False when it has 2xx
    answers; None when it has no 2xx answer (or cannot be read: replay says so)."""
    try:
        interactions = strict_json.loads_file(cassette.read_bytes())["interactions"]
        seen: bool | str | None = None
        for interaction in interactions:
            response = interaction["response"]
            status = int(response["status"]["code"])
            if not 200 <= status < 300:
                continue
            header = gateway_header(recorded_headers(response.get("headers", {})), cost_header)
            text = attempt_price(header, status, recorded_bytes(response["body"]))[0]
            if price(text) is not None:
                return True
            if not isinstance(seen, str):
                seen = text if text is not None else False
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return seen


def unpriced(model_dir: Path, runs: Iterable[CaseRun], cost_header: str) -> str | None:
    """The warning to print when this run's 2xx answers carried no price at all, else None."""
    answered = [
        _priced(run_cassette_path(model_dir, run.case_id, run.repeat), cost_header) for run in runs
    ]
    if True in answered or not any(a is not None for a in answered):
        return None
    unreadable = next((a for a in answered if isinstance(a, str)), None)
    if unreadable is not None:  # present but not a price: said, never silently shown as "-"
        held = for_terminal(repr(unreadable[:40]), one_line=True)
        return (
            f"warning: no answer of this run carried a readable price: the header {cost_header} "
            f"held {held}, not one non-negative number, so its cost will show as -; see "
            "docs/GATEWAYS.md"
        )
    return (
        f"warning: no answer of this run carried the price header {cost_header} (nor a usage.cost "
        "in the body), so its cost will show as -; if the gateway prices calls in another header, "
        "name it with --cost-header (see docs/GATEWAYS.md)"
    )
