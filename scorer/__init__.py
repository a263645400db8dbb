"""Pure scoring: the suite model, argument checks, the step judge, the schema subset and the metrics.

No I/O and no network: callers read files and pass bytes or parsed values in.
"""

from scorer.arguments import ParsedArguments, parse_arguments
from scorer.errors import LobstackError, SuiteError
from scorer.jsonvalue import json_equal
from scorer.judge import CallVerdict, StepVerdict, judge_step
from scorer.matching import max_matching
from scorer.outcome import Attempt, CaseOutcome, StepRecord
from scorer.response import MalformedResponse, ModelResponse, ToolCall, parse_completion
from scorer.results import dumps, results_document
from scorer.stats import wilson
from scorer.suite import GROUPS, Case, Check, ExpectedCall, Step, Suite, SuiteCheck, Tool, check_suite, parse_suite

__all__ = [
    "GROUPS",
    "Attempt",
    "CallVerdict",
    "Case",
    "CaseOutcome",
    "Check",
    "ExpectedCall",
    "LobstackError",
    "MalformedResponse",
    "ModelResponse",
    "ParsedArguments",
    "Step",
    "StepRecord",
    "StepVerdict",
    "Suite",
    "SuiteCheck",
    "SuiteError",
    "Tool",
    "ToolCall",
    "check_suite",
    "dumps",
    "json_equal",
    "judge_step",
    "max_matching",
    "parse_arguments",
    "parse_completion",
    "parse_suite",
    "results_document",
    "wilson",
]
