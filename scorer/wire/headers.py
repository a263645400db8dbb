"""Reading the gateway's headers: a recorded answer's header map, the price of a call and the
parameters it dropped.

A price is a finite, non-negative decimal written the way JSON writes numbers (``0.000123``,
``1.2e-05``): ASCII digits only, no ``_``, no ``NaN``/``Infinity``, and small enough for a double
(``1e400`` is not a price). Anything else leaves the call unpriced. Dropped parameters are a comma-
or semicolon-separated list, or a JSON array of names; names compare case-insensitively.

A proxy in front of the gateway may forward its headers under a prefix of its own (LiteLLM sends
``x-lobstack-cost-usd`` as ``llm_provider-x-lobstack-cost-usd``): ``gateway_header`` is the one
rule every reader of a gateway header goes through, so the price and the dropped parameters are
found under every prefix in ``PROXY_PREFIXES`` alike (docs/GATEWAYS.md).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

# The prefixes known proxies put before the headers they forward from the gateway behind them:
# LiteLLM's proxy: "llm_provider-" + each upstream header (docs/GATEWAYS.md).
PROXY_PREFIXES = ("llm_provider-",)
# Every header of Lobstack's own starts so; the stand-in names itself in ``Server``. The stand-in
# also names the suite it serves on every answer (standin/suite_follow.py): a test harness's
# header, which says nothing of whether a gateway reports dropped parameters.
LOBSTACK_PREFIX = "x-lobstack-"
STAND_IN_SUITE = "x-lobstack-suite"
STAND_IN_SERVER = "lobstack-stand-in/"

_PRICE = re.compile(r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?", re.ASCII)


def recorded_headers(raw: Mapping[Any, Any]) -> dict[str, str]:
    """A recorded answer's headers (a cassette's ``{name: [values]}``) as every reader takes them:
    names lower-cased; the values of a field sent more than once (several values, or the same name
    in another case) joined with ``", "`` in recorded order (RFC 9110 section 5.3), as ``requests``
    joins them when the answer arrives."""
    joined: dict[str, list[str]] = {}
    for name, value in raw.items():
        values = value if isinstance(value, list) else [value]
        joined.setdefault(str(name).lower(), []).extend(str(v) for v in values)
    return {name: ", ".join(values) for name, values in joined.items()}


def gateway_header(headers: Mapping[str, str], name: str) -> str | None:
    """The value of the gateway's header ``name`` (lower-case) in an answer's lower-cased header
    map: as sent, else under a known proxy's prefix (the first of ``PROXY_PREFIXES`` present)."""
    if name in headers:
        return headers[name]
    for prefix in PROXY_PREFIXES:
        if prefix + name in headers:
            return headers[prefix + name]
    return None


def speaks_lobstack(headers: Mapping[str, str]) -> bool:
    """True when an answer came from a gateway that reports dropped parameters the Lobstack way: it
    carries a Lobstack header (``x-lobstack-...``, as sent or under a proxy's prefix) or comes
    from Lobstack's stand-in (its ``Server``, as sent or forwarded under a proxy's prefix). When
    no answer of a run does, whether the gateway dropped ``temperature`` is unknown, not "no"
    (METHOD.md#temperature-unknown)."""
    for name in headers:
        bare = next((name[len(p) :] for p in PROXY_PREFIXES if name.startswith(p)), name)
        if bare.startswith(LOBSTACK_PREFIX) and bare != STAND_IN_SUITE:
            return True
    servers = (headers.get(p + "server", "") for p in ("", *PROXY_PREFIXES))
    return any(server.startswith(STAND_IN_SERVER) for server in servers)


def price(text: str | None) -> Decimal | None:
    """The price in a cost header's text, or None when the text is not a finite
    non-negative decimal."""
    if text is None:
        return None
    text = text.strip()
    if not _PRICE.fullmatch(text):
        return None
    value = Decimal(text)
    return value if math.isfinite(float(value)) else None


def finite(value: Decimal | None) -> float | None:
    """``value`` as a float, or None when it is None or too large for a double (no output
    holds Infinity)."""
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def dropped_params(text: str | None) -> frozenset[str]:
    """The lower-cased names in an ``x-lobstack-dropped-params`` header: ``a, b``, ``a;b`` or
    ``["a", "b"]``."""
    if not text:
        return frozenset()
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            names = json.loads(stripped)
        except (ValueError, RecursionError):
            names = None
        if isinstance(names, list):
            return frozenset(n.strip().lower() for n in names if isinstance(n, str) and n.strip())
    return frozenset(
        p.strip().strip("\"'").lower() for p in re.split(r"[,;]", stripped) if p.strip()
    )
