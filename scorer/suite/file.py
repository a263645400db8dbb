"""A suite file's bytes -> a validated ``Suite``, with every problem a suite file can have
(``suite check``)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from scorer import strict_json
from scorer.errors import SuiteError
from scorer.suite import keys as suite_keys
from scorer.suite import kind as suite_kind
from scorer.suite import rules as suite_rules
from scorer.suite.build import VERSION_RE, SuiteBuilder
from scorer.suite.model import Suite, SuiteCheck

if TYPE_CHECKING:
    from scorer.suite.yaml_file import Lines

# A JSON suite never imports the YAML reader (the common case, and every worker's start).
YAML_SUFFIXES = (".yaml", ".yml")

__all__ = ["VERSION_RE", "check_suite", "decode_suite", "is_yaml", "parse_suite", "suite_error"]


def is_yaml(source: str) -> bool:
    """True when the file's name says YAML (``.yaml``, ``.yml``); every other suite file is JSON."""
    return source.lower().endswith(YAML_SUFFIXES)


def decode_suite(raw: bytes, source: str) -> tuple[Any, Lines | None]:
    """The suite document of a file's bytes (JSON, or YAML by its name) and, for YAML, the lines of
    its values; SuiteError naming the file, and for YAML the line, when the bytes hold
    no document."""
    if not is_yaml(source):
        return _decode(raw, source), None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    from scorer.suite.yaml_file import YamlSuiteError, loads_yaml

    try:
        return loads_yaml(text)
    except YamlSuiteError as exc:
        at = "" if exc.line is None else f"line {exc.line}: "
        raise SuiteError(f"{source}: not a valid YAML suite: {at}{exc.message}") from None
    except RecursionError:
        raise SuiteError(f"{source}: not a valid YAML suite: nested too deep") from None


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
    """Validate a suite file's bytes; never raises for content problems, only when the bytes hold
    no suite document (undecodable, or a top level that is no object: nothing else to check)."""
    data, lines = decode_suite(raw, source)
    if not isinstance(data, dict):
        raise SuiteError(f"{source}: (top level): {_not_an_object(data, is_yaml(source))}")
    builder = SuiteBuilder(source)
    suite = builder.suite(data, hashlib.sha256(raw).hexdigest())
    raw_cases = data.get("cases")
    counts = (
        Counter(
            c.get("group")
            for c in raw_cases
            if isinstance(c, dict) and isinstance(c.get("group"), str)
        )
        if isinstance(raw_cases, list)
        else Counter()
    )
    group_counts = suite_kind.group_order(data.get("name"), counts)
    # Unknown keys first: a misspelt key is often why a field the builder needs is "missing".
    problems = suite_keys.unknown_key_problems(data) + builder.problems
    problems += suite_rules.count_problems(data.get("name"), data.get("version"), group_counts)
    problems = located(problems, data, lines)
    return SuiteCheck(tuple(problems), group_counts, suite if not problems else None)


def _not_an_object(data: Any, yaml: bool) -> str:
    """Why a decoded document is no suite, in its own format's words (a YAML author never wrote
    a "JSON object")."""
    kinds = {list: "a list" if yaml else "an array", str: "a string", bool: "a boolean"}
    kind = kinds.get(type(data), "null" if data is None else "a number")
    if yaml:
        return f"a suite must be a YAML mapping (name: ..., cases: ...), not {kind}"
    return f"a suite must be a JSON object, not {kind}"


def located(problems: list[str], data: Any, lines: Lines | None) -> list[str]:
    """``problems`` as they are for JSON (``lines`` None), each with its YAML line when one
    is found."""
    return problems if lines is None else [_with_line(p, data, lines) for p in problems]


def _with_line(problem: str, data: Any, lines: Lines) -> str:
    """``line 12: <problem>`` for a YAML suite, the line of the deepest part of the problem's
    place found."""
    from scorer.suite.yaml_file import where_path

    where = problem.split(": ", 1)[0]
    line = lines.line_of(data, where_path(where, data))
    return problem if line is None else f"line {line}: {problem}"


def parse_suite(raw: bytes, source: str) -> Suite:
    """Load a suite from its bytes; raises SuiteError listing every problem."""
    report = check_suite(raw, source)
    if report.suite is None:
        raise suite_error(source, report.problems)
    return report.suite


def suite_error(source: str, problems: list[str] | tuple[str, ...]) -> SuiteError:
    """The one-line error for a suite with ``problems``: the first, and how many more
    ``suite check`` lists."""
    more = (
        f" (and {len(problems) - 1} more; run `lobstack-eval suite check {source}`)"
        if len(problems) > 1
        else ""
    )
    return SuiteError(f"{source}: {problems[0]}{more}", tuple(problems))
