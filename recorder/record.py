"""``record``: run cases against the gateway and capture every exchange, one vcrpy cassette per case.

vcrpy patches HTTP globally and is not thread-safe, so concurrency uses processes: each worker process has one
active cassette at a time. The parent owns ``run.json`` and rewrites it (atomically) after every finished case,
so a killed recorder leaves only whole cases, and a re-run records only what is missing.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from recorder.cassettes import cassette_path, make_vcr
from recorder.client import COST_HEADER
from recorder.files import read_suite
from recorder.manifest import MANIFEST, Manifest, RecordedCase, read_manifest, recorded_case
from recorder.runner import run_case
from recorder.slug import model_slug
from recorder.transport import DEFAULT_TIMEOUT_S, HttpAnswer, HttpRequest, RequestsTransport
from scorer.errors import CassetteError, GatewayError, UsageError
from scorer.suite_model import Suite

DEFAULT_BASE_URL = "https://www.lobstack.ai/api/gateway/v1"
BASE_URL_ENV = "LOBSTACK_BASE_URL"
API_KEY_ENV = "LOBSTACK_API_KEY"
PARTIAL = ".partial"


def recorder_version() -> str:
    """The installed lobstack-eval version (written into every manifest)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lobstack-eval")
    except PackageNotFoundError:
        return "0+unknown"


def resolve_base_url(option: str | None) -> str:
    """``--base-url``, else env ``LOBSTACK_BASE_URL``, else the real gateway; must be http(s) and end before
    ``/chat/completions``."""
    url = (option or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--base-url {url!r} is not an http(s) URL")
    if url.endswith("/chat/completions"):
        raise UsageError(f"--base-url {url!r} must end before /chat/completions (e.g. .../v1)")
    return url


def is_loopback(url: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def api_key_for(base_url: str) -> str | None:
    """The key from env ``LOBSTACK_API_KEY``; a non-loopback URL without one is an error before any request."""
    key = os.environ.get(API_KEY_ENV) or None
    if key is None and not is_loopback(base_url):
        raise GatewayError(f"{API_KEY_ENV} is not set; it is needed for {base_url} (a loopback URL needs no key)")
    return key


@dataclass(frozen=True)
class CaseTask:
    """Everything a worker process needs to record one case (picklable; the key never touches disk)."""

    suite_path: str
    suite_sha256: str
    case_id: str
    model: str
    base_url: str
    api_key: str | None
    cassette: str  # a private path under .partial/: the parent moves it into place when the case is done
    timeout_s: float
    backoff_scale: float
    cost_header: str = COST_HEADER


class _DigestingTransport:
    """Remembers the sha256 of every request sent, in attempt order, for the manifest."""

    def __init__(self, inner: RequestsTransport) -> None:
        self.inner = inner
        self.digests: list[str] = []

    def send(self, request: HttpRequest) -> HttpAnswer:
        self.digests.append(request.digest())
        return self.inner.send(request)


_SUITES: dict[tuple[str, str], Suite] = {}


def _suite(path: str, sha256: str) -> Suite:
    key = (path, sha256)
    if key not in _SUITES:
        suite = read_suite(Path(path))
        if suite.sha256 != sha256:
            raise CassetteError(f"{path} changed while recording; run record again")
        _SUITES[key] = suite
    return _SUITES[key]


def record_case(task: CaseTask, sleep: Callable[[float], None] = time.sleep) -> tuple[str, RecordedCase]:
    """Record one case into its cassette (whole or not at all) and return its manifest entry."""
    from vcr.serializers import jsonserializer

    from recorder.cassettes import AtomicPersister

    suite = _suite(task.suite_path, task.suite_sha256)
    secrets = (task.api_key,) if task.api_key else ()
    transport = _DigestingTransport(RequestsTransport(task.api_key, task.timeout_s))
    try:
        with make_vcr(secrets).use_cassette(task.cassette, record_mode="all", drop_unused_requests=True):
            outcome = run_case(
                suite,
                suite.case(task.case_id),
                task.model,
                task.base_url,
                transport,
                lambda seconds: sleep(seconds * task.backoff_scale),
                task.cost_header,
            )
    finally:
        transport.inner.close()
    if not any(a.answered for a in outcome.attempts):
        # vcrpy saves nothing when nothing was answered; an old cassette must not outlive this run.
        AtomicPersister.save_cassette(task.cassette, {"requests": [], "responses": []}, jsonserializer)
    return task.case_id, recorded_case(outcome, transport.digests, suite.version)


def check_case_ids(suite: Suite, case_ids: Sequence[str]) -> None:
    """UsageError naming the first id that is not a case of ``suite``."""
    known = {case.id for case in suite.cases}
    unknown = [c for c in case_ids if c not in known]
    if unknown:
        raise UsageError(f"--case {unknown[0]!r}: no such case in {suite.source}")


@dataclass(frozen=True)
class RecordSummary:
    """What a record run did."""

    model_dir: Path
    recorded: tuple[str, ...]
    statuses: dict[str, str]
    seconds: float


def open_manifest(model_dir: Path, model: str, suite: Suite, base_url: str, cost_header: str = COST_HEADER) -> Manifest:
    """The model dir's manifest (new, or the existing one after checking it belongs to this model and suite)."""
    current = {"name": suite.name, "version": suite.version, "sha256": suite.sha256}
    if not (model_dir / MANIFEST).exists():
        return Manifest(model, model_slug(model), base_url, recorder_version(), current, cost_header=cost_header)
    manifest = read_manifest(model_dir)
    if manifest.model != model:
        raise CassetteError(f"{model_dir / MANIFEST}: recorded model {manifest.model!r}, not {model!r}")
    if manifest.suite["name"] != suite.name:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded with suite {manifest.suite['name']!r}, not {suite.name!r}; "
            "use another --cassettes dir"
        )
    if manifest.base_url != base_url and manifest.cases:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded against {manifest.base_url}, not {base_url}; "
            "use the same --base-url, or --rerecord into another --cassettes dir"
        )
    manifest.use_cost_header(cost_header, model_dir)
    manifest.suite = current
    manifest.base_url = base_url
    manifest.recorder_version = recorder_version()
    return manifest


