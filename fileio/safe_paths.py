"""No symbolic link is followed out of a folder the tool reads, writes or deletes in (issue 28).

A shard artifact from an untrusted CI job, a pull request (git stores symlinks) or a shared
workspace can hold a link in place of a cassette, a model folder or a rows partition: followed, it
copies a system file into merged cassettes, writes parquet elsewhere or deletes a results.json
outside ``--out``. Every path below a root goes through ``unlinked`` first; a link is refused by
name (it is never needed: the tool itself writes none).
"""

from __future__ import annotations

from pathlib import Path

from scorer.errors import UsageError


class LinkRefused(UsageError):
    """A path below a root is (or passes through) a symbolic link."""


def link_in(root: Path, path: Path) -> Path | None:
    """The first part of ``path`` below ``root`` that is a symbolic link, or None. ``path`` is
    ``root`` or under it (as written, not resolved)."""
    current = root
    for part in path.relative_to(root).parts:
        current = current / part
        if current.is_symlink():
            return current
    return None


def unlinked(root: Path, *parts: str, what: str = "refusing to follow it") -> Path:
    """``root / parts`` when no part of it below ``root`` is a symbolic link; LinkRefused naming
    the link."""
    path = root.joinpath(*parts)
    link = link_in(root, path)
    if link is not None:
        raise LinkRefused(f"{link}: a symbolic link (to {link.readlink()}); {what}")
    return path


def inside(root: Path, *parts: str) -> Path:
    """``root / parts``, after checking that it resolves (symlinks followed) to a path strictly
    under ``root``, and that no level of it below ``root`` is a symbolic link (even one that stays
    inside): every path the tool writes is named through here, so no name from a suite, a model or
    a link can escape; ``fileio.atomic.write_bytes_atomic`` then opens each level without following
    a link."""
    path = root.joinpath(*parts)
    link = link_in(root, path)
    if link is not None:  # named first: the link is what the user must remove
        raise link_refused(link, root)
    base, resolved = root.resolve(), path.resolve()
    if resolved == base or not resolved.is_relative_to(base):
        raise UsageError(f"{path}: resolves to {resolved}, outside {root}; refusing to write there")
    return path


def link_refused(link: Path, root: Path) -> LinkRefused:
    """The one line of a write refused at ``link``, a symbolic link below ``root``."""
    try:
        target = f" (to {link.readlink()})"
    except OSError:  # swapped again meanwhile
        target = ""
    return LinkRefused(
        f"{link}: a symbolic link{target} below {root}; refusing to write through it"
    )
