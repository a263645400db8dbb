"""A suite file's bytes -> a validated ``Suite``, with every problem a suite file can have (``suite check``)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from scorer import strict_json, suite_keys, suite_rules
from scorer.errors import SuiteError
from scorer.suite_build import VERSION_RE, SuiteBuilder
from scorer.suite_model import GROUPS, Suite, SuiteCheck

__all__ = ["VERSION_RE", "check_suite", "parse_suite", "suite_error"]


def _decode(raw: bytes, source: str) -> Any:
    try:
        return strict_json.loads_file(raw)
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise SuiteError(
            f"{source}: not valid JSON: {strict_json.position_text(exc, column=True)}"
        ) from None
    except strict_json.NotStrictFile as exc:
        raise SuiteError(f"{source}: not valid JSON: {exc}") from None


def check_suite(raw: bytes, source: str) -> SuiteCheck:
    """Validate a suite file's bytes; never raises for content problems (only for undecodable JSON)."""
    data = _decode(raw, source)
    builder = SuiteBuilder(source)
    suite = builder.suite(data, hashlib.sha256(raw).hexdigest())
    raw_cases = data.get("cases") if isinstance(data, dict) else None
    counts = (
        Counter(c.get("group") for c in raw_cases if isinstance(c, dict))
        if isinstance(raw_cases, list)
        else {}
    )
    group_counts = {group: counts.get(group, 0) for group in GROUPS}
    # Unknown keys first: a misspelt key is often why a field the builder needs is "missing".
    problems = suite_keys.unknown_key_problems(data) + builder.problems
    if isinstance(data, dict):
        problems += suite_rules.count_problems(data.get("name"), data.get("version"), group_counts)
    return SuiteCheck(tuple(problems), group_counts, suite if not problems else None)


def parse_suite(raw: bytes, source: str) -> Suite:
    """Load a suite from its bytes; raises SuiteError listing every problem."""
    report = check_suite(raw, source)
    if report.suite is None:
        raise suite_error(source, report.problems)
    return report.suite


def suite_error(source: str, problems: list[str] | tuple[str, ...]) -> SuiteError:
    """The one-line error for a suite with ``problems``: the first, and how many more ``suite check`` lists."""
    more = (
        f" (and {len(problems) - 1} more; run `lobstack-eval suite check {source}`)"
        if len(problems) > 1
        else ""
    )
    return SuiteError(f"{source}: {problems[0]}{more}", tuple(problems))
