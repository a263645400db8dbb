"""``record --model A --model B ...``: several models at once, one ``record`` process per model (as
``--concurrency`` runs cases in worker processes), their lines relayed with the model's name in
front, then one summary (docs/commands/record.md#several-models-at-once).

Each model's process is the one-model ``record`` with the same options, so it resumes, locks its
model dir, scrubs the key and says what it recorded as it does alone; a history's run id is fixed
here once, so every model lands in the same run dir. The exit code is the highest of the models'
(0 when every one succeeded; 130 after Ctrl-C, which reaches every process of the terminal).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

import typer


@dataclass(frozen=True)
class ModelRun:
    """One model's ``record`` process: its exit code and the last line it said."""

    model: str
    code: int
    last: str


def record_models(models: Sequence[str], options: Sequence[str]) -> int:
    """Record each of ``models`` in its own process with ``options`` (the other record options,
    as arguments); one summary; the highest exit code."""
    from recorder.slug import checked_model_slug
    from scorer.errors import UsageError

    slugs: dict[str, str] = {}
    for model in models:
        slug = checked_model_slug(model)
        if slug in slugs:
            raise UsageError(
                f"--model {model!r}: its folder {slug!r} is also {slugs[slug]!r}'s; give each "
                "model once"
            )
        slugs[slug] = model
    runs = _run_all(models, options)
    _say_summary(runs)
    return max(run.code for run in runs)


def _run_all(models: Sequence[str], options: Sequence[str]) -> list[ModelRun]:
    """Start every model's process, relay its lines, wait for all of them."""
    lock = threading.Lock()
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "lobstack_eval", "record", "--model", model, *options],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        for model in models
    ]
    last = [""] * len(models)
    relays = [
        threading.Thread(target=_relay, args=(p.stdout, model, lock, last, i), daemon=True)
        for i, (model, p) in enumerate(zip(models, started, strict=True))
    ]
    for relay in relays:
        relay.start()
    try:
        codes = [p.wait() for p in started]
    except KeyboardInterrupt:  # the processes got it too: they keep their finished cases
        codes = [p.wait() for p in started]
    for relay in relays:
        relay.join()
    return [ModelRun(m, c, t) for m, c, t in zip(models, codes, last, strict=True)]


def _relay(
    stream: IO[str] | None, model: str, lock: threading.Lock, last: list[str], i: int
) -> None:
    """Each line of one model's process, on stderr, with the model's name in front."""
    for line in stream if stream is not None else ():
        text = line.rstrip("\n")
        if text.strip():
            last[i] = text
        with lock:
            typer.echo(f"[{model}] {text}", err=True)


def _say_summary(runs: Sequence[ModelRun]) -> None:
    """One line per model (its exit code and last line), after a count."""
    done = sum(1 for run in runs if run.code == 0)
    typer.echo(
        f"Recorded {len(runs)} models at once: {done} done, {len(runs) - done} not", err=True
    )
    for run in runs:
        state = "done" if run.code == 0 else f"exit {run.code}"
        typer.echo(f"  {run.model}: {state}: {run.last}", err=True)
