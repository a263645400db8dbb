"""What changed between two suite versions, which version bump that requires, and (with cassettes)
each model's metrics under both. ``read`` is the I/O edge, ``compare`` classifies every case and the
bump (its docstring states the rule), ``rescore_both`` scores the same cassettes under both
versions, ``render`` prints.
"""

from replay.diff_suites.compare import bump_between, diff_suites
from replay.diff_suites.model import BUMPS, CaseChange, SuiteDiff
from replay.diff_suites.read import read_suite_json
from replay.diff_suites.render import format_rescores, format_text, verdict_lines
from replay.diff_suites.rescore_both import ModelRescore, rescore_both

__all__ = [
    "BUMPS",
    "CaseChange",
    "ModelRescore",
    "SuiteDiff",
    "bump_between",
    "diff_suites",
    "format_rescores",
    "format_text",
    "read_suite_json",
    "rescore_both",
    "verdict_lines",
]