def record(
    suite_path: Path,
    model: str,
    cassettes: Path,
    base_url: str,
    case_ids: Sequence[str],
    concurrency: int = 4,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    backoff_scale: float = 1.0,
    on_case: Callable[[str, RecordedCase], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    cost_header: str = COST_HEADER,
) -> RecordSummary:
    """Record ``case_ids`` of the suite for ``model``; ``concurrency`` 1 records in this process; ``cost_header``
    names the header that carries each call's price (kept in run.json, so rescore reads the same one)."""
    if concurrency < 1:
        raise UsageError(f"--concurrency {concurrency}: must be at least 1")
    api_key = api_key_for(base_url)
    suite = read_suite(suite_path)
    check_case_ids(suite, case_ids)
    model_dir = cassettes / model_slug(model)
    manifest = open_manifest(model_dir, model, suite, base_url, cost_header)
    partial = model_dir / PARTIAL
    shutil.rmtree(partial, ignore_errors=True)  # leftovers of a killed run: never moved into place
    partial.mkdir(parents=True, exist_ok=True)
    token = uuid.uuid4().hex[:12]
    tasks = [
        CaseTask(
            str(suite_path),
            suite.sha256,
            case_id,
            model,
            base_url,
            api_key,
            str(partial / f"{case_id}.{token}.json"),
            timeout_s,
            backoff_scale,
            cost_header,
        )
        for case_id in case_ids
    ]
    started = time.perf_counter()

    def done(case_id: str, entry: RecordedCase) -> None:
        # Only this process moves cassettes into place, then updates run.json: a killed recorder (or an
        # orphaned worker finishing late) can never leave a cassette that disagrees with the manifest.
        os.replace(partial / f"{case_id}.{token}.json", cassette_path(model_dir, case_id))
        manifest.cases[case_id] = entry
        manifest.write(model_dir)
        if on_case:
            on_case(case_id, entry)

    manifest.write(model_dir)
    try:
        if concurrency == 1 or len(tasks) <= 1:
            for task in tasks:
                done(*record_case(task, sleep))
        else:
            # Longest cases first (a chain makes up to 4 requests in a row), so no chain starts last and holds the
            # run open alone; run.json is written sorted, so the order changes nothing on disk.
            steps = {case.id: len(case.steps) for case in suite.cases}
            longest_first = sorted(tasks, key=lambda task: -steps[task.case_id])
            _record_in_processes(longest_first, min(concurrency, len(tasks)), done)
    finally:
        _clean_partial(partial, token)
    statuses = {case_id: manifest.cases[case_id].status for case_id in case_ids}
    return RecordSummary(model_dir, tuple(case_ids), statuses, time.perf_counter() - started)


def _clean_partial(partial: Path, token: str) -> None:
    """Remove this run's leftovers and the folder when it is empty (other runs' files are theirs)."""
    for leftover in partial.glob(f"*.{token}.json"):
        leftover.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        partial.rmdir()


def _init_worker() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it lets running cases finish and keeps them)."""
    import signal

    from recorder.cassettes import skip_absent_clients

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    skip_absent_clients()


def _record_in_processes(tasks: list[CaseTask], workers: int, done: Callable[[str, RecordedCase], None]) -> None:
    from recorder.processes import pool_context

    context = pool_context(["recorder.record", "requests", "vcr"])
    if context.get_start_method() == "fork":
        _suite(tasks[0].suite_path, tasks[0].suite_sha256)  # loaded once here, inherited by every worker
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker)
    pending: set[Future[Any]] = set()
    try:
        pending = {pool.submit(record_case, task) for task in tasks}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done(*future.result())
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        # Interrupted: cases that were already running have finished now; their answers are paid for, keep them.
        for future in pending:
            if future.done() and not future.cancelled() and future.exception() is None:
                done(*future.result())
