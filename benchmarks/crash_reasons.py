"""Each ``crash:`` reason of benchmarks/mutation_survivors.json beside its mutant's current diff,
for reading them again (no test runs: mutmut's own generation only, in a second or so a module).

    uv run --with mutmut==3.8.1 python benchmarks/crash_reasons.py                 # every module
    uv run --with mutmut==3.8.1 python benchmarks/crash_reasons.py scorer.wire.streams --flagged
    uv run --with mutmut==3.8.1 python benchmarks/crash_reasons.py --nones      # None reasons
    uv run --with mutmut==3.8.1 python benchmarks/crash_reasons.py --callers --flagged  # catches

Prints ``== key [flags]``, the reason and the diff's changed lines; a key whose mutant no longer
exists is flagged ``gone`` (a line moved renumbers a function's mutants). The flags point at the
reasons most often wrong: ``look-alike`` (a literal mutated to ``XX..XX`` or upper case, read from
a dict: right only when the data can never hold that key, not for free JSON such as a provider's
body, a tool's schema or a suite document), ``and/or`` and ``compare`` (a swapped operator: right
only when every input where it differs raises). ``--flagged`` prints only those.

``--nones`` flags instead the reasons of an argument replaced by None or dropped where the callee
accepts that (``none-ok``: a known library call whose parameter takes None or has a default, e.g.
``dict.get(k, None)``, ``sorted(key=None)``, ``json.dumps(sort_keys=None)``, ``str.split(None)``;
or the module's own function whose ``inspect.signature`` has a default there), and of a value
replaced by None whose next use is a truth or None test (``none-test``: ``if x``, ``x or y``,
``x is None``), where None is a legitimate value rather than a crash.

``--callers`` lists instead the reasons that name a ValueError, IndexError or LookupError, or a
subclass (KeyError, UnicodeDecodeError, JSONDecodeError, numpy's AxisError, binascii.Error, ...),
or re.error, each with the ways up from its function through the product's callers
(benchmarks/crash_callers.py): ``caught: f <- caller:line [except X -> what catches Y]`` where a
``try`` on the way catches a class the reason says is raised (or a base of it), ``end:``/``top:``
/``ref:`` where a way ends uncaught. The flags say what the catching handler does: ``caught:
handled`` (a value, a skip, a message in the input's terms: the reason is wrong unless the
mutant raises first), ``caught:raise`` (another error that ends the command: an error line),
``caught:reports`` (replay's ``cannot be scored (IndexError: ...)`` line: the crash itself,
named), ``own`` (the mutated line in a ``try`` of its own function whose handler handles it).
``--flagged`` prints only those with a flag other than ``caught:reports``; ``--skip PREFIX
...`` leaves modules out.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import inspect
import io
import json
import os
import re
import sys
import tempfile
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT)]

import crash_callers  # noqa: E402
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


# library calls whose parameter takes None (by keyword, or by position counted from 0 after the
# receiver) or has a default, so None there or a dropped argument need not raise
NONE_OK_KEYWORDS = {
    "sort_keys", "indent", "default", "separators", "ensure_ascii", "allow_nan", "key",
    "reverse", "dtype", "encoding", "errors", "newline", "ndigits", "sep", "maxsplit", "cls",
    "object_hook", "object_pairs_hook", "parse_constant", "parse_float", "parse_int", "strict",
    "check_circular", "skipkeys", "end", "file", "flush", "start", "stop", "copy", "order",
    "axis", "out", "ddof", "flags", "count", "fillvalue", "initial", "where",
}  # fmt: skip
NONE_OK_POSITIONS = {
    "get": {1}, "pop": {1}, "setdefault": {1}, "next": {1}, "getattr": {2}, "split": {0, 1},
    "rsplit": {0, 1}, "strip": {0}, "lstrip": {0}, "rstrip": {0}, "round": {1}, "sorted": {1},
    "max": set(), "min": set(), "asarray": {1}, "array": {1}, "open": {1, 2, 3, 4}, "print": set(),
    "dumps": set(), "dump": set(), "loads": set(), "range": set(), "slice": {0, 1, 2},
    "enumerate": {1}, "sum": {1}, "int": set(), "zip": set(), "iter": set(), "dict": {0},
    "isinstance": set(), "translate": {1}, "fromkeys": {1}, "format": set(), "replace": set(),
}  # fmt: skip
# positions where a dropped argument leaves a call that still runs (a default exists)
DROP_OK_POSITIONS = {
    "get": {1}, "pop": {1}, "setdefault": {1}, "next": {1}, "getattr": {2}, "split": {0, 1},
    "rsplit": {0, 1}, "strip": {0}, "lstrip": {0}, "rstrip": {0}, "round": {1}, "sorted": {1},
    "asarray": {1}, "array": {1}, "open": {1, 2, 3, 4}, "enumerate": {1}, "sum": {1},
    "int": {0, 1}, "str": {0, 1, 2}, "float": {0}, "bool": {0}, "list": {0}, "tuple": {0},
    "dict": {0}, "set": {0}, "frozenset": {0}, "encode": {0, 1}, "decode": {0, 1},
    "translate": {1}, "replace": {2}, "startswith": {1, 2}, "endswith": {1, 2}, "find": {1, 2},
    "index": {1, 2}, "count": {1, 2}, "join": set(), "range": {1, 2}, "isclose": set(),
    "fromkeys": {1}, "print": {0, 1, 2, 3}, "max": set(), "min": set(), "zip": {0, 1, 2},
    "decompressobj": {0, 1}, "decompress": {1}, "compile": {1}, "sub": {3, 4}, "search": {2},
    "match": {2}, "fullmatch": {2}, "findall": {2}, "finditer": {2},
}  # fmt: skip
NONE_TEST = (
    r"(\b(if|while|elif)\s+(not\s+)?{x}\s*:|\b{x}\s+(or|and)\b|\b(or|and|not)\s+{x}\s*($|[:),\]])"
    r"|\b{x}\s+is\b|\bif\s+(not\s+)?{x}\s+else\b|\bbool\({x}\)"
    # uses None passes without raising: compared for equality, formatted, a member sought
    r"|\b{x}\s*[!=]=|[!=]=\s*{x}\b(?!\s*[\[.(])|\{{{x}(!r)?\}}|\b(str|repr|isinstance)\({x}\b(?!\s*[\[.(])"
    r"|\b{x}\s+(not\s+)?in\b)"
)


def _calls(text: str) -> list[tuple[str, int, int, int]]:
    """Each call ``(name, open, close, argument start...)`` of one line: the last dotted name
    before ``(``, its paren's offsets; unclosed calls close at the line's end."""
    out, stack = [], []
    for i, ch in enumerate(text):
        if ch in "([{":
            m = re.search(r"([A-Za-z_][\w.]*)\s*$", text[:i]) if ch == "(" else None
            stack.append((m.group(1) if m else "", i))
        elif ch in ")]}" and stack:
            name, start = stack.pop()
            out.append((name, start, i, 0))
    out += [(name, start, len(text), 0) for name, start in stack]
    return out


def _arguments(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The top-level argument spans of the call whose parens are at ``start``..``end``."""
    spans, depth, begin, quote = [], 0, start + 1, ""
    for i in range(start + 1, end):
        ch = text[i]
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            spans.append((begin, i))
            begin = i + 1
    if text[begin:end].strip():
        spans.append((begin, end))
    return spans


def _where(text: str, pos: int) -> tuple[str, int | str] | None:
    """The innermost call around offset ``pos``: (callee, position or keyword of that argument)."""
    around = [c for c in _calls(text) if c[1] < pos <= c[2] and c[0]]
    if not around:
        return None
    name, start, end, _ = max(around, key=lambda c: c[1])
    for index, (a, b) in enumerate(_arguments(text, start, end)):
        if a <= pos <= b:
            kw = re.match(r"\s*(\w+)\s*=(?!=)", text[a:b])
            return name, kw.group(1) if kw else index
    return name, -1


def _masked(code: str) -> str:
    """``code`` with its strings and comments blanked (same offsets), so their brackets and
    commas are not read as code."""
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out = list(code)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type in (tokenize.STRING, tokenize.COMMENT):
                a = starts[tok.start[0] - 1] + tok.start[1]
                b = starts[tok.end[0] - 1] + tok.end[1]
                out[a:b] = ["_" if c != "\n" else c for c in code[a:b]]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return "".join(out)


def _own(module: str, name: str, cls: str = ""):
    """The module's own function ``name`` (a bare or ``module.attr`` name, or ``self.attr`` of
    class ``cls``), or None."""
    try:
        target = importlib.import_module(module)
        if name.startswith("self."):
            target, name = getattr(target, cls), name[5:]
        for part in name.split("."):
            target = getattr(target, part)
        home = getattr(target, "__module__", None) or ""
        # a library's C function may have a default and still refuse None: the tables decide
        if home.split(".")[0] not in {"scorer", "recorder", "replay", "fileio", "lobstack_eval"}:
            return None
        return inspect.signature(target)
    except (ImportError, AttributeError, TypeError, ValueError):
        return None


def _accepts(module: str, name: str, where: int | str, dropped: bool, cls: str = "") -> bool:
    """Whether the callee takes None (or nothing, if ``dropped``) for that argument."""
    leaf = name.rsplit(".", 1)[-1]
    sig = _own(module, name, cls) if cls or not name.startswith("self.") else None
    if sig is not None and name.startswith("self.") and isinstance(where, int):
        where += 1  # the method's own ``self`` comes first
    if sig is not None:
        params = list(sig.parameters.values())
        if isinstance(where, str):
            param = sig.parameters.get(where)
        else:
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            positional = [p for p in params if p.kind in kinds]
            param = positional[where] if 0 <= where < len(positional) else None
        if param is not None:
            if param.default is not param.empty:
                return True
            annotation = str(param.annotation)
            return not dropped and ("None" in annotation or "Optional" in annotation)
    if isinstance(where, str):
        return where in NONE_OK_KEYWORDS
    table = DROP_OK_POSITIONS if dropped else NONE_OK_POSITIONS
    return where in table.get(leaf, set())


def none_flags(
    module: str, minus: list[str], plus: list[str], code: str, cls: str = ""
) -> list[str]:
    """``none-ok`` / ``none-test`` (see the module's docstring) for one mutant's changed line,
    its call found in the whole function ``code`` (a call may span lines)."""
    if len(minus) != 1 or len(plus) != 1:
        return []
    old, new = minus[0], plus[0]
    base, text = code.find(old), _masked(code)
    common = 0
    while common < min(len(old), len(new)) and old[common] == new[common]:
        common += 1
    found = []
    assigned = re.match(r"(\w+)\s*(:[^=]*)?=\s*None\s*(#.*)?$", new)
    if assigned and not re.match(r"\w+\s*(:[^=]*)?=\s*None\b", old):
        name = assigned.group(1)
        after = code.split(old, 1)[-1] if old in code else ""
        uses = [line for line in after.split("\n") if re.search(rf"\b{name}\b", line)]
        if uses and re.search(NONE_TEST.format(x=re.escape(name)), uses[0]):
            found.append("none-test")
    elif new[common:].startswith("None") and not old[common:].startswith("None"):
        where = _where(text, base + common) if base >= 0 else _where(new, common)
        if where and _accepts(module, where[0], where[1], False, cls):
            found.append(f"none-ok {where[0]}[{where[1]}]")
    elif len(new) < len(old):
        cut = len(old) - len(new)
        at = next((j for j in range(common, -1, -1) if old[:j] + old[j + cut :] == new), None)
        inside = [] if at is None else [j for j in range(at, at + cut) if old[j] not in ", "]
        where = None
        if inside:
            where = _where(text, base + inside[0]) if base >= 0 else _where(old, inside[0])
        if where and _accepts(module, where[0], where[1], True, cls):
            found.append(f"none-ok {where[0]}[{where[1]}] dropped")
    return found


def diffs(
    module: str, keys: list[str], codes: dict[str, str] | None = None
) -> dict[str, list[str] | None]:
    """The changed lines (``-old``, ``+new``) of each mutant of ``module`` named in ``keys``
    (and, into ``codes``, each one's unmutated function text)."""
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
        if codes is not None:
            codes[key] = "\n".join(old)
        lines = difflib.unified_diff(old, new, lineterm="", n=0)
        out[key] = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return out


AUDITED = (ValueError, IndexError, LookupError, re.error)
ERROR_NAME = re.compile(r"\b((?:[a-z]+\.)?[A-Za-z]*(?:Error|error|Exception))\b")


# a class named as not raised: "(not the ValueError caught)", "it is no ValueError", "catches X"
NEGATED = re.compile(
    r"\(not [^)]*\)|\b(?:not|no|neither|nor)\s+(?:the\s+|a\s+|an\s+)?[\w.]+"
    r"|\bcatch(?:es|ing)?\s+[^;:,.)]*"
)


def raised_classes(reason: str, positive: bool = False) -> list[type]:
    """The exception classes a reason names, when one of them is a ValueError, IndexError or
    LookupError (or a subclass) or re.error; else nothing. ``positive``: only those it says
    are raised (not those named as not raised or as caught), whatever their class."""
    found = []
    if positive:
        reason = NEGATED.sub("", reason)
    for name in dict.fromkeys(ERROR_NAME.findall(reason)):
        cls = crash_callers.resolve(name)
        if cls is not None and issubclass(cls, BaseException) and cls not in found:
            found.append(cls)
    return found if positive or any(issubclass(c, AUDITED) for c in found) else []


def caller_flags(
    mods: dict, module: str, key: str, reason: str, minus: list[str], codes: dict[str, str]
) -> tuple[list[str], list[str]]:
    """(flags, ways up) of one reason for ``--callers``."""
    short = key[len(module) + 1 :].rsplit("__mutmut_", 1)[0]
    qual = ".".join(short[2:].split("ǁ")) if short.startswith("xǁ") else short[2:]
    raised = raised_classes(reason, positive=True)
    own = crash_callers.own_catch(codes.get(key, ""), minus[0], module, raised) if minus else []
    ways = [f"own: {h}" for h in own] + crash_callers.chains(mods, module, qual, raised)
    kinds = [k for k in ("handled", "raise", "reports") if any(
        w.startswith("caught") and f"-> {k}" in w for w in ways)]  # fmt: skip
    found = ["own"] if any("-> handled" in h for h in own) else []
    return found + [f"caught:{k}" for k in kinds], ways


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", help="dotted module names (default: every one)")
    parser.add_argument("--flagged", action="store_true", help="only the flagged reasons")
    parser.add_argument(
        "--nones", action="store_true", help="only None/dropped-argument reasons flagged"
    )
    parser.add_argument(
        "--callers", action="store_true", help="ValueError/IndexError/LookupError reasons' callers"
    )
    parser.add_argument("--skip", nargs="*", default=[], help="module prefixes to leave out")
    args = parser.parse_args(argv)
    reasons = json.loads((ROOT / "benchmarks/mutation_survivors.json").read_text("utf-8"))
    crash = {k: v for k, v in reasons.items() if v.startswith("crash:")}
    if args.callers:
        crash = {k: v for k, v in crash.items() if raised_classes(v)}
    crash = {k: v for k, v in crash.items() if not k.startswith(tuple(args.skip))}
    modules = args.modules or sorted({k.split(".x", 1)[0] for k in crash})
    mods = crash_callers.index() if args.callers else {}
    # mutmut reads its settings from the working directory's pyproject.toml
    with tempfile.TemporaryDirectory() as work:
        Path(work, "pyproject.toml").write_text('[tool.mutmut]\nsource_paths = ["."]\n')
        os.chdir(work)
        for module in modules:
            keys = sorted(k for k in crash if k.startswith(module + ".x"))
            codes: dict[str, str] = {}
            for key, lines in diffs(module, keys, codes).items():
                minus = [line[1:].strip() for line in lines or [] if line.startswith("-")]
                plus = [line[1:].strip() for line in lines or [] if line.startswith("+")]
                if args.callers:
                    found, ways = caller_flags(mods, module, key, crash[key], minus, codes)
                    if (found and found != ["caught:reports"]) or not args.flagged:
                        print(f"== {key} {found}\n   {crash[key]}")
                        print("\n".join(f"   {line}" for line in lines or []))
                        print("\n".join(f"   > {way}" for way in ways))
                    continue
                if args.nones:
                    cls = key.split("ǁ")[1] if "ǁ" in key else ""
                    found = (
                        [] if lines is None else none_flags(module, minus, plus, codes[key], cls)
                    )
                else:
                    found = ["gone"] if lines is None else flags(minus, plus)
                if found or not (args.flagged or args.nones):
                    print(f"== {key} {found}\n   {crash[key]}")
                    print("\n".join(f"   {line}" for line in lines or []))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
