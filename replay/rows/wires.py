"""The wire of each model's rows, in the footer of the cases table (docs/FORMATS.md, "Rows").

A run through another wire than the method's request (results.json ``wire``) has its dialect,
streaming and settings, and its streamed case-runs with a transport anomaly, written under the
key ``lobstack_eval.wires`` of every cases file that holds its rows, as JSON ``{model_slug:
{"dialect", "stream", "params", "transport_anomalies"}}``. Boards built from rows then label its
rows ``MODEL (WIRE)`` and name its anomalies as rescore does. A file of the method's runs alone
has no such key, so every file written before is what it was, byte for byte, and its columns
never change (a rows dataset's partitions keep one schema).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from scorer.errors import ResultsError
from scorer.summary import ModelSummary
from scorer.wire.settings import wire_from_json

META_WIRES = "lobstack_eval.wires"
# free JSON: one model's footer entry as written (the results document's ``wire`` object and its
# ``transport_anomalies`` count); ``labels`` checks one read back
WireEntry = dict[str, Any]


def wire_entry(document: Mapping[str, Any]) -> WireEntry | None:
    """A results document's footer entry: its wire and its case-runs with a transport anomaly
    (None when it was not streamed); None for the method's request (no ``wire`` field)."""
    wire = document.get("wire")
    if not isinstance(wire, dict):
        return None
    found = document.get("transport_anomalies")
    cases = found.get("cases") if isinstance(found, dict) else None
    return {**wire, "transport_anomalies": cases if isinstance(cases, int) else None}


def wires_of(documents: Iterable[Mapping[str, Any]]) -> dict[str, WireEntry]:
    """``{model_slug: entry}`` of the documents recorded through another wire."""
    found = {}
    for document in documents:
        entry = wire_entry(document)
        if entry is not None:
            found[str(document["model_slug"])] = entry
    return found


def footer(wires: Mapping[str, WireEntry], slugs: Iterable[str] | None = None) -> dict[str, str]:
    """The key-value metadata of a cases file holding the rows of ``slugs`` (all: None); empty when
    none of them has a wire."""
    keep = {s: e for s, e in wires.items() if slugs is None or s in set(slugs)}
    if not keep:
        return {}
    return {META_WIRES: json.dumps(keep, sort_keys=True, ensure_ascii=False)}


def read_footer(metadata: Mapping[str, str], path: Path) -> dict[str, tuple[str, int | None]]:
    """``{model_slug: (wire label, transport anomalies)}`` of a cases file's footer; a
    ResultsError naming the file when the key holds no such object."""
    text = metadata.get(META_WIRES)
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ResultsError(f"{path}: {META_WIRES}: expected a JSON object of model slugs")
    return labels(value, path)


def labels(wires: Mapping[str, Any], path: Path | str) -> dict[str, tuple[str, int | None]]:
    """``{model_slug: (wire label, transport anomalies)}`` of footer entries; a ResultsError naming
    ``path`` and the slug of one that is not a wire."""
    out: dict[str, tuple[str, int | None]] = {}
    for slug, entry in wires.items():
        wire = wire_from_json(entry)
        anomalies = entry.get("transport_anomalies") if isinstance(entry, dict) else None
        if wire is None or not (anomalies is None or type(anomalies) is int):
            raise ResultsError(
                f"{path}: {META_WIRES}.{slug}: expected a wire (dialect, stream, params, "
                "transport_anomalies)"
            )
        out[slug] = (wire.label(), anomalies)
    return out


def with_wires(
    summaries: Sequence[ModelSummary], wires: Mapping[str, tuple[str, int | None]]
) -> list[ModelSummary]:
    """``summaries`` with the wire and anomalies their rows' footers name (others as they are)."""
    return [
        replace(s, wire=wires[s.model_slug][0], anomalies=wires[s.model_slug][1])
        if s.model_slug in wires
        else s
        for s in summaries
    ]
