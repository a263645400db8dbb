"""How many mutants of the scorer and the recorder's decoding and scrubbing the tests kill, and how.

    uv run python benchmarks/mutation.py                      # the default modules (MODULES)
    uv run python benchmarks/mutation.py scorer/stats/paired.py     # some modules
    uv run python benchmarks/mutation.py --all                # every scorer module, and MODULES
    uv run python benchmarks/mutation.py --check              # exit 1 below the goal
    uv run python benchmarks/mutation.py --tally DIR          # count a --keep DIR run again
    uv run python benchmarks/mutation.py scorer/judge.py --tests tests/test_judge.py  # these tests
    uv run python benchmarks/mutation.py scorer/patterns.py --only 'scorer.patterns.x_comp*'  # some

mutmut (3.8, run with ``uv run --with``, so not a dependency) makes the mutants of the chosen
modules in a copy of the repository's tracked files and runs, for each, the tests that reach the
mutated function (its own coverage map, taken once), stopping at the first failure. mutmut skips a
decorated function, so each mutated module's decorators are first applied by hand in the copy
(``undecorate``), which leaves the `@metric` and `@operator` bodies and the properties to mutate. A
pytest plugin (benchmarks/mutation_plugin.py) records how that failure came: an assertion (a test
checked a value and it was wrong) or a crash (the mutant raised, say, a TypeError, and no test
checked anything). Only a kill by assertion counts toward the score, as issue 43 asks:

    score = killed by assertion / (mutants - equivalent - crash with no value to check)

A survivor explained in benchmarks/mutation_survivors.json (``equivalent: why`` or ``accepted:
why``) is listed with its reason; an equivalent one leaves the denominator, an accepted one stays in
it. Every other survivor is listed for a test to kill. A kill by crash only may be explained there
too, as ``crash: why``, when the mutant raises on every input where it differs from the code (a
call with an argument dropped, ``None`` joined or sorted): no test can check a value it never
returns, so it leaves the denominator, like an equivalent one; it is counted in its own column. A
timeout is explained the same way, as ``hang: why``, when the mutant loops forever on every
input where it differs.
The goal: >= 95% per scorer module.

The tests are those that import the module (by its dotted name or ``from <package> import <name>``)
or a product module that imports it, without the slow ones (subprocesses and browsers do not run
the mutated copy). A module that imports polars runs in mutmut's fork-server mode: its own
process never runs a test, a fork server collects the tests (none run) and forks one child per
mutant, the coverage map and the clean run in children too. Forked straight from a process that
had run polars (mutmut's default), a child that ran polars again hung on a lock of the parent's
thread pool (scorer/summarize.py, even with POLARS_MAX_THREADS=1); from the fork server it does
not. The other modules keep mutmut's default. A test id with a character pytest escapes (non-ASCII)
is not found when mutmut gives it back: the run fails whole (exit 4), counted as a kill with no
failed test logged (fork) or a timeout (fork server, exit 255), so test ids are kept ASCII.
Runs take minutes: mutmut runs about 3 mutants a second per child on an idle core, far fewer
on a loaded one (a mutant of summarize runs seconds of tests). A run stopped early (``--tally``
of a ``--keep`` dir) counts the mutants it did not reach apart, as ``not run``, out of every
figure.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = "mutmut==3.8.1"
GOAL = 95.0
SURVIVORS = ROOT / "benchmarks" / "mutation_survivors.json"
# Issue 43's modules: the judge's core, and the recorder's decoding and scrubbing.
MODULES = (
    "scorer/checks.py",
    "scorer/judge.py",
    "scorer/matching.py",
    "scorer/schema/subset.py",
    "scorer/summarize.py",
    "recorder/secrets.py",
    "recorder/content_coding.py",
    "recorder/answer_read.py",
)
# Tests that read the product's source as text (line counts, imports): mutmut's copy of a module,
# every mutant in it, fails them whatever the mutant.
READS_SOURCE = frozenset({"test_layout.py", "test_lint.py"})
# Decorators mutmut handles itself, or whose function must stay decorated (a stub of @overload).
KEEP_DECORATED = frozenset({"staticmethod", "classmethod", "overload"})
# Caches of pure functions, dropped in the copy: behind a cache only the first test to call a
# function reaches mutmut's trampoline, so its coverage map gave each mutant that one test.
CACHES = frozenset({"lru_cache", "cache"})
_NAME = re.compile(r"^(?P<module>.+?)\.x[_ǁ]")


@dataclass
class Tally:
    """One module's mutants by outcome."""

    mutants: int = 0
    assertion: int = 0
    crash: int = 0
    timeout: int = 0
    untested: int = 0
    not_run: int = 0  # a run stopped early (--tally of a --keep dir) did not reach these
    # Killed (mutmut saw a failed run) with no failed test in the plugin's log: how is unknown,
    # so not by assertion. Seen for scorer/checks.py's describe and run_check, whose mutants
    # each fail a test by assertion when that test is run alone under the plugin.
    unlogged: list[str] = field(default_factory=list)
    crash_only: list[str] = field(default_factory=list)  # crash kills explained as ``crash:``
    equivalent: list[str] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)
    survived: list[str] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        """Killed by assertion over the mutants that are neither equivalent nor explained as
        ``crash:`` (they raise wherever they differ: no value to check), in %."""
        counted = self.mutants - len(self.equivalent) - len(self.crash_only)
        return None if counted == 0 else 100.0 * self.assertion / counted

    @property
    def strict(self) -> float | None:
        """Killed by assertion over the mutants that are not equivalent, in %: a ``crash:``
        mutant counts as not killed by assertion, for it never is."""
        counted = self.mutants - len(self.equivalent)
        return None if counted == 0 else 100.0 * self.assertion / counted


def dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _imports_of(text: str, name: str) -> bool:
    package, _, leaf = name.rpartition(".")
    return bool(
        re.search(rf"\b{re.escape(name)}\b", text)
        or re.search(rf"from {re.escape(package)} import [^\n]*\b{leaf}\b", text)
    )


def tests_for(modules: list[str]) -> list[str]:
    """The test files that import one of ``modules``, or a product module that imports one (the
    judge's tests reach the matching through the judge), or a name a package re-exports from one
    of those (``from scorer import judge_step``). A package's ``__init__`` naming a module does not
    bring in every test that imports the package: only those importing what it re-exports."""
    names = {dotted(path) for path in modules}
    product = sorted(
        p for d in ("scorer", "recorder", "replay", "fileio") for p in (ROOT / d).rglob("*.py")
    )
    reach = set(names)
    inits = []
    for path in product:
        text = path.read_text(encoding="utf-8")
        if path.name == "__init__.py":
            inits.append((dotted(str(path.parent.relative_to(ROOT))), text))
        elif any(_imports_of(text, name) for name in names):
            reach.add(dotted(str(path.relative_to(ROOT))))
    exported = set()  # (package, name) re-exported from a reached module
    for package, text in inits:
        for line in text.splitlines():
            if any(re.search(rf"\b{re.escape(name)}\b", line) for name in reach):
                words = re.findall(r'"(\w+)"', line) or re.findall(r"import (.+)", line)
                for word in words:
                    exported |= {(package, w) for w in re.findall(r"\w+", word)}
    found = []
    for test in sorted((ROOT / "tests").glob("test_*.py")):
        if test.name in READS_SOURCE:
            continue
        text = test.read_text(encoding="utf-8")
        blocks = re.findall(r"from ([\w.]+) import (\([^)]*\)|[^\n]*)", text)
        if any(_imports_of(text, name) for name in reach) or any(
            (package, word) in exported
            for package, imported in blocks
            for word in re.findall(r"\w+", imported)
        ):
            found.append(f"tests/{test.name}")
    return found


