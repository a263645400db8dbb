"""Shared fixtures: the mini suite, a stand-in gateway on 127.0.0.1 port 0 (always stopped), a
recording helper."""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import gc
import json
import logging
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # imported by the fixtures that start one, after the bytecode set-up below
    from standin import StandInGateway

# pytester: the pytest plugin's tests run pytest in a project of their own; the watchdog: every
# test's time limit with one thread a process, not one a test (docs/decisions/testing.md#watchdog)
pytest_plugins = ["pytester", "tests.timeout_watchdog"]

FIXTURES = Path(__file__).parent / "fixtures"
MINI_SUITE = FIXTURES / "mini_suite.json"
ROOT = Path(__file__).parent.parent
# Suite 1.2.0 changed checks only (METHOD.md, Versions): the committed cassettes keep the 1.1.0 they
# were recorded with, and rescore says so in one line (one per model in the pytest plugin). Tests
# about other warnings set it aside.
OLDER_SUITE_NOTE = " recorded with "


def clone_files() -> list[str]:
    """The files a fresh clone has: tracked, or new and not ignored, and present in the working tree
    (a tracked file deleted there is not in a clone made of it either)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def other_lines(err: str) -> list[str]:
    """The lines of ``err`` but the note that a committed model was recorded with the older
    suite version."""
    return [line for line in err.splitlines() if OLDER_SUITE_NOTE not in line]


# The report's plot and template cache (replay/html/_cache.py): a fresh one for this run, so the
# tests draw every plot at least once and never touch the developer's ~/.cache. Made by the first
# process that loads this file (xdist's controller) and shared by the workers, which inherit its
# environment (the cache's writes are atomic and its eviction tolerates other processes), so a plot
# one worker drew is not drawn again by the other; removed by its maker. Set before any test
# module imports replay.html.
_CACHE_OWNER = "LOBSTACK_TEST_CACHE_OWNER"
if os.environ.get(_CACHE_OWNER) and os.environ.get("LOBSTACK_CACHE_DIR"):
    CACHE_DIR = os.environ["LOBSTACK_CACHE_DIR"]
else:
    CACHE_DIR = tempfile.mkdtemp(prefix="lobstack-test-cache-")
    os.environ["LOBSTACK_CACHE_DIR"] = CACHE_DIR
    os.environ[_CACHE_OWNER] = str(os.getpid())

# No fsync in pytest's own processes (docs/decisions/testing.md): fileio/atomic.py flushes every
# file it writes to the disk before the rename, which only a power cut could tell from a write that
# stayed in the page cache, and which no test can observe. The fast loop wrote about 4,200 files in
# process, at 7 ms a flush on this project's machine: 30 s of waiting, a quarter of its wall time.
# The descriptor is still checked (a closed one raises as os.fsync does); the processes the tests
# start (the CLI, inner pytests) still flush.


def _checked_no_flush(fd: Any) -> None:
    """os.fsync but for the flush: a file object or a descriptor, checked."""
    os.fstat(fd.fileno() if hasattr(fd, "fileno") else fd)


os.fsync = _checked_no_flush

# Memory kept, not handed back (docs/decisions/testing.md#malloc): glibc returns freed memory at the
# top of the heap to the kernel once more than 128 KB is free there, and gives arrays above a
# threshold pages of their own, unmapped at free; the simulations' arrays of megabytes were mapped,
# faulted in page by page and handed back again, test after test: seconds of system time in each
# worker. These processes (pytest's, not those the tests start) keep up to 1 GB free and map only
# blocks above 32 MB (glibc's largest threshold). Their peak memory is the same.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h


def _keep_freed_memory() -> None:
    """glibc's mallopt as above; nothing elsewhere (another libc, no ctypes)."""
    import platform

    if platform.libc_ver()[0] != "glibc":
        return
    import ctypes

    libc = ctypes.CDLL(None)
    libc.mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024)
    libc.mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024)


_keep_freed_memory()

