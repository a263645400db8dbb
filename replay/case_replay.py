"""Replay one case-run from its cassette; a cassette that cannot be used makes that case-run
unrecorded, alone.

A cassette that is missing (though run.json lists it), corrupt, unreadable, of the wrong shape, or
whose interactions do not match run.json's answered attempts holds no answer replay can trust. Its
case-run is ``unrecorded`` (left out of every rate, listed for ``record``, which records it again),
its reason the cassette's one-line error, and the error goes back beside the outcome so ``rescore``
still prints it and exits 1: one bad file never stops the model's other cases from being scored, and
never passes unnoticed (docs/METHOD.md, decision 103).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from recorder.gateway import Gateway
from recorder.manifest import Manifest
from recorder.repeats import run_cassette_path
from recorder.runner import run_case
from replay.cassettes.transport import CassetteTransport, Interaction, load_interactions
from scorer.errors import CassetteError
from scorer.outcome import CaseOutcome
from scorer.suite.model import Case, Suite

NOT_RECORDED = "not recorded yet"


@dataclass(frozen=True)
class UnusableCassette:
    """A case-run whose cassette could not be used: its file and the problem (the error line
    without the path)."""

    case_id: str
    repeat: int
    path: Path
    problem: str

    def line(self, shown: str | None = None) -> str:
        """The one-line error, naming the file as ``shown`` (default: the path as rescore was
        given it)."""
        return f"{self.path if shown is None else shown}: {self.problem}"


def _unusable(case: Case, repeat: int, path: Path, exc: CassetteError) -> UnusableCassette:
    prefix = f"{path}: "
    problem = exc.message[len(prefix) :] if exc.message.startswith(prefix) else exc.message
    return UnusableCassette(case.id, repeat, path, problem)


def replay_case_run(
    suite: Suite,
    case: Case,
    manifest: Manifest,
    model_dir: Path,
    repeat: int = 1,
    loaded: dict[Path, list[Interaction]] | None = None,
) -> tuple[CaseOutcome, UnusableCassette | None]:
    """Re-run one case-run against its recording: its outcome (unrecorded when this suite asks
    something never recorded, or when its cassette cannot be used) and, in that last case, what
    is wrong with the cassette. ``loaded``: the cassette's interactions are put there by path, so
    reading a run's identity (``replay.run_document``) does not parse every cassette again."""
    entry = manifest.entry(case.id, repeat)
    path = run_cassette_path(model_dir, case.id, repeat)
    if entry is None:
        return CaseOutcome(case, "unrecorded", NOT_RECORDED, (), ()), None
    try:
        if (
            not path.is_file()
        ):  # recorded (record writes a cassette even when nothing was answered), then lost
            raise CassetteError(f"{path}: missing, though run.json lists it as recorded")
        interactions = load_interactions(path)
        if loaded is not None:
            loaded[path] = interactions
        transport = CassetteTransport(path, interactions, entry.attempts)
        outcome = run_case(
            suite,
            case,
            manifest.model,
            Gateway(manifest.base_url, manifest.wire, manifest.cost_header),
            transport,
            lambda _seconds: None,
        )
    except (
        CassetteError
    ) as exc:  # this cassette only: every other case-run of the model is still replayed
        bad = _unusable(case, repeat, path, exc)
        # The file named from the cassettes dir, so results.json does not depend on where the
        # cassettes are.
        return CaseOutcome(
            case, "unrecorded", bad.line(path.relative_to(model_dir.parent).as_posix()), (), ()
        ), bad
    return outcome, None


def replay_case(
    suite: Suite, case: Case, manifest: Manifest, model_dir: Path, repeat: int = 1
) -> CaseOutcome:
    """Re-run one case-run against its recording; unrecorded when this suite asks something never
    recorded or its cassette cannot be used."""
    return replay_case_run(suite, case, manifest, model_dir, repeat)[0]
