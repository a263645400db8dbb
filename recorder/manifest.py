"""``run.json``: what was recorded for one model, and how each attempt went (CONTRACTS section 3)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recorder.client import COST_HEADER
from recorder.files import read_json, write_atomic
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


def recorder_version() -> str:
    """The installed lobstack-eval version (written into every manifest)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lobstack-eval")
    except PackageNotFoundError:
        return "0+unknown"


def _case_json(case: RecordedCase) -> dict[str, Any]:
    return {
        "status": case.status,
        "reason": case.reason,
        "suite_version": case.suite_version,
        "attempts": [a.__dict__ for a in case.attempts],
    }


@dataclass
class Manifest:
    """The run manifest of one model dir (mutable while recording; written whole after every case-run).

    ``cases`` are repeat 1 (the K = 1 layout); ``repeat_cases[n]`` holds repeat n >= 2. ``repeats`` is the K
    asked for; the K the dir has is ``repeat_count`` (also counting repeats recorded beyond it)."""

    model: str
    model_slug: str
    base_url: str
    recorder_version: str
    suite: dict[str, str]
    temperature_ignored: bool = False
    cases: dict[str, RecordedCase] = field(default_factory=dict)
    cost_header: str = DEFAULT_COST_HEADER
    repeats: int = 1
    repeat_cases: dict[int, dict[str, RecordedCase]] = field(default_factory=dict)

    @property
    def repeat_count(self) -> int:
        """K: the repeats asked for, or more when more were recorded."""
        return max([self.repeats, *(n for n, cases in self.repeat_cases.items() if cases)])

    def entry(self, case_id: str, repeat: int = 1) -> RecordedCase | None:
        """The entry of ``case_id``'s repeat ``repeat``, None when not recorded."""
        return self.cases.get(case_id) if repeat == 1 else self.repeat_cases.get(repeat, {}).get(case_id)

    def set_entry(self, case_id: str, repeat: int, entry: RecordedCase) -> None:
        """Record ``entry`` as ``case_id``'s repeat ``repeat``."""
        if repeat == 1:
            self.cases[case_id] = entry
        else:
            self.repeat_cases.setdefault(repeat, {})[case_id] = entry

    def to_json(self) -> str:
        """Deterministic text: sorted keys, floats by repr. A K = 1 manifest has no repeat fields at all."""
        document: dict[str, Any] = {
            "format_version": FORMAT_VERSION,
            "model": self.model,
            "model_slug": self.model_slug,
            "base_url": self.base_url,
            "cost_header": self.cost_header,
            "recorder_version": self.recorder_version,
            "suite": self.suite,
            "temperature_ignored": self.temperature_ignored,
            "cases": {case_id: _case_json(case) for case_id, case in sorted(self.cases.items())},
        }
        if self.repeat_count > 1:
            document["repeats"] = self.repeat_count
        if any(self.repeat_cases.values()):
            document["repeat_cases"] = {
                str(n): {case_id: _case_json(case) for case_id, case in sorted(cases.items())}
                for n, cases in sorted(self.repeat_cases.items())
                if cases
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
        write_atomic(model_dir / MANIFEST, self.to_json())


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
    cases = _cases(_need(data, "cases", dict, path), path)
    repeats = data.get("repeats", 1)
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise CassetteError(f"{path}: field 'repeats' must be a whole number >= 1")
    repeat_cases: dict[int, dict[str, RecordedCase]] = {}
    raw_repeats = data.get("repeat_cases", {})
    if not isinstance(raw_repeats, dict):
        raise CassetteError(f"{path}: field 'repeat_cases' is not an object")
    for key, entries in raw_repeats.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) >= 2 and isinstance(entries, dict)):
            raise CassetteError(f"{path}: repeat_cases[{key!r}] must map a repeat number >= 2 to case entries")
        repeat_cases[int(key)] = _cases(entries, path, f" (repeat {key})")
    return Manifest(
        model=_need(data, "model", str, path),
        model_slug=_need(data, "model_slug", str, path),
        base_url=_need(data, "base_url", str, path),
        recorder_version=str(data.get("recorder_version", "")),
        suite={k: suite[k] for k in ("name", "version", "sha256")},
        temperature_ignored=bool(data.get("temperature_ignored", False)),
        cases=cases,
        repeats=repeats,
        repeat_cases=repeat_cases,
        cost_header=_cost_header(data, path),
    )


def _cases(raw: dict[str, Any], path: Path, where: str = "") -> dict[str, RecordedCase]:
    cases: dict[str, RecordedCase] = {}
    for case_id, entry in raw.items():
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
            cases[case_id] = RecordedCase(
                str(entry["status"]), entry.get("reason"), entry.get("suite_version"), attempts
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CassetteError(f"{path}: case {case_id!r}{where} has a malformed entry ({exc!r})") from None
    return cases


def _cost_header(data: dict[str, Any], path: Path) -> str:
    """The header the run's prices were read from; manifests written before ``--cost-header`` used the default."""
    value = data.get("cost_header", DEFAULT_COST_HEADER)
    if not isinstance(value, str) or not value:
        raise CassetteError(f"{path}: field 'cost_header' must be a header name")
    return value.lower()
