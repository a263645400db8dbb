"""The collected nodes: the cassettes dir, one collector per model dir, one item per case.

Node ids read ``cassettes/openai_gpt-4o::arguments-03``, so ``-k arguments-03`` or
``-k openai_gpt-4o`` selects items. Outcomes are the case's status in the model's scored run: passed
-> passed, failed -> failed (the case's reason is the message), errored -> error (at setup),
unrecorded -> skipped with the command that records it. A case whose cassette (of any repeat) cannot
be used is an error naming the file, never a skip or an expected failure: a broken recording must
not turn a test run green.

A model recorded with repeats is still one item per case, judged over its repeats (docs/METHOD.md):
a case whose every scored repeat passed passes, one that failed every scored repeat fails, and a
flaky case (some scored repeats passed, some failed) is an expected failure (xfail) saying how many
passed: noise, as the gate treats it.

With ``--lobstack-baseline`` a model the baseline has is judged by the gate's verdict instead
(``replay.diff_runs.verdict``, the one ``diff runs --fail-on-regression`` renders): a case the gate
counts as a regression fails, a lost score errors, noise, known failures and cases counted in the
paired test are expected failures with the verdict's reason (a case still unrecorded is skipped with
the command that records it), and a ``(whole run)`` test per model fails when the gate finds the
whole run worse (the paired test, no score at all).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_lobstack.failures import CaseFailed, error_text
from pytest_lobstack.models import ModelRef, missing_models
from pytest_lobstack.state import LobstackRun
from pytest_lobstack.whole_run import MissingModelCollector

if TYPE_CHECKING:
    from replay.diff_runs.verdict import CaseVerdict
from scorer.errors import LobstackError


class CaseErrored(Exception):
    """The case errored (the gateway never gave a usable answer); the message is its reason."""


class CassetteUnusable(Exception):
    """A cassette of the case cannot be used (corrupt, or not matching run.json); not covered by a
    baseline's xfail, which expects the model's failure, not a broken file."""


def _node_id(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _shown(reason: Any) -> Any:
    """A case's reason as pytest prints it: what a model or gateway wrote, controls escaped
    (scorer/safe_text)."""
    from scorer.safe_text import for_terminal

    return for_terminal(reason) if isinstance(reason, str) else reason


class CassettesCollector(pytest.Collector):
    """The cassettes dir: one ModelCollector per model dir (a bad model dir errors alone)."""

    run: LobstackRun

    @classmethod
    def create(cls, session: pytest.Session, run: LobstackRun) -> CassettesCollector:
        """The collector of ``run``'s cassettes dir, a child of the session."""
        cassettes = run.settings.cassettes
        node = cls.from_parent(
            session,
            name=cassettes.name,
            path=cassettes,
            nodeid=_node_id(cassettes, session.config.rootpath),
        )
        node.run = run
        return node

    def collect(self) -> Iterator[ModelCollector]:
        """One collector per model; reads the suite and the baseline first (their errors stop
        the collection)."""
        self.run.suite  # noqa: B018  (a bad suite is one collection error, not one per model)
        self.run.baseline()
        for slug in self.run.slugs():
            path = self.run.settings.cassettes / slug
            node = ModelCollector.from_parent(
                self, name=slug, path=path, nodeid=f"{self.nodeid}/{slug}"
            )
            node.run = self.run
            yield node
        for model in missing_models(self.run.settings, self.run.baseline()):
            missing = MissingModelCollector.from_parent(
                self, name=model.slug, path=model.model_dir, nodeid=f"{self.nodeid}/{model.slug}"
            )
            missing.run, missing.model = self.run, model
            yield missing

    def repr_failure(  # type: ignore[override]
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
    ) -> str:
        """One ``error: ...`` line for the project's errors, as the CLI prints them."""
        if isinstance(excinfo.value, LobstackError):
            return error_text(excinfo.value)
        return str(super().repr_failure(excinfo))


class ModelCollector(pytest.Collector):
    """One model dir: an item per case of the suite, in suite order."""

    run: LobstackRun

    def collect(self) -> Iterator[pytest.Item]:
        """Items for every case; those that did not pass in the baseline are expected failures
        (non-strict). A model dir that cannot be judged is one erroring item, so the other models
        are still judged."""
        try:
            model = self.run.open_model(self.name)
        except LobstackError as exc:
            item = BrokenModel.from_parent(self, name="run.json", path=self.path / "run.json")
            item.error = exc
            yield item
            return
        for case in self.run.suite.cases:
            item = CaseItem.from_parent(
                self, name=case.id, path=model.model_dir / f"{case.id}.json"
            )
            item.run, item.model = self.run, model
            yield item
        if model.name in self.run.baseline():
            from pytest_lobstack.whole_run import WHOLE_RUN, WholeRunItem

            whole = WholeRunItem.from_parent(
                self, name=WHOLE_RUN, path=model.model_dir / "run.json"
            )
            whole.run, whole.model = self.run, model
            yield whole


