"""The suite that ships inside lobstack-eval, and which suite a command uses when it is given none.

The wheel carries ``evals/suite.json`` as ``recorder/bundled_suite.json`` (pyproject.toml's
force-include), so an installed lobstack-eval works in a project that has no suite file yet. A
command without ``--suite`` uses the project's default suite where it runs: the one of
``evals/suite.json``, ``evals/suite.yaml`` and ``evals/suite.yml`` that exists (a project's own
suite always wins; two of them is an error, never a silent choice), else the bundled one, and the
command says so once (``notice``). A suite the user names is used as named: never replaced, never a
fallback.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from fileio.atomic import write_bytes_atomic
from fileio.reading import read_bytes
from recorder.version import installed_version
from scorer import strict_json
from scorer.errors import SuiteError, UsageError

# What `suite export` and `suite new` write when given no file.
DEFAULT_SUITE = Path("evals/suite.json")
# The names a project's default suite may have: the JSON the tool writes, or the YAML a user writes
# by hand (docs/guide-own-tools.md). Exactly one of them may exist where a command runs.
DEFAULT_SUITES = (DEFAULT_SUITE, Path("evals/suite.yaml"), Path("evals/suite.yml"))
DEFAULT_NAMES = "evals/suite.json, .yaml or .yml"
_HERE = Path(__file__).resolve().parent
PACKAGED = _HERE / "bundled_suite.json"
# A source checkout (the editable install of development) has no packaged copy: its evals/suite.json
# is the file the wheel is built from, so it is the bundled suite there.
_CHECKOUT = _HERE.parent


@dataclass(frozen=True)
class SuiteChoice:
    """The suite file a command uses; ``bundled`` when it fell back to the one inside
    lobstack-eval."""

    path: Path
    bundled: bool


def bundled_suite_path() -> Path:
    """The bundled suite file; SuiteError when this install has none (a wheel built without it)."""
    if PACKAGED.is_file():
        return PACKAGED
    source = _CHECKOUT / DEFAULT_SUITE
    if source.is_file() and (_CHECKOUT / "pyproject.toml").is_file():
        return source
    raise SuiteError(
        f"no {DEFAULT_NAMES} here, and this install of lobstack-eval has no bundled suite "
        f"({PACKAGED} is missing): pass --suite FILE, or reinstall lobstack-eval"
    )


def project_suite(where: Path | None = None) -> Path | None:
    """The project's default suite in ``where`` (the working dir when None, the path kept
    relative): the one of ``DEFAULT_SUITES`` that exists, or None. UsageError naming them when
    more than one does: which one the user meant is theirs to say."""
    base = Path() if where is None else where
    # lexists: a dangling link or a directory there is the project's file gone wrong, said by the
    # reader, not silently replaced by another file or the bundled suite.
    found = [base / name for name in DEFAULT_SUITES if os.path.lexists(base / name)]
    if len(found) > 1:
        named = ", ".join(str(path) for path in found[:-1]) + f" and {found[-1]}"
        count, other = ("two", "the other") if len(found) == 2 else ("three", "the others")
        raise UsageError(
            f"{count} default suites here, {named}: pass --suite with the one to use (or remove "
            f"{other})"
        )
    return found[0] if found else None


def choose_suite(given: Path | None, where: Path | None = None) -> SuiteChoice:
    """``given`` as is when the user named a suite; else the project's default suite in ``where``
    (``project_suite``); else the bundled suite."""
    if given is not None:
        return SuiteChoice(given, False)
    local = project_suite(where)
    if local is not None:
        return SuiteChoice(local, False)
    return SuiteChoice(bundled_suite_path(), True)


def check_no_second_default(target: Path) -> None:
    """Refuse to write a default suite (``target`` named ``evals/suite.json``, ``.yaml`` or
    ``.yml``) beside another one: every command run there would then refuse to choose."""
    if target.parent.name != "evals" or Path("evals", target.name) not in DEFAULT_SUITES:
        return
    others = [
        target.parent / name.name
        for name in DEFAULT_SUITES
        if name.name != target.name and os.path.lexists(target.parent / name.name)
    ]
    if others:
        raise UsageError(
            f"{target}: not written: {others[0]} is the default suite there, and with two every "
            f"command would refuse to choose; remove {others[0]} first, or write another file"
        )


def is_default(path: Path, where: Path | None = None) -> bool:
    """Whether a command run in ``where`` without ``--suite`` would use ``path`` (so a hint can
    leave it out)."""
    try:
        return path.resolve() == choose_suite(None, where).path.resolve()
    except (SuiteError, UsageError):  # none here and none bundled, or two here: name the file
        return False


def tool_version() -> str:
    """The installed lobstack-eval's version, for the bundled-suite lines."""
    return installed_version("(not installed)")


def suite_title(data: bytes) -> str:
    """``name version`` of a suite file's bytes, or a word on why not (for messages only: the
    reader checks)."""
    try:
        doc = strict_json.loads_file(data)
        return f"{doc['name']} {doc['version']}"
    except (ValueError, TypeError, KeyError):
        return "a file that is not a readable suite"


def notice(choice: SuiteChoice) -> str:
    """The line a command prints (on stderr) when it uses the bundled suite."""
    title = suite_title(read_bytes(choice.path, "suite file", SuiteError))
    return (
        f"using the suite bundled with lobstack-eval {tool_version()}: {title} "
        f"(no {DEFAULT_NAMES} here; lobstack-eval suite export writes {DEFAULT_SUITE})"
    )


@dataclass(frozen=True)
class Exported:
    """What ``export_suite`` did: ``written`` is False when the target already held the
    bundled suite."""

    path: Path
    title: str
    written: bool
    replaced: str | None  # the title of the different file --force overwrote


def export_suite(target: Path, force: bool = False) -> Exported:
    """Write the bundled suite to ``target``. A file already there with other bytes is kept
    (SuiteError) unless ``force``; the same bytes are left alone."""
    check_no_second_default(target)
    data = read_bytes(bundled_suite_path(), "suite file", SuiteError)
    title = suite_title(data)
    if target.is_dir():
        raise SuiteError(
            f"{target}: is a directory; name the suite file to write, e.g. {target / 'suite.json'}"
        )
    replaced = None
    if os.path.lexists(target):
        try:
            old: bytes | None = target.read_bytes()
        except OSError:  # a dangling link, an unreadable file: still not the bundled suite
            old = None
        if old == data:
            return Exported(target, title, written=False, replaced=None)
        replaced = suite_title(old) if old is not None else "a file that cannot be read"
        if not force:
            raise SuiteError(
                f"{target}: exists and differs from the bundled suite ({replaced} there, {title} "
                "bundled); --force overwrites it"
            )
    write_bytes_atomic(target, data)
    return Exported(target, title, written=True, replaced=replaced)
