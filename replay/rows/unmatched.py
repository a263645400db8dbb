"""The error for a slice value that matches no rows, naming the values there are (METHOD
decision 94):

    no model 'gpt-5' in reports/cases.parquet; models: auto, ref/abstain, ref/oracle

``lobstack-eval leaderboard`` slices rows by suite version, models (names or slugs) and group; the
values are checked in that order, each within the ones before it. This is asked only once a slice
came back empty or without a model asked for, so a good slice costs nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from recorder.slug import model_slug
from scorer.errors import ResultsError

_SHOWN = 10  # values named in an error; a dataset may hold thousands of models


def listing(values: Iterable[str]) -> str:
    """Distinct values, sorted, for an error line: at most ten, then how many more."""
    present = sorted(set(values))
    more = len(present) - _SHOWN
    return (
        ", ".join(present[:_SHOWN]) + (f", +{more} more" if more > 0 else "") if present else "none"
    )


def no_value(
    kind: str, given: Sequence[str], source: Path, present: Iterable[str], scope: str = ""
) -> ResultsError:
    """``no model 'x' in SOURCE (scope); models: a, b``: ``kind`` is what was asked for, ``given``
    the values that matched nothing (all of them), ``present`` the values there are."""
    plural = f"{kind}s"
    what = f"{kind if len(given) == 1 else plural} {', '.join(repr(value) for value in given)}"
    within = f" ({scope})" if scope else ""
    return ResultsError(f"no {what} in {source}{within}; {plural}: {listing(present)}")


def unknown_models(models: Sequence[str], slugs: Iterable[str]) -> list[str]:
    """The values of ``models`` (names or slugs, as given; one per slug) whose slug is not
    among ``slugs``."""
    present, seen, unknown = set(slugs), set(), []
    for model in models:
        slug = model_slug(model)
        if slug not in present and slug not in seen:
            unknown.append(model)
        seen.add(slug)
    return unknown


def _values(frame: Any, *columns: str) -> list[tuple[Any, ...]]:
    return list(frame.select(*columns).unique().collect(engine="streaming").iter_rows())


def explain_empty(
    source: Path, frame: Any, suite_version: str | None, models: Sequence[str], group: str | None
) -> ResultsError:
    """Why the slice of ``frame`` (every row of the files read, unfiltered) lacks what was asked:
    the first value that matches nothing, with the values there are; else the plain "no rows in
    this slice"."""
    import polars as pl

    if suite_version is not None:
        versions = [v for (v,) in _values(frame, "suite_version")]
        if suite_version not in versions:
            return no_value("suite version", [suite_version], source, versions)
        frame = frame.filter(pl.col("suite_version") == suite_version)
    scope = f"suite version {suite_version}" if suite_version is not None else ""
    pairs = _values(frame, "model_slug", "model")
    unknown = unknown_models(models, (slug for slug, _ in pairs))
    if unknown:
        return no_value("model", unknown, source, (name for _, name in pairs), scope)
    if group is not None:
        by_model = _values(frame, "model_slug", "model", "group")
        for model in models or [None]:
            slug = None if model is None else model_slug(model)
            groups = [g for s, _, g in by_model if slug is None or s == slug]
            if group not in groups:
                where = ", ".join(
                    part for part in (scope, "" if model is None else f"model {model}") if part
                )
                return no_value("group", [group], source, groups, where)
    return ResultsError(f"{source}: no rows in this slice")
