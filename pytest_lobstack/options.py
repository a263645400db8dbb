"""The plugin's command-line options and the settings read from them (``None`` when the plugin
is off)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_lobstack.shadow import check_own_packages
from pytest_lobstack.wire_options import add_wire_options, read_wire

if TYPE_CHECKING:
    from pytest_lobstack.floors import Bound

# Nothing of scorer/recorder/replay is imported here: pytest loads this module in every run, also in
# projects with packages of those names. They are imported once an option is used, after
# check_own_packages.

# pytest-recording's names and meaning, at the grain of a case (one cassette per case).
RECORD_MODES = ("none", "once", "new_episodes", "all")
# recorder.bundled_suite.DEFAULT_NAMES, written out (recorder is not imported at load time).
DEFAULT_SUITES = "evals/suite.json, .yaml or .yml"


@dataclass(frozen=True)
class Settings:
    """What ``--lobstack-*`` asked for; paths are absolute (relative ones start where pytest
    was run)."""

    cassettes: Path
    suite: Path
    models: tuple[str, ...]
    record_mode: str
    base_url: str | None  # resolved only when recording
    concurrency: int
    baselines: tuple[Path, ...]
    bounds: tuple[Bound, ...]
    start: Path  # where pytest was run
    strict: bool = False  # --lobstack-strict: the gate counts every flip, as ``diff runs --strict``
    # The bundled-suite notice when no --lobstack-suite was given and there is no default suite
    # (evals/suite.json, .yaml or .yml) where pytest was run (the plugin then uses the suite
    # bundled with lobstack-eval); None when the suite is the project's.
    suite_note: str | None = None
    # --lobstack-history: earlier runs of the baseline's models (patterns expanded when read)
    histories: tuple[str, ...] = ()
    # --lobstack-dialect, --lobstack-stream, --lobstack-param: the wire a record mode records
    # with (a scorer.wire.Wire; None: the method page's request)
    wire: Any = None

    def show(self, path: Path) -> str:
        """``path`` as the user would type it: relative to where pytest was run when it is
        below it."""
        try:
            return path.relative_to(self.start).as_posix() or "."
        except ValueError:
            return str(path)


def _bound(upper: bool):  # type: ignore[no-untyped-def]
    def parse(text: str) -> Bound:
        check_own_packages()
        from pytest_lobstack.floors import BoundError, parse_bound

        try:
            return parse_bound(text, upper)
        except BoundError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def add_options(parser: pytest.Parser) -> None:
    """Register ``--lobstack-*``; none of them does anything without ``--lobstack-cassettes``."""
    group = parser.getgroup(
        "lobstack", "lobstack-eval: one test per (model, case) of recorded cassettes"
    )
    group.addoption(
        "--lobstack-cassettes",
        metavar="DIR",
        help="Cassette directory (one folder per model): collect one test per model and case.",
    )
    group.addoption(
        "--lobstack-suite",
        metavar="FILE",
        help=f"Suite file [default: {DEFAULT_SUITES} (the one that exists) where pytest was run, "
        "else the suite bundled with lobstack-eval].",
    )
    group.addoption(
        "--lobstack-model",
        metavar="M",
        action="append",
        default=[],
        help="Only model M (name or slug; repeatable). With a record mode: the model to record.",
    )
    group.addoption(
        "--lobstack-record-mode",
        choices=RECORD_MODES,
        default="none",
        help="none: never touch the network (default); once: record cases with no cassette; "
        "new_episodes: also cases the suite now asks differently or that failed in transport; all: "
        "re-record the selected cases.",
    )
    group.addoption(
        "--lobstack-base-url",
        metavar="URL",
        help="API root for recording [env LOBSTACK_BASE_URL; default: Lobstack]. The key comes "
        "from LOBSTACK_API_KEY.",
    )
    add_wire_options(group)
    group.addoption(
        "--lobstack-concurrency",
        metavar="N",
        type=int,
        default=4,
        help="Cases recorded at once [default: 4].",
    )
    group.addoption(
        "--lobstack-baseline",
        metavar="REPORTS",
        action="append",
        default=[],
        help="A reports dir or results.json file (repeatable): cases that did not pass there are "
        "expected failures.",
    )
    group.addoption(
        "--lobstack-strict",
        action="store_true",
        default=False,
        help="With --lobstack-baseline: any case whose pass rate fell fails, as diff runs --strict "
        "counts it (default: only what the gate counts; a single flip is noise).",
    )
    group.addoption(
        "--lobstack-history",
        metavar="REPORTS",
        action="append",
        default=[],
        help="An earlier run of the baseline's models (repeatable; a quoted pattern such as "
        "'runs/*/reports' is expanded): the baseline and these runs are the history the gate tests "
        "the cassettes against.",
    )
    group.addoption(
        "--lobstack-min",
        metavar="METRIC=PCT",
        action="append",
        default=[],
        type=_bound(upper=False),
        help="Fail the run when a model's METRIC rate is below PCT percent (repeatable), e.g. "
        "overall=90. A bare number above 0 and up to 1 looks like a share and is refused: 1%% or "
        "less is written 1%%.",
    )
    group.addoption(
        "--lobstack-max",
        metavar="METRIC=PCT",
        action="append",
        default=[],
        type=_bound(upper=True),
        help="Fail the run when a lower-is-better rate is above PCT (repeatable), e.g. "
        "made_up_tool=5.",
    )


def read_settings(config: pytest.Config) -> Settings | None:
    """The settings, or None when ``--lobstack-cassettes`` is absent; pytest.UsageError for
    combinations that cannot work (so the run stops before collecting anything)."""
    option = config.option
    cassettes = option.lobstack_cassettes
    if cassettes is None:
        used = [
            name
            for name, given in (
                ("--lobstack-suite", option.lobstack_suite),
                ("--lobstack-model", option.lobstack_model),
                ("--lobstack-record-mode", option.lobstack_record_mode != "none"),
                ("--lobstack-base-url", option.lobstack_base_url),
                ("--lobstack-dialect", option.lobstack_dialect),
                ("--lobstack-stream", option.lobstack_stream),
                ("--lobstack-param", option.lobstack_param),
                ("--lobstack-baseline", option.lobstack_baseline),
                ("--lobstack-strict", option.lobstack_strict),
                ("--lobstack-history", option.lobstack_history),
                ("--lobstack-min", option.lobstack_min),
                ("--lobstack-max", option.lobstack_max),
            )
            if given
        ]
        if used:
            raise pytest.UsageError(f"{used[0]} needs --lobstack-cassettes DIR")
        return None
    check_own_packages()
    start = config.invocation_params.dir
    suite, suite_note = _suite(start, option.lobstack_suite)
    if option.lobstack_concurrency < 1:
        raise pytest.UsageError(
            f"--lobstack-concurrency {option.lobstack_concurrency}: must be at least 1"
        )
    if option.lobstack_strict and not option.lobstack_baseline:
        raise pytest.UsageError("--lobstack-strict needs --lobstack-baseline REPORTS")
    if option.lobstack_history and not option.lobstack_baseline:
        raise pytest.UsageError(
            "--lobstack-history needs --lobstack-baseline REPORTS (the latest earlier run)"
        )
    base_url, wire = None, read_wire(option)
    if option.lobstack_record_mode != "none":
        if not option.lobstack_model:
            raise pytest.UsageError(
                f"--lobstack-record-mode {option.lobstack_record_mode} needs --lobstack-model M "
                "(the model to record)"
            )
        base_url = _recording_url(option.lobstack_base_url)
    return Settings(
        cassettes=start / cassettes,
        suite=suite,
        models=tuple(dict.fromkeys(option.lobstack_model)),
        record_mode=option.lobstack_record_mode,
        base_url=base_url,
        concurrency=option.lobstack_concurrency,
        baselines=tuple(start / p for p in option.lobstack_baseline),
        bounds=tuple(option.lobstack_min) + tuple(option.lobstack_max),
        start=start,
        suite_note=suite_note,
        strict=option.lobstack_strict,
        histories=tuple(str(start / p) for p in option.lobstack_history),
        wire=wire,
    )


def _suite(start: Path, given: str | None) -> tuple[Path, str | None]:
    """The suite file (``--lobstack-suite``, else the default suite where pytest was run, else the
    bundled suite: ``choose_suite``) and the bundled-suite notice; a suite that cannot be found
    at all, or two default suites, is a usage error before collection."""
    from recorder.bundled_suite import choose_suite, notice
    from scorer.errors import LobstackError

    try:
        choice = choose_suite(start / given if given else None, start)
        return choice.path, notice(choice) if choice.bundled else None
    except LobstackError as exc:
        raise pytest.UsageError(exc.message.replace("--suite", "--lobstack-suite")) from None


def _recording_url(option: str | None) -> str:
    """The base URL, checked before anything is collected (the record command's own check). The key
    is asked for only once the selection shows something to record (``LobstackRun.plan``; METHOD
    decisions 91 and 112)."""
    from recorder.endpoint import resolve_base_url
    from scorer.errors import LobstackError

    try:
        return resolve_base_url(option)
    except LobstackError as exc:
        raise pytest.UsageError(exc.message.replace("--base-url", "--lobstack-base-url")) from None
