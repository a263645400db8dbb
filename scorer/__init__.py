"""Pure scoring: the suite (``suite/``, ``suite new``'s drafts in ``suite/draft/``), tool schemas
(``schema/``), the wire format and its dialects (``wire/``), the statistics (``stats/``), the drift
test (``drift/``), the suite audit (``audit/``) and, at the top, argument checks, matching, the
step judge, the metrics, the summaries and results.json.

No I/O and no network: callers read files and pass bytes or parsed values in. The public names are
re-exported lazily (PEP 562), so importing ``scorer.errors`` from the CLI does not load the
whole scorer.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "GROUPS": "scorer.suite.model",
    "Attempt": "scorer.outcome",
    "CallVerdict": "scorer.judge",
    "Case": "scorer.suite.model",
    "CaseOutcome": "scorer.outcome",
    "Check": "scorer.suite.model",
    "ExpectedCall": "scorer.suite.model",
    "LobstackError": "scorer.errors",
    "MalformedResponse": "scorer.wire.response",
    "ModelResponse": "scorer.wire.response",
    "ParsedArguments": "scorer.arguments",
    "Step": "scorer.suite.model",
    "StepRecord": "scorer.outcome",
    "StepVerdict": "scorer.judge",
    "Suite": "scorer.suite.model",
    "SuiteCheck": "scorer.suite.model",
    "SuiteError": "scorer.errors",
    "Tool": "scorer.suite.model",
    "ToolCall": "scorer.wire.response",
    "check_suite": "scorer.suite.file",
    "dumps": "scorer.results",
    "json_equal": "scorer.jsonvalue",
    "judge_step": "scorer.judge",
    "max_matching": "scorer.matching",
    "parse_arguments": "scorer.arguments",
    "parse_completion": "scorer.wire.response",
    "parse_suite": "scorer.suite.file",
    "results_document": "scorer.results",
    "wilson": "scorer.stats.wilson",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'scorer' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
