"""Display names of the metrics and suite groups, in the order the method page lists them."""

from __future__ import annotations

from scorer.metrics import LOWER_IS_BETTER, METRICS, REGISTRY
from scorer.status import STATUSES

__all__ = [
    "CAVEATS",
    "GROUP_LABELS",
    "LOWER_IS_BETTER",
    "METRIC_LABELS",
    "OWN_CAVEATS",
    "STATUSES",
    "STATUS_CLASS",
    "STATUS_MARKS",
]

# The rates' full names, from the metric registry (as is LOWER_IS_BETTER).
METRIC_LABELS: dict[str, str] = {key: REGISTRY[key].label for key in METRICS}

GROUP_LABELS: dict[str, str] = {
    "selection": "Selection",
    "arguments": "Arguments",
    "near_misses": "Near misses",
    "no_call": "No call needed",
    "parallel": "Parallel",
    "chains": "Chains",
}

# Each grid cell shows its status as a mark as well as a colour, so the grid reads without colour
# vision; the class letter is the cell's CSS class. Distinct shapes: a tick, a cross, a bang, a
# question mark.
STATUS_MARKS: dict[str, tuple[str, str]] = {
    "p": ("passed", "✓"),
    "f": ("failed", "✗"),
    "e": ("errored", "!"),
    "u": ("unrecorded", "?"),
}
# A status's cell class, from the marks.
STATUS_CLASS: dict[str, str] = {status: letter for letter, (status, _) in STATUS_MARKS.items()}

# The method page's "What the scores do not say", shown above every leaderboard.
CAVEATS = (
    "At temperature 0 most models are close to deterministic, not exactly: two runs of the same "
    "suite can differ by a case or two.",
    "The model auto is Nex, Lobstack's router: for each request it picks one of Lobstack's models "
    "to answer (the "
    'leaderboard lists them under auto as "routed to"), so its score is the score of its choices.',
    "The scores measure tool calling through the Lobstack API with this prompt and these tools; a "
    "different prompt or tool set can score differently.",
    "Errored and unrecorded cases are counted and shown, and left out of every rate.",
)
# The same for a suite of one's own: nothing of Lobstack's router or API (issue 40, part 7).
OWN_CAVEATS = (
    CAVEATS[0],
    "The scores measure tool calling through the gateway the runs were recorded with, with this "
    "prompt and these tools; a different prompt or tool set can score differently.",
    CAVEATS[3],
)
