"""A suite written in YAML: the same document as its JSON form, with each value's line kept
for errors.

YAML reads more than JSON can hold, and some of it silently
(docs/commands/suite-check.md#suite-yaml): ``no`` read as false, a date read as a date, ``010`` read
as 8, a duplicated key where the last one wins, an alias that repeats a subtree. This loader refuses
or disarms each: plain scalars resolve as JSON would read them (``true``/``false``, ``null``, ``~``
or nothing, JSON numbers), every other plain scalar is a string (``no``, ``2026-10-21``, ``010``); a
duplicate key, an alias, a non-string key, a tag other than the standard ones, and a number too
large for a double are errors naming their line. The result is the same ``dict``/``list``/scalar
tree the JSON reader gives, so the one builder checks both.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

import yaml

from scorer.strict_json import FILE_MAX_DEPTH, MAX_INT_DIGITS, problem_text

_STR, _INT, _FLOAT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_BOOL, _NULL = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"


class YamlSuiteError(ValueError):
    """A YAML text that is not a suite document: ``line`` (1-based) and what is wrong."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class _Loader(yaml.SafeLoader):
    """Composes nodes only (the tree is built by ``_value``), with JSON's
    plain-scalar resolution, nesting bounded as a JSON file's is."""

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}
    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise YamlSuiteError(
                mark.line + 1, "an alias (*name) is not allowed in a suite: write the value out"
            )
        # The composer recurses (three frames a level): refused by this bound, long before
        # Python's recursion limit, as a JSON suite is (strict_json.FILE_MAX_DEPTH).
        if self.depth >= FILE_MAX_DEPTH:
            mark = self.peek_event().start_mark
            raise YamlSuiteError(mark.line + 1, f"nested more than {FILE_MAX_DEPTH} levels deep")
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_Loader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Loader.add_implicit_resolver(_NULL, re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
_Loader.add_implicit_resolver(_INT, re.compile(r"^-?(?:0|[1-9][0-9]*)$"), list("-0123456789"))
_Loader.add_implicit_resolver(
    _FLOAT,
    re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)$"),
    list("-0123456789"),
)


@dataclass
class Lines:
    """The line (1-based) of each key of each mapping and each item of each list, by the
    container's ``id``."""

    keys: dict[int, dict[str, int]] = field(default_factory=dict)
    items: dict[int, list[int]] = field(default_factory=dict)

    def line_of(self, data: Any, path: list[str | int]) -> int | None:
        """The line of the deepest part of ``path`` (keys and list indexes) that ``data`` holds."""
        line = None
        node = data
        for step in path:
            if isinstance(node, dict) and isinstance(step, str) and step in node:
                line = self.keys.get(id(node), {}).get(step, line)
                node = node[step]
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                found = self.items.get(id(node), [])
                line = found[step] if step < len(found) else line
                node = node[step]
            else:
                break
        return line


def loads_yaml(text: str) -> tuple[Any, Lines]:
    """The suite document of a YAML text and the lines of its values; ``YamlSuiteError`` when it
    has none."""
    try:
        loader = _Loader(text)  # refuses a character YAML does not allow (NUL...) here
    except yaml.reader.ReaderError as exc:
        raise YamlSuiteError(text.count("\n", 0, exc.position) + 1, _reader_problem(exc)) from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlSuiteError(
            None if mark is None else mark.line + 1, str(exc.problem or exc.context)
        ) from None
    except yaml.YAMLError as exc:
        raise YamlSuiteError(None, str(exc)) from None
    finally:
        loader.dispose()
    if node is None:
        raise YamlSuiteError(None, "the file holds no document")
    lines = Lines()
    return _value(node, lines), lines


def _reader_problem(exc: yaml.reader.ReaderError) -> str:
    """A character YAML refuses in a file (NUL, another control, a lone surrogate), said as its
    code point and how a suite writes it."""
    code = exc.character
    escape = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return (
        f"the character U+{code:04X} is not allowed in YAML text: write it as the escape "
        f'"{escape}" in a double-quoted string'
    )


