"""Each ``crash:`` reason of benchmarks/mutation_survivors.json beside its mutant's current diff,
for reading them again (no test runs: mutmut's own generation only, in a second or so a module).

    uv run --with mutmut==3.8.1 python benchmarks/crash_reasons.py                 # every module
    uv run --with mutmut==3.8.1 python benchmarks/crash_reasons.py scorer.wire.streams --flagged

Prints ``== key [flags]``, the reason and the diff's changed lines; a key whose mutant no longer
exists is flagged ``gone`` (a line moved renumbers a function's mutants). The flags point at the
reasons most often wrong: ``look-alike`` (a literal mutated to ``XX..XX`` or upper case, read from
a dict: right only when the data can never hold that key, not for free JSON such as a provider's
body, a tool's schema or a suite document), ``and/or`` and ``compare`` (a swapped operator: right
only when every input where it differs raises). ``--flagged`` prints only those.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from mutation import undecorate  # noqa: E402  (the benchmark's own module text)

LOOK_ALIKE = re.compile(r"""["'](XX[^"']*XX|[A-Z_$]*[A-Z][A-Z0-9_$-]*)["']""")
COMPARE = re.compile(r"(<=|>=|==|!=|<|>|\bis not\b|\bis\b|\bnot in\b|\bin\b)")


def flags(minus: list[str], plus: list[str]) -> list[str]:
    """Why a changed line deserves a second reading (see the module's docstring)."""
    if not minus or not plus:
        return []
    old, new = minus[0], plus[0]
    found = []
    if LOOK_ALIKE.search(new) and not LOOK_ALIKE.search(old) and re.search(r"\[|\.get\(", new):
        found.append("look-alike")
    if old != new and re.sub(r"\b(and|or)\b", "", old) == re.sub(r"\b(and|or)\b", "", new):
        found.append("and/or")
    if old != new and COMPARE.sub("@", old) == COMPARE.sub("@", new):
        found.append("compare")
    return found


def diffs(module: str, keys: list[str]) -> dict[str, list[str] | None]:
    """The changed lines (``-old``, ``+new``) of each mutant of ``module`` named in ``keys``."""
    import libcst as cst
    from mutmut.mutation.diff_apply import read_mutant_function, read_original_function
    from mutmut.mutation.file_mutation import mutate_file_contents

    path = ROOT / (module.replace(".", "/") + ".py")
    mutated = mutate_file_contents(str(path), undecorate(path.read_text(encoding="utf-8")))
    tree, names = cst.parse_module(mutated.code), set(mutated.mutant_names)
    out: dict[str, list[str] | None] = {}
    for key in keys:
        short = key[len(module) + 1 :]
        if short not in names:
            out[key] = None
            continue
        old, new = (
            cst.Module([f(tree, short)]).code.strip().split("\n")
            for f in (read_original_function, read_mutant_function)
        )
        lines = difflib.unified_diff(old, new, lineterm="", n=0)
        out[key] = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", help="dotted module names (default: every one)")
    parser.add_argument("--flagged", action="store_true", help="only the flagged reasons")
    args = parser.parse_args(argv)
    reasons = json.loads((ROOT / "benchmarks/mutation_survivors.json").read_text("utf-8"))
    crash = {k: v for k, v in reasons.items() if v.startswith("crash:")}
    modules = args.modules or sorted({k.split(".x", 1)[0] for k in crash})
    # mutmut reads its settings from the working directory's pyproject.toml
    with tempfile.TemporaryDirectory() as work:
        Path(work, "pyproject.toml").write_text('[tool.mutmut]\nsource_paths = ["."]\n')
        os.chdir(work)
        for module in modules:
            keys = sorted(k for k in crash if k.startswith(module + ".x"))
            for key, lines in diffs(module, keys).items():
                minus = [line[1:].strip() for line in lines or [] if line.startswith("-")]
                plus = [line[1:].strip() for line in lines or [] if line.startswith("+")]
                found = ["gone"] if lines is None else flags(minus, plus)
                if found or not args.flagged:
                    print(f"== {key} {found}\n   {crash[key]}")
                    print("\n".join(f"   {line}" for line in lines or []))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
