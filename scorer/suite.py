"""The suite's public names in one place: the model (``suite_model``) and the file reader (``suite_file``).

Kept so ``from scorer.suite import Suite`` goes on working; new code imports the module that owns the name.
"""

from scorer.suite_file import check_suite, parse_suite
from scorer.suite_model import GROUPS, Case, Check, ExpectedCall, Step, Suite, SuiteCheck, Tool
from scorer.suite_rules import PUBLISHED_COUNTS, PUBLISHED_NAME

__all__ = [
    "GROUPS",
    "PUBLISHED_COUNTS",
    "PUBLISHED_NAME",
    "Case",
    "Check",
    "ExpectedCall",
    "Step",
    "Suite",
    "SuiteCheck",
    "Tool",
    "check_suite",
    "parse_suite",
]