# Bytecode (docs/decisions/testing.md): where PYTHONDONTWRITEBYTECODE is set (some machines, this
# project's sandbox), every Python of a run (pytest's workers, the CLIs, inner pytests and `uv run`s
# the tests start) compiled what it imports from source, and pytest rewrote every test module, at
# each start and again the next run: 13 s of CPU per xdist worker before its first test. They cache
# it in the checkout's git-ignored .tmp/pycache instead (PYTHONPYCACHEPREFIX; importlib and pytest
# write a .pyc whole or not at all, so processes share it; a .pyc is checked against its source's
# mtime and size), kept between runs. This process (xdist's controller, whose environment the
# workers and every process they start inherit) caches what it imports from here on too. A prefix
# the user set is kept; the header says when the user's PYTHONDONTWRITEBYTECODE was set aside.
PYCACHE = ROOT / ".tmp" / "pycache"
_BYTECODE_NOTE = ""
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    if not os.environ.get("PYTHONPYCACHEPREFIX"):
        os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False
    _BYTECODE_NOTE = (
        "bytecode: PYTHONDONTWRITEBYTECODE set aside; the tests' Pythons cache bytecode in "
        f"{sys.pycache_prefix} (PYTHONPYCACHEPREFIX: set it to choose the place)"
    )


def pytest_report_header(config: pytest.Config) -> str | None:
    """Says when the user's PYTHONDONTWRITEBYTECODE was set aside for the run (above)."""
    return _BYTECODE_NOTE or None


