"""The HTML report (``reports/index.html``) and the run-diff page: self-contained files, no
network to open."""

from replay.html._diff import render_run_diff, write_run_diff
from replay.html._report import render_report, write_report

__all__ = ["render_report", "render_run_diff", "write_report", "write_run_diff"]
