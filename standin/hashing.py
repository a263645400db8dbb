"""Seeded, stable hashes: every "random" choice of the stand-in gateway comes from here, so
runs reproduce.

Python's ``hash()`` is salted per process, so everything goes through SHA-256 of the parts joined by
a separator that cannot appear in a decimal seed or a hex digest.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def digest(*parts: object) -> str:
    """Hex SHA-256 of the parts' ``str`` forms joined by ``"\\x1f"``."""
    return hashlib.sha256(
        "\x1f".join(str(p) for p in parts).encode("utf-8", "backslashreplace")
    ).hexdigest()


def pick(n: int, *parts: object) -> int:
    """A stable integer in ``range(n)`` chosen by the parts."""
    return int(digest(*parts)[:15], 16) % n


def unit(*parts: object) -> float:
    """A stable float in ``[0, 1)`` chosen by the parts (60 bits of the digest)."""
    return int(digest(*parts)[:15], 16) / float(1 << 60)


def canonical_json(value: Any) -> str:
    """The JSON text hashed for a request: sorted keys, no spaces, so client key order does
    not matter."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
