"""The suite a gateway says it answers from, against the suite being recorded
(docs/standin.md#the-suite-it-serves).

The stand-in names its suite in an ``X-Lobstack-Suite`` header (``name=...; version=...;
sha256=...``; a proxy in front may prefix the name, as LiteLLM does). An answer made from another
suite than the one recorded (the gateway was started with another file, or read an edit the run
did not) is not the model's answer to this suite's case: the case is not kept, and the run stops
with one line that names both suites. A gateway that sends no such header is not asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import unquote

from scorer.errors import GatewayError

SUITE_HEADER = "x-lobstack-suite"


class StaleSuite(GatewayError):
    """An answer made from another suite than the one recorded: the run stops, the case is not
    kept, and a model dir the run made for nothing is removed."""


def served_suite(headers: Mapping[str, str]) -> dict[str, str] | None:
    """The ``name``, ``version`` and ``sha256`` a gateway's answer names, or None when it names
    none (``headers`` keys are lower-case)."""
    for name, value in headers.items():
        if name.endswith(SUITE_HEADER):
            fields = {}
            for part in value.split(";"):
                key, _, text = part.strip().partition("=")
                fields[key] = unquote(text)
            return fields
    return None


def check_served(
    headers: Mapping[str, str], name: str, version: str, sha256: str, case_id: str
) -> None:
    """StaleSuite when the answer was made from another suite than ``sha256``."""
    served = served_suite(headers)
    if served is None or served.get("sha256") == sha256:
        return
    digest = served.get("sha256", "?")[:12]
    them = f"{served.get('name', '?')} {served.get('version', '?')} (sha256 {digest})"
    raise StaleSuite(
        f"the gateway serves suite {them}, not the recorded {name} {version} "
        f"(sha256 {sha256[:12]}); case {case_id} was not kept: start the gateway with this suite "
        "(the stand-in reads an edited file at its next request) and record again"
    )
