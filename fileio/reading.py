"""Reading a file, a missing or unreadable or corrupt one turned into a one-line ``error``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorer import strict_json
from scorer.errors import CassetteError


def read_bytes(path: Path, what: str, error: type[Exception] = CassetteError) -> bytes:
    """Read a file, turning a missing or unreadable file into a one-line ``error``."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, expected a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror}") from None


def read_json(path: Path, what: str, error: type[Exception] = CassetteError) -> Any:
    """Parse a JSON file; a corrupt one is a one-line ``error`` naming the file and position."""
    return strict_json.loads_file_or_error(
        read_bytes(path, what, error), f"{path}: the {what} is", error
    )
