"""The report's plot cache (replay/html/_cache.py): the page is the same bytes drawn, cached or
uncached, a run that changes no plotted figure imports no matplotlib, and a broken or unwritable
cache only costs time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay.html import _cache, render_report
from tests.conftest import ROOT

SUITE = json.loads((ROOT / "evals" / "suite.json").read_text(encoding="utf-8"))


def documents() -> list[dict[str, object]]:
    return [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(ROOT.glob("reports/*/results.json"))
    ]


def test_drawn_cached_and_uncached_pages_are_the_committed_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    committed = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", str(tmp_path / "cache"))
    assert render_report(documents(), SUITE) == committed  # drawn, then kept
    assert len(list((tmp_path / "cache" / "plots").glob("*.svg"))) == 5  # 4 plots and the pick's
    assert render_report(documents(), SUITE) == committed  # from the cache
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", "")
    assert _cache.cache_dir() is None
    assert render_report(documents(), SUITE) == committed  # no cache at all


def test_a_changed_figure_is_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", str(tmp_path))
    docs = documents()
    first = render_report(docs, SUITE)
    docs[0]["latency_p50_ms"] = 123456.0
    second = render_report(docs, SUITE)
    assert second != first
    # Every plot is keyed on all the figures it is drawn from (never a stale plot), and only on
    # them: the latency plot is drawn again; the rates, the cost and the groups plots (drawn from
    # each model's figures but no latency) and the pick's cost-quality plot (drawn from the
    # front's figures) are kept.
    assert len(list((tmp_path / "plots").glob("*.svg"))) == 6
    assert render_report(docs, SUITE) == second


def test_a_corrupt_or_unwritable_cache_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    committed = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", str(tmp_path))
    render_report(documents(), SUITE)
    for path in (tmp_path / "plots").glob("*.svg"):
        path.write_text("<svg truncated", encoding="utf-8")
    assert render_report(documents(), SUITE) == committed
    outside = tmp_path / "outside.svg"
    outside.write_text("<svg truncated", encoding="utf-8")
    for path in (tmp_path / "plots").glob("*.svg"):  # a cached plot that is a link: not written
        path.unlink()
        path.symlink_to(outside)
    assert render_report(documents(), SUITE) == committed
    assert outside.read_text(encoding="utf-8") == "<svg truncated"
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", str(blocked))
    assert render_report(documents(), SUITE) == committed


def test_the_cache_keeps_at_most_max_plots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_cache, "MAX_PLOTS", 3)
    for i in range(5):
        assert _cache.cached_svg("test", i, lambda i=i: f"<svg>{i}</svg>") == f"<svg>{i}</svg>"
        os.utime(next(iter(sorted((tmp_path / "plots").glob("*.svg"), key=os.path.getmtime))), None)
    assert len(list((tmp_path / "plots").glob("*.svg"))) == 3


def test_a_rerun_with_the_same_figures_imports_no_matplotlib(tmp_path: Path) -> None:
    script = (
        "import sys\nfrom lobstack_eval.main import main\ncode = main(['rescore', "
        f"{str(ROOT / 'cassettes')!r}, '--out', {str(tmp_path / 'out')!r}, '-q', '--workers', "
        "'1'])\nprint(code, 'matplotlib' in sys.modules)\n"
    )
    env = {**os.environ, "LOBSTACK_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
        )
        return done.stdout.splitlines()[-1]

    assert run() == "0 True"  # a cold cache: drawn
    assert run() == "0 False"  # the same figures: from the cache
    assert (tmp_path / "out" / "index.html").read_bytes() == (
        ROOT / "reports" / "index.html"
    ).read_bytes()


def test_a_plot_evicted_by_another_process_meanwhile_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two reports sharing the cache: the other one deletes an old plot between this one's listing
    and its look at the plot's age. The page is still drawn and the cache still trimmed."""
    monkeypatch.setenv("LOBSTACK_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_cache, "MAX_PLOTS", 2)
    for i in range(2):
        _cache.cached_svg("test", i, lambda i=i: f"<svg>{i}</svg>")
    real_scandir = os.scandir

    class Listing(list):  # what os.scandir gives: iterable, and a context manager
        def __enter__(self):  # type: ignore[no-untyped-def]
            return self

        def __exit__(self, *exc: object) -> None:
            pass

    def scandir_then_evict(folder):  # type: ignore[no-untyped-def]
        with real_scandir(folder) as listing:
            entries = Listing(listing)
        svgs = sorted(e.path for e in entries if e.name.endswith(".svg"))
        if len(svgs) > 2:
            os.unlink(svgs[0])  # gone before its stat()
        return entries

    monkeypatch.setattr(_cache.os, "scandir", scandir_then_evict)
    assert _cache.cached_svg("test", 9, lambda: "<svg>9</svg>") == "<svg>9</svg>"
    assert len(list((tmp_path / "plots").glob("*.svg"))) <= 2
