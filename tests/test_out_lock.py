"""The output dir's writer lock (``replay.out.lock``): the file names its holder, whatever an
earlier holder left in it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from replay.out.lock import LOCK, out_dir_lock


def test_the_lock_file_holds_exactly_its_holders_line(tmp_path: Path) -> None:
    # A holder killed before its exit left a longer line behind (the kernel dropped its lock).
    (tmp_path / LOCK).write_text("rescore --rows: pid 99999999 on " + "x" * 300 + "\n")
    with out_dir_lock(tmp_path, "report"):
        text = (tmp_path / LOCK).read_text()
        assert text == f"report: pid {os.getpid()} on {socket.gethostname()}\n"
    assert not (tmp_path / LOCK).exists()


def test_a_new_lock_file_holds_its_holders_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with out_dir_lock(out, "merge"):
        assert (out / LOCK).read_text() == f"merge: pid {os.getpid()} on {socket.gethostname()}\n"
    assert not out.exists()  # made for the lock, nothing written: not left behind
