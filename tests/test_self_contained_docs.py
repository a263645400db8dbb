"""Everything the repository's files cite is in the repository (issue 26): no file points at the
contracts page that lived in a shared folder beside the checkout (by its relative path or its
name); docs/FORMATS.md holds what it said."""

from __future__ import annotations

import re

from tests.conftest import ROOT, clone_files

# Built from parts, so this file does not cite what it looks for.
OUTSIDE = re.compile(rb"\.\./" + rb"shared/|\bCONTR" + rb"ACTS\b")
# What any match of OUTSIDE contains: a file holding neither is not searched line by line (53 MB
# of files, most of them cassettes: a byte search is about 30 times quicker than the regex's).
LITERALS = (rb"../" + rb"shared/", rb"CONTR" + rb"ACTS")


def _citing() -> dict[str, list[int]]:
    """Each file that cites something outside the repository, with the line numbers."""
    found = {}
    for name in clone_files():
        text = (ROOT / name).read_bytes()
        if not any(literal in text for literal in LITERALS):
            continue
        lines = text.splitlines()
        hits = [n for n, line in enumerate(lines, 1) if OUTSIDE.search(line)]
        if hits:
            found[name] = hits
    return found


def test_no_file_cites_the_shared_contracts_outside_the_repository() -> None:
    assert _citing() == {}
