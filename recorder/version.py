"""The installed lobstack-eval's version, from its package metadata (no package import)."""

from __future__ import annotations


def installed_version(missing: str) -> str:
    """The installed lobstack-eval's version; ``missing`` when it runs from a tree that is
    not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lobstack-eval")
    except PackageNotFoundError:
        return missing