def _value(node: yaml.Node, lines: Lines) -> Any:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        if node.tag != _MAP:
            raise YamlSuiteError(line, f"the tag {node.tag!r} is not allowed in a suite")
        out: dict[str, Any] = {}
        at: dict[str, int] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _STR:
                raise YamlSuiteError(key_line, "a key must be a string (quote it)")
            key = key_node.value
            if key in out:
                raise YamlSuiteError(
                    key_line, f"duplicate key {key!r} (first on line {at[key]}): keep one"
                )
            at[key] = key_line
            out[key] = _value(value_node, lines)
        lines.keys[id(out)] = at
        return out
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _SEQ:
            raise YamlSuiteError(line, f"the tag {node.tag!r} is not allowed in a suite")
        items = [_value(item, lines) for item in node.value]
        lines.items[id(items)] = [item.start_mark.line + 1 for item in node.value]
        return items
    return _scalar(node, line)


_FORMS = {
    _BOOL: re.compile(r"true|True|TRUE|false|False|FALSE"),
    _NULL: re.compile(r"~|null|Null|NULL|"),
    _INT: re.compile(r"-?(?:0|[1-9][0-9]*)"),
    _FLOAT: re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)"),
}


def _scalar(node: yaml.Node, line: int) -> Any:
    text = node.value
    if node.tag == _STR:
        return text
    form = _FORMS.get(node.tag)
    if form is not None and not form.fullmatch(
        text
    ):  # an explicit tag on a value JSON cannot read so
        raise YamlSuiteError(
            line, f"{text!r} is not a {node.tag.rsplit(':', 1)[-1]} as JSON writes one"
        )
    if node.tag == _NULL:
        return None
    if node.tag == _BOOL:
        return text.lower() == "true"
    if node.tag == _INT:
        if len(text.lstrip("-")) > MAX_INT_DIGITS:  # Python's int() refuses it; JSON's reader too
            raise YamlSuiteError(line, problem_text(text))
        return int(text)
    if node.tag == _FLOAT:
        number = float(text)
        if not math.isfinite(number):
            raise YamlSuiteError(line, f"the number {text} is too large for a double")
        return number
    raise YamlSuiteError(line, f"the tag {node.tag!r} is not allowed in a suite")


# ASCII digits, and few: an index is a list position (int() of 5,000 digits is a ValueError)
_PATH_PART = re.compile(r"\.?([^.\[\]]+)|\[([0-9]{1,18})\]")


def where_path(where: str, data: Any) -> list[str | int]:
    """The document path of a problem's place (``case sel-01.steps[0].calls[1].args.x``,
    ``tools.t.function``, ``cases[3].id``): a ``case <id>`` prefix is the case with that id, in
    suite order."""
    path: list[str | int] = []
    rest = where
    if where.startswith("case ") and isinstance(data, dict) and isinstance(data.get("cases"), list):
        ids = [
            (i, c["id"])
            for i, c in enumerate(data["cases"])
            if isinstance(c, dict) and isinstance(c.get("id"), str)
        ]
        # The longest id the place starts with: an id may hold dots.
        for index, case_id in sorted(ids, key=lambda pair: -len(pair[1])):
            head = f"case {case_id}"
            if where == head or where.startswith((head + ".", head + "[")):
                path, rest = ["cases", index], where[len(head) :]
                break
        else:
            return []
    for match in _PATH_PART.finditer(rest):
        path.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
    return path


class _Dumper(yaml.SafeDumper):
    """Quotes every string that YAML 1.1 or this loader would read as something else (``no``,
    ``1e5``), and writes a value used twice out twice (the loader refuses aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


for _tag, _regexp, _first in (
    (_BOOL, r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    (_NULL, r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    (_INT, r"^-?(?:0|[1-9][0-9]*)$", list("-0123456789")),
    (
        _FLOAT,
        r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)$",
        list("-0123456789"),
    ),
):
    _Dumper.add_implicit_resolver(_tag, re.compile(_regexp), _first)


# Line breaks YAML knows besides "\n": in a plain, single-quoted or block scalar a reader folds
# or normalises them (NEL, U+0085, came back as a space or "\n"); only a double-quoted
# scalar's escapes ("\N", "\L", "\P", "\r") keep them.
_OTHER_BREAKS = re.compile("[\r\x85\u2028\u2029]")


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    """A multi-line text as a literal block (``|``), as a person would write it; a text holding a
    line break other than ``\n`` double-quoted, so it reads back as it was."""
    if _OTHER_BREAKS.search(value):
        style: str | None = '"'
    else:
        style = "|" if "\n" in value and not value.startswith((" ", "\n")) else None
    return dumper.represent_scalar(_STR, value, style=style)


_Dumper.add_representer(str, _text)


def dumps_yaml(document: Any) -> str:
    """A suite document as YAML that ``loads_yaml`` reads back as the same document (keys in
    their order)."""
    return yaml.dump(
        document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, indent=2
    )
