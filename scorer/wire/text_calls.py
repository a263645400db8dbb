"""Whether an answer's text looks like a tool call that was never parsed into one.

Self-hosted servers (vLLM, llama.cpp, Ollama) with their tool parser off send the model's call as
text: a Hermes ``<tool_call>{"name": ..., "arguments": ...}</tool_call>`` tag, or a bare JSON object
naming a tool. The judge still fails such a step (no call was made); this only lets its reason say
why the call may be missing. Model text can be huge and hostile: only a bounded prefix is looked at,
with plain string searches (no regex).
"""

from __future__ import annotations

import json

PREFIX_CHARS = 4096  # a call written as text starts near the top; nothing past this is read
MAX_OBJECTS = (
    16  # at most this many ``{`` are tried as the start of a JSON object: bounded work on any text
)
TAG = "<tool_call>"
_DECODER = json.JSONDecoder()


def text_call_name(text: str | None, offered: tuple[str, ...] | list[str]) -> str | None:
    """What ``text`` looks like a call to, or ``None``: after a ``<tool_call>`` tag, the name its
    JSON gives (else the first offered tool quoted after it, else ``"a tool"``); else the first
    of ``MAX_OBJECTS`` JSON objects in the text whose ``name`` (or ``function.name``) is an
    offered tool."""
    if not text:
        return None
    head = text[:PREFIX_CHARS]
    tag = head.find(TAG)
    if tag >= 0:
        name = _object_name(head, tag + len(TAG))
        return name or _quoted_name(head[tag:], offered) or "a tool"
    start = head.find("{")
    for _ in range(MAX_OBJECTS):
        if start < 0:
            break
        name = _object_name(head, start)
        if name is not None and name in offered:
            return name
        start = head.find("{", start + 1)
    return None


def _object_name(text: str, start: int) -> str | None:
    """The ``name`` (or ``function.name``) of the JSON object starting at ``start`` (after
    spaces), else None."""
    while start < len(text) and text[start] in " \t\r\n":
        start += 1
    if start >= len(text) or text[start] != "{":
        return None
    try:
        value, _ = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    name = value.get("name")
    function = value.get("function")
    if not isinstance(name, str) and isinstance(function, dict):
        name = function.get("name")
    return name if isinstance(name, str) and name else None


def _quoted_name(text: str, offered: tuple[str, ...] | list[str]) -> str | None:
    """The first offered tool named in quotes in ``text``: a tag whose JSON is cut off or broken
    still names it."""
    found = [(at, name) for name in offered if (at := text.find(f'"{name}"')) >= 0]
    return min(found)[1] if found else None
