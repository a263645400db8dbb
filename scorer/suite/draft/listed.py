"""The tools ``suite new`` drafts from, as listed, and a result taken from a live server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ListedTool:
    """One tool as listed: name, description, input schema (as given), and a tools file's
    ``strict`` (None when it says nothing)."""

    name: str
    description: str
    input_schema: Any
    strict: Any = None


@dataclass(frozen=True)
class TakenResult:
    """A tool called once on the live server when the suite was built: its arguments and the
    result's text."""

    tool: str
    arguments: dict[str, Any]
    result: str
