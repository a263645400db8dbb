"""Reading ``run.json`` back: every field checked, an edited or corrupt file named with
its field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fileio.reading import read_json
from recorder.endpoint import parse_base_url, stored_uri
from recorder.manifest import (
    DEFAULT_COST_HEADER,
    FORMAT_VERSION,
    MANIFEST,
    MAX_STATUS,
    MIN_STATUS,
    Manifest,
    RecordedAttempt,
    RecordedCase,
)
from recorder.repeats import (
    MAX_REPEATS,  # record never writes more: a bigger number is an edited file
)
from recorder.run_stamp import parse_run
from scorer.errors import CassetteError, UsageError
from scorer.format_version import format_version_problem
from scorer.wire.settings import Wire, wire_from_json


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise CassetteError(f"{path}: field {key!r} is missing or has the wrong type")
    return value


def _optional(
    data: dict[str, Any], key: str, kind: type, default: Any, expected: str, path: Path
) -> Any:
    """``data[key]`` when it has the type ``kind``, ``default`` when absent; any other value is
    refused (a flag written ``"yes"`` must not silently read as true or false)."""
    value = data.get(key, default)
    if not isinstance(value, kind):
        raise CassetteError(f"{path}: {key}: expected {expected}, got {value!r}")
    return value


def _short(value: Any) -> str:
    """``value`` shown in an error line, cut: an edited file may hold a number of 10,000 digits."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _attempt(raw: Any, where: str) -> RecordedAttempt:
    """One attempt of run.json, every field checked; CassetteError text is
    ``<field path>: <problem>``."""
    if not isinstance(raw, dict):
        raise CassetteError(f"{where}: expected an object")
    for key in ("step", "attempt"):
        if not _is_int(raw.get(key)) or raw[key] < 0:
            raise CassetteError(f"{where}.{key}: expected an integer >= 0, got {raw.get(key)!r}")
    if not isinstance(raw.get("outcome"), str):
        raise CassetteError(f"{where}.outcome: expected a string, got {raw.get('outcome')!r}")
    status = raw.get("status")
    if status is not None and not (_is_int(status) and MIN_STATUS <= status <= MAX_STATUS):
        raise CassetteError(
            f"{where}.status: expected an HTTP status (100-999) or null, got {status!r}"
        )
    wall = raw.get("wall_ms")
    # A latency is a duration: NaN never reaches here (strict JSON), a negative one is a
    # corrupt file.
    if wall is not None and (
        isinstance(wall, bool) or not isinstance(wall, int | float) or wall < 0
    ):
        raise CassetteError(
            f"{where}.wall_ms: expected a number of milliseconds >= 0 or null, got {wall!r}"
        )
    digest = raw.get("request_sha256")
    if digest is not None and not isinstance(digest, str):
        raise CassetteError(f"{where}.request_sha256: expected a string or null, got {digest!r}")
    first = raw.get("first_byte_ms")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int | float) or first < 0
    ):
        raise CassetteError(
            f"{where}.first_byte_ms: expected a number of milliseconds >= 0, got {first!r}"
        )
    dropped = raw.get("temperature_dropped", False)
    if not isinstance(dropped, bool):
        raise CassetteError(f"{where}.temperature_dropped: expected true or false, got {dropped!r}")
    return RecordedAttempt(
        raw["step"],
        raw["attempt"],
        raw["outcome"],
        status,
        None if wall is None else float(wall),
        digest,
        None if first is None else float(first),
        dropped,
    )


def parse_case(case_id: str, entry: Any, path: Path, field_name: str = "cases") -> RecordedCase:
    """A case entry read back, every field checked; CassetteError naming the file, case and field
    (``field_name`` is where the entry lives: ``cases``, or ``repeat_cases.<n>`` for a
    later repeat)."""
    where = f"{path}: {field_name}.{case_id}"
    if not isinstance(entry, dict):
        raise CassetteError(f"{where}: expected an object")
    if not isinstance(entry.get("status"), str):
        raise CassetteError(f"{where}.status: expected a string, got {entry.get('status')!r}")
    attempts = entry.get("attempts")
    if not isinstance(attempts, list):
        raise CassetteError(f"{where}.attempts: expected a list, got {attempts!r}")
    parsed = tuple(_attempt(a, f"{where}.attempts[{i}]") for i, a in enumerate(attempts))
    for key in (
        "reason",
        "suite_version",
    ):  # null or absent when unknown; anything else is a corrupt entry
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise CassetteError(f"{where}.{key}: expected a string or null, got {entry[key]!r}")
    return RecordedCase(entry["status"], entry.get("reason"), entry.get("suite_version"), parsed)


