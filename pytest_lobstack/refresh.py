"""The baseline-refresh hint: commands that rewrite a baseline from the current cassettes and
lose nothing.

``rescore CASSETTES --out REPORTS`` makes REPORTS the reports of CASSETTES: it removes every model
there that CASSETTES does not hold. A baseline often holds more models than the cassettes a pytest
run reads, so for such a baseline the hint rescores into a new dir and says which results.json files
to copy back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

RESULTS = "results.json"


def _model_dirs(root: Path, marker: str) -> set[str]:
    try:
        return {p.name for p in root.iterdir() if (p / marker).is_file()}
    except OSError:  # a baseline that is not there yet: nothing to lose
        return set()


def refresh_hint(
    rescore: str, targets: Iterable[Path], cassettes: Path, show: Callable[[Path], str]
) -> str:
    """``refresh it with: ...`` for each baseline dir in ``targets``; ``rescore`` is the command
    without ``--out``. A target holding models the cassettes lack gets a rescore into
    ``<target>.new`` and a copy back."""
    recorded = _model_dirs(cassettes, "run.json")
    commands = []
    for target in dict.fromkeys(targets):
        others = sorted(_model_dirs(target, RESULTS) - recorded)
        if not others:
            commands.append(f"{rescore} --out {show(target)}")
            continue
        fresh = target.with_name(target.name + ".new")
        kept = sorted(_model_dirs(target, RESULTS) & recorded) or ["<model-slug>"]
        copies = " ".join(f"{show(fresh / slug / RESULTS)}" for slug in kept)
        commands.append(
            f"{rescore} --out {show(fresh)}, then copy {copies} into the same folders of "
            f"{show(target)} (--out {show(target)} itself would remove its {len(others)} model(s) "
            f"not in {show(cassettes)}: {', '.join(others)})"
        )
    return "refresh it with: " + " and ".join(commands)
