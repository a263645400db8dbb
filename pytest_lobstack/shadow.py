"""Whether ``scorer``, ``recorder`` and ``replay`` are lobstack-eval's own: a project of the user's
may hold packages of the same names, earlier on ``sys.path``
(docs/commands/README.md#installed-names-stay-out-of-the-way).

Standard library only: this runs before any of those packages is imported, and is what decides
whether they can be.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

# The top-level packages of the wheel the plugin imports (standin is imported by none of its
# code paths).
PACKAGES = ("scorer", "fileio", "recorder", "replay")
HOME = (
    Path(__file__).resolve().parent.parent
)  # where lobstack-eval's top-level packages were installed


def _location(name: str) -> Path | None:
    """The directory the name imports from (already imported, or found without importing it);
    None when absent."""
    module = sys.modules.get(name)
    if module is not None:
        paths = list(getattr(module, "__path__", [])) or [getattr(module, "__file__", None) or ""]
    else:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return None
        paths = list(spec.submodule_search_locations or []) or [spec.origin or ""]
    where = Path(paths[0]) if paths and paths[0] else None
    if where is not None and where.name == "__init__.py":
        where = where.parent
    return where.resolve() if where is not None else None


def check_own_packages() -> None:
    """``pytest.UsageError`` (one line naming both paths) when a package of the project shadows
    lobstack-eval's."""
    for name in PACKAGES:
        ours = HOME / name
        found = _location(name)
        if found == ours:
            continue
        if found is None:
            raise pytest.UsageError(
                f"lobstack-eval's {name} package is missing ({ours}): reinstall lobstack-eval"
            )
        raise pytest.UsageError(
            f"this project's {name} package ({found}) shadows lobstack-eval's ({ours}): the "
            "lobstack plugin cannot run here; rename the project's package, or run pytest where "
            "it is not importable"
        )
