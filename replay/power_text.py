"""What ``rescore --power`` prints about power: for each model, the smallest Overall drop a
comparison with a re-run of it could detect, and the repeats it would take to detect ``--detect``
points (rendering of ``scorer.stats.power``; the HTML report shows the same cells)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from replay.ties import case_counts
from scorer.stats.power import Power, rerun_power
from scorer.summary import ModelSummary

HEADING = "Re-run power: the Overall drop a paired test sees 80% of the time (alpha 0.05)"
LEGEND = [  # each line fits an 80-column terminal
    "Assumes the drop is spread over every case: a few cases that break outright",
    "are seen far less often. at most: the exact McNemar test at the worst noise",
    "one sample per case allows; about: normal approximation (noise from repeats).",
]


def model_power(summary: ModelSummary, detect: float) -> Power:
    """The power of comparing this run with a re-run of the same model (same cases,
    same repeats)."""
    return rerun_power(list(case_counts(summary).values()), summary.repeats, detect)


def power_cells(summary: ModelSummary, detect: float) -> tuple[str, str]:
    """(smallest drop seen, repeats for ``detect`` points) as table cells, e.g. ``at most 9.7``
    and ``about 2``."""
    power = model_power(summary, detect)
    if math.isinf(power.detectable):
        return "none (Overall too low)", "-"
    seen = f"{'at most' if power.bound == 'at most' else 'about'} {power.detectable:.1f}"
    if power.repeats_needed is None:
        return seen, f"more cases needed ({power.cases})"
    return seen, f"about {power.repeats_needed}"


def power_lines(summaries: Sequence[ModelSummary], detect: float) -> list[str]:
    """A heading, one table row per model (in the order given), and a three-line legend."""
    rows = [(s.model, str(s.repeats), *power_cells(s, detect)) for s in summaries]
    header = ("Model", "K", "Drop seen (points)", f"Repeats for {detect:g} points")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]

    def line(row: Sequence[str]) -> str:
        return (
            f"  {row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}  "
            f"{row[3]:>{widths[3]}}"
        )

    return [HEADING, line(header), *(line(row) for row in rows), *LEGEND]
