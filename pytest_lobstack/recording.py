"""What a record mode of the plugin records: the plan made once the selection is known, and the
recording of a model's missing case-runs before its first test, with ``record``'s own functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recorder.manifest import MANIFEST
from recorder.manifest_read import read_manifest
from recorder.slug import model_slug
from replay.rescore import UNFORESEEN, unforeseen
from scorer.errors import LobstackError

if TYPE_CHECKING:
    from pytest_lobstack.models import ModelRef
    from recorder.endpoint import Endpoint
    from recorder.repeats import CaseRun


class RecordMode:
    """The recording half of ``LobstackRun`` (which holds ``settings``, ``models``, ``selected``,
    ``suite``, ``_plans``, ``_failures`` and ``_say``)."""

    settings: Any
    models: dict[str, Any]
    selected: dict[str, list[str]]
    _plans: dict[str, list[CaseRun]]
    _failures: dict[str, LobstackError]
    _say: Any

    def plan(self) -> None:
        """Once the selection is known (and before any test runs): what each selected model of a
        record mode needs recorded. When anything does and a remote URL has no key, the
        GatewayError that ``record`` raises in the same case (METHOD decisions 91 and 112); with
        nothing to record, no key is needed. A model whose plan fails keeps the error for its
        tests, as when it is scored."""
        needed = False
        for name, model in self.models.items():
            if name not in self.selected or not self._records(model) or name in self._failures:
                continue
            try:
                self._plans[name] = self._todo(model)
            except LobstackError as exc:
                self._failures[name] = exc
                continue
            except UNFORESEEN as exc:  # as when it is scored: this model alone is not judged
                self._failures[name] = unforeseen(model.model_dir, exc)
                continue
            needed = needed or bool(self._plans[name])
        if needed:
            self._endpoint()

    def _records(self, model: ModelRef) -> bool:
        # Only the --lobstack-model models are recorded; the others are judged as they are.
        return self.settings.record_mode != "none" and any(
            model_slug(m) == model.slug for m in self.settings.models
        )

    def _endpoint(self) -> Endpoint:
        """The gateway to record from, with its key; GatewayError (``record``'s own line) when a
        remote URL has none."""
        from recorder.endpoint import locate_endpoint, require_key

        assert self.settings.base_url is not None  # read_settings resolves it for every record mode
        return require_key(locate_endpoint(self.settings.base_url))

    def _repeats(self, model: ModelRef) -> int:
        # A model dir recorded with repeats is recorded for each of its repeats: a case is judged
        # over all K.
        manifest = model.model_dir / MANIFEST
        return read_manifest(model.model_dir).repeat_count if manifest.is_file() else 1

    def _todo(self, model: ModelRef) -> list[CaseRun]:
        """The case-runs of ``model``'s selected cases that its record mode records."""
        from replay.plan import runs_to_record, runs_without_cassette

        settings, wanted, repeats = (
            self.settings,
            self.selected.get(model.name, []),
            self._repeats(model),
        )
        if settings.record_mode == "once":
            return runs_without_cassette(
                settings.cassettes, model.name, self.suite, wanted, repeats
            )
        rerecord = settings.record_mode == "all"
        return runs_to_record(settings.cassettes, model.name, self.suite, wanted, rerecord, repeats)

    def _record(self, model: ModelRef) -> None:
        from recorder.record import record
        from recorder.settings import RecordSettings

        if not self._records(model):
            return
        todo = self._plans.pop(model.name) if model.name in self._plans else self._todo(model)
        if not todo:
            return
        endpoint = self._endpoint()
        settings = self.settings
        what = "case(s)" if self._repeats(model) == 1 else "case-run(s)"
        self._say(f"lobstack: recording {len(todo)} {what} of {model.name} via {endpoint.url}")
        wire = {} if settings.wire is None else {"wire": settings.wire}
        summary = record(
            settings.suite,
            model.name,
            settings.cassettes,
            endpoint,
            todo,
            RecordSettings(concurrency=settings.concurrency, **wire),
        )
        self._say(
            f"lobstack: recorded {len(todo)} {what} into {summary.model_dir} in "
            f"{summary.seconds:.1f} s"
        )
