"""matplotlib figures with fixed margins, serialised to SVG text that the page can inline.

matplotlib rather than a JS charting library: its SVG is static (nothing runs in the page, so
nothing can log a console error or fetch a script), it escapes every text it writes, and with a
fixed ``svg.hashsalt`` and no date in the metadata the same input gives the same bytes in
every process.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path

_XML_PROLOG = re.compile(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", re.S)
# matplotlib's comments repeat every label; its own escaping keeps "-->" out of them, so a lazy
# match is exact.
_COMMENT = re.compile(r"<!--.*?-->\s*", re.S)
# The RDF block only names the format and the creator (with a URL); the page has no use for it.
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
# matplotlib names every group (``figure_1``, ``axes_1``, ``text_12``...): nothing refers to these,
# and two plots on one page would repeat them. Its referenced ids (clip paths, markers) are salted
# hashes without ``_``.
_GROUP_ID = re.compile(r'\sid="[A-Za-z][A-Za-z0-9.]*_\d+"')


@contextmanager
def _no_glyph_warnings() -> Iterator[None]:
    """matplotlib warns on stderr of every glyph its font lacks (a CJK or emoji model name). Text is
    written as text (``svg.fonttype: none``) and drawn by the browser's fonts, so the warning is
    noise; the width measured for layout falls back to matplotlib's box for the glyph, which is
    close enough."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning
        )
        yield


def to_svg(fig: Figure, plot_id: str) -> str:
    """Serialise ``fig`` as an SVG element for inlining: no XML prolog, no comments, ids unique
    to ``plot_id``."""
    buf = io.StringIO()
    params = {
        # A salt per plot keeps the generated clip-path and marker ids distinct between plots on
        # one page.
        "svg.hashsalt": f"lobstack-{plot_id}",
        "svg.id": plot_id,
        # Text stays text: smaller, selectable, and readable by the tests.
        "svg.fonttype": "none",
    }
    with matplotlib.rc_context(params), _no_glyph_warnings():
        FigureCanvasSVG(fig)
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = _XML_PROLOG.sub("", buf.getvalue())
    return _GROUP_ID.sub("", _METADATA.sub("", _COMMENT.sub("", svg))).strip()


def label_width_pt(labels: Sequence[str], size: float) -> float:
    """The widest of ``labels`` in points at font ``size``, measured with matplotlib's own
    font metrics."""
    prop = FontProperties(size=size)
    # The longest strings by character count are the only candidates worth measuring exactly.
    longest = sorted(set(labels), key=lambda s: (-len(s), s))[:12]
    with _no_glyph_warnings():
        return max(
            (text_to_path.get_text_width_height_descent(s, prop, ismath=False)[0] for s in longest),
            default=0.0,
        )


def figure(
    width: float,
    height: float,
    left_pt: float,
    top_pt: float,
    bottom_pt: float,
    right_pt: float = 14,
) -> Figure:
    """A figure with fixed margins in points (cheaper than constrained layout, which re-measures
    every text)."""
    fig = Figure(figsize=(width, height), dpi=72)
    fig.patch.set_alpha(0.0)
    w, h = width * 72, height * 72
    left_pt = min(
        left_pt, w / 2
    )  # labels are cut to 40 columns; whatever their font, the plot keeps half
    fig.subplots_adjust(
        left=left_pt / w,
        right=1 - right_pt / w,
        top=1 - top_pt / h,
        bottom=bottom_pt / h,
        wspace=0.12,
    )
    return fig


def row_labels(ax: Axes, ys: Sequence[float], names: Sequence[str]) -> None:
    """Model names left of the rows as plain texts: a matplotlib tick is five artists, a text one
    (2x faster)."""
    ax.set_yticks([])
    where = ax.get_yaxis_transform()  # x in axes fractions, y in data
    for y, name in zip(ys, names, strict=True):
        ax.text(-0.006, y, name, transform=where, ha="right", va="center", fontsize=8)


def empty_svg(plot_id: str) -> str:
    fig = figure(6.0, 1.0, 10, 10, 10)
    ax = fig.subplots()
    ax.axis("off")
    ax.text(0.5, 0.5, "no models", ha="center", va="center", transform=ax.transAxes, fontsize=9)
    return to_svg(fig, plot_id)
