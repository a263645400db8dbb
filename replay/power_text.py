"""What ``rescore`` prints about power: for each model, the smallest Overall drop a comparison with a re-run of
it could detect, and the repeats it would take to detect ``--detect`` points (rendering of ``scorer.power``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.ties import case_counts
from scorer.power import Power, rerun_power


def model_power(document: dict[str, Any], detect: float) -> Power:
    """The power of comparing this run with a re-run of the same model (same cases, same repeats)."""
    repeats = document.get("repeats", 1)
    return rerun_power(list(case_counts(document).values()), repeats if isinstance(repeats, int) else 1, detect)


def power_lines(documents: Sequence[dict[str, Any]], detect: float) -> list[str]:
    """One line per model (in the order given), after a heading line."""
    lines = [
        f"Smallest Overall drop a re-run comparison can detect (80% power, alpha 0.05), and repeats for {detect:g}:"
    ]
    for document in documents:
        power = model_power(document, detect)
        repeats = document.get("repeats", 1)
        if power.repeats_needed is None:
            needs = f"no number of repeats detects {detect:g} points on {power.cases} cases"
        else:
            needs = f"{detect:g} points needs {'at most ' if power.bound == 'at most' else ''}{power.repeats_needed}"
            needs += " repeat(s)"
        if power.bound == "at most":
            seen = f"at most {power.detectable:.1f} points (one sample per case cannot measure the noise: "
            seen += "worst case assumed)"
        else:
            seen = f"{power.detectable:.1f} points"
        lines.append(f"  {document['model']} (K={repeats}): {seen}; {needs}")
    return lines
