"""Compare two runs (results.json files or report dirs) model by model, case by case.

``load`` is the I/O edge; ``compare`` pairs cases by id (a pair needs a scored status, passed or
failed, in both runs; anything else is listed as unpaired), ``gate`` decides whether B regressed,
``verdict`` says what that decision means for each case (the one verdict every output renders),
``render`` prints the report, ``markdown`` writes the pull-request comment. ``model`` holds the
records they share.
"""

from replay.diff_runs.compare import compare, compare_model
from replay.diff_runs.gate import decide
from replay.diff_runs.load import load_run
from replay.diff_runs.markdown import to_markdown
from replay.diff_runs.model import (
    CasePair,
    Decision,
    MetricDelta,
    ModelDiff,
    NotCompared,
    Regression,
    RunDiff,
)
from replay.diff_runs.render import format_text
from replay.diff_runs.verdict import CaseVerdict, ModelVerdict, verdicts
from replay.results.typed import SuiteRef
from scorer.summary import METRICS

__all__ = [
    "METRICS",
    "CasePair",
    "CaseVerdict",
    "Decision",
    "MetricDelta",
    "ModelDiff",
    "ModelVerdict",
    "NotCompared",
    "Regression",
    "RunDiff",
    "SuiteRef",
    "compare",
    "compare_model",
    "decide",
    "format_text",
    "load_run",
    "to_markdown",
    "verdicts",
]
