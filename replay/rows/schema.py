"""The two row tables, ``cases`` and ``calls``: their columns and types (docs/FORMATS.md, "Rows").

The column order here is the order in every parquet file; readers check a file's schema against it exactly.
"""

from __future__ import annotations

from typing import Any

from scorer.metrics import CALL_METRICS, CASE_METRICS

FORMAT_VERSION = "1"
TABLES = ("cases", "calls")
# Key-value metadata in every file: which table it is and which format version wrote it.
META_TABLE = "lobstack_eval.table"
META_FORMAT = "lobstack_eval.format_version"
# Partition files also say which partition they belong to, so a file moved into the wrong folder is caught.
META_SUITE_VERSION = "lobstack_eval.suite_version"
META_MODEL_SLUG = "lobstack_eval.model_slug"
# And which suite file scored them (METHOD decision 110), so a rows dataset tells one version's suite files apart
# from footers alone.
META_SUITE_SHA256 = "lobstack_eval.suite_sha256"
COST_SCALE = 18  # decimal places of cost_usd: exact for every price with at most 18 (1e-18 USD)
SCORED = ("passed", "failed")


def _schemas() -> dict[str, dict[str, Any]]:
    import polars as pl

    key = {
        "model": pl.String,
        "model_slug": pl.String,
        "suite_name": pl.String,
        "suite_version": pl.String,
        "suite_sha256": pl.String,
        "case_id": pl.String,
        "case_index": pl.Int32,
        "group": pl.String,
        "repeat": pl.Int32,
        "status": pl.String,
    }
    cases = {
        **key,
        "recorded_suite_version": pl.String,
        "reason": pl.String,
        "steps_total": pl.Int32,
        "steps_reached": pl.Int32,
        "first_failing_step": pl.Int32,
        # The metric columns (scorer.metrics): a boolean per case metric, then the calls, then a count and
        # its base per call metric.
        **dict.fromkeys(CASE_METRICS, pl.Boolean),
        "calls": pl.Int32,
        **{f"{m}{end}": pl.Int32 for m in CALL_METRICS for end in ("", "_of")},
        "attempts": pl.Int32,
        "latency_ms": pl.Float64,
        "attempt_wall_ms": pl.List(pl.Float64),
        "cost_usd_text": pl.String,
        "cost_usd": pl.Decimal(38, COST_SCALE),
        "routed_models": pl.List(pl.String),
        "temperature_ignored": pl.Boolean,
    }
    calls = {
        **key,
        "step": pl.Int32,
        "call": pl.Int32,
        "call_id": pl.String,
        "name": pl.String,
        "offered": pl.Boolean,
        "parsed": pl.Boolean,
        "schema_valid": pl.Boolean,
        "arguments_form": pl.String,
        "arguments": pl.String,
    }
    return {"cases": cases, "calls": calls}


_CACHE: dict[str, dict[str, Any]] = {}


def schema(table: str) -> dict[str, Any]:
    """The ordered column -> polars dtype mapping of ``table`` (``cases`` or ``calls``)."""
    if not _CACHE:
        _CACHE.update(_schemas())
    return _CACHE[table]


def sort_columns(table: str) -> list[str]:
    """The row order of a table: model, case in suite order, repeat (and for calls, step and call)."""
    return ["model_slug", "case_index", "repeat"] + (["step", "call"] if table == "calls" else [])
