"""Reading results.json back: the one loader every view uses (diff runs, drift, the HTML report,
merge, rescore's stale check, the plugin's baseline). Strict and bounded (``fileio.reading``: no
NaN, a depth limit, a size cap), checked once (``replay.results.check``), one ``error:`` line naming
the file and the field."""

from __future__ import annotations

import glob
from pathlib import Path

from fileio.reading import read_json
from replay.results.check import check_results
from replay.results.typed import Results, ResultsDocument, results_value
from scorer.errors import ResultsError


def read_results(path: Path) -> Results:
    """Load one results.json; a missing, corrupt or misshapen file is a ResultsError naming it."""
    data = read_json(path, "results file", ResultsError)
    check_results(data, str(path))
    return results_value(data, str(path))


def results_of(document: ResultsDocument) -> Results:
    """A document made in this process (rescore's, merge's), checked and typed as a file would be:
    ``ResultsError`` for one that is not a results document."""
    check_results(document)
    return results_value(document)


GLOB_CHARS = frozenset("*?[")


def expand_pattern(text: str) -> list[Path] | None:
    """The paths a quoted glob of runs matches, sorted (a CI step passes ``'runs/*/reports'``);
    None when ``text`` has no ``*``, ``?`` or ``[`` (a plain path). An empty list is for the
    caller to refuse: ``diff runs --history`` and ``drift`` each say it in their own words."""
    if not GLOB_CHARS & set(text):
        return None
    return sorted(Path(found) for found in glob.glob(text))
