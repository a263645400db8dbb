"""The suite model (docs/FORMATS.md, "Suite file") as frozen objects: tools, cases, steps,
expected calls and checks."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from scorer.checks import CHECKS, run_check
from scorer.schema.subset import schema_errors
from scorer.suite.kind import group_order

GROUPS = ("selection", "arguments", "near_misses", "no_call", "parallel", "chains")


@dataclass(frozen=True)
class Check:
    """One argument check: ``op`` is a key of ``scorer.checks.CHECKS``."""

    op: str
    operand: Any

    def holds(self, present: bool, value: Any) -> bool:
        """True when the check holds."""
        return CHECKS[self.op](present, value, self.operand)

    def run(self, present: bool, value: Any) -> str | None:
        """None when the check holds, else what was wrong."""
        return run_check(self.op, self.operand, present, value)


@dataclass(frozen=True)
class AuditAccept:
    """A wrong answer ``suite audit`` generates that this call's checks let through on purpose
    (METHOD.md, audit-accept): the argument (a dotted path for a nested field), the generator's
    kind, optionally the exact generated value, and why the method accepts it. It changes no
    verdict; the audit reports it as accepted."""

    arg: str
    kind: str
    reason: str
    value: Any = None
    has_value: bool = False


@dataclass(frozen=True)
class ExpectedCall:
    """An expected call: its tool, the checks per top-level argument, a passing reference, the
    scripted result, and the audit's accepted survivors (no effect on judging)."""

    name: str
    args: tuple[tuple[str, tuple[Check, ...]], ...]
    reference: dict[str, Any] | None
    result: str | None
    audit_accept: tuple[AuditAccept, ...] = ()


@dataclass(frozen=True)
class Step:
    """``expect`` is ``"call"`` (with ``calls``) or ``"none"``."""

    expect: Literal["call", "none"]
    calls: tuple[ExpectedCall, ...] = ()


@dataclass(frozen=True)
class Case:
    """One case: the tools it offers (in request order), its messages after the system message, its
    steps; ``draft`` says what the author still has to edit (``suite new`` writes it; it changes
    no verdict)."""

    id: str
    group: str
    tools: tuple[str, ...]
    messages: tuple[dict[str, Any], ...]
    steps: tuple[Step, ...]
    draft: str | None = None


@dataclass(frozen=True)
class Tool:
    """A catalogue tool: the OpenAI-style spec as written, and a validator for its parameters."""

    name: str
    spec: dict[str, Any]
    validator: Any = field(compare=False, repr=False)
    # Verdicts by the exact argument text: many models send the same arguments, and validation
    # is pure.
    _verdicts: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    def errors(self, arguments: Any) -> list[str]:
        """Schema validation messages of ``arguments`` (empty when valid)."""
        return schema_errors(self.validator, arguments)

    def is_valid(self, arguments: Any, text: str | None = None) -> bool:
        """True when ``arguments`` validate (jsonschema's ``is_valid``: stops at the first error, no
        messages). ``text``, the JSON the arguments were parsed from, keys a memo of verdicts."""
        if text is None:
            return bool(self.validator.is_valid(arguments))
        verdict = self._verdicts.get(text)
        if verdict is None:
            verdict = self._verdicts[text] = bool(self.validator.is_valid(arguments))
        return verdict


@dataclass(frozen=True)
class Suite:
    """A loaded, validated suite; ``sha256`` is the hex digest of the file's bytes."""

    name: str
    version: str
    released: str
    system_prompt: str
    tools: dict[str, Tool]
    cases: tuple[Case, ...]
    sha256: str
    source: str
    # Validators of the tools as the origin lists them (docs/FORMATS.md, "Tool schemas of own
    # suites"): suite check and audit compare the suite with them; judging never reads them.
    origin_tools: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def case(self, case_id: str) -> Case:
        """The case with this id (KeyError when absent)."""
        return self._by_id()[case_id]

    def _by_id(self) -> dict[str, Case]:
        cache = self.__dict__.get("_case_index")
        if cache is None:
            cache = {case.id: case for case in self.cases}
            object.__setattr__(self, "_case_index", cache)
        return cache

    def group_counts(self) -> dict[str, int]:
        """Number of cases per group: the Lobstack suite's six in the method page's order, another
        suite's in the order they first appear (``scorer.suite.kind.group_order``)."""
        return group_order(self.name, Counter(case.group for case in self.cases))


@dataclass(frozen=True)
class SuiteCheck:
    """What ``suite check`` reports: every problem, and the group counts."""

    problems: tuple[str, ...]
    group_counts: dict[str, int]
    suite: Suite | None
