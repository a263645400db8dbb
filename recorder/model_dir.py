"""The model dir a record run writes into: its manifest, new or checked to belong to this model,
suite, endpoint and wire, and the case-runs a killed earlier run finished, adopted."""

from __future__ import annotations

from pathlib import Path

from fileio.safe_paths import inside
from recorder.endpoint import Endpoint, stored_uri
from recorder.manifest import MANIFEST, Manifest
from recorder.manifest_read import read_manifest
from recorder.partial import PARTIAL, adopt
from recorder.repeats import CaseRun
from recorder.run_stamp import RunStamp
from recorder.settings import DEFAULTS, RecordSettings
from recorder.slug import checked_model_slug
from recorder.version import installed_version
from scorer.errors import CassetteError
from scorer.suite.model import Suite


def recorder_version() -> str:
    """The installed lobstack-eval version (written into every manifest)."""
    return installed_version("0+unknown")


def open_manifest(
    model_dir: Path,
    model: str,
    suite: Suite,
    base_url: str,
    settings: RecordSettings = DEFAULTS,
    run: RunStamp | None = None,
) -> Manifest:
    """The model dir's manifest (new, or the existing one after checking it belongs to this model
    and suite); ``base_url`` is the stored form (``Endpoint.stored``). ``run`` stamps a run of a
    history: a new manifest takes it whole; an existing one keeps its own (resuming a run keeps
    when it was first recorded), and one without a run gets the id and no ``recorded_at`` (its
    answers may be older than this record)."""
    current = {"name": suite.name, "version": suite.version, "sha256": suite.sha256}
    if not (model_dir / MANIFEST).exists():
        slug = checked_model_slug(model)
        return Manifest(
            model,
            slug,
            base_url,
            recorder_version(),
            current,
            cost_header=settings.cost_header,
            run=run,
            wire=settings.wire,
        )
    manifest = read_manifest(model_dir)
    if run is not None and manifest.run is None:
        manifest.run = RunStamp(run.id, run.recorded_at if not manifest.cases else None)
    elif run is not None and manifest.run is not None and manifest.run.id != run.id:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded as run {manifest.run.id!r}, not {run.id!r}"
        )
    if manifest.model != model:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded model {manifest.model!r}, not {model!r}"
        )
    if manifest.suite["name"] != suite.name:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded with suite {manifest.suite['name']!r}, not "
            f"{suite.name!r}; use another --cassettes dir"
        )
    recorded_url = stored_uri(manifest.base_url)  # older files kept the port and the userinfo
    if recorded_url != base_url and manifest.cases:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded against {recorded_url}, not {base_url}; "
            "use the same --base-url, or --rerecord into another --cassettes dir"
        )
    manifest.use_cost_header(settings.cost_header, model_dir)
    manifest.use_wire(settings.wire, model_dir)
    manifest.suite = current
    manifest.base_url = base_url
    manifest.recorder_version = recorder_version()
    return manifest


def prepare_model_dir(
    cassettes: Path,
    model: str,
    suite: Suite,
    endpoint: Endpoint,
    settings: RecordSettings = DEFAULTS,
) -> tuple[Path, list[CaseRun]]:
    """The model dir (checked to lie inside ``cassettes``) after adopting what killed runs finished;
    call it holding the dir's lock (``model_dir_lock``). Returns the dir and the
    adopted case-runs."""
    model_dir = inside(cassettes, checked_model_slug(model))
    if not (model_dir / PARTIAL).is_dir() and not (model_dir / PARTIAL).is_symlink():
        return model_dir, []
    manifest = open_manifest(model_dir, model, suite, endpoint.stored, settings)
    return model_dir, adopt(model_dir, manifest)
