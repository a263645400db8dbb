"""What the loader fuzz targets share (tests/test_loader_fuzz.py): hostile JSON values and text
fragments, mutations of a valid seed document (a field replaced, the text cut or spliced), and the
one check every target makes: the loader returns, or raises its own typed error as one line; never
another exception, and its Python allocations stay bounded.

Every target runs with a fixed seed (``derandomize=True``) and a bounded number of examples, so a
run is the same run each time and costs a few seconds of CPU.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# derandomize: the same examples every run (a fuzz finding is a failing test, not a flake);
# no deadline: a loaded machine is no bug (the loaders' own bounds and pytest-timeout stop a hang).
FUZZ = settings(
    max_examples=100,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

BIG_DIGITS = "9" * 5000  # beyond Python's 4,300-digit int() limit
_BIG = "\x00big-int\x00"  # a placeholder json.dumps can write, swapped for BIG_DIGITS in the text

# Text a hostile file may hold at any place: numbers JSON or Python refuse, brackets to nest or
# unbalance, NUL and the line breaks YAML folds, a lone surrogate, a digit Python's int() refuses.
FRAGMENTS = (
    BIG_DIGITS,
    "-" + BIG_DIGITS,
    "NaN",
    "-Infinity",
    "1e400",
    "[" * 300,  # past every loader's 200 levels (deeper: the placeholders of VALUES)
    "{" * 250,
    "]",
    "}",
    ",",
    '"',
    ":",
    "\x00",
    "\\u0000",
    "\\ud800",
    "\ud800",
    "\x85",
    "\u2028",
    "\r",
    "²",
    "\ufeff",
    "*a",
    "&a ",
    "!!python/object:os.system ",
    "? ",
    "- ",
    "\t",
    "\xff",
)

# Keys a hostile file may use: digits beyond int(), a digit int() refuses, controls, nothing.
KEYS = (
    "9" * 5000,
    "2" + "0" * 4400,
    "²",
    "٣",
    "\x00",
    "",
    "\x85",
    "\ud800",
    "a\nb",
    "\x1b[2J",
    "a.b[0]",
    "[99999]",
)


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from([_BIG, "²", "\x00", "\x85", "\ud800", "", "9" * 30, "-1", "2026-13-45"])
)


_DEEP = {f"\x00deep-{n}\x00": "[" * n + '"x"' + "]" * n for n in (250, 5000)}

# A JSON value to put in place of a field: any shape, or (as a placeholder ``dumps`` swaps for the
# text) one nested past every bound: json.dumps itself cannot write that deep.
VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=8) | st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
) | st.sampled_from(sorted(_DEEP))


def dumps(value: Any) -> str:
    """``value`` as JSON text, each placeholder written as its big integer or deep nesting."""
    text = json.dumps(value, ensure_ascii=False).replace(json.dumps(_BIG), BIG_DIGITS)
    for marker, deep in _DEEP.items():
        text = text.replace(json.dumps(marker), deep)
    return text


def field_paths(node: Any, path: tuple[Any, ...] = (), limit: int = 4000) -> list[tuple[Any, ...]]:
    """Every field of a document (keys and list positions), the document itself first, at most
    ``limit`` (iterative)."""
    found: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(node, path)]
    while stack and len(found) < limit:
        value, where = stack.pop()
        found.append(where)
        if isinstance(value, dict):
            stack.extend((value[k], (*where, k)) for k in reversed(list(value)))
        elif isinstance(value, list):
            stack.extend((value[i], (*where, i)) for i in reversed(range(len(value))))
    return found


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``document`` with the field at ``path`` replaced by ``value`` (the whole
    document for an empty path)."""
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


@st.composite
def text_mutations(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three edits: a fragment inserted, a slice cut or replaced, or the
    text cut short."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "cut", "replace", "truncate"]))
        if kind == "truncate":
            text = text[:at]
            continue
        end = min(len(text), at + draw(st.integers(0, 40)))
        fragment = draw(st.sampled_from(FRAGMENTS) | st.text(max_size=10))
        if kind == "insert":
            text = text[:at] + fragment + text[at:]
        elif kind == "cut":
            text = text[:at] + text[end:]
        else:
            text = text[:at] + fragment + text[end:]
    return text


def encoded(text: str) -> bytes:
    """``text`` as UTF-8, a lone surrogate written as the bytes Python would refuse to decode."""
    return text.encode("utf-8", "surrogatepass")


MEMORY_BOUND = 64 << 20  # bytes of Python allocations one load may peak at, beyond its input


def loads_or_refuses(
    load: Callable[[], Any], error: type[BaseException], lead: str, size: int
) -> str | None:
    """Run one load: it returns (None), or raises ``error`` as one line starting with ``lead``
    (the message). Any other exception fails the test, as does a peak of Python allocations
    above MEMORY_BOUND plus 50 times the input's ``size`` (tracemalloc)."""
    tracemalloc.start()
    try:
        load()
        message = None
    except error as exc:
        message = getattr(exc, "message", None) or str(exc)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak <= MEMORY_BOUND + 50 * size, f"peak {peak} bytes for a {size}-byte input"
    if message is not None:
        assert "\n" not in message, message
        assert message.startswith(lead), (lead, message)
    return message


def renamed(document: Any, path: tuple[Any, ...], key: str) -> Any:
    """A copy of ``document`` whose object holding ``path`` has that field under ``key``
    instead (the document as it is when ``path`` is no object's field)."""
    if not path or not isinstance(path[-1], str):
        return document
    copy = json.loads(json.dumps(document))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[key] = node.pop(path[-1])
    return copy


def mutated_documents(seed: Any) -> st.SearchStrategy[str]:
    """JSON texts of ``seed`` with one field replaced by a hostile value, or renamed to a
    hostile key."""
    paths = st.sampled_from(field_paths(seed))
    return st.builds(lambda path, value: dumps(replaced(seed, path, value)), paths, VALUES) | (
        st.builds(lambda path, key: dumps(renamed(seed, path, key)), paths, st.sampled_from(KEYS))
    )


def hostile_texts(seed_text: str) -> st.SearchStrategy[str]:
    """The seed's text edited (``text_mutations``), or any short text at all."""
    return text_mutations(seed_text) | st.text(max_size=200)
