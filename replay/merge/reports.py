"""Merging report dirs (``rescore --shard`` outputs, or whole reports of different models) into one
reports dir that is byte for byte what one unsharded rescore writes.

Each model's results.json is the union of its shards' case entries (in suite order) with every
summary figure recomputed from the union of the shards' rows; the leaderboard comes from the rows
too. Shards must be one complete set (1/n .. n/n, each once), scored with one suite, seeing the same
model dirs, without a case twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fileio.atomic import write_atomic
from fileio.reading import read_json
from recorder.files import read_suite, read_suite_document
from replay.hints import nothing_scored_line
from replay.leaderboard.report_tables import SHARD_FILE, SHARD_FORMAT, repeated, write_tables
from replay.merge.cassettes import Merged
from replay.results.read import read_results
from replay.results.typed import ResultsDocument, SuiteData, SuiteRef
from replay.rows.dataset import check_suite
from replay.rows.one_suite import short
from replay.rows.schema import Frames, sort_columns
from replay.rows.store import read_table
from replay.rows.wires import labels, wires_of, with_wires
from scorer.errors import ResultsError
from scorer.format_version import format_version_problem
from scorer.results import dumps
from scorer.summarize import empty, known_any, summarize

# The fields of results.json that merge recomputes from the rows; every other top-level field must
# be alike.
DERIVED = frozenset(
    {
        "temperature_ignored",
        "routed_models",
        "cases",
        "metrics",
        "groups",
        "latency_p50_ms",
        "cost_per_100_cases_usd",
        "cost_usd",
        "results",
    }
)


@dataclass(frozen=True)
class ReportInput:
    """One input reports dir: its shard (None when whole), suite, results documents and rows."""

    folder: Path
    shard: tuple[int, int] | None
    models: tuple[str, ...]
    documents: dict[str, ResultsDocument]
    tables: Frames

    @property
    def label(self) -> str:
        return (
            f"{self.folder} (shard {self.shard[0]}/{self.shard[1]})"
            if self.shard
            else str(self.folder)
        )


def _shard(
    folder: Path,
) -> tuple[tuple[int, int] | None, tuple[str, ...] | None, SuiteData | None]:
    # the shard's ``suite`` as written (free JSON): merge compares it to each results document's
    path = folder / SHARD_FILE
    if not path.is_file():
        return None, None, None
    data = read_json(path, "shard file", ResultsError)
    problem = format_version_problem(data, SHARD_FORMAT) if isinstance(data, dict) else None
    if problem:
        raise ResultsError(f"{path}: {problem}")
    try:
        index, count = int(data["shard"]["index"]), int(data["shard"]["count"])
        return (index, count), tuple(data["models"]), dict(data["suite"])
    except (KeyError, TypeError, ValueError):
        raise ResultsError(
            f"{path}: not a shard file (needs shard.index, shard.count, models, suite)"
        ) from None


def read_input(folder: Path) -> ReportInput:
    """Load one reports dir: results.json of every model dir, cases/calls.parquet (checked),
    shard.json if any."""
    shard, models, suite = _shard(folder)
    documents = {}
    for path in sorted(folder.glob("*/results.json")):
        results = read_results(path)
        # merge carries every field it does not recompute as written (free JSON, ``_carried``)
        document = results.document
        if results.model_slug != path.parent.name:
            raise ResultsError(
                f"{path}: model_slug {document.get('model_slug')!r} is not its folder's name"
            )
        if suite is not None and document["suite"] != suite:
            raise ResultsError(f"{path}: scored with another suite than {folder / SHARD_FILE} says")
        documents[path.parent.name] = document
    for name in ("cases", "calls"):
        if not (folder / f"{name}.parquet").is_file():
            raise ResultsError(
                f"{folder}: no {name}.parquet; rescore it again with this lobstack-eval to merge it"
            )
    tables = {name: read_table(folder / f"{name}.parquet", name) for name in ("cases", "calls")}
    if models is not None and tuple(sorted(documents)) != tuple(sorted(models)):
        raise ResultsError(
            f"{folder}: its results.json files are not the models {folder / SHARD_FILE} lists"
        )
    return ReportInput(folder, shard, tuple(sorted(documents)), documents, tables)


def _inconsistent(a: ReportInput, b: ReportInput, what: str) -> ResultsError:
    return ResultsError(
        f"inconsistent shards: {a.label} and {b.label} {what}; merge the shards of one run"
    )


def check_set(inputs: Sequence[ReportInput]) -> None:
    """One complete set of shards of one suite, or whole dirs; no model case in two inputs."""
    first = inputs[0]
    suite = next(iter(first.documents.values()))["suite"] if first.documents else None
    for other in inputs:
        for document in other.documents.values():
            if suite is not None and document["suite"] != suite:
                theirs = document["suite"]
                what = (
                    "different suites"
                    if theirs.get("version") != suite.get("version")
                    else "different suite files"
                )
                files = f"{_suite_text(suite)} and {_suite_text(theirs)}"
                raise _inconsistent(first, other, f"were scored with {what} ({files})")
    sharded = [i for i in inputs if i.shard]
    if sharded and len(sharded) != len(inputs):
        whole = next(i for i in inputs if not i.shard)
        raise _inconsistent(sharded[0], whole, "mix a shard and a whole reports dir")
    if sharded:
        count = first.shard[1] if first.shard else 0
        seen: dict[int, ReportInput] = {}
        for item in sharded:
            assert item.shard is not None
            if item.shard[1] != count:
                raise _inconsistent(first, item, "cut the work into different numbers of shards")
            if item.shard[0] in seen:
                raise _inconsistent(seen[item.shard[0]], item, "are the same shard")
            if item.models != first.models:
                raise _inconsistent(first, item, "saw different model dirs")
            seen[item.shard[0]] = item
        missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
        if missing:
            raise ResultsError(
                f"incomplete shards: {', '.join(missing)} missing (given: "
                f"{', '.join(map(str, seen))})"
            )
    owner: dict[tuple[str, str], ReportInput] = {}
    for item in inputs:
        for slug, document in item.documents.items():
            for entry in document["results"]:
                key = (slug, entry["id"])
                if key in owner:
                    raise ResultsError(
                        f"overlapping shards: {owner[key].label} and {item.label} both hold case "
                        f"{entry['id']!r} of {document['model']}"
                    )
                owner[key] = item


def _suite_text(suite: SuiteData) -> str:
    return f"{suite.get('name')} {suite.get('version')} sha256 {short(str(suite.get('sha256')))}"


def _carried(slug: str, inputs: Sequence[ReportInput]) -> ResultsDocument:
    """The fields of a model's results.json that are not recomputed; they must be alike in
    every input."""
    holders = [i for i in inputs if slug in i.documents]
    kept = {k: v for k, v in holders[0].documents[slug].items() if k not in DERIVED}
    for other in holders[1:]:
        theirs = {k: v for k, v in other.documents[slug].items() if k not in DERIVED}
        if theirs != kept:
            field = sorted(k for k in set(kept) | set(theirs) if kept.get(k) != theirs.get(k))[0]
            raise _inconsistent(holders[0], other, f"disagree on {slug}'s {field}")
    return kept


def merged_tables(inputs: Sequence[ReportInput]) -> Frames:
    """The union of the inputs' rows in canonical order; the run-level ``temperature_ignored`` of
    each model is the "any" over its shards, as one run would have seen it."""
    import polars as pl

    tables = {
        name: pl.concat([i.tables[name] for i in inputs]).sort(
            sort_columns(name), maintain_order=True
        )
        for name in ("cases", "calls")
    }
    flag = known_any("temperature_ignored").over("model_slug").alias("temperature_ignored")
    tables["cases"] = tables["cases"].with_columns(flag).rechunk()
    tables["calls"] = tables["calls"].rechunk()
    return tables


def merge_reports(
    inputs_dirs: Sequence[Path], out: Path, suite_path: Path | None, html: bool, rows: Path | None
) -> Merged:
    """Merge report dirs into ``out`` (checked first; nothing is written when a check fails)."""
    inputs = [read_input(folder) for folder in inputs_dirs]
    check_set(inputs)
    for item in inputs:
        for slug, document in item.documents.items():
            if repeated(document):
                raise ResultsError(
                    f"{item.folder / slug / 'results.json'}: merging reports of repeated runs (K > "
                    "1) is not supported yet; merge the cassette shards and rescore them instead"
                )
    slugs = sorted({slug for i in inputs for slug in i.documents})
    first = next((d["suite"] for i in inputs for d in i.documents.values()), None)
    if rows is not None and first is not None:  # before writing: decision 110
        check_suite(rows, first["version"], first["sha256"], slugs)
    tables = merged_tables(inputs)
    order = dict(tables["cases"].select("case_id", "case_index").unique().iter_rows())
    found = summarize(tables["cases"])
    documents, summaries = [], []
    for slug in slugs:
        document = _carried(slug, inputs)
        entries = [e for i in inputs if slug in i.documents for e in i.documents[slug]["results"]]
        summaries.append(found.get(slug) or empty(document["model"], slug))
        document.update(summaries[-1].document())
        document["results"] = sorted(entries, key=lambda e: order[e["id"]])
        documents.append(document)
    suite_json = _suite_for_html(documents, suite_path) if html else None
    files = []
    for document in documents:
        write_atomic(out / document["model_slug"] / "results.json", dumps(document), out)
        files.append(out / document["model_slug"] / "results.json")
    suite = documents[0]["suite"] if documents else {"name": "", "version": "", "sha256": ""}
    ref = SuiteRef(suite["name"], suite["version"], suite["sha256"])
    wires = wires_of(documents)  # the rows carry no wire: the documents do
    summaries = with_wires(summaries, labels(wires, out))
    files += write_tables(out, ref, summaries, tables, rows=rows, wires=wires)
    if suite_json is not None:
        from replay.html import render_report

        write_atomic(out / "index.html", render_report(documents, suite_json))
        files.append(out / "index.html")
    # As rescore says it (decision 116): a model none of whose cases was scored fails the merge
    # once written.
    errors = tuple(
        nothing_scored_line(s, out / s.model_slug) for s in summaries if s.nothing_scored
    )
    return Merged(
        "reports",
        len(documents),
        sum(len(d["results"]) for d in documents),
        tuple(files),
        (),
        errors,
    )


def _suite_for_html(documents: Sequence[ResultsDocument], suite_path: Path | None) -> SuiteData:
    """The suite file's JSON for the HTML report; it must be the suite the shards were
    scored with."""
    if suite_path is None:
        raise ResultsError("the HTML report needs the suite file: pass --suite, or --no-html")
    suite = read_suite(suite_path)
    wanted = documents[0]["suite"]["sha256"] if documents else suite.sha256
    if suite.sha256 != wanted:
        raise ResultsError(
            f"--suite {suite_path}: sha256 {suite.sha256[:12]}..., but the shards were scored with "
            f"{wanted[:12]}...; pass that suite file, or --no-html"
        )
    return read_suite_document(suite_path)
