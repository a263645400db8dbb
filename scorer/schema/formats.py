"""The ``format`` checks an own suite's tool schemas get (docs/FORMATS.md, "Tool schemas of own
suites").

``jsonschema`` checks ``date``, ``email``, ``idn-email``, ``ipv4``, ``ipv6``, ``regex`` and ``uuid``
with the standard library alone; ``date-time``, ``time`` and ``uri`` need optional packages
(``rfc3339-validator``, ``rfc3987``, the latter GPL). Those three are written here from RFC 3339
section 5.6 and RFC 3986 section 3 (a few lines each) so every listed format is checked with no
extra dependency. A format not listed is an annotation, as Draft 2020-12 says: it never fails a
value.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

# RFC 3339 full-time: seconds are required, a leap second (60) is allowed, T and Z in either case.
_TIME = (
    r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(\.[0-9]+)?"
    r"([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
)
_TIME_RE = re.compile(_TIME)
_DATE_TIME_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]" + _TIME)
# RFC 3986 URI: a scheme, ":", then characters a URI may hold (percent-escapes well formed).
_URI_RE = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*"
)
CHECKED_FORMATS = (
    "date",
    "date-time",
    "email",
    "idn-email",
    "ipv4",
    "ipv6",
    "regex",
    "time",
    "uri",
    "uuid",
)


def is_date_time(instance: object) -> bool:
    """RFC 3339 ``date-time``: a real calendar day, then ``time``."""
    if not isinstance(instance, str):
        return True
    match = _DATE_TIME_RE.fullmatch(instance)
    if match is None:
        return False
    try:
        datetime.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return False
    return True


def is_time(instance: object) -> bool:
    """RFC 3339 ``full-time``: ``HH:MM:SS[.frac]`` and an offset (``Z`` or ``+HH:MM``)."""
    return not isinstance(instance, str) or _TIME_RE.fullmatch(instance) is not None


def is_uri(instance: object) -> bool:
    """RFC 3986 ``URI``: a scheme and the characters a URI may hold (absolute, no spaces)."""
    return not isinstance(instance, str) or _URI_RE.fullmatch(instance) is not None


# The three formats jsonschema checks only with its optional packages, checked here instead.
OWN_CHECKS: tuple[tuple[str, Callable[[object], bool]], ...] = (
    ("date-time", is_date_time),
    ("time", is_time),
    ("uri", is_uri),
)


def make_format_checker(checkers: Mapping[str, Any], replace: bool) -> Any:
    """A jsonschema ``FormatChecker`` of ``checkers`` (jsonschema's checks by format name) with
    ``OWN_CHECKS`` registered: over a check ``checkers`` has of the same name when ``replace``,
    else only where it has none. The one place both an own suite's schemas and ``suite new``'s
    drafts (``draft_format_checker``) get their format checks from."""
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    checker.checkers = dict(checkers)
    for name, check in OWN_CHECKS:
        if replace or name not in checker.checkers:
            checker.checks(name)(check)
    return checker


@lru_cache(maxsize=1)
def format_checker() -> Any:
    """Draft 2020-12's format checker with ``date-time``, ``time`` and ``uri`` checked here (even
    where jsonschema's optional packages would check them: the same verdicts on every install),
    limited to ``CHECKED_FORMATS`` (an unlisted format is an annotation)."""
    from jsonschema import Draft202012Validator

    base = Draft202012Validator.FORMAT_CHECKER.checkers
    listed = {name: base[name] for name in CHECKED_FORMATS if name in base}
    return make_format_checker(listed, replace=True)


@lru_cache(maxsize=1)
def draft_format_checker() -> Any:
    """Draft 2020-12's format checker for ``suite new``'s drafts (scorer/suite/draft/reference.py
    proves a reference with it, array_items.py an array's later items, so an item taken there is
    taken by the reference): every format jsonschema checks as installed, with date-time, time and
    uri checked as an own suite's schemas are (RFC 3339, seconds required, and RFC 3986) when
    jsonschema's optional packages for them (rfc3339-validator, rfc3987) are not installed."""
    from jsonschema import Draft202012Validator

    return make_format_checker(Draft202012Validator.FORMAT_CHECKER.checkers, replace=False)
