"""``run.json``: what was recorded for one model, and how each attempt went (CONTRACTS section 3)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recorder.client import COST_HEADER
from recorder.files import inside, read_json, write_atomic
from scorer.errors import CassetteError
from scorer.outcome import Attempt, CaseOutcome

MANIFEST = "run.json"
FORMAT_VERSION = 1
TRANSPORT_OUTCOMES = frozenset(
    {"timeout", "network_error"} | {f"{kind}_{code}" for kind in ("http", "in_body") for code in (429, 502, 503, 504)}
)
DEFAULT_COST_HEADER = COST_HEADER


@dataclass(frozen=True)
class RecordedAttempt:
    """An attempt as the manifest keeps it; ``request_sha256`` ties it to the request it answered."""

    step: int
    attempt: int
    outcome: str
    status: int | None
    wall_ms: float | None
    request_sha256: str | None

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
        return self.status == "errored" and bool(self.attempts) and self.attempts[-1].outcome in TRANSPORT_OUTCOMES


@dataclass
class Manifest:
    """The run manifest of one model dir (mutable while recording; written whole after every case)."""

    model: str
    model_slug: str
    base_url: str
    recorder_version: str
    suite: dict[str, str]
    temperature_ignored: bool = False
    cases: dict[str, RecordedCase] = field(default_factory=dict)
    cost_header: str = DEFAULT_COST_HEADER

    def to_json(self) -> str:
        """Deterministic text: sorted keys, floats by repr."""
        document = {
            "format_version": FORMAT_VERSION,
            "model": self.model,
            "model_slug": self.model_slug,
            "base_url": self.base_url,
            "cost_header": self.cost_header,
            "recorder_version": self.recorder_version,
            "suite": self.suite,
            "temperature_ignored": self.temperature_ignored,
            "cases": {case_id: case_json(case) for case_id, case in sorted(self.cases.items())},
        }
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def use_cost_header(self, cost_header: str, model_dir: Path) -> None:
        """Record prices from ``cost_header`` from now on; rescore reads one header per model dir, so a dir with
        cases priced by another header is a CassetteError (mixing two would misprice the older cases)."""
        if self.cost_header != cost_header and self.cases:
            raise CassetteError(
                f"{model_dir / MANIFEST}: recorded with --cost-header {self.cost_header}, not {cost_header}; "
                "use the same, or --rerecord into another --cassettes dir"
            )
        self.cost_header = cost_header

    def write(self, model_dir: Path) -> None:
        """Write ``run.json`` atomically."""
        write_atomic(inside(model_dir, MANIFEST), self.to_json())


def case_json(case: RecordedCase) -> dict[str, Any]:
    """One case's entry as run.json holds it."""
    return {
        "status": case.status,
        "reason": case.reason,
        "suite_version": case.suite_version,
        "attempts": [a.__dict__ for a in case.attempts],
    }


def parse_case(case_id: str, entry: Any, path: Path) -> RecordedCase:
    """A case entry read back; CassetteError naming the file and case when it is malformed."""
    try:
        attempts = tuple(
            RecordedAttempt(
                step=int(a["step"]),
                attempt=int(a["attempt"]),
                outcome=str(a["outcome"]),
                status=None if a["status"] is None else int(a["status"]),
                wall_ms=None if a["wall_ms"] is None else float(a["wall_ms"]),
                request_sha256=a.get("request_sha256"),
            )
            for a in entry["attempts"]
        )
        return RecordedCase(str(entry["status"]), entry.get("reason"), entry.get("suite_version"), attempts)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CassetteError(f"{path}: case {case_id!r} has a malformed entry ({exc!r})") from None


def recorded_case(outcome: CaseOutcome, digests: list[str], suite_version: str) -> RecordedCase:
    """The manifest entry for a case just recorded; ``digests[i]`` is the sha256 of the request of attempt ``i``."""

    def keep(a: Attempt, digest: str) -> RecordedAttempt:
        return RecordedAttempt(a.step, a.attempt, a.outcome, a.status, a.wall_ms, digest)

    attempts = tuple(keep(a, d) for a, d in zip(outcome.attempts, digests, strict=True))
    return RecordedCase(outcome.status, outcome.reason, suite_version, attempts)


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise CassetteError(f"{path}: field {key!r} is missing or has the wrong type")
    return value


def read_manifest(model_dir: Path) -> Manifest:
    """Load ``run.json``; a missing or corrupt manifest is a CassetteError naming the file and field."""
    path = model_dir / MANIFEST
    data = read_json(path, "run manifest")
    if not isinstance(data, dict):
        raise CassetteError(f"{path}: the run manifest is not a JSON object")
    suite = _need(data, "suite", dict, path)
    if not all(isinstance(suite.get(k), str) for k in ("name", "version", "sha256")):
        raise CassetteError(f"{path}: field 'suite' needs name, version and sha256")
    cases = {case_id: parse_case(case_id, entry, path) for case_id, entry in _need(data, "cases", dict, path).items()}
    return Manifest(
        model=_need(data, "model", str, path),
        model_slug=_need(data, "model_slug", str, path),
        base_url=_need(data, "base_url", str, path),
        recorder_version=str(data.get("recorder_version", "")),
        suite={k: suite[k] for k in ("name", "version", "sha256")},
        temperature_ignored=bool(data.get("temperature_ignored", False)),
        cases=cases,
        cost_header=_cost_header(data, path),
    )


def _cost_header(data: dict[str, Any], path: Path) -> str:
    """The header the run's prices were read from; manifests written before ``--cost-header`` used the default."""
    value = data.get("cost_header", DEFAULT_COST_HEADER)
    if not isinstance(value, str) or not value:
        raise CassetteError(f"{path}: field 'cost_header' must be a header name")
    return value.lower()
