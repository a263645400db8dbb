"""The committed report's plots read (issue 25): the labels of the seven models at 100% do not
overlap, and the heat map's numbers are 9 px, white on the dark cells and black on the
light ones."""

from __future__ import annotations

import re

from replay.html._plot_model import place_labels
from tests.conftest import ROOT

PAGE = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")

# The cost plot's points as the committed runs have them (ln of cost per 100 cases, Overall): seven
# at 100%.
POINTS = [
    (-0.965, 100.0, "ref/content-parts"),
    (-1.88, 100.0, "ref/error-in-200 (72/80)"),
    (-1.26, 100.0, "ref/gemini-style"),
    (-0.526, 100.0, "ref/no-temperature"),
    (-0.493, 100.0, "ref/openrouter-style"),
    (-0.747, 100.0, "ref/oracle"),
    (-2.024, 100.0, "ref/reasoning"),
    (-1.606, 57.5, "auto"),
    (-1.787, 51.25, "ref/noisy"),
    (-3.532, 28.75, "ref/malformed"),
    (-3.957, 17.5, "ref/abstain"),
    (-2.731, 0.0, "ref/first-tool"),
]
# The 6 x 4.2 in plot in axes fractions: a 7 pt character's width, a line's height, one point
# of height.
CHAR_W, LINE_H, POINT_H = 0.0105, 0.04, 0.0037


def test_the_labels_of_a_row_of_models_at_100_percent_do_not_overlap() -> None:
    placed = place_labels(POINTS)
    assert sorted(text for _, _, _, text in placed.values()) == sorted(
        name for _, _, name in POINTS
    )
    xs = [x for x, _, _ in POINTS]
    lo, span = min(xs), max(xs) - min(xs)
    boxes = []
    for i, (_dx, dy, ha, text) in placed.items():
        x, y, _ = POINTS[i]
        anchor = (x - lo) / span * 0.84 + 0.08
        width = CHAR_W * len(text)
        left = anchor - width if ha == "right" else anchor
        boxes.append((left, left + width, (y + 4) / 108 + dy * POINT_H, text))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[1] <= b[0] or b[1] <= a[0] or abs(a[2] - b[2]) >= LINE_H
            assert apart, f"{a[3]} and {b[3]} overlap"


def test_the_heat_map_numbers_are_legible() -> None:
    heat = re.search(r'<svg[^>]*id="plot-groups".*?</svg>', PAGE, re.S)
    assert heat is not None
    numbers = re.findall(r'<text style="([^"]*)"[^>]*>(\d+|–)</text>', heat.group(0))
    assert len(numbers) == 12 * 6
    assert all("font-size: 9px" in style for style, _ in numbers)
    fills = {value: re.search(r"fill: (#[0-9a-f]+)", style) for style, value in numbers}
    assert fills["100"] is not None and fills["100"].group(1) == "#ffffff"  # dark green
    assert fills["0"] is not None and fills["0"].group(1) == "#ffffff"  # dark red
    assert (
        fills["50"] is None or fills["50"].group(1) == "#000000"
    )  # pale yellow: black (matplotlib's default)
