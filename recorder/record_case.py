"""Recording one case-run, in a worker process or in the recorder itself: into a pending
cassette, then its entry."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recorder.answer_limits import MIB
from recorder.cassettes import make_vcr
from recorder.endpoint import Endpoint
from recorder.files import read_suite
from recorder.manifest import recorded_case
from recorder.partial import write_entry
from recorder.repeats import CaseRun
from recorder.runner import run_case
from recorder.settings import DEFAULTS, RecordSettings
from recorder.suite_served import check_served
from recorder.transport import HttpAnswer, HttpRequest, RequestsTransport, TransportFailure
from scorer.errors import CassetteError
from scorer.suite.model import Suite


@dataclass(frozen=True)
class CaseTask:
    """Everything a worker process needs to record one case (picklable; the key never
    touches disk)."""

    suite_path: str
    suite_sha256: str
    case_id: str
    model: str
    endpoint: Endpoint
    cassette: (
        str  # a private path under .partial/: the parent moves it into place when the case is done
    )
    settings: RecordSettings = DEFAULTS  # the run's limits, price header and wire
    repeat: int = 1  # which repeat of the case (the request is the same for every repeat)


class _RecordingTransport:
    """Remembers the sha256 of every request sent, in attempt order, for the manifest; and keeps the
    cassette to the answered attempts: an answer that completed in the very instant its attempt's
    time ran out counts as a timeout, so vcrpy's copy of it is dropped. ``unreachable`` is why the
    last attempt could not connect, None once any attempt connected."""

    def __init__(self, inner: RequestsTransport, cassette: Any, suite: Suite, case_id: str) -> None:
        self.inner = inner
        self.cassette = cassette
        self.suite = suite
        self.case_id = case_id
        self.digests: list[str] = []
        self.unreachable: str | None = None
        self._connected = False

    def send(self, request: HttpRequest) -> HttpAnswer:
        self.digests.append(request.digest())
        before = len(self.cassette.data)
        try:
            answer = self.inner.send(request)
        except TransportFailure as failure:
            del self.cassette.data[before:]
            self._connected |= failure.unreachable is None
            self.unreachable = None if self._connected else failure.unreachable
            raise
        self._connected, self.unreachable = True, None
        # An answer from another suite is not this case's: nothing of it is kept (no entry).
        suite = self.suite
        check_served(answer.headers, suite.name, suite.version, suite.sha256, self.case_id)
        return answer


_SUITES: dict[tuple[str, str], Suite] = {}


def suite_once(path: str, sha256: str) -> Suite:
    """The suite, loaded once per process (checked against the sha256 the run started with)."""
    key = (path, sha256)
    if key not in _SUITES:
        suite = read_suite(Path(path))
        if suite.sha256 != sha256:
            raise CassetteError(f"{path} changed while recording; run record again")
        _SUITES[key] = suite
    return _SUITES[key]


def record_case(task: CaseTask, sleep: Callable[[float], None] = time.sleep) -> CaseRun:
    """Record one case-run into its pending cassette (whole or not at all), then its manifest
    entry beside it."""
    from vcr.serializers import jsonserializer

    from recorder.cassettes import AtomicPersister

    suite = suite_once(task.suite_path, task.suite_sha256)
    endpoint = task.endpoint
    settings = task.settings
    max_bytes = int(settings.max_answer_mb * MIB)
    gateway = settings.gateway(endpoint.url, task.repeat)
    inner = RequestsTransport(
        endpoint.api_key, settings.timeout_s, endpoint.auth, max_bytes, gateway.dialect.auth_headers
    )
    try:
        with make_vcr(endpoint.secrets, max_bytes).use_cassette(
            task.cassette, record_mode="all", drop_unused_requests=True
        ) as cassette:
            transport = _RecordingTransport(inner, cassette, suite, task.case_id)
            outcome = run_case(
                suite,
                suite.case(task.case_id),
                task.model,
                gateway,
                transport,
                lambda seconds: sleep(seconds * settings.backoff_scale),
            )
    finally:
        inner.close()
    if not any(a.answered for a in outcome.attempts):
        # vcrpy saves nothing when nothing was answered; an old cassette must not outlive this run.
        AtomicPersister.save_cassette(
            task.cassette, {"requests": [], "responses": []}, jsonserializer
        )
    entry = recorded_case(outcome, transport.digests, suite.version)
    if entry.reason is not None:  # a gateway may echo the key in an error message
        entry = dataclasses.replace(entry, reason=endpoint.scrub(entry.reason))
    run = CaseRun(task.case_id, task.repeat)
    write_entry(Path(task.cassette), task.model, endpoint.stored, run, entry, transport.unreachable)
    return run