def copy_tracked(target: Path) -> None:
    """The repository's tracked files, as a clone has them."""
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for raw in names:
        if not raw:
            continue
        name = raw.decode()
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def undecorate(text: str) -> str:
    """The module with each decorated function of its top level or of a top-level class applied
    by hand after it (``f = a(b(f))`` for ``@a @b def f``): the same module, whose functions mutmut
    now mutates. mutmut 3.8 skips every decorated function, which left each ``@metric`` and
    ``@operator`` body and every property unmutated; the registry or the property now wraps
    mutmut's trampoline instead. Decorators run after the definition instead of before it, which
    changes nothing here. A cache (``lru_cache``, ``cache``) is dropped: the functions it holds are
    pure, and behind it only the first test to call one reached the trampoline."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    functions = [(node, "") for node in tree.body]
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            functions += [(child, " " * child.col_offset) for child in node.body]
    edits = []
    for node, indent in functions:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.decorator_list:
            continue
        if any(_decorator_name(d) in KEEP_DECORATED for d in node.decorator_list):
            continue
        applied = node.name
        for decorator in reversed(node.decorator_list):
            if _decorator_name(decorator) not in CACHES:
                applied = f"{ast.get_source_segment(text, decorator)}({applied})"
        first = min(d.lineno for d in node.decorator_list) - 1
        assignment = f"{indent}{node.name} = {applied}\n" if applied != node.name else ""
        edits.append((first, node.lineno - 1, node.end_lineno, assignment))
    for first, definition, end, assignment in sorted(edits, reverse=True):
        lines[end:end] = [assignment] if assignment else []
        del lines[first:definition]
    return "".join(lines)


def configure(work: Path, modules: list[str], tests: list[str]) -> None:
    """mutmut's settings in the copy's pyproject.toml."""
    # Every tracked top-level folder and file (a test may read README.md), as mutmut's own copy
    # holds only the mutated sources.
    copied = sorted(
        {
            p.split("/")[0]
            for p in subprocess.check_output(["git", "ls-files"], cwd=ROOT, text=True).splitlines()
        }
        - {"mutants", "pyproject.toml"}
    )
    settings = {
        "source_paths": modules,
        "also_copy": [*copied, "pyproject.toml"],
        "pytest_add_cli_args": [  # mutmut adds -x, -q and -p no:randomly itself
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "-p",
            "benchmarks.mutation_plugin",
            "-m",
            "not slow",
        ],
        "pytest_add_cli_args_test_selection": tests,
        # A fork server (tests collected, none run) forks each mutant's child, never mutmut's
        # parent: forked from a parent that ran polars, a child hangs on the lock of polars'
        # thread pool (scorer/summarize.py), POLARS_MAX_THREADS=1 or not. Every module, not only
        # those that import polars: their tests may run it (the judge's hung two children so).
        "process_isolation": "forkserver",
        "forkserver_warmup": "collect",
        # The fork server kills a child after half its CPU limit in wall time; on a shared,
        # loaded machine a niced child gets a tenth of a core, and mutmut's default (15) timed
        # out one mutant in two of the judge's.
        "timeout_multiplier": 100.0,
    }
    lines = ["", "[tool.mutmut]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    with (work / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def run_mutmut(work: Path, children: int, log: Path, only: tuple[str, ...] = ()) -> dict[str, str]:
    """Run mutmut in ``work`` (only the mutants matching ``only``'s fnmatch patterns when given);
    every mutant's status."""
    env = {**os.environ, "LOBSTACK_MUTATION_LOG": str(log), "PYTHONPATH": str(work / "mutants")}
    env.pop("VIRTUAL_ENV", None)
    run = ["uv", "run", "--quiet", "--with", MUTMUT, "mutmut"]
    # Made before mutmut starts: a sys.path entry that does not exist yet is cached as unusable.
    (work / "mutants").mkdir(exist_ok=True)
    with (work / "mutmut.log").open("wb") as out:  # its progress bar; the tail on failure
        done = subprocess.run(
            [*run, "run", "--max-children", str(children), *only],
            cwd=work,
            env=env,
            check=False,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    if done.returncode != 0:
        tail = (work / "mutmut.log").read_bytes()[-3000:].decode(errors="replace")
        raise SystemExit(f"mutmut failed ({done.returncode}):\n{tail}")
    return mutmut_results(work)


def mutmut_results(work: Path) -> dict[str, str]:
    """Every mutant's status, as mutmut recorded it in ``work``."""
    env = {**os.environ, "PYTHONPATH": str(work / "mutants")}
    env.pop("VIRTUAL_ENV", None)
    run = ["uv", "run", "--quiet", "--with", MUTMUT, "mutmut"]
    listed = subprocess.run(
        [*run, "results", "--all", "true"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    statuses = {}
    for line in listed.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            statuses[name] = status.strip()
    return statuses


def tally(
    statuses: dict[str, str], kills: dict[str, str], explained: dict[str, str]
) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    for name, status in sorted(statuses.items()):
        match = _NAME.match(name)
        t = tallies[match.group("module") if match else "?"]
        if status == "not checked":
            t.not_run += 1
            continue
        t.mutants += 1
        if status == "killed":
            if kills.get(name) == "assertion":
                t.assertion += 1
            elif explained.get(name, "").startswith("crash"):
                t.crash_only.append(name)
            elif name not in kills:
                t.unlogged.append(name)
            else:
                t.crash += 1
        elif status == "timeout":
            # A mutant that hangs wherever it differs, like one that raises, returns no value
            # to check: explained as ``hang:``, it leaves the denominator with the ``crash:`` ones.
            if explained.get(name, "").startswith("hang"):
                t.crash_only.append(name)
            else:
                t.timeout += 1
        elif status == "no tests":
            t.untested += 1
            t.survived.append(name)
        else:
            reason = explained.get(name, "")
            if reason.startswith("equivalent"):
                t.equivalent.append(name)
            elif reason.startswith("accepted"):
                t.accepted.append(name)
            else:
                t.survived.append(name)
    return dict(tallies)


def render(tallies: dict[str, Tally], explained: dict[str, str]) -> str:
    rows = [
        "| module | mutants | killed by assertion | by crash only | crash, no value to check | "
        "killed, way not logged | timeout | no test | equivalent | accepted | survived | strict "
        "| score |",
        "|---|" + "---:|" * 12,
    ]
    for module, t in sorted(tallies.items()):
        score = "-" if t.score is None else f"{t.score:.1f}%"
        strict = "-" if t.strict is None else f"{t.strict:.1f}%"
        rows.append(
            f"| {module} | {t.mutants} | {t.assertion} | {t.crash} | {len(t.crash_only)} | "
            f"{len(t.unlogged)} | {t.timeout} | "
            f"{t.untested} | {len(t.equivalent)} | {len(t.accepted)} | "
            f"{len(t.survived)} | {strict} | {score} |"
        )
    lines = ["\n".join(rows), ""]
    lines += [
        f"{module}: {t.not_run} mutants not run (a run stopped early), out of every figure"
        for module, t in sorted(tallies.items())
        if t.not_run
    ]
    for _module, t in sorted(tallies.items()):
        for name in t.crash_only + t.equivalent + t.accepted:
            lines.append(f"{name}: {explained[name]}")
        for name in t.survived:
            lines.append(f"{name}: survived (no reason given: a test should kill it)")
    return "\n".join(lines)


def _kills(log: Path) -> dict[str, str]:
    """How each mutant was killed, from the plugin's log: a kill by assertion wins."""
    kills: dict[str, str] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if kills.get(entry["mutant"]) != "assertion":
            kills[entry["mutant"]] = entry["kind"]
    return kills


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module paths (default: MODULES)")
    parser.add_argument("--all", action="store_true", help="every scorer module, and MODULES")
    parser.add_argument("--children", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 when a scorer module is below {GOAL}%%"
    )
    parser.add_argument("--json", type=Path, help="also write the tallies as JSON here")
    parser.add_argument("--keep", type=Path, help="work in this new dir and keep it (mutmut.log)")
    parser.add_argument(
        "--tests", nargs="+", help="these test files instead of those found by tests_for"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        default=(),
        help="run only the mutants matching these fnmatch patterns (mutmut's names, such as "
        "'scorer.summary.x*nothing_scored*'); the others count as not run",
    )
    parser.add_argument(
        "--tally",
        type=Path,
        help="count again the run kept in this dir (after mutation_survivors.json changed)",
    )
    args = parser.parse_args(argv)
    modules = list(args.modules) or list(MODULES)
    if args.all:
        scorer = sorted(
            str(p.relative_to(ROOT))
            for p in (ROOT / "scorer").rglob("*.py")
            if p.name != "__init__.py"
        )
        modules = sorted(set(modules) | set(scorer) | set(MODULES))
    explained = json.loads(SURVIVORS.read_text(encoding="utf-8")) if SURVIVORS.exists() else {}
    with tempfile.TemporaryDirectory(prefix="lobstack-mutation-") as tmp:
        work = Path(args.tally or args.keep or tmp)
        log = work / "kills.jsonl"
        if args.tally:
            statuses = mutmut_results(work)
        else:
            tests = list(args.tests or tests_for(modules))
            copy_tracked(work)
            for module in modules:
                copy = work / module
                copy.write_text(undecorate(copy.read_text(encoding="utf-8")), encoding="utf-8")
            configure(work, modules, tests)
            log.touch()
            print(
                f"mutating {len(modules)} module(s) against {len(tests)} test file(s)...",
                file=sys.stderr,
            )
            statuses = run_mutmut(work, args.children, log, tuple(args.only))
        kills = _kills(log)
    tallies = tally(statuses, kills, explained)
    print(render(tallies, explained))
    if args.json:
        args.json.write_text(
            json.dumps(
                {m: {**vars(t), "score": t.score, "strict": t.strict} for m, t in tallies.items()},
                indent=2,
                sort_keys=True,
            )
            + "\n",
            encoding="utf-8",
        )
    below = [m for m, t in tallies.items() if m.startswith("scorer.") and (t.score or 0) < GOAL]
    if args.check and below:
        print(f"below {GOAL}%: {', '.join(sorted(below))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
