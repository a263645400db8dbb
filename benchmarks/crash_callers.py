"""Who catches a mutant's raise on the way up: the product callers of a mutated function, read
from the source (the callers' modules are imported only to resolve their handlers' class
names), for benchmarks/crash_reasons.py ``--callers``.

A ``crash:`` reason is honest only when the raise reaches the user (benchmarks/README.md, the
column definitions): where a product caller's ``try`` catches the class the reason names (or a
base of it: ValueError catches JSONDecodeError and UnicodeDecodeError, LookupError catches
IndexError and KeyError, Exception catches all), the mutant may give a value, an error line or
skip an item instead. This module finds, for a function, every call of it in scorer/,
recorder/, replay/, lobstack_eval/, pytest_lobstack/ and fileio/ (by name: a bare call in its
own module or where it is imported, ``module.name(...)`` where its module is imported, and for a
method or property any ``.name`` in a module that imports its module), then the callers of those
callers, up to ``DEPTH`` calls up, and says at which call a ``try`` (or ``contextlib.suppress``)
catches the class, and what its handler does (``_handler_text``); a handler that ends in a bare
``raise`` passes the error on and does not count. The mutated line itself inside a ``try`` of
its own function counts too (``own_catch``). A function passed as a value (a registry, a
callback, a pool's task) is marked ``(ref)`` and followed up from the function that passes it
(the call happens inside what it is passed to); at module level (a registry) the way ends,
listed as ``ref:``. A handler that raises another error is followed up with that error (a
caller may handle it: recorder/answer_read.py turns a ValueError into a MalformedResponse, which
``read_body`` turns into a problem). Name-based: it may list a call of a namesake (read the
site) and misses a call through a variable; a library's frames between (vcrpy, urllib3, polars,
jsonschema) are not read.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scorer", "recorder", "replay", "lobstack_eval", "pytest_lobstack", "fileio")
DEPTH = 8
# classes a reason names that are not builtins: where they live
NAMED = {
    "JSONDecodeError": "json.JSONDecodeError",
    "AxisError": "numpy.exceptions.AxisError",
    "re.error": "re.error",
    "binascii.Error": "binascii.Error",
    "zlib.error": "zlib.error",
    "StatisticsError": "statistics.StatisticsError",
    "ColumnNotFoundError": "polars.exceptions.ColumnNotFoundError",
    "PatternError": "scorer.patterns.PatternError",
    "YamlSuiteError": "scorer.suite.yaml_file.YamlSuiteError",
    "MalformedResponse": "scorer.wire.response.MalformedResponse",
    "NotStrictJson": "scorer.strict_json.NotStrictJson",
    "NotStrictFile": "scorer.strict_json.NotStrictFile",
}


def resolve(dotted: str, module: str = "") -> type | tuple | None:
    """The exception class a dotted name means (a builtin, one of ``NAMED``, or a name of
    ``module``'s namespace: there a tuple of classes, or a call of no argument returning one, as
    replay's ``UNFORESEEN`` or ``polars_errors()``), or None."""
    if hasattr(builtins, dotted) and isinstance(getattr(builtins, dotted), type):
        return getattr(builtins, dotted)
    dotted = NAMED.get(dotted, dotted)
    candidates = [dotted.rsplit(".", 1)] if "." in dotted else []
    for home, name in candidates:
        try:
            cls = getattr(importlib.import_module(home), name)
            return cls if isinstance(cls, type) else None
        except (ImportError, AttributeError):
            pass
    if module:
        try:
            target = importlib.import_module(module)
            for part in dotted.removesuffix("()").split("."):
                target = getattr(target, part)
            target = target() if dotted.endswith("()") else target
            return target if isinstance(target, type | tuple) else None
        except (ImportError, AttributeError, TypeError):
            return None
    return None


@dataclass
class Site:
    """One call (or reference) of a function: where, and the handlers around it."""

    module: str
    function: str  # qualified name in the module; "" at module level
    line: int
    # (handler text, class expressions), innermost first; a handler that ends in a bare
    # ``raise`` passes the error on and is left out
    handlers: list[tuple[str, list[str]]]
    ref: bool = False
    slot: str = ""  # a reference given as ``slot=f`` or ``{"slot": f}`` (a registry's field)


@dataclass
class Module:
    """A product module's functions, imports and calls."""

    name: str
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # alias -> (module, attr)
    functions: dict[str, ast.AST] = field(default_factory=dict)
    sites: list[tuple[ast.AST, Site]] = field(default_factory=list)


# what a handler does with the error, by kind (``catching`` flags only ``handled``)
REPORTS = ("unforeseen(", "reply = (False, exc)")  # the crash as one line, or sent on to the parent


def _handler_text(handler: ast.ExceptHandler) -> str:
    """``except X`` and what it does: ``-> raise Y`` (another error ends the command: an error
    line at the CLI), ``-> reports`` (replay's ``unforeseen`` line, ``cannot be scored
    (IndexError: ...)``, the crash itself named as a bug, or a worker's error sent on to the
    parent, which raises it) or ``-> handled`` (a value, a skip, a message in the input's
    terms: the mutant changes behaviour)."""
    body = ast.unparse(handler)
    raises = [n for n in ast.walk(handler) if isinstance(n, ast.Raise) and n.exc is not None]
    if any(mark in body for mark in REPORTS):
        does = "reports"
    else:
        does = f"raise {ast.unparse(raises[0].exc)[:60]}" if raises else "handled"
    return f"except {ast.unparse(handler.type) if handler.type else ''} -> {does}"


def _passes_on(handler: ast.ExceptHandler) -> bool:
    """A handler whose last statement is a bare ``raise`` (clean-up, then the same error)."""
    last = handler.body[-1]
    return isinstance(last, ast.Raise) and last.exc is None


def _handler_types(handler: ast.ExceptHandler) -> list[str]:
    if handler.type is None:
        return ["BaseException"]
    elts = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return [ast.unparse(e) for e in elts]


class _Walker(ast.NodeVisitor):
    def __init__(self, mod: Module) -> None:
        self.mod, self.scope, self.handlers, self.slots = mod, [], [], {}

    def _function(self, node: ast.AST) -> None:
        qual = ".".join([*self.scope, node.name])
        self.mod.functions[qual] = node
        self.scope.append(node.name)
        saved, self.handlers = self.handlers, []
        self.generic_visit(node)
        self.scope.pop()
        self.handlers = saved

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_Try(self, node: ast.Try) -> None:
        caught = [(_handler_text(h), _handler_types(h)) for h in node.handlers
                  if not _passes_on(h)]  # fmt: skip
        self.handlers = [*caught, *self.handlers]
        for stmt in node.body:
            self.visit(stmt)
        self.handlers = self.handlers[len(caught) :]
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    visit_TryStar = visit_Try

    def visit_With(self, node: ast.With) -> None:
        caught = []
        for item in node.items:
            call = item.context_expr
            if isinstance(call, ast.Call) and ast.unparse(call.func).endswith("suppress"):
                caught.append((ast.unparse(call), [ast.unparse(a) for a in call.args]))
        self.handlers = [*caught, *self.handlers]
        self.generic_visit(node)
        self.handlers = self.handlers[len(caught) :]

    def _site(self, node: ast.AST, ref: bool = False) -> None:
        site = Site(self.mod.name, ".".join(self.scope), node.lineno, list(self.handlers), ref)
        site.slot = self.slots.get(id(node), "") if ref else ""
        self.mod.sites.append((node, site))

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg:
            self.slots[id(node.value)] = node.arg
        self.visit(node.value)

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                self.slots[id(value)] = key.value
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self._site(node.func)
        self.visit(node.func) if not isinstance(node.func, (ast.Name, ast.Attribute)) else None
        if isinstance(node.func, ast.Attribute):
            self.visit(node.func.value)
        for part in (*node.args, *node.keywords):
            self.visit(part)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._site(node, ref=True)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            self._site(node, ref=True)
        self.visit(node.value)


def _imports(mod: Module, tree: ast.Module) -> None:
    package = mod.name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                mod.imports[a.asname or a.name.split(".")[0]] = (a.name, "")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = mod.name.split(".")[: -node.level]
                base = ".".join([*parts, *([base] if base else [])])
            for a in node.names:
                mod.imports[a.asname or a.name] = (base, a.name)
    del package


def index() -> dict[str, Module]:
    """Every product module, parsed once."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            name = name.removesuffix(".__init__")
            tree = ast.parse(path.read_text(encoding="utf-8"))
            mod = Module(name)
            _imports(mod, tree)
            _Walker(mod).visit(tree)
            out[name] = mod
    return out


def _origin(mods: dict[str, Module], module: str, name: str, seen: int = 0) -> tuple[str, str]:
    """Where ``name`` imported into ``module`` is defined (following re-exports)."""
    mod = mods.get(module)
    if mod is None or seen > 5 or name not in mod.imports or name in mod.functions:
        return module, name
    home, attr = mod.imports[name]
    if not attr:
        return home, ""
    if f"{home}.{attr}" in mods:  # ``from package import module``
        return f"{home}.{attr}", ""
    return _origin(mods, home, attr, seen + 1)


def _matches(mods: dict[str, Module], node: ast.AST, site: Site, target: str, name: str,
             method: bool) -> bool:  # fmt: skip
    """Whether the call/reference ``node`` at ``site`` means ``target``'s ``name``."""
    if isinstance(node, ast.Name):
        return not method and _origin(mods, site.module, node.id) == (target, name)
    if isinstance(node, ast.Attribute) and node.attr == name:
        if method:
            imported = {m for m, _ in mods[site.module].imports.values()} | {
                f"{m}.{a}" for m, a in mods[site.module].imports.values()
            }
            return site.module == target or target in imported
        if isinstance(node.value, ast.Name):
            return _origin(mods, site.module, node.value.id) == (target, "")
    return False


_BY_NAME: dict[int, dict[str, list[tuple[ast.AST, Site]]]] = {}


def _by_name(mods: dict[str, Module]) -> dict[str, list[tuple[ast.AST, Site]]]:
    """Every site keyed by the name it reads (a bare name or an attribute's), built once."""
    if id(mods) not in _BY_NAME:
        table: dict[str, list[tuple[ast.AST, Site]]] = {}
        for mod in mods.values():
            for node, site in mod.sites:
                key = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
                table.setdefault(key, []).append((node, site))
        _BY_NAME[id(mods)] = table
    return _BY_NAME[id(mods)]


def callers(mods: dict[str, Module], target: str, qual: str) -> list[Site]:
    """Every product site that calls or refers to ``target``'s function ``qual``
    (``Class.method`` for a method or property: any ``.method`` read counts as a call)."""
    method = "." in qual
    name = qual.rsplit(".", 1)[-1]
    table = _by_name(mods)
    names = {name} | {
        alias for mod in mods.values() for alias, (_m, attr) in mod.imports.items() if attr == name
    }
    out = []
    for key in names:
        for node, site in table.get(key, []):
            if site.module == target and site.function == qual:
                continue  # its own recursion
            if _matches(mods, node, site, target, name, method):
                out.append(Site(**{**site.__dict__, "ref": site.ref and not method}))
    # a call is both a call site and a reference of its func: keep the call
    calls = {(s.module, s.function, s.line) for s in out if not s.ref}
    return [s for s in out if not s.ref or (s.module, s.function, s.line) not in calls]


def catching(site: Site, raised: list[type]) -> list[str]:
    """The handlers around ``site`` that catch one of ``raised``: ``"except X (catches Y)"``."""
    found = []
    for text, types in site.handlers:
        for expr in types:
            cls = resolve(expr, site.module)
            hit = [r.__name__ for r in raised if cls is not None and issubclass(r, cls)]
            if cls is None and expr not in NAMED:
                hit = [f"{r.__name__}?" for r in raised if expr.split(".")[-1] in
                       [c.__name__ for c in r.__mro__]]  # fmt: skip
            if hit:
                found.append(f"{text} catches {'/'.join(hit)}")
                break
    return found


def chains(mods: dict[str, Module], target: str, qual: str, raised: list[type]) -> list[str]:
    """The ways up from ``target.qual``: each ends in a catch (``caught: a <- b:line [except
    ...]``), at module level (``ref:``/``top:``), at a function no product code calls by name
    (``end:``, an entry point: a command, a test hook, a registry's member), or ``DEPTH`` calls
    up (unlisted)."""
    out, seen = [], set()
    todo = [(target, qual, [f"{target}.{qual}"], raised)]
    while todo:
        module, function, path, raised = todo.pop(0)
        sites = callers(mods, module, function)
        if not sites and len(path) > 1:
            out.append(f"end: {' <- '.join(path)}")  # no caller found: an entry point
        for site in sites:
            where = f"{site.module}.{site.function or '<module>'}:{site.line}"
            where += " (ref)" if site.ref else ""
            caught = catching(site, raised)
            other = re.match(r".*-> raise ([\w.]+)", caught[0]) if caught else None
            again = resolve(other.group(1), site.module) if other else None
            if isinstance(again, type) and site.function and len(path) < DEPTH:
                # turned into another error: follow that one up (a caller may handle it)
                todo.append((site.module, site.function, [*path, f"{where} => {other.group(1)}"],
                             [again]))  # fmt: skip
            elif caught:
                out.append(f"caught: {' <- '.join([*path, where])} [{'; '.join(caught)}]")
            elif not site.function and function.startswith("*."):
                continue  # the registry's other entries, not reads of the field
            elif not site.function and site.slot and len(path) < DEPTH:
                # a registry's field (``Dialect(error_text=f)``): any ``.error_text`` read in a
                # module that imports the registry's module is a call of it
                if (site.module, site.slot) in seen:
                    continue
                seen.add((site.module, site.slot))
                todo.append((site.module, f"*.{site.slot}", [*path, f"{where} .{site.slot}"],
                             raised))  # fmt: skip
            elif not site.function:
                out.append(f"{'ref' if site.ref else 'top'}: {' <- '.join([*path, where])}")
            elif len(path) < DEPTH and (site.module, site.function, raised[0]) not in seen:
                seen.add((site.module, site.function, raised[0]))
                todo.append((site.module, site.function, [*path, where], raised))
    return out


def own_catch(code: str, line: str, module: str, raised: list[type]) -> list[str]:
    """The handlers of the function's own text ``code`` whose ``try`` body holds its line
    ``line`` (the mutated one) and catch one of ``raised``."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    number = next((i for i, text in enumerate(code.split("\n"), 1) if text.strip() == line), 0)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and node.body[0].lineno <= number <= node.body[-1].end_lineno:
            handlers = [(_handler_text(h), _handler_types(h)) for h in node.handlers
                        if not _passes_on(h)]  # fmt: skip
            found += catching(Site(module, "", number, handlers), raised)
    return found
