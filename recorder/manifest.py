"""``run.json``: what was recorded for one model, and how each attempt went
(docs/FORMATS.md, "run.json")."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fileio.atomic import json_utf8, write_bytes_atomic
from fileio.safe_paths import inside
from recorder.run_stamp import RunStamp
from scorer.errors import CassetteError
from scorer.json_text import dumps_indented
from scorer.outcome import Attempt, CaseOutcome
from scorer.wire.headers import dropped_params
from scorer.wire.openai_chat import COST_HEADER
from scorer.wire.response import TRANSPORT_CODES
from scorer.wire.settings import METHOD_WIRE, Wire

MANIFEST = "run.json"
FORMAT_VERSION = 1
TRANSPORT_OUTCOMES = frozenset(
    {"timeout", "network_error"}
    | {f"{kind}_{code}" for kind in ("http", "in_body") for code in TRANSPORT_CODES}
)
# The gateway refused the request before any model saw it (the key, the access, the model name): not
# an answer.
REFUSED_OUTCOMES = frozenset({"http_401", "http_403", "http_404"})
# Any three-digit status is an answer (HTTP's grammar, and what http.client reads): 600 or 999 from
# a broken gateway is kept like any other non-2xx, never discarded (decision
# METHOD.md#any-three-digit-status).
MIN_STATUS, MAX_STATUS = 100, 999
DEFAULT_COST_HEADER = COST_HEADER


@dataclass(frozen=True)
class RecordedAttempt:
    """An attempt as the manifest keeps it; ``request_sha256`` ties it to the request
    it answered."""

    step: int
    attempt: int
    outcome: str
    status: int | None
    wall_ms: float | None
    request_sha256: str | None
    first_byte_ms: float | None = None  # streamed runs only (docs/FORMATS.md)
    # The answer said it dropped ``temperature`` (``x-lobstack-dropped-params``): run.json's
    # ``temperature_ignored`` is computed from it, as results.json's is (written only when true)
    temperature_dropped: bool = False

    @property
    def answered(self) -> bool:
        return self.status is not None


@dataclass(frozen=True)
class RecordedCase:
    """One case's entry: its status when recorded, and every attempt in order."""

    status: str
    reason: str | None
    suite_version: str | None
    attempts: tuple[RecordedAttempt, ...]

    @property
    def errored_by_transport(self) -> bool:
        """True when the case errored because the last attempt never got a real answer."""
        return (
            self.status == "errored"
            and bool(self.attempts)
            and self.attempts[-1].outcome in TRANSPORT_OUTCOMES
        )

    @property
    def refused_by_gateway(self) -> bool:
        """True when the case errored because the gateway refused the request (HTTP 401, 403
        or 404)."""
        return (
            self.status == "errored"
            and bool(self.attempts)
            and self.attempts[-1].outcome in REFUSED_OUTCOMES
        )

    @property
    def record_again(self) -> bool:
        """``record`` asks again: the last attempt got no answer from a model (transport error
        or refusal)."""
        return self.errored_by_transport or self.refused_by_gateway


