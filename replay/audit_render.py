"""``suite audit``'s outputs: the terminal lines and the ``--json`` document, both from one
``SuiteAudit``."""

from __future__ import annotations

import json
from typing import Any

from scorer.audit import CaseAudit, Finding, SuiteAudit
from scorer.jsonvalue import render


def _where(finding: Finding) -> str:
    answer = finding.answer
    at = f"{finding.case_id} steps[{answer.step}]"
    if answer.call is None:
        return at
    target = f"{finding.tool}.{answer.arg}" if answer.arg is not None else str(finding.tool)
    return f"{at}.calls[{answer.call}] {target}"


def _value(finding: Finding) -> str:
    answer = finding.answer
    if answer.arg is None:
        return "the answer" if answer.content is None else f"text {render(answer.content)}"
    return render(answer.value, 120) if answer.has_value else "(left out)"


def finding_line(finding: Finding) -> str:
    """One survivor or refused right answer: where, the generator, the generated value, and
    the check."""
    answer = finding.answer
    if not answer.wrong:
        return (
            f"REJECTED {_where(finding)} [{answer.kind}] {_value(finding)}: refused by "
            f"{finding.check}"
        )
    head = f"{_where(finding)} [{answer.kind}] {_value(finding)}: passes {finding.check}"
    if finding.accepted is not None:
        return f"ACCEPTED {head} (audit_accept: {finding.accepted})"
    return f"SURVIVES {head}"


def case_line(case: CaseAudit) -> str:
    """``selection-01: wrong answers 9/9 killed, right answers 4/4 accepted`` and what is left."""
    extra = []
    accepted = sum(1 for f in case.survivors if f.accepted is not None)
    if len(case.survivors) > accepted:
        extra.append(f"{len(case.survivors) - accepted} surviving")
    if accepted:
        extra.append(f"{accepted} accepted by the suite")
    if case.stale_accepts:
        extra.append(f"{len(case.stale_accepts)} stale marker(s)")
    tail = f" ({', '.join(extra)})" if extra else ""
    return (
        f"{case.case_id}: wrong answers {case.mutants_killed}/{case.mutants_tried} killed, "
        f"right answers {case.rights_accepted}/{case.rights_tried} accepted{tail}"
    )


def summary_line(audit: SuiteAudit) -> str:
    """The mutation score and the right answers accepted, over the whole suite."""
    tried, killed = audit.total("mutants_tried"), audit.total("mutants_killed")
    score = f"{100 * killed / tried:.1f}%" if tried else "n/a"
    survivors = tried - killed
    return (
        f"{audit.name} {audit.version}: mutation score {killed}/{tried} killed ({score}); "
        f"{survivors} survived, {audit.accepted_survivors} of them accepted by the suite; "
        f"right answers {audit.total('rights_accepted')}/{audit.total('rights_tried')} accepted"
    )


def audit_lines(audit: SuiteAudit) -> list[str]:
    """Every line ``suite audit`` prints: per case, then every finding and stale marker, then
    the summary."""
    lines = [case_line(case) for case in audit.cases]
    for case in audit.cases:
        lines += [finding_line(f) for f in (*case.survivors, *case.rejected)]
        lines += [f"STALE {case.case_id} {marker}" for marker in case.stale_accepts]
    lines.append(summary_line(audit))
    return lines


def _finding(finding: Finding) -> dict[str, Any]:  # free JSON: written by ``suite audit --json``
    answer = finding.answer
    return {
        "accepted": finding.accepted,
        "arg": answer.arg,
        "call": answer.call,
        "check": finding.check,
        "kind": answer.kind,
        "left_out": answer.arg is not None and not answer.has_value,
        "step": answer.step,
        "text": answer.content,
        "tool": finding.tool,
        "value": answer.value if answer.has_value else None,
    }


def audit_document(audit: SuiteAudit, sha256: str) -> dict[str, Any]:
    # free JSON: ``suite audit --json``'s document, written as built
    """The ``--json`` document: the same counts and findings as the terminal lines."""
    return {
        "cases": [
            {
                "id": case.case_id,
                "mutants_killed": case.mutants_killed,
                "mutants_tried": case.mutants_tried,
                "passed": not case.failed,
                "rejected": [_finding(f) for f in case.rejected],
                "rights_accepted": case.rights_accepted,
                "rights_tried": case.rights_tried,
                "stale_accepts": list(case.stale_accepts),
                "survivors": [_finding(f) for f in case.survivors],
            }
            for case in audit.cases
        ],
        "passed": not audit.failed,
        "suite": {"name": audit.name, "sha256": sha256, "version": audit.version},
        "summary": {
            "accepted_survivors": audit.accepted_survivors,
            "mutants_killed": audit.total("mutants_killed"),
            "mutants_tried": audit.total("mutants_tried"),
            "rejected": sum(len(c.rejected) for c in audit.cases),
            "rights_accepted": audit.total("rights_accepted"),
            "rights_tried": audit.total("rights_tried"),
            "stale_accepts": sum(len(c.stale_accepts) for c in audit.cases),
            "survivors": audit.total("mutants_tried") - audit.total("mutants_killed"),
        },
    }


def audit_json(audit: SuiteAudit, sha256: str) -> str:
    """The document as strict JSON text: sorted keys, two-space indent, no NaN, a final newline."""
    return (
        json.dumps(
            audit_document(audit, sha256),
            sort_keys=True,
            indent=2,
            ensure_ascii=False,
            allow_nan=False,
        )
        + "\n"
    )