def outside_env() -> dict[str, str]:
    """A child process's environment: nothing of this pytest (``PYTEST_*``) or of the user's
    settings and key (``LOBSTACK_*``), but this session's plot cache, so a child neither writes to
    the developer's ~/.cache nor draws again what an earlier child drew."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "LOBSTACK_"))}
    return env | {"LOBSTACK_CACHE_DIR": CACHE_DIR}


def pytest_unconfigure(config: pytest.Config) -> None:
    if os.environ.get(_CACHE_OWNER) == str(os.getpid()):
        shutil.rmtree(CACHE_DIR, ignore_errors=True)


# The fast loop (`uv run pytest -m "not slow"`, README) leaves out the tests that start processes,
# servers or whole runs; they are marked here, not in each file, so a new test is marked by what it
# uses. A module is slow when most of its tests start processes (pytest in a subprocess, the CLI as
# a subprocess, a wheel install, a browser, uv); a test elsewhere is slow when it asks for a fixture
# that starts or records through a gateway or runs pytest.
SLOW_MODULES = frozenset(
    {
        "test_browser",
        "test_ci_recipes",
        "test_closed_pipe",
        "test_gating_example",
        "test_interrupts",
        "test_lint",
        "test_lowest_direct",
        "test_plot_cache",
        "test_pytest_plugin",
        "test_pytest_plugin_broken",
        "test_pytest_plugin_record",
        "test_pytest_plugin_repeats",
        "test_pytest_plugin_shadow",
        "test_readme",
        "test_repeat_gate",
        "test_scale_recipe",
        "test_speed_paths",
        "test_version",
        "test_wheel",
    }
)
SLOW_FIXTURES = frozenset({"pytester", "start_gateway", "gateway", "repeat_cassettes"})
# Single tests of seconds each in otherwise fast modules (whole rescores, shards, property tests
# with many examples), by function name: the longest of the fast loop as measured with --durations.
SLOW_TESTS = frozenset(
    {
        "test_two_recordings_of_a_flaky_model_pass_the_gate",
        # the method's backoff (1 + 2 + 4 s) for each case-run against a port with no gateway
        "test_no_gateway_at_the_base_url_stops_after_three_case_runs_and_leaves_nothing",
        "test_a_gateway_that_never_answers_is_not_unreachable_and_a_run_of_timeouts_exits_1",
        "test_readme_pytest_section_commands_run_in_a_project_with_only_recordings",
        "test_readme_pytest_section_commands_collect_only_the_recordings_here",
        "test_rescore_shards_merged_equal_the_unsharded_rescore_byte_for_byte",
        "test_record_shards_of_repeated_runs_merge_with_every_repeat",
        "test_the_comment_never_exceeds_github_size_whatever_the_input",
        "test_rescore_of_committed_cassettes_equals_committed_reports",
        "test_any_float_is_written_as_python_writes_it",
        "test_any_json_value_is_written_as_python_writes_it",
        "test_workers_beyond_the_model_dirs_are_capped_with_a_warning",
        "test_rescore_twice_is_byte_identical_and_independent_of_the_pool",
        "test_no_key_or_userinfo_in_any_file_or_output_and_replay_still_matches",
        "test_only_the_shard_that_owns_the_case_reports_it",
        "test_a_model_with_no_scored_case_is_written_but_fails_rescore",
        "test_every_suite_in_the_repo_has_only_known_keys",
        "test_credentials_hand_edited_into_run_json_or_a_cassette_are_never_printed_or_written",
        "test_the_plugin_runs_the_own_suite",  # runs pytest in a subprocess (~6 s)
    }
)


# Every test has a time limit: pyproject's `timeout` (120 s), or more where a test legitimately
# needs it, always above the limits the test puts on its own subprocesses, so their message (not a
# killed worker) says what hung. By module (its module fixtures count towards its first test) or by
# test name, in seconds.
LONG_MODULES = {
    # uv installs every direct dependency at its lower bound (uv steps: 1200 s each)
    "test_lowest_direct": 1500,
    "test_readme": 1500,  # every README command in a fresh copy, uv sync included (600 s a step)
    "test_wheel": 900,  # builds the wheel and installs it in a new venv (600 s a step)
    "test_ci_recipes": 900,  # the CI recipes' steps through uv (600 s a step)
    "test_scale_recipe": 900,  # the matrix recipe's steps (600 s a step)
    "test_browser": 600,  # starts chromium, renders and drives several pages
    "test_pytest_plugin": 600,  # each test runs pytest in a subprocess, some twice (300 s a run)
    "test_pytest_plugin_record": 600,
    "test_pytest_plugin_shadow": 600,
    "test_pytest_plugin_repeats": 600,
    "test_pytest_plugin_broken": 600,
    "test_one_verdict": 600,
    # record as a process group: several waits of up to 60 s each under load
    "test_record_faults": 360,
    "test_interrupts": 360,
    "test_repeat_gate": 360,
    "test_gating_example": 360,
    "test_closed_pipe": 360,  # the CLI in a subprocess (300 s)
    "test_plot_cache": 360,
}
LONG_TESTS = {
    "test_readme_pytest_section_commands_collect_only_the_recordings_here": 900,  # uv run (600 s)
    "test_readme_pytest_section_commands_run_in_a_project_with_only_recordings": 900,
    "test_a_file_size_limit_names_the_file": 360,  # rescore in a subprocess (300 s)
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: starts processes, servers or whole runs (left out by -m 'not slow')"
    )
    # `-n` without `--dist` (the fast loop) schedules by work stealing, not xdist's default `load`:
    # `load` hands each worker its share ahead, and a worker that ran out sat idle while the other
    # still had tests of seconds queued (docs/decisions/testing.md#schedule). A --dist given on the
    # command line, in PYTEST_ADDOPTS or in addopts (scripts/test.sh: loadfile) is kept.
    if getattr(config.option, "dist", "no") == "load" and not _dist_given(config):
        config.option.dist = "worksteal"
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        _no_hypothesis_deadline()  # in the processes that run tests, not xdist's controller
        gc.disable()  # until collection is done: pytest_collection_finish below
    if hasattr(config, "workerinput"):
        atexit.register(_end_worker_at_once)


def _no_hypothesis_deadline() -> None:
    """Hypothesis' default deadline (200 ms an example) is a timing assertion: on a loaded machine
    it failed a correct property test (test_paired's, at a load average of 20). Every property test
    runs without one; a hung example is stopped by the test's time limit. Loaded before the test
    modules are imported: ``@given`` takes the default settings when it decorates."""
    from hypothesis import settings

    settings.register_profile("lobstack-tests", deadline=None)
    settings.load_profile("lobstack-tests")


def _end_worker_at_once() -> None:
    """An xdist worker ends as soon as its exit handlers have run, without tearing its interpreter
    down (docs/decisions/testing.md#fixed-costs).

    By then the worker has reported everything (its last message, ``workerfinished``, is what lets
    the controller end the run) and execnet has closed its channel; what is left is freeing every
    module and object one by one, which the controller waited for after the last test (0.4 s for a
    small worker, about 1.7 s for one that ran the drift and history tests, at a load average of
    12). Registered at the worker's configure, this runs after every exit handler registered later
    (weakref finalizers, multiprocessing's, the tests' own) and before the two registered earlier:
    logging's shutdown, called here, and execnet's cleanup of the gateways this process opened
    (none: a worker opens none). xdist reads no worker's exit status. Where coverage is imported
    (`coverage run`, COVERAGE_PROCESS_START) the worker ends as before: coverage saves its data
    in an exit handler registered before this one."""
    if "coverage" in sys.modules:
        return
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _dist_given(config: pytest.Config) -> bool:
    """Whether the run names its xdist schedule (--dist, -d, --distload) anywhere."""
    args = [
        *config.invocation_params.args,
        *shlex.split(os.environ.get("PYTEST_ADDOPTS", "")),
        *config.getini("addopts"),
    ]
    return any(arg == "-d" or arg.startswith("--dist") for arg in args)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the slow tests, and runs slow modules first: under ``--dist loadfile``
    (scripts/test.sh) a long module handed out last would leave the other workers idle at
    the end."""
    slow = pytest.mark.slow
    # Each item's module name once: 6,000 items a worker (docs/decisions/testing.md#fixed-costs)
    modules = [_module(item) for item in items]
    for item, module in zip(items, modules, strict=True):
        name = getattr(item, "originalname", item.name)
        if (
            module in SLOW_MODULES
            or name in SLOW_TESTS
            or not SLOW_FIXTURES.isdisjoint(item.fixturenames)
        ):
            item.add_marker(slow)
        limit = LONG_TESTS.get(name) or LONG_MODULES.get(module)
        if limit is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(limit))
    order = {name: rank for rank, name in enumerate(SLOW_FIRST)}
    ranks = [order.get(module, len(order)) for module in modules]
    items[:] = [items[i] for i in sorted(range(len(items)), key=ranks.__getitem__)]


# The garbage collector (docs/decisions/testing.md#gc-freeze): after collection a worker holds every
# module the tests import (scipy, statsmodels, matplotlib, pydantic: about 375,000 objects), and
# each full collection walked them all again, about 60 times a worker in the fast loop. They live
# until the process ends, so they are moved out of the collector's reach (gc.freeze, CPython's own
# recipe for long-lived processes); what the tests make is collected as before.
@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    plugins = not os.environ.get("HYPOTHESIS_NO_PLUGINS")
    if plugins and "trio" in sys.modules and "hypothesis" not in sys.modules:
        # hypothesis (with its entry points on, below) registers trio's Random at its import and
        # warns when nothing it can see refers to it: a frozen trio module is not seen, so
        # hypothesis is imported before the freeze.
        import hypothesis  # noqa: F401
    # The collector was off while the test modules were imported (pytest_configure): each of its
    # full collections walked the growing heap of imported modules again, about 1.2 s of CPU a
    # worker (docs/decisions/testing.md#fixed-costs). One collection now, then the freeze.
    gc.collect()
    gc.freeze()
    gc.enable()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In xdist's controller, what is alive at the end is frozen out of the collector too.

    The controller keeps every report (three a test: 17,000 in the fast loop) for the summary, and
    pytest's unraisable-exception plugin collects garbage twice after the summary (to surface what
    tests left): each of those walked all of them again, in the run's tail. The controller runs no
    test; the workers froze what their collection left (above) and collect as before."""
    if not hasattr(session.config, "workerinput") and getattr(
        session.config.option, "numprocesses", None
    ):
        gc.freeze()


# The longest modules, longest first (measured with --durations under -n 2; list order is
# the schedule's), then the fast loop's longest (CPU seconds a module, measured per test with
# getrusage): its single tests of seconds start early, so neither worker ends on one alone.
SLOW_FIRST = (
    "test_pytest_plugin",
    "test_history_alpha_noisy",
    "test_history_alpha_near",
    "test_history_alpha_noisy_mid",
    "test_history_alpha_near_mid",
    "test_wheel",
    "test_readme",
    "test_watch_recipe",
    "test_lowest_direct",
    "test_pytest_plugin_record",
    "test_browser",
    "test_drift_dispersion",
    "test_loader_fuzz",
    "test_drift",
    "test_drift_e2e",
    "test_day_effect",
    "test_history_window",
    "test_history_gate",
    "test_power_and_tiers_sim",
    "test_gate_calibration",
)


# Tests never see the developer's key or base URL, nor write to a CI's job summary: taken out of
# this process's environment when it loads this file (before collection and any fixture, so session
# fixtures and the processes tests start never see them either), and again before each test (one
# that set one without monkeypatch does not pass it on). A hook, not an autouse monkeypatch fixture:
# that cost about 0.12 ms of CPU a test (docs/decisions/testing.md#watchdog).
USER_ENVIRONMENT = ("LOBSTACK_API_KEY", "LOBSTACK_BASE_URL", "GITHUB_STEP_SUMMARY")


def _forget_user_environment() -> None:
    for name in USER_ENVIRONMENT:
        os.environ.pop(name, None)


_forget_user_environment()

# hypothesis runs the "hypothesis" entry points of every installed package at its import
# (docs/decisions/testing.md#fixed-costs): trio's (installed with selenium) imports trio and,
# through trio.testing, much of pytest's assertion machinery, then registers trio's Random with a
# full garbage collection. No test here uses trio. Set here, before any process of the run imports
# hypothesis (the workers and the processes the tests start inherit it); a value set by the user
# is kept.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _forget_user_environment()


@pytest.fixture
def mini_suite() -> Path:
    return MINI_SUITE


# The committed history (cassettes/history/<day>/, 20 dated runs of two models), as the watch
# recipe keeps it rescored: read by test_history, test_timeline and test_drift_e2e.
HISTORY = ROOT / "cassettes" / "history"
HISTORY_DAYS = [(date(2026, 10, 21) + timedelta(days=n)).isoformat() for n in range(20)]


@pytest.fixture(scope="session")
def scored_history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Every committed run rescored with evals/suite.json by one command, once a run: ``rescore
    cassettes/history`` writes report dirs <reports>/<run-id>/<model-slug>/ and one rows root.
    Read only: a test that writes beside them copies what it needs into its own tmp_path."""
    from lobstack_eval.main import main

    with run_shared(tmp_path_factory, "history") as (base, built):
        reports, rows = base / "reports", base / "rows"
        if not built:
            argv = ["rescore", str(HISTORY), "--suite", str(ROOT / "evals" / "suite.json")]
            argv += ["--out", str(reports), "--rows", str(rows), "--no-html", "-q"]
            assert main(argv) == 0
    return reports, rows


