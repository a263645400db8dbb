"""The mutation benchmark's rewrite of decorated functions (benchmarks/mutation.py's undecorate):
mutmut 3.8 skips a decorated function, so the benchmark applies each decorator by hand after the
function, leaving a module that means the same; a cache is dropped (it hid which tests reach a
function)."""

from __future__ import annotations

from benchmarks.mutation import undecorate

SOURCE = """\
@register("a", doc="one",
          rank=1)
def first(x):
    return x + 1


@outer
@inner(2)
def second(x):
    return x


class Box:
    @property
    def size(self):
        return 3

    @staticmethod
    def kept():
        return 4

    def plain(self):
        return 5


@overload
def stub(x: int) -> int: ...
"""

EXPECTED = """\
def first(x):
    return x + 1
first = register("a", doc="one",
          rank=1)(first)


def second(x):
    return x
second = outer(inner(2)(second))


class Box:
    def size(self):
        return 3
    size = property(size)

    @staticmethod
    def kept():
        return 4

    def plain(self):
        return 5


@overload
def stub(x: int) -> int: ...
"""


def test_decorators_are_applied_after_the_function() -> None:
    assert undecorate(SOURCE) == EXPECTED


def test_a_module_without_decorated_functions_is_unchanged() -> None:
    text = "import os\n\n\ndef f():\n    return os.sep\n"
    assert undecorate(text) == text


def test_the_rewritten_module_registers_the_same_functions() -> None:
    source = (
        "REG = {}\n\n\ndef register(name):\n    def put(f):\n        REG[name] = f\n"
        "        return f\n    return put\n\n\n@register('one')\ndef one():\n    return 1\n\n\n"
        "class C:\n    @property\n    def two(self):\n        return 2\n"
    )
    before: dict = {}
    after: dict = {}
    exec(compile(source, "before", "exec"), before)
    exec(compile(undecorate(source), "after", "exec"), after)
    assert after["REG"]["one"] is after["one"]
    assert after["REG"]["one"]() == before["REG"]["one"]() == 1
    assert after["C"]().two == before["C"]().two == 2
