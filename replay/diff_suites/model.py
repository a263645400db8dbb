"""The records of a suite comparison: each case's change, the whole diff and the bump
it requires."""

from __future__ import annotations

from dataclasses import dataclass

BUMPS: tuple[str, ...] = ("lower", "none", "patch", "minor", "major")
KIND_TEXT = {
    "added": "added",
    "removed": "removed",
    "request_changed": "request-changed",
    "check_changed": "check-changed",
    "unchanged": "unchanged",
}


@dataclass(frozen=True)
class CaseChange:
    """One case id and how it changed; ``what`` names the fields that differ."""

    case_id: str
    kind: str  # added | removed | request_changed | check_changed | unchanged
    what: tuple[str, ...] = ()


@dataclass(frozen=True)
class SuiteDiff:
    """Everything that differs between OLD and NEW, and the bump it requires against the
    bump made."""

    name_old: str
    name_new: str
    version_old: str
    version_new: str
    system_prompt_changed: bool
    tools_added: tuple[str, ...]
    tools_removed: tuple[str, ...]
    tools_changed: tuple[str, ...]
    cases: tuple[CaseChange, ...]  # NEW's order, then the removed cases in OLD's order
    other_changes: tuple[str, ...]  # other top-level fields that differ
    required: str  # a member of BUMPS other than "lower"
    required_because: str
    actual: str  # a member of BUMPS

    def of_kind(self, kind: str) -> tuple[CaseChange, ...]:
        """The cases of one kind, in order."""
        return tuple(c for c in self.cases if c.kind == kind)

    @property
    def same_suite(self) -> bool:
        """OLD and NEW are versions of one suite (the same ``name``); otherwise no bump can
        be right."""
        return self.name_old == self.name_new

    @property
    def bump_ok(self) -> bool:
        """Same suite, and NEW's version is at least what the changes require."""
        return self.same_suite and BUMPS.index(self.actual) >= BUMPS.index(self.required)