@contextlib.contextmanager
def run_shared(factory: pytest.TempPathFactory, name: str) -> Iterator[tuple[Path, bool]]:
    """A folder shared by every xdist worker of this run (the workers' temp dirs' parent, as
    pytest-xdist's docs do it), held under a lock while the block builds it: yields the folder and
    whether an earlier worker has built it whole, so costly read-only data is built once a run,
    not once a worker."""
    base = factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder, done = root / f"shared-{name}", root / f"shared-{name}.done"
    with (root / f"shared-{name}.lock").open("a") as lock:
        # A POSIX record lock, not flock: no process the block starts (rescore's pool) inherits
        # it, so none that outlives a worker can hold it; released at close or at exit.
        fcntl.lockf(lock, fcntl.LOCK_EX)
        built = done.exists()
        if not built:
            shutil.rmtree(folder, ignore_errors=True)  # a worker that died mid-build
            folder.mkdir()
        yield folder, built
        done.touch()


@pytest.fixture
def start_gateway() -> Iterator[Callable[..., StandInGateway]]:
    """Start stand-in gateways (port 0); every one is stopped at the end of the test."""
    from standin import GatewayConfig, StandInGateway, parse_faults

    started: list[StandInGateway] = []

    def start(suite: Path = MINI_SUITE, faults: str = "", **options: Any) -> StandInGateway:
        gateway = StandInGateway(
            GatewayConfig(suite_path=suite, faults=parse_faults(faults), **options)
        )
        gateway.start()
        started.append(gateway)
        return gateway

    yield start
    for gateway in started:
        gateway.stop()


