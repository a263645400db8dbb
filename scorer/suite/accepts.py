"""Reading a call's ``audit_accept`` markers: wrong answers the suite lets through on purpose,
with the reason."""

from __future__ import annotations

from typing import Any

from scorer.audit.kinds import ARG_WRONG
from scorer.suite.model import AuditAccept


def parse_accepts(raw: Any, at: str) -> tuple[tuple[AuditAccept, ...], list[str]]:
    """The markers of ``raw`` (a call's ``audit_accept``), and one problem line per
    malformed marker."""
    if raw is None:
        return (), []
    if not isinstance(raw, list):
        return (), [f"{at}: must be a list of {{arg, kind, reason[, value]}} objects"]
    accepts: list[AuditAccept] = []
    problems: list[str] = []
    for index, item in enumerate(raw):
        where = f"{at}[{index}]"
        if not isinstance(item, dict):
            problems.append(f"{where}: must be an object with arg, kind and reason")
            continue
        arg, kind, reason = item.get("arg"), item.get("kind"), item.get("reason")
        if not isinstance(arg, str) or not arg:
            problems.append(
                f"{where}.arg: must be a non-empty string (the argument, dotted for a nested field)"
            )
        elif kind not in ARG_WRONG:
            problems.append(
                f"{where}.kind: must be one of {', '.join(sorted(ARG_WRONG))}, got {kind!r}"
            )
        elif not isinstance(reason, str) or not reason.strip():
            problems.append(f"{where}.reason: must say why the method accepts this answer")
        else:
            accepts.append(AuditAccept(arg, kind, reason, item.get("value"), "value" in item))
    return tuple(accepts), problems
