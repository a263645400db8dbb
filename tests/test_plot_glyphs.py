"""A model name with characters the plot font lacks (CJK, emoji) gives no matplotlib warning on
stderr: the SVG keeps text as text, so the browser's fonts draw it."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from replay.html import render_report

SAMPLE = Path(__file__).parent / "fixtures" / "reports_sample"
NAME = "实验室/模型-🦞"


def test_a_unicode_model_name_gives_no_glyph_warning() -> None:
    results = [
        json.loads((SAMPLE / slug / "results.json").read_text(encoding="utf-8"))
        for slug in ("alpha_oracle", "beta_mixed")
    ]
    results[0]["model"] = NAME
    suite = json.loads((SAMPLE / "suite.json").read_text(encoding="utf-8"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = render_report(results, suite)
    assert [str(w.message) for w in caught] == []
    assert page.count(f">{NAME}</text>") >= 3  # drawn as text in the rates, cost and groups plots
