"""The layout holds: imports point one way (lobstack_eval and pytest_lobstack -> replay -> recorder
-> scorer; every package but the pure scorer may use fileio, which uses only scorer), nothing of
the tool imports the stand-in gateway but the CLI's ``gateway`` command, and no module grows past
~300 lines."""

from __future__ import annotations

import ast
import functools
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scorer", "fileio", "recorder", "replay", "standin", "lobstack_eval", "pytest_lobstack")
# What each package may import of the project (itself included).
ALLOWED = {
    "scorer": {"scorer"},
    # General file I/O (atomic writes, reads with one-line errors, paths kept under their root): a
    # package of its own so rendering code writes files without importing the gateway
    # client (recorder).
    "fileio": {"fileio", "scorer"},
    "recorder": {"recorder", "fileio", "scorer"},
    "replay": {"replay", "recorder", "fileio", "scorer"},
    # The stand-in imitates the outside world: it only borrows the error types, so the CLI reports
    # its errors.
    "standin": {"standin", "scorer"},
    "lobstack_eval": {"lobstack_eval", "replay", "recorder", "fileio", "scorer"},
    # The pytest plugin sits beside the CLI, above replay; neither imports the other.
    "pytest_lobstack": {"pytest_lobstack", "replay", "recorder", "fileio", "scorer"},
}
# The one module of the tool that starts the stand-in.
STANDIN_USERS = {"lobstack_eval/cmd_gateway.py"}
MAX_LINES = 300


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


# One import statement: ``import a, b`` is (False, None, 0, ("a", "b")); ``from .m import x`` is
# (True, "m", 1, ("x",)); ``from . import x`` is (True, None, 1, ("x",)).
Imported = tuple[bool, str | None, int, tuple[str, ...]]


def _imports(path: Path) -> tuple[Imported, ...]:
    """Every import statement of ``path``, at module level or inside functions."""
    return _imports_in(path.read_text(encoding="utf-8"))


# What a statement can sit in: another statement's body (or orelse, finalbody), an except
# handler's, a match case's.
_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)