class BrokenModel(pytest.Item):
    """A model dir that cannot be judged (corrupt run.json, another suite, a baseline of
    another suite)."""

    error: LobstackError

    def setup(self) -> None:
        """Error with the reason (an error at setup: nothing was judged)."""
        raise self.error

    def runtest(self) -> None:
        """Never reached: setup always errors."""

    def repr_failure(  # type: ignore[override]
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
    ) -> str:
        """One ``error: ...`` line."""
        if isinstance(excinfo.value, LobstackError):
            return error_text(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        """The model's run.json as the location."""
        return self.path, 0, self.nodeid


class CaseItem(pytest.Item):
    """One (model, case): its verdict is the case's status in the model's scored run."""

    run: LobstackRun
    model: ModelRef
    result: dict[str, Any]
    judged: CaseVerdict | None = (
        None  # the gate's verdict on the case, with a baseline of the model
    )
    # The gate's reason when it expects the case's failure: an xfail raised by runtest, not by
    # setup, where pytest renders a full traceback (it parses each frame's file), then drops it.
    known_failure: str | None = None

    def setup(self) -> None:
        """Score the model (once per session); an errored case is an error, an unrecorded one a
        skip, and one whose cassette cannot be used an error naming the file."""
        results = self.run.results(self.model)
        self.result = next(r for r in results["results"] if r["id"] == self.name)
        status, reason = self.result["status"], _shown(self.result.get("reason"))
        unusable = self.run.unusable(self.model, self.name)
        if unusable:
            show = self.run.settings.show
            lines = "; ".join(f"error: {bad.line(show(bad.path))}" for bad in unusable)
            raise CassetteUnusable(f"{lines}; record it again: {self._record_command(results)}")
        self.failure: str | None = None
        verdict = self.run.verdict(self.model)
        self.judged = judged = verdict.case(self.name) if verdict is not None else None
        if judged is not None:
            if judged.outcome == "error":
                raise CaseErrored(judged.message)
            if judged.outcome == "failure":
                self.failure = judged.message
            if judged.outcome != "skipped":
                return
            if status != "unrecorded":
                self.known_failure = judged.message
                return
        if status == "errored":
            raise CaseErrored(reason or "errored")
        if status == "unrecorded":
            # The item's location (its cassette), not this module's line, is what the skip
            # summary shows.
            raise pytest.skip.Exception(
                f"{reason or 'not recorded yet'}; record it: {self._record_command(results)}",
                _use_item_location=True,
            )

    def _record_command(self, results: dict[str, Any]) -> str:
        """``lobstack-eval record ...`` for this case (every repeat of it the model dir has)."""
        from recorder.bundled_suite import is_default

        settings = self.run.settings
        command = [
            "lobstack-eval",
            "record",
            "--model",
            self.model.name,
            "--cassettes",
            settings.show(settings.cassettes),
        ]
        # Left out when the same command run there picks the same suite by itself (the bundled
        # one included).
        if settings.suite_note is None and not is_default(settings.suite, settings.start):
            command += ["--suite", settings.show(settings.suite)]
        if "repeats" in results:
            command += ["--repeats", str(results["repeats"])]
        return shlex.join([*command, "--case", self.name])

    def runtest(self) -> None:
        """With a baseline, fail when the gate counts the case as a regression, and xfail when it
        expects the case's failure (a known failure, noise). Otherwise fail with the case's reason
        when the case failed (with repeats: failed every scored repeat); a flaky case is an
        xfail."""
        if self.known_failure is not None:
            pytest.xfail(self.known_failure)
        if self.judged is not None:
            if self.failure is not None:
                raise CaseFailed(_shown(self.failure))
            return
        if self.result["status"] != "failed":
            return
        reason = _shown(self.result.get("reason")) or "failed"
        if "scored_repeats" not in self.result:
            raise CaseFailed(reason)
        passed, scored = self.result["passed_repeats"], self.result["scored_repeats"]
        if passed:
            pytest.xfail(
                f"flaky: passed {passed} of {scored} scored repeats (noise, not a regression); "
                f"{reason}"
            )
        raise CaseFailed(f"failed all {scored} scored repeats; {reason}")

    def repr_failure(  # type: ignore[override]
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
    ) -> str:
        """The case's reason, alone: it already says which step, call and argument."""
        if isinstance(excinfo.value, CaseFailed | CaseErrored | CassetteUnusable):
            return str(excinfo.value)
        if isinstance(excinfo.value, pytest.xfail.Exception):  # shown by its reason alone
            return excinfo.value.msg or "xfail"
        if isinstance(excinfo.value, LobstackError):
            return error_text(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        """The case's cassette file as the location (line 0: a skip shows it as ``:1``)."""
        return self.path, 0, f"{self.model.name} {self.name}"
