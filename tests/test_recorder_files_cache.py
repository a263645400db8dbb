"""recorder.files keeps a suite's document per process by its path and bytes: the same bytes give
the same (shared, read-only) document, changed bytes are read again, a bad file is never kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from recorder.files import read_suite_document
from scorer.errors import SuiteError


def test_the_same_bytes_give_the_kept_document_and_new_bytes_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text('{"version": "1.0.0", "cases": []}', encoding="utf-8")
    first = read_suite_document(path)
    assert first == {"version": "1.0.0", "cases": []}
    assert read_suite_document(path) is first
    path.write_text('{"version": "2.0.0", "cases": []}', encoding="utf-8")
    assert read_suite_document(path) == {"version": "2.0.0", "cases": []}


def test_a_yaml_suite_is_decoded_as_yaml(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_text("version: 1.0.0\ncases: []\n", encoding="utf-8")
    assert read_suite_document(path) == {"version": "1.0.0", "cases": []}


def test_a_corrupt_file_is_an_error_each_time_and_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text('{"version": ', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SuiteError, match=r"suite\.json: the suite file is"):
            read_suite_document(path)
    path.write_text('{"version": "1.0.0"}', encoding="utf-8")
    assert read_suite_document(path) == {"version": "1.0.0"}