@pytest.fixture
def gateway(start_gateway: Callable[..., StandInGateway]) -> StandInGateway:
    return start_gateway()


def interactions(cassette: Path) -> list[dict[str, Any]]:
    """A cassette's interactions as plain JSON."""
    return json.loads(cassette.read_text(encoding="utf-8"))["interactions"]


def request_json(interaction: dict[str, Any]) -> dict[str, Any]:
    return json.loads(interaction["request"]["body"])


@pytest.fixture(scope="session")
def repeat_cassettes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ref/oracle x3, ref/flaky x5 and ref/first-tool x1 of the mini suite, recorded once
    (read-only: copy to edit)."""
    from recorder.record import record
    from recorder.repeats import CaseRun
    from recorder.settings import RecordSettings
    from scorer.suite.file import parse_suite
    from standin import GatewayConfig, StandInGateway

    case_ids = [case.id for case in parse_suite(MINI_SUITE.read_bytes(), str(MINI_SUITE)).cases]
    cassettes = tmp_path_factory.mktemp("repeats") / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model, repeats in (("ref/oracle", 3), ("ref/flaky", 5), ("ref/first-tool", 1)):
            runs = [CaseRun(case_id, n) for n in range(1, repeats + 1) for case_id in case_ids]
            record(
                MINI_SUITE,
                model,
                cassettes,
                gateway.url,
                runs,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
    return cassettes


def _module(item: pytest.Item) -> str:
    """The test module's short name ("" for an item outside a module)."""
    module = getattr(item, "module", None)
    return module.__name__.rsplit(".", 1)[-1] if module is not None else ""
