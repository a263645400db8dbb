"""Each model's metrics under both suite versions, from the same cassettes
(``diff suites --cassettes``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.results.typed import ResultsDocument
from scorer.errors import LobstackError
from scorer.status import is_scored
from scorer.summary import METRICS


@dataclass(frozen=True)
class Flip:
    """A case scored under both versions whose verdict changed; ``reason`` is the failing
    side's reason."""

    case_id: str
    old: str  # passed | failed
    new: str
    reason: str | None


@dataclass(frozen=True)
class Common:
    """The seven rates under OLD and under NEW over only the ``count`` cases scored under both."""

    count: int
    rates_old: tuple[float | None, ...]
    rates_new: tuple[float | None, ...]


@dataclass(frozen=True)
class ModelRescore:
    """One model's seven rates rescored under OLD and under NEW, its flips, and what each side
    left unrecorded.

    When the cases scored under OLD and under NEW differ, the two columns are over different cases;
    ``common`` then holds the seven rates of each side over only the cases scored under both (None
    when the sets agree).
    """

    model: str
    rates_old: tuple[float | None, ...]  # in METRICS order
    rates_new: tuple[float | None, ...]
    needs_recording: tuple[str, ...]  # case ids unrecorded under NEW
    flips: tuple[Flip, ...] = ()  # NEW's case order
    scored_old: int = 0
    scored_new: int = 0
    unrecorded_old: tuple[str, ...] = ()  # case ids unrecorded under OLD, OLD's order
    common: Common | None = None


def _scored(document: ResultsDocument) -> list[str]:
    return [r["id"] for r in document["results"] if is_scored(r["status"])]


def _rates(document: ResultsDocument) -> tuple[float | None, ...]:
    return tuple(document["metrics"][m]["rate"] for m in METRICS)


def _common_rates(
    suite: Any, document: ResultsDocument, cases: set[str]
) -> tuple[float | None, ...]:
    """The seven rates of ``document`` over ``cases`` only: the summary of those cases' rows."""
    from replay.scored import summary_of_document

    kept = {**document, "results": [r for r in document["results"] if r["id"] in cases]}
    summary = summary_of_document(suite, kept)
    return tuple(summary.metrics[m].rate for m in METRICS)


def _flips(old: ResultsDocument, new: ResultsDocument) -> tuple[Flip, ...]:
    before = {r["id"]: r for r in old["results"]}
    flips = []
    for result in new["results"]:
        prior = before.get(result["id"])
        # A flip: scored under both suites, with another verdict.
        if prior is None or not (is_scored(prior["status"]) and is_scored(result["status"])):
            continue
        if prior["status"] == result["status"]:
            continue
        failing = result if result["status"] == "failed" else prior
        flips.append(Flip(result["id"], prior["status"], result["status"], failing.get("reason")))
    return tuple(flips)


def rescore_both(
    cassettes: Path, old: tuple[bytes, str], new: tuple[bytes, str]
) -> tuple[tuple[ModelRescore, ...], tuple[str, ...]]:
    """Rescore every model dir of ``cassettes`` under OLD and NEW (each given as raw bytes and
    source name).

    Reads cassettes only (no network). Returns the rows and, for every model dir that could not be
    scored (or a folder that is not a model dir) and every cassette that could not be used, one
    error line naming the file; the other models (and a model's other cases) are still compared.
    """
    from replay.rescore import find_model_dirs, score_model  # only --cassettes needs replay
    from scorer import parse_suite

    dirs, unusable = find_model_dirs(cassettes)
    suite_old, suite_new = parse_suite(old[0], old[1]), parse_suite(new[0], new[1])
    rows, errors = [], [line for _folder, line in unusable]
    for model_dir in dirs:
        try:
            old_run, new_run = score_model(model_dir, suite_old), score_model(model_dir, suite_new)
            ro, rn = old_run.results, new_run.results
            # A cassette that cannot be used is unrecorded under both, and said once.
            errors += list(
                dict.fromkeys(bad.line() for bad in (*old_run.unusable, *new_run.unusable))
            )
            scored_old, scored_new = _scored(ro), _scored(rn)
            common = None
            if set(scored_old) != set(scored_new):
                # Each side's summary over the rows of the cases scored under both: rates over one
                # set of cases.
                both = set(scored_old) & set(scored_new)
                rates = (_common_rates(suite_old, ro, both), _common_rates(suite_new, rn, both))
                common = (
                    Common(len(both), *rates)
                    if both
                    else Common(0, (None,) * len(METRICS), (None,) * len(METRICS))
                )
        except LobstackError as exc:
            errors.append(exc.message)
            continue
        rows.append(
            ModelRescore(
                model=str(rn.get("model", model_dir.name)),
                rates_old=_rates(ro),
                rates_new=_rates(rn),
                needs_recording=tuple(
                    r["id"] for r in rn["results"] if r["status"] == "unrecorded"
                ),
                flips=_flips(ro, rn),
                scored_old=len(scored_old),
                scored_new=len(scored_new),
                unrecorded_old=tuple(r["id"] for r in ro["results"] if r["status"] == "unrecorded"),
                common=common,
            )
        )
    return tuple(rows), tuple(sorted(errors))
