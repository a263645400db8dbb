"""The two row tables, ``cases`` and ``calls``: their columns and types (docs/FORMATS.md, "Rows").

The column order here is the order in every parquet file; readers check a file's schema against
it exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl

from scorer.metrics import CALL_METRICS, CASE_METRICS

FORMAT_VERSION = "1"
TABLES = ("cases", "calls")
# Key-value metadata in every file: which table it is and which format version wrote it.
META_TABLE = "lobstack_eval.table"
META_FORMAT = "lobstack_eval.format_version"
# Partition files also say which partition they belong to, so a file moved into the wrong folder
# is caught.
META_SUITE_VERSION = "lobstack_eval.suite_version"
META_MODEL_SLUG = "lobstack_eval.model_slug"
# And which suite file scored them (METHOD decision 110), so a rows dataset tells one version's
# suite files apart from footers alone.
META_SUITE_SHA256 = "lobstack_eval.suite_sha256"
# A run of a history (results.json ``run``): its partition (a third folder level) and footer say
# which run.
META_RUN_ID = "lobstack_eval.run_id"
META_RUN_DATE = "lobstack_eval.run_date"
COST_SCALE = 18  # decimal places of cost_usd: exact for every price with at most 18 (1e-18 USD)

# A table's columns: name -> polars dtype (a class such as pl.String, or pl.Decimal(38, 18)).
Schema = dict[str, "pl.DataType | type[pl.DataType]"]
# One row as gathered before polars builds its frame: column -> value, of the Schema's dtypes.
Row = dict[str, Any]
# Both tables' rows as gathered (``{"cases": [...], "calls": [...]}``), then as frames.
Rows = dict[str, list[Row]]
Frames = dict[str, "pl.DataFrame"]


def _schemas() -> dict[str, Schema]:
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
        # The metric columns (scorer.metrics): a boolean per case metric, then the calls, then a
        # count and its base per call metric.
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
    # Rows of runs of a history end with the run's id, date and the model's recorded identity
    # (results.json's run.identity as sorted JSON text; docs/FORMATS.md, "Histories"); rows of plain
    # recordings have none of these columns, so every file written before histories is what it
    # always was.
    run = {"run_id": pl.String, "run_date": pl.Date, "run_identity": pl.String}
    return {
        "cases": cases,
        "calls": calls,
        "cases+run": {**cases, **run},
        "calls+run": {**calls, **run},
        # A report dir's third table (not a rows dataset's): the front, one row per model.
        "front": front_schema(),
        "front+run": front_schema(),
    }


_CACHE: dict[str, Schema] = {}
RUN_COLUMNS = ("run_id", "run_date", "run_identity")


def schema(table: str, runs: bool = False) -> Schema:
    """The ordered column -> polars dtype mapping of ``table`` (``cases`` or ``calls``); with
    ``runs``, the form of rows of runs of a history (``run_id``, ``run_date`` and
    ``run_identity`` last)."""
    if not _CACHE:
        _CACHE.update(_schemas())
    return _CACHE[f"{table}+run" if runs else table]


def schemas(table: str) -> tuple[Schema, Schema]:
    """Both forms of ``table``: plain, then with the run columns."""
    return schema(table), schema(table, runs=True)


def sort_columns(table: str, runs: bool = False) -> list[str]:
    """The row order of a table: model (and run), case in suite order, repeat (and for calls,
    step and call)."""
    run = ["run_date", "run_id"] if runs else []
    return ["model_slug", *run, "case_index", "repeat"] + (
        ["step", "call"] if table == "calls" else []
    )


def front_schema() -> Schema:
    """The ordered column -> polars dtype mapping of ``front``."""
    import polars as pl

    return {
        "model": pl.String,
        "model_slug": pl.String,
        "suite_name": pl.String,
        "suite_version": pl.String,
        "suite_sha256": pl.String,
        "axis": pl.String,
        "overall": pl.Float64,
        "overall_ci_lo": pl.Float64,
        "overall_ci_hi": pl.Float64,
        "x": pl.Float64,
        "x_ci_lo": pl.Float64,
        "x_ci_hi": pl.Float64,
        "status": pl.String,
        "apart": pl.String,
        "dominated_by": pl.String,
        "p_value": pl.Float64,
        "p_front": pl.Float64,
        "lower_bound": pl.Float64,
        "within_delta": pl.Boolean,
        "picked": pl.Boolean,
        "delta": pl.Float64,
        "alpha": pl.Float64,
    }