@functools.cache
def _imports_in(source: str) -> tuple[Imported, ...]:
    """The import statements of a module's source: parsed once a process for all the checks
    below (each module is checked by several), keyed by the text, so an edited file is read
    afresh; only these small tuples are kept, not the tree."""
    found: list[Imported] = []
    # ast.walk's breadth-first order over the statements alone: an import is a statement, and a
    # statement sits only in another's (or a handler's, a match case's) list of them, never below
    # an expression, so the walk skips the expressions, most of a tree's nodes (the same tuples in
    # the same order for every .py file of the checkout; the walk about a fifth of what it was).
    todo = deque([ast.parse(source)])
    while todo:
        node = todo.popleft()
        if isinstance(node, ast.Import):
            found.append((False, None, 0, tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            found.append((True, node.module, node.level, names))
        for field in node._fields:
            value = getattr(node, field)
            if isinstance(value, list):
                todo.extend(item for item in value if isinstance(item, _HOLDERS))
    return tuple(found)


def _project_imports(path: Path) -> set[str]:
    """Top-level project packages that ``path`` imports, at module level or inside functions."""
    found: set[str] = set()
    for is_from, module, level, names in _imports(path):
        if not is_from:
            dotted = list(names)
        elif level == 0 and module:
            dotted = [module]
        else:
            continue
        found.update(name.split(".")[0] for name in dotted if name.split(".")[0] in PACKAGES)
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_one_way(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    package = rel.split("/")[0]
    allowed = ALLOWED[package] | ({"standin"} if rel in STANDIN_USERS else set())
    assert _project_imports(path) <= allowed, (
        f"{rel} imports {sorted(_project_imports(path) - allowed)}"
    )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_300_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, (
        f"{path.relative_to(ROOT)} has {lines} lines; split it along its ideas"
    )


# Inside replay, layers from the bottom up: a module imports its own unit and units of lower layers
# only. results/ is results.json read back and typed (every view reads it through there); rows/ is
# the row tables alone, cassettes/ the cassettes' shape and replay transport, out/ the folders a
# command writes (checked, locked); ``replay`` is its top-level modules (a case-run replayed,
# shards, the summary from rows...); leaderboard/ renders boards of summaries and slices of rows;
# above come what combines them: the run diff, its HTML and JUnit views, rescore (scoring, rows
# and the page of a run), then the commands' own packages.
REPLAY_LAYERS = (
    {"replay.results"},
    {"replay.rows", "replay.cassettes", "replay.out"},
    {"replay"},
    {"replay.leaderboard"},
    {"replay.diff_runs", "replay.drift"},
    {"replay.html", "replay.junit"},
    {"replay.rescore"},
    {"replay.diff_suites", "replay.merge"},
)


def _replay_unit(dotted: str) -> str:
    """The replay unit a module belongs to: ``replay`` (a top-level module) or
    ``replay.<sub-package>``."""
    parts = dotted.split(".")
    sub = ROOT / "replay" / parts[1] if len(parts) > 1 else None
    return f"replay.{parts[1]}" if sub is not None and sub.is_dir() else "replay"


def _replay_imports(path: Path) -> set[str]:
    """The replay modules ``path`` imports (absolute imports: the project uses no relative ones)."""
    found: set[str] = set()
    for is_from, module, level, names in _imports(path):
        if not is_from:
            found.update(names)
        elif module:
            assert level == 0, f"{path}: a relative import"
            found.add(module)
    return {name for name in found if name.split(".")[0] == "replay"}


def _layer(unit: str) -> int:
    return next(i for i, layer in enumerate(REPLAY_LAYERS) if unit in layer)


@pytest.mark.parametrize(
    "path", sorted((ROOT / "replay").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_replay_sub_packages_import_one_way(path: Path) -> None:
    own = _replay_unit(path.relative_to(ROOT).with_suffix("").as_posix().replace("/", "."))
    wrong = sorted(
        name
        for name in _replay_imports(path)
        if _replay_unit(name) != own and _layer(_replay_unit(name)) >= _layer(own)
    )
    assert not wrong, f"{path.relative_to(ROOT)} ({own}) imports {wrong}: a same or higher layer"


def test_every_replay_sub_package_has_a_layer() -> None:
    units = {
        f"replay.{p.name}" for p in (ROOT / "replay").iterdir() if (p / "__init__.py").is_file()
    }
    assert units | {"replay"} == set().union(*REPLAY_LAYERS)


# Inside scorer, sub-packages by idea, imports one way: the statistics and the suite are below the
# judge's own top-level modules (which use both), drift's history sits on top of the statistics,
# and suite new's drafts on top of the suite. What each unit may import of scorer (itself included).
# The suite reads one word list of the audit (``scorer.audit.kinds``, the kinds an
# ``audit_accept`` marker may name), so scorer.suite -> scorer.audit.kinds is the one edge up.
SCORER_ALLOWED = {
    "scorer.stats": {"scorer.stats", "scorer"},
    "scorer.schema": {"scorer.schema", "scorer"},
    "scorer.suite": {"scorer.suite", "scorer.schema", "scorer", "scorer.audit.kinds"},
    "scorer.wire": {"scorer.wire", "scorer.suite", "scorer.stats", "scorer"},
    "scorer": {"scorer", "scorer.stats", "scorer.schema", "scorer.suite", "scorer.wire"},
    "scorer.drift": {"scorer.drift", "scorer.stats", "scorer.wire", "scorer"},
    "scorer.suite.draft": {
        "scorer.suite.draft",
        "scorer.suite",
        "scorer.schema",
        "scorer.stats",
        "scorer",
    },
    "scorer.audit": {
        "scorer.audit",
        "scorer.suite",
        "scorer.schema",
        "scorer.wire",
        "scorer.stats",
        "scorer",
    },
}


def _scorer_unit(dotted: str) -> str:
    """The deepest scorer package holding ``dotted`` (a module or a package)."""
    parts = dotted.split(".")
    for n in range(len(parts), 1, -1):
        if (ROOT.joinpath(*parts[:n]) / "__init__.py").is_file():
            return ".".join(parts[:n])
    return "scorer"


def _scorer_imports(path: Path) -> set[str]:
    """The scorer modules ``path`` imports; ``from P import m`` counts ``P.m``, so a module
    imported through its package is seen."""
    found: set[str] = set()
    for is_from, module, _level, names in _imports(path):
        if not is_from:
            found.update(names)
        elif module:
            found.update(f"{module}.{name}" for name in names)
    return {name for name in found if name.split(".")[0] == "scorer"}


def _allowed(unit: str, name: str) -> bool:
    """A unit's rule names units (any module of theirs) or one module (only it)."""
    target = _scorer_unit(name)
    return any(
        target == allowed
        if allowed in SCORER_ALLOWED
        else name == allowed or name.startswith(f"{allowed}.")
        for allowed in SCORER_ALLOWED[unit]
    )


@pytest.mark.parametrize(
    "path", sorted((ROOT / "scorer").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_scorer_sub_packages_import_one_way(path: Path) -> None:
    own = _scorer_unit(_module_name(path))
    wrong = sorted(name for name in _scorer_imports(path) if not _allowed(own, name))
    assert not wrong, f"{path.relative_to(ROOT)} ({own}) imports {wrong}"


def test_every_scorer_sub_package_has_rules() -> None:
    units = {_scorer_unit(_module_name(p)) for p in (ROOT / "scorer").rglob("__init__.py")}
    assert units == set(SCORER_ALLOWED)


def test_the_scorer_check_sees_a_wrong_way_import() -> None:
    """The statistics may not reach into the suite, even through a function-level import; the
    audit's word list is the suite's only way up."""
    assert not _allowed("scorer.stats", "scorer.suite.model.Suite")
    assert not _allowed("scorer.suite", "scorer.suite.draft.new.draft_suite")
    assert not _allowed("scorer", "scorer.drift.cusum")
    assert not _allowed("scorer.suite", "scorer.audit.run")
    assert _allowed("scorer.suite", "scorer.audit.kinds.ARG_WRONG")
    assert _allowed("scorer.drift", "scorer.stats.wilson.wilson")
    assert _allowed("scorer.suite.draft", "scorer.schema.budget.check")


# The CLI is thin: a command parses its options and calls one library function, so no function in
# lobstack_eval/ is long.
MAX_CLI_FUNCTION_LINES = 50


def _long_functions(path: Path, limit: int) -> dict[str, int]:
    """``path::name`` -> lines (signature and docstring included) of each function longer
    than ``limit``."""
    rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    return {
        f"{rel}::{node.name}": node.end_lineno - node.lineno + 1
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    }


def test_no_cli_function_over_50_lines() -> None:
    long = {}
    for path in sorted((ROOT / "lobstack_eval").rglob("*.py")):
        long.update(_long_functions(path, MAX_CLI_FUNCTION_LINES))
    assert not long, f"over {MAX_CLI_FUNCTION_LINES} lines: {long}; move the work into the packages"


def test_the_length_check_counts_a_long_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f(\n    a: int = 1,\n):\n" + "    a += 1\n" * 49, encoding="utf-8")
    assert _long_functions(module, MAX_CLI_FUNCTION_LINES) == {"m.py::f": 52}
    assert _long_functions(module, 52) == {}


def test_the_checker_sees_a_wrong_way_import(tmp_path: Path) -> None:
    """The import scan finds imports in functions too (the lazy ones), so a back-edge cannot
    hide there."""
    module = tmp_path / "m.py"
    module.write_text(
        "def f():\n    from replay.rescore import rescore\n    import standin.server\n",
        encoding="utf-8",
    )
    assert _project_imports(module) == {"replay", "standin"}


def test_cmd_gateway_is_the_only_tool_module_importing_the_standin() -> None:
    users = {
        p.relative_to(ROOT).as_posix()
        for p in _modules()
        if not p.relative_to(ROOT).as_posix().startswith("standin/")
        and "standin" in _project_imports(p)
    }
    assert users == STANDIN_USERS


def test_layout_page_names_every_package() -> None:
    """docs/layout.md's table (the README links it) names every package."""
    page = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    layout = page.split("# Layout and tests", 1)[1].split("\n## ", 1)[0]
    for package in PACKAGES:
        assert f"| `{package}/` |" in layout, package


# --- no import circles (issue 43) ---------------------------------------------------------------


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Each product module -> the product modules it imports anywhere (function level and
    ``TYPE_CHECKING`` included): ``from P import m`` imports the package ``P`` too, which imports
    what its ``__init__`` does."""
    files = {
        ".".join(f.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): f
        for package in packages
        for f in (root / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, file in files.items():
        own = name if file.name == "__init__.py" else name.rpartition(".")[0]
        for is_from, module, level, names in _imports(file):
            if not is_from:
                targets = list(names)
            else:
                base = module or ""
                if level:
                    parts = own.split(".")[: len(own.split(".")) - level + 1]
                    base = ".".join([*parts, *([base] if base else [])])
                targets = [base, *(f"{base}.{alias}" for alias in names)]
            graph[name] |= {t for t in targets if t in files and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every pair of modules that reach each other through imports, each pair once."""

    def reaches(start: str, goal: str) -> bool:
        todo, seen = [start], set()
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(graph[here])
        return False

    found = set()
    for a in graph:
        for b in graph[a]:
            if reaches(b, a):
                found.add((min(a, b), max(a, b)))
    return sorted(set(found))


def test_no_import_circle() -> None:
    """No two product modules import each other, directly or through others: the shared idea goes
    in a module both import (a package's ``__init__`` counts: import its modules, not it)."""
    assert circles(import_graph()) == []


def test_the_circle_check_sees_a_circle_through_a_package(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import x\n")
    (package / "a.py").write_text("x = 1\n")
    (package / "b.py").write_text("def f():\n    from pkg import a\n")
    (package / "c.py").write_text("from pkg.b import f\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": set(),
        "pkg.b": {"pkg", "pkg.a"},
        "pkg.c": {"pkg.b"},
    }
    assert circles(graph) == []
    (package / "a.py").write_text("import pkg.c\nx = 1\n")
    assert circles(import_graph(tmp_path, ("pkg",))) == [
        ("pkg", "pkg.a"),
        ("pkg", "pkg.b"),
        ("pkg.a", "pkg.b"),
        ("pkg.a", "pkg.c"),
        ("pkg.b", "pkg.c"),
    ]
