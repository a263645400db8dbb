"""Audit a case: generate its wrong and right answers, judge each with the real judge, and sort out
survivors (matched against the suite's ``audit_accept`` markers), refused right answers and
stale markers."""

from __future__ import annotations

from scorer.audit.judging import judge_answer, origin_rejects
from scorer.audit.model import Answer, CaseAudit, Finding, SuiteAudit
from scorer.audit.right import step_right
from scorer.audit.values import Sources
from scorer.audit.wrong import step_wrong
from scorer.jsonvalue import json_equal, render
from scorer.suite.model import AuditAccept, Case, ExpectedCall, Suite


def sources(case: Case, suite: Suite, step: int) -> Sources:
    """The request's texts (messages, then the system prompt) and the results of the steps
    before ``step``."""
    texts = [m["content"] for m in case.messages if isinstance(m.get("content"), str)]
    results = [
        call.result for earlier in case.steps[:step] for call in earlier.calls if call.result
    ]
    return Sources("\n".join([*texts, suite.system_prompt]), "\n".join(results), "\n".join(texts))


def answers(case: Case, suite: Suite) -> list[Answer]:
    """Every generated answer to every step of ``case``: per step, its mutants then its
    right answers."""
    out: list[Answer] = []
    for step in range(len(case.steps)):
        out += step_wrong(case, suite, step, sources(case, suite, step))
        out += step_right(case, suite, step)
    return out


def check_text(expected: ExpectedCall, path: tuple[str, ...]) -> str:
    """The checks on the top-level argument of ``path`` (keys from the arguments object down) as
    the suite writes them (``contains "x"``), or a note that the argument has none; an empty
    ``path`` (the answer changes no argument) gives the call's checks."""
    if not path:
        return "the call's checks"
    top = path[0]
    for name, checks in expected.args:
        if name == top:
            return " and ".join(
                c.op if c.op in ("present", "absent") else f"{c.op} {render(c.operand)}"
                for c in checks
            )
    return "no check on this argument"


def _accepted(answer: Answer, expected: ExpectedCall) -> AuditAccept | None:
    for accept in expected.audit_accept:
        same_value = not accept.has_value or (
            answer.has_value and json_equal(accept.value, answer.value)
        )
        if accept.arg == answer.arg and accept.kind == answer.kind and same_value:
            return accept
    return None


def audit_case(case: Case, suite: Suite) -> CaseAudit:
    """Judge every generated answer to ``case``."""
    tried = killed = rights = accepted = 0
    survivors: list[Finding] = []
    rejected: list[Finding] = []
    used: set[tuple[int, int, int]] = set()
    seen: set[str] = set()
    for answer in answers(case, suite):
        key = repr((answer.step, answer.wrong, answer.calls, answer.content))
        if key in seen:  # two generators made the same answer: judge and count it once
            continue
        seen.add(key)
        verdict = judge_answer(answer, case, suite)
        expected = case.steps[answer.step].calls[answer.call] if answer.call is not None else None
        tool = expected.name if expected else None
        if answer.wrong:
            tried += 1
            if not verdict.passed:
                killed += 1
                continue
            marker = _accepted(answer, expected) if expected else None
            if marker is not None:
                j = answer.call if answer.call is not None else 0
                used.add((answer.step, j, expected.audit_accept.index(marker)))  # type: ignore[union-attr]
            check = check_text(expected, answer.path) if expected else "the step's checks"
            looser = origin_rejects(answer, suite, looser_only=True)
            if looser is not None:  # the suite lets through what the tool itself refuses
                check = f"the suite's schema is looser than the origin's, which refuses {looser}"
            survivors.append(
                Finding(case.id, answer, tool, check, marker.reason if marker else None)
            )
        else:
            rights += 1
            refused = origin_rejects(answer, suite) if verdict.passed else None
            if verdict.passed and refused is None:
                accepted += 1
            elif refused is not None:
                reason = f"the suite accepts it but the origin's schema refuses {refused}"
                rejected.append(Finding(case.id, answer, tool, reason))
            else:
                rejected.append(Finding(case.id, answer, tool, verdict.reason or "failed"))
    stale = tuple(
        f"steps[{s}].calls[{j}].audit_accept[{k}]: {m.arg} {m.kind} matches no surviving wrong "
        "answer"
        for s, step in enumerate(case.steps)
        for j, call in enumerate(step.calls)
        for k, m in enumerate(call.audit_accept)
        if (s, j, k) not in used
    )
    return CaseAudit(
        case.id, tried, killed, rights, accepted, tuple(survivors), tuple(rejected), stale
    )


def audit_suite(suite: Suite) -> SuiteAudit:
    """The audit of every case of ``suite``, in suite order."""
    return SuiteAudit(
        suite.name, suite.version, tuple(audit_case(case, suite) for case in suite.cases)
    )
