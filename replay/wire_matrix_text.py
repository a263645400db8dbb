"""The dialect matrix as terminal text (computed by ``scorer.wire.matrix``)."""

from __future__ import annotations

from scorer.wire.matrix import ModelMatrix

LISTED = 10  # cases that differ, listed per pair; the rest are counted


def _overall(passed: int, scored: int) -> str:
    return f"{100 * passed / scored:.1f}% ({passed}/{scored})" if scored else "-"


def format_matrix(models: list[ModelMatrix]) -> str:
    """One block per model: each way's Overall and anomalies, then each way against the first."""
    if not models:
        return "no model was recorded two ways among these runs\n"
    lines: list[str] = []
    for model in models:
        lines.append(f"model {model.model}:")
        for way in model.ways:
            anomalies = f", {way.anomalies} with transport anomalies" if way.anomalies else ""
            lines.append(f"  {way.wire:<28} Overall {_overall(way.passed, way.scored)}{anomalies}")
            lines += [f"    transport anomaly: {kind} ({n})" for kind, n in way.kinds]
        for p in model.pairs:
            lines.append(
                f"  {p.other.wire} vs {p.base.wire}: {len(p.lost)} lost, {len(p.gained)} gained; "
                f"McNemar exact p = {p.p:.4g}"
            )
            for kind, cases in (("lost", p.lost), ("gained", p.gained)):
                if cases:
                    more = f" and {len(cases) - LISTED} more" if len(cases) > LISTED else ""
                    lines.append(f"    {kind}: {', '.join(cases[:LISTED])}{more}")
    return "\n".join(lines) + "\n"
