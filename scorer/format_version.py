"""One rule for every lobstack-eval JSON file with a ``format_version`` (run.json, results.json): it
must be the version this lobstack-eval writes, and a missing one reads as that version (the first
files had none)."""

from __future__ import annotations

from typing import Any


def format_version_problem(data: dict[str, Any], current: int) -> str | None:
    """Why ``data``'s ``format_version`` cannot be read (``format_version: ...``), or None when it
    is ``current`` or absent. ``true`` is not 1: JSON booleans are no version, though Python's
    ``True == 1``."""
    version = data.get("format_version", current)
    if version != current or isinstance(version, bool):
        return (
            f"format_version: {version!r} is not one this lobstack-eval reads ({current}); "
            "a newer lobstack-eval wrote it, or it is corrupt"
        )
    return None