@dataclass
class Manifest:
    """The run manifest of one model dir (mutable while recording; written whole after
    every case-run).

    ``cases`` are repeat 1 (the K = 1 layout); ``repeat_cases[n]`` holds repeat n >= 2. ``repeats``
    is the K asked for; the K the dir has is ``repeat_count`` (also counting repeats recorded
    beyond it)."""

    model: str
    model_slug: str
    base_url: str
    recorder_version: str
    suite: dict[str, str]
    # As read from run.json; written as ``dropped_temperature()``, computed from the case-runs
    temperature_ignored: bool = False
    cases: dict[str, RecordedCase] = field(default_factory=dict)
    cost_header: str = DEFAULT_COST_HEADER
    repeats: int = 1
    repeat_cases: dict[int, dict[str, RecordedCase]] = field(default_factory=dict)
    run: RunStamp | None = None  # a run of a history (record --history); None: a plain recording
    wire: Wire = METHOD_WIRE  # dialect, streaming and settings; the default writes no field

    @property
    def repeat_count(self) -> int:
        """K: the repeats asked for, or more when more were recorded."""
        return max([self.repeats, *(n for n, cases in self.repeat_cases.items() if cases)])

    def entry(self, case_id: str, repeat: int = 1) -> RecordedCase | None:
        """The entry of ``case_id``'s repeat ``repeat``, None when not recorded."""
        return (
            self.cases.get(case_id)
            if repeat == 1
            else self.repeat_cases.get(repeat, {}).get(case_id)
        )

    def set_entry(self, case_id: str, repeat: int, entry: RecordedCase) -> None:
        """Record ``entry`` as ``case_id``'s repeat ``repeat``."""
        if repeat == 1:
            self.cases[case_id] = entry
        else:
            self.repeat_cases.setdefault(repeat, {})[case_id] = entry

    def to_json(self) -> str:
        """Deterministic text: sorted keys, floats by repr. A K = 1 manifest has no repeat fields
        at all."""
        document: dict[str, Any] = {
            "format_version": FORMAT_VERSION,
            "model": self.model,
            "model_slug": self.model_slug,
            "base_url": self.base_url,
            "cost_header": self.cost_header,
            "recorder_version": self.recorder_version,
            "suite": self.suite,
            "temperature_ignored": self.dropped_temperature(),
            "cases": {case_id: case_json(case) for case_id, case in sorted(self.cases.items())},
        }
        if self.wire.dialect != Wire().dialect:
            document["dialect"] = self.wire.dialect
        if self.wire.stream:
            document["stream"] = True
        if self.wire.params:
            document["params"] = self.wire.to_json()["params"]
        if self.run is not None:  # a plain recording's run.json is what it always was
            document["run"] = self.run.to_json()
        if self.repeat_count > 1:
            document["repeats"] = self.repeat_count
        if any(self.repeat_cases.values()):
            document["repeat_cases"] = {
                str(n): {case_id: case_json(case) for case_id, case in sorted(cases.items())}
                for n, cases in sorted(self.repeat_cases.items())
                if cases
            }
        return (
            dumps_indented(document) + "\n"
        )  # json.dumps(indent=2, sort_keys=True)'s text, faster

    def dropped_temperature(self) -> bool:
        """True when an answer of a recorded case-run said it dropped ``temperature`` (what
        results.json's ``temperature_ignored`` says true for; its false/null is results.json's
        alone: run.json's is only ever true or false)."""
        every = [
            *self.cases.values(),
            *(c for cases in self.repeat_cases.values() for c in cases.values()),
        ]
        return any(a.temperature_dropped for case in every for a in case.attempts)

    def use_cost_header(self, cost_header: str, model_dir: Path) -> None:
        """Record prices from ``cost_header`` from now on; rescore reads one header per model dir,
        so a dir with cases priced by another header is a CassetteError (mixing two would
        misprice the older cases)."""
        if self.cost_header != cost_header and self.cases:
            raise CassetteError(
                f"{model_dir / MANIFEST}: recorded with --cost-header {self.cost_header}, not "
                f"{cost_header}; use the same, or --rerecord into another --cassettes dir"
            )
        self.cost_header = cost_header

    def use_wire(self, wire: Wire, model_dir: Path) -> None:
        """Record with ``wire`` from now on; a dir holding cases recorded with another dialect,
        streaming or settings is a CassetteError (one run, one wire: rescore replays with it)."""
        if self.wire != wire and self.cases:
            raise CassetteError(
                f"{model_dir / MANIFEST}: recorded as {self.wire.label()}, not {wire.label()}; "
                "use the same --dialect, --stream and --param, or another --cassettes dir"
            )
        self.wire = wire

    def write(self, model_dir: Path) -> None:
        """Write ``run.json`` atomically."""
        write_bytes_atomic(inside(model_dir, MANIFEST), json_utf8(self.to_json()))


def case_json(case: RecordedCase) -> dict[str, Any]:
    """One case's entry as run.json holds it."""
    return {
        "status": case.status,
        "reason": case.reason,
        "suite_version": case.suite_version,
        "attempts": [_attempt_json(a) for a in case.attempts],
    }


def _attempt_json(attempt: RecordedAttempt) -> dict[str, Any]:
    """An attempt as run.json holds it; ``first_byte_ms`` only when measured (a streamed run) and
    ``temperature_dropped`` only when true, so every other run.json reads as it always did."""
    document = dict(attempt.__dict__)
    if document["first_byte_ms"] is None:
        del document["first_byte_ms"]
    if not document["temperature_dropped"]:
        del document["temperature_dropped"]
    return document


def recorded_case(outcome: CaseOutcome, digests: list[str], suite_version: str) -> RecordedCase:
    """The manifest entry for a case just recorded; ``digests[i]`` is the sha256 of the request
    of attempt ``i``."""

    def keep(a: Attempt, digest: str) -> RecordedAttempt:
        dropped = "temperature" in dropped_params(a.dropped_params)
        return RecordedAttempt(
            a.step, a.attempt, a.outcome, a.status, a.wall_ms, digest, a.first_byte_ms, dropped
        )

    attempts = tuple(keep(a, d) for a, d in zip(outcome.attempts, digests, strict=True))
    return RecordedCase(outcome.status, outcome.reason, suite_version, attempts)
