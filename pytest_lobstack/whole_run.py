"""With a baseline: the ``(whole run)`` test of each model, and of each model the baseline has and
the cassettes do not (the gate fails both as ``diff runs --fail-on-regression`` does: the paired
test, no score, a model of A missing from B)."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_lobstack.failures import CaseFailed, error_text
from pytest_lobstack.models import ModelRef
from pytest_lobstack.state import LobstackRun
from scorer.errors import LobstackError

WHOLE_RUN = "(whole run)"  # as diff runs' JUnit names a regression about a model's whole run


class WholeRunItem(pytest.Item):
    """With a baseline: one test per model that fails when the gate finds its whole run worse than
    the baseline's (the paired test over the cases, or no scored case), as ``diff runs``
    reports it."""

    run: LobstackRun
    model: ModelRef

    def runtest(self) -> None:
        """Fail with the gate's whole-run regressions of the model."""
        self.run.results(
            self.model
        )  # a model that cannot be scored errors here too, with its reason
        verdict = self.run.verdict(self.model)
        if verdict is not None and verdict.whole_run:
            raise CaseFailed("; ".join(r.message for r in verdict.whole_run))

    def repr_failure(  # type: ignore[override]
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
    ) -> str:
        """The gate's message, alone."""
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        if isinstance(excinfo.value, LobstackError):
            return error_text(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        """The model's run.json as the location."""
        return self.path, 0, f"{self.model.name} {WHOLE_RUN}"


class MissingModelCollector(pytest.Collector):
    """A model the baseline has and the cassettes do not: one ``(whole run)`` test, which the
    gate fails."""

    run: LobstackRun
    model: ModelRef

    def collect(self) -> Iterator[pytest.Item]:
        """The model's one test."""
        item = MissingModelItem.from_parent(self, name=WHOLE_RUN, path=self.model.model_dir)
        item.run, item.model = self.run, self.model
        yield item


class MissingModelItem(WholeRunItem):
    """Fails with the gate's regression (``in A, not in B``) and where the recordings were
    looked for."""

    def runtest(self) -> None:
        """Fail as the gate's verdict on the model says (it is in A, not in B)."""
        verdict = self.run.verdict(self.model)
        if verdict is not None and verdict.whole_run:
            show = self.run.settings.show
            raise CaseFailed(
                "; ".join(r.message for r in verdict.whole_run)
                + f": the baseline has {self.model.name}, and {show(self.model.model_dir)} holds "
                "no recordings; record them (lobstack-eval record --model "
                f"{shlex.quote(self.model.name)} --cassettes {show(self.run.settings.cassettes)}), "
                "or take the model out of the baseline"
            )
