"""``suite audit``: does every check tell a right answer from a wrong one?

For each case, wrong answers (mutants) and right answers are generated from the case itself (its
tools' schemas, its expected calls and their references, and for right answers the method's
tolerances), and each goes through the real judge (``scorer.judge.judge_step`` on a body read by
``parse_completion``). A wrong answer that passes names a check too loose; a right answer that
fails, a check too strict (docs/METHOD.md, suite-audit).
"""

from __future__ import annotations

from scorer.audit.model import Answer, CaseAudit, Finding, SuiteAudit
from scorer.audit.run import audit_case, audit_suite

__all__ = ["Answer", "CaseAudit", "Finding", "SuiteAudit", "audit_case", "audit_suite"]