def read_manifest(model_dir: Path) -> Manifest:
    """Load ``run.json``; a missing or corrupt manifest is a CassetteError naming the file
    and field."""
    path = model_dir / MANIFEST
    data = read_json(path, "run manifest")
    if not isinstance(data, dict):
        raise CassetteError(f"{path}: the run manifest is not a JSON object")
    problem = format_version_problem(data, FORMAT_VERSION)
    if problem:
        raise CassetteError(f"{path}: {problem}")
    suite = _need(data, "suite", dict, path)
    if not all(isinstance(suite.get(k), str) for k in ("name", "version", "sha256")):
        raise CassetteError(f"{path}: field 'suite' needs name, version and sha256")
    cases = {
        case_id: parse_case(case_id, entry, path)
        for case_id, entry in _need(data, "cases", dict, path).items()
    }
    repeats = data.get("repeats", 1)
    if not _is_int(repeats) or not 1 <= repeats <= MAX_REPEATS:
        raise CassetteError(
            f"{path}: repeats: expected a whole number from 1 to {MAX_REPEATS}, got "
            f"{_short(repeats)}"
        )
    repeat_cases: dict[int, dict[str, RecordedCase]] = {}
    raw_repeats = data.get("repeat_cases", {})
    if not isinstance(raw_repeats, dict):
        raise CassetteError(f"{path}: repeat_cases: expected an object")
    for key, entries in raw_repeats.items():
        if not (
            key.isascii()
            and key.isdigit()
            and len(key) <= 4  # int() of a 5,000-digit key raises; MAX_REPEATS has fewer digits
            and 2 <= int(key) <= MAX_REPEATS
            and isinstance(entries, dict)
        ):
            raise CassetteError(
                f"{path}: repeat_cases.{_short(key)}: expected a repeat number from 2 to "
                f"{MAX_REPEATS} mapping case ids to entries"
            )
        field_name = f"repeat_cases.{key}"
        repeat_cases[int(key)] = {
            case_id: parse_case(case_id, e, path, field_name) for case_id, e in entries.items()
        }
    return Manifest(
        model=_need(data, "model", str, path),
        model_slug=_need(data, "model_slug", str, path),
        base_url=_base_url(data, path),
        recorder_version=_optional(data, "recorder_version", str, "", "a string", path),
        suite={k: suite[k] for k in ("name", "version", "sha256")},
        temperature_ignored=_optional(
            data, "temperature_ignored", bool, False, "true or false", path
        ),
        cases=cases,
        repeats=repeats,
        repeat_cases=repeat_cases,
        cost_header=_cost_header(data, path),
        run=parse_run(data.get("run"), path),
        wire=_wire(data, path),
    )


def _wire(data: dict[str, Any], path: Path) -> Wire:
    """The run's dialect, streaming and settings; absent (every run.json before them): the
    method's own Chat Completions request."""
    from scorer.wire.dialect import DIALECTS, dialect

    raw = {
        "dialect": data.get("dialect", "chat"),
        "stream": data.get("stream", False),
        "params": data.get("params", {}),
    }
    wire = wire_from_json(raw)
    if wire is None or wire.dialect not in DIALECTS:
        raise CassetteError(
            f"{path}: fields 'dialect', 'stream', 'params': expected one of "
            f"{', '.join(sorted(DIALECTS))}, true or false, and an object"
        )
    dialect(wire.dialect)
    return wire


def _base_url(data: dict[str, Any], path: Path) -> str:
    """The recorded API root as stored: ``record`` never writes credentials, but a hand-edited
    run.json may hold some (``https://user:KEY@host/v1``). They are dropped here, where the file
    is read, so no hint, reason or report made from it can print or write them; a value that is
    not an http(s) API root is a corrupt field."""
    raw = _need(data, "base_url", str, path)
    try:
        return stored_uri(parse_base_url(raw).url)
    except UsageError as exc:  # its text never repeats the credentials (parse_base_url's contract)
        raise CassetteError(
            f"{path}: base_url: {exc.message.removeprefix('--base-url').lstrip(': ')}"
        ) from None


def _cost_header(data: dict[str, Any], path: Path) -> str:
    """The header the run's prices were read from; manifests written before ``--cost-header``
    used the default."""
    value = data.get("cost_header", DEFAULT_COST_HEADER)
    if not isinstance(value, str) or not value:
        raise CassetteError(f"{path}: field 'cost_header' must be a header name")
    return value.lower()
