"""Progress of long work: a rich bar on a terminal (done/total, errored so far, ETA), plain
lines otherwise."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import IO, Any


class CaseProgress:
    """Counts finished case-runs; ``update`` is the recorder's ``on_case`` callback (a run prints as
    its case id, plus ``(repeat n)`` after the first repeat)."""

    def __init__(
        self, total: int, stream: IO[str], scrub: Callable[[str], str] = lambda text: text
    ) -> None:
        self.total = total
        self.stream = stream
        self.scrub = (
            scrub  # every line goes through the recorder's scrubber: a gateway may echo the key
        )
        self.done = 0
        self.errored = 0
        self.transport_errors: dict[Any, bool] = {}
        self.refused: dict[Any, str] = {}  # case-run -> the refusal's reason (HTTP 401/403/404)
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> CaseProgress:
        if self.stream.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("recording"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[errored]} errored"),
                TimeRemainingColumn(),
                console=Console(file=self.stream),
                transient=True,
                # no refresh thread: the recorder may then fork its workers safely
                auto_refresh=False,
            )
            self._bar.start()
            self._task = self._bar.add_task("record", total=self.total, errored=0)
        return self

    def update(self, run: Any, entry: Any) -> None:
        self.done += 1
        if entry.status == "errored":
            self.errored += 1
        self.transport_errors[run] = entry.errored_by_transport
        if entry.refused_by_gateway:
            self.refused[run] = entry.reason or "refused"
        if self._bar is not None:
            self._bar.update(self._task, advance=1, errored=self.errored)
            self._bar.refresh()
        else:
            reason = f": {entry.reason}" if entry.status == "errored" else ""
            line = f"[{self.done}/{self.total}] {run} {entry.status}{reason}"
            print(self.scrub(line), file=self.stream, flush=True)

    def note(self, text: str) -> None:
        """A line for the user while the bar runs (above it on a terminal)."""
        if self._bar is not None:
            self._bar.console.print(self.scrub(text), markup=False, highlight=False)
            self._bar.refresh()
        else:
            print(self.scrub(text), file=self.stream, flush=True)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
