"""One pytest session's view of the recordings: the suite, the models, the baseline, and each
model's scored run.

A model's run is scored once per session, on first use, by ``replay.rescore.score_model``: the
function whose document ``lobstack-eval rescore`` writes as results.json, so a test's verdict is the
case's status there (one code path). The scored run, or the error that stopped the whole model, is
kept for every later test of that model. With a record mode, what is missing among the selected
cases is recorded first, with ``record``'s own functions.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_lobstack.models import ModelRef, missing_models
from pytest_lobstack.options import Settings
from pytest_lobstack.recording import RecordMode
from pytest_lobstack.refresh import refresh_hint
from recorder.files import read_suite
from recorder.manifest import MANIFEST
from recorder.manifest_read import read_manifest
from recorder.slug import model_slug
from replay.case_replay import UnusableCassette
from replay.diff_runs import load_run
from replay.rescore import UNFORESEEN, score_model, unforeseen
from replay.version_note import check_manifest_suite, older_suite_lines
from scorer.errors import CassetteError, LobstackError, ResultsError
from scorer.suite.model import Suite

if TYPE_CHECKING:
    from recorder.repeats import CaseRun
    from replay.diff_runs.verdict import ModelVerdict


class LobstackRun(RecordMode):
    """The suite, models, baseline and scored runs of one session; everything is read or scored
    at most once."""

    def __init__(self, settings: Settings, say: Callable[[str], None]) -> None:
        self.settings = settings
        self._say = say
        self._suite: Suite | None = None
        self._baseline: dict[str, dict[str, Any]] | None = None
        self.models: dict[str, ModelRef] = {}
        self.selected: dict[str, list[str]] = {}
        self._recorded_versions: list[tuple[str, str]] = []  # (slug, older suite version)
        self._results: dict[str, dict[str, Any]] = {}
        self._unusable: dict[str, tuple[UnusableCassette, ...]] = {}
        self._failures: dict[str, LobstackError] = {}
        self._plans: dict[str, list[CaseRun]] = {}
        self._verdicts: dict[str, ModelVerdict] | None = None

    @property
    def warnings(self) -> list[str]:
        """The models recorded with an older suite version, one line per version as rescore
        says it: only models this run judged (a test selected after ``-k``/``-m``, or scored for
        the ``lobstack_results`` fixture), so ``-k ref_oracle`` does not count the eleven others."""
        used = {ref.slug for name, ref in self.models.items() if name in self.selected}
        used |= {ref.slug for name, ref in self.models.items() if name in self._results}
        recorded = [(slug, version) for slug, version in self._recorded_versions if slug in used]
        return older_suite_lines(self.suite, recorded) if recorded else []

    @property
    def suite(self) -> Suite:
        """The suite file, read once."""
        if self._suite is None:
            self._suite = read_suite(self.settings.suite)
        return self._suite

    def baseline(self) -> dict[str, dict[str, Any]]:
        """Model name -> baseline results document, merged over every ``--lobstack-baseline``; with
        ``--lobstack-history``, each model's baseline and earlier runs merged into its history."""
        if self._baseline is None:
            merged: dict[str, dict[str, Any]] = {}
            show = self.settings.show
            for path in self.settings.baselines:
                given = f"--lobstack-baseline {show(path)}"
                for model, results in load_run(path, given=given).items():
                    if model in merged:
                        raise ResultsError(
                            f"{path}: model {model!r} is in more than one --lobstack-baseline"
                        )
                    merged[model] = results
            if self.settings.histories:
                # The baseline and the earlier runs are one history per model (diff runs --history).
                from replay.diff_runs.load import history_paths, load_history

                earlier = history_paths(self.settings.histories, "--lobstack-history")
                given = [
                    *(f"--lobstack-baseline {show(p)}" for p in self.settings.baselines),
                    *(f"--lobstack-history {show(p)}" for p in earlier),
                ]
                merged = load_history(
                    [*self.settings.baselines, *earlier], list(merged), given=given
                )
            self._baseline = merged
        return self._baseline

    def slugs(self) -> list[str]:
        """The model dirs to collect, sorted: every one under the cassettes dir, or the
        ``--lobstack-model`` ones (a model not recorded yet is kept: it errors in record mode
        none, and is recorded otherwise)."""
        cassettes = self.settings.cassettes
        present = (
            sorted(p.name for p in cassettes.iterdir() if (p / MANIFEST).is_file())
            if cassettes.is_dir()
            else []
        )
        if self.settings.models:
            return sorted({model_slug(m) for m in self.settings.models})
        if not present:
            if not cassettes.is_dir():
                raise CassetteError(f"{cassettes}: no such cassettes directory")
            raise CassetteError(
                f"{cassettes}: no model dirs (folders with a {MANIFEST}); record one with "
                "`lobstack-eval record`"
            )
        return present

    def open_model(self, slug: str) -> ModelRef:
        """The model behind a slug, checked against the suite and the baseline;
        CassetteError/ResultsError when it cannot be judged."""
        model_dir = self.settings.cassettes / slug
        asked = next((m for m in self.settings.models if model_slug(m) == slug), None)
        if (model_dir / MANIFEST).is_file():
            manifest = read_manifest(model_dir)
            if check_manifest_suite(manifest, self.suite, model_dir):
                self._recorded_versions.append((slug, str(manifest.suite["version"])))
            ref = ModelRef(manifest.model, slug, model_dir)
        elif self.settings.record_mode != "none" and asked is not None:
            ref = ModelRef(asked, slug, model_dir)
        else:
            cassettes = self.settings.show(self.settings.cassettes)
            raise CassetteError(
                f"{model_dir}: no recordings of {asked or slug}; record them with `lobstack-eval "
                f"record --model {asked or slug} --cassettes {cassettes}` or "
                "--lobstack-record-mode once"
            )
        base = self.baseline().get(ref.name)
        if base is not None:
            recorded = (base["suite"].get("name"), base["suite"]["version"])
            if recorded != (self.suite.name, self.suite.version):
                raise ResultsError(
                    f"the baseline of {ref.name} was scored with suite {recorded[0]} "
                    f"{recorded[1]}, but the suite is {self.suite.name} {self.suite.version}; "
                    f"{self.refresh_hint()}"
                )
        self.models[ref.name] = ref
        return ref

    def verdict(self, model: ModelRef) -> ModelVerdict | None:
        """The gate's verdict on ``model`` against the baseline: the one
        ``diff runs --fail-on-regression`` gives the same two runs (``replay.diff_runs``, default
        options), so the two CI steps of docs/ci.md agree. None without a baseline of the model,
        or when it could not be scored (its tests say why). Computed once, over every selected
        model the baseline has (the paired tests are Holm-adjusted over those models)."""
        if model.name not in self.baseline():
            return None
        if self._verdicts is None:
            self._verdicts = self._judge()
        return self._verdicts.get(model.name)

    def _judge(self) -> dict[str, ModelVerdict]:
        from replay.diff_runs import compare, decide, verdicts

        run_a, run_b = {}, {}
        for name, ref in sorted(self.models.items()):
            if name not in self.selected or name not in self.baseline():
                continue
            try:
                run_b[name] = self.results(ref)
            except LobstackError:
                continue  # its tests error with the reason
            run_a[name] = self.baseline()[name]
        for ref in missing_models(self.settings, self.baseline()):
            if ref.name in self.selected:  # in A, not in B
                run_a[ref.name] = self.baseline()[ref.name]
        if not run_a:
            return {}
        diff = compare(run_a, run_b)
        decision = decide(diff, strict=self.settings.strict)
        return {v.model: v for v in verdicts(diff, decision, strict_option="--lobstack-strict")}

    def verdicts(self) -> list[ModelVerdict]:
        """The verdicts computed so far."""
        return list((self._verdicts or {}).values())

    def results(self, model: ModelRef) -> dict[str, Any]:
        """The model's scored run (recording what the record mode asks for first); the same error
        for every caller once it failed."""
        if model.name in self._failures:
            # Without its old traceback: raising one exception object again appends to its
            # traceback, so 80 tests of a broken model would each make pytest render every earlier
            # test's frames too.
            raise self._failures[model.name].with_traceback(None)
        if model.name not in self._results:
            try:
                if self.settings.record_mode != "none":
                    self._record(model)
                scored = score_model(model.model_dir, self.suite)
            except LobstackError as exc:
                self._failures[model.name] = exc
                raise
            except UNFORESEEN as exc:  # as rescore says it: this model alone is not scored
                self._failures[model.name] = unforeseen(model.model_dir, exc)
                raise self._failures[model.name] from None
            self._results[model.name], self._unusable[model.name] = scored.results, scored.unusable
        return self._results[model.name]

    def unusable(self, model: ModelRef, case_id: str) -> list[UnusableCassette]:
        """The case's case-runs whose cassette could not be used (after ``results`` scored
        the model)."""
        return [bad for bad in self._unusable.get(model.name, ()) if bad.case_id == case_id]

    def scored(self) -> dict[str, dict[str, Any]]:
        """Every scored run so far (model name -> results), in model order."""
        return dict(sorted(self._results.items()))

    def find_model(self, name: str) -> ModelRef:
        """A model by exact name or slug, for the ``lobstack_results`` fixture."""
        for ref in self.models.values():
            if name in (ref.name, ref.slug):
                return ref
        if (self.settings.cassettes / model_slug(name) / MANIFEST).is_file():
            return self.open_model(model_slug(name))
        known = ", ".join(sorted(self.models)) or "none"
        raise CassetteError(
            f"no model {name!r} in {self.settings.cassettes} (models collected: {known})"
        )

    def refresh_hint(self) -> str:
        """The command(s) that rewrite the baseline from the current cassettes."""
        show, settings = self.settings.show, self.settings
        # A results file sits at <reports>/<model-slug>/results.json; rescore writes the whole
        # reports dir.
        targets = [p.parent.parent if p.is_file() else p for p in settings.baselines] or [
            Path("REPORTS")
        ]
        # The bundled suite's path is the install's, not the project's: rescore finds it by
        # itself there.
        suite = "" if settings.suite_note else f" --suite {show(settings.suite)}"
        rescore = f"lobstack-eval rescore {show(settings.cassettes)}{suite}"
        return refresh_hint(rescore, targets, settings.cassettes, show)
