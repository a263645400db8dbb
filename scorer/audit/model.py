"""What the audit generates and finds: answers to one step, the findings, per-case and
suite totals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    """One generated answer to step ``step`` of a case: its calls as sent (name, arguments object)
    or a text.

    ``wrong`` marks a mutant (the judge must fail it) against a right answer (the judge must pass
    it). ``call`` is the expected call it changes and ``path`` the keys down to the argument or
    nested field it changes, when it changes one; ``arg`` is that path dotted, for display and for
    matching ``audit_accept`` markers (a name that holds a dot reads like a nested field there);
    ``value`` is the generated value (``has_value`` False when the argument was left out).
    """

    step: int
    wrong: bool
    kind: str
    calls: tuple[tuple[str, dict[str, Any]], ...]
    content: str | None = None
    call: int | None = None
    arg: str | None = None
    value: Any = None
    has_value: bool = False
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    """A surviving mutant or a rejected right answer: the answer, the tool of the call it changes,
    and the check that let it through or refused it (as the suite writes it, or the judge's
    reason); ``accepted`` is the suite's ``audit_accept`` reason when the method accepts
    this survivor."""

    case_id: str
    answer: Answer
    tool: str | None
    check: str
    accepted: str | None = None


@dataclass(frozen=True)
class CaseAudit:
    """One case's audit: counts, survivors (accepted ones too), rejected right answers, and markers
    that matched no survivor (stale: the check was tightened or the generator changed)."""

    case_id: str
    mutants_tried: int
    mutants_killed: int
    rights_tried: int
    rights_accepted: int
    survivors: tuple[Finding, ...]
    rejected: tuple[Finding, ...]
    stale_accepts: tuple[str, ...]

    @property
    def failed(self) -> bool:
        """True when a mutant survives without a marker, a right answer is refused, or a marker
        is stale."""
        return bool(
            self.rejected or self.stale_accepts or any(f.accepted is None for f in self.survivors)
        )


@dataclass(frozen=True)
class SuiteAudit:
    """The audit of every case of a suite, in suite order."""

    name: str
    version: str
    cases: tuple[CaseAudit, ...]

    def total(self, field: str) -> int:
        """The sum of one count over the cases (``mutants_tried``, ``mutants_killed``, ...)."""
        return sum(getattr(case, field) for case in self.cases)

    @property
    def accepted_survivors(self) -> int:
        """Survivors the suite marks as accepted by the method."""
        return sum(1 for case in self.cases for f in case.survivors if f.accepted is not None)

    @property
    def failed(self) -> bool:
        """True when any case failed its audit (the command exits 1)."""
        return any(case.failed for case in self.cases)
