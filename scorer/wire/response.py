"""The model's answer to one request, read from an OpenAI-style chat-completion body.

Real providers bend the shape (docs/METHOD.md, Decisions): an error object inside a 200, ``content``
as a list of parts, a legacy ``function_call``, tool calls that are not objects. Everything with a
``choices[0].message`` object is read and judged; what is malformed about its calls is listed in
``problems`` and fails the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TRANSPORT_CODES = frozenset({429, 502, 503, 504})


class MalformedResponse(ValueError):
    """A 2xx body that is not a chat completion with ``choices[0].message``."""


@dataclass(frozen=True)
class BodyError:
    """An error object in the body of a 2xx answer (OpenRouter's errors mid-generation): the
    provider's words."""

    code: int | None
    code_text: str | None
    message: str
    in_choice: bool = (
        False  # OpenRouter's upstream failure: in ``choices[0]``, not at the top level
    )
    transient: bool | None = None  # the dialect's own word on retrying it, when it has one

    @property
    def transport(self) -> bool:
        """An in-body 429, 502, 503 or 504 is a transport error: retried by the method's rule,
        recorded again (or what the dialect says of its error type)."""
        return self.code in TRANSPORT_CODES if self.transient is None else self.transient

    @property
    def outcome(self) -> str:
        """The attempt outcome: ``in_body_<code>``, or ``in_body_error`` without a numeric code."""
        return f"in_body_{self.code}" if self.code is not None else "in_body_error"

    def describe(self) -> str:
        """``error 502 in a 200 answer: Network connection lost.``"""
        code = self.code if self.code is not None else self.code_text
        label = f"error {code}" if code is not None else "an error"
        where = "in a 200 answer's choice" if self.in_choice else "in a 200 answer"
        return f"{label} {where}" + (f": {self.message}" if self.message else "")


def _short(value: Any, limit: int = 200) -> str:
    try:
        text = value if isinstance(value, str) else repr(value)
    except RecursionError:  # nested past what repr can walk: said, never a crash nor no error
        text = f"a {type(value).__name__} nested too deeply to show"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def body_error(body: Any) -> BodyError | None:
    """The error object of a parsed 2xx body, or None when it has none: a top-level non-null
    ``error``, else (decision ``METHOD.md#an-error-inside-a-200-s-choice``) a first choice with a
    non-null ``error`` or ``finish_reason: "error"`` (OpenRouter's upstream failure, with no
    usable message)."""
    if not isinstance(body, dict):
        return None
    if body.get("error") is not None:
        return _error_object(body["error"], in_choice=False)
    choices = body.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices else None
    if not isinstance(choice, dict):
        return None
    if choice.get("error") is not None:
        return _error_object(choice["error"], in_choice=True)
    if choice.get("finish_reason") == "error":
        return BodyError(None, None, 'finish_reason "error" and no error object', in_choice=True)
    return None


def _status_code(raw: Any) -> int | None:
    """An error object's ``code`` as an HTTP status (100-599: a number or a string of ASCII
    digits), else None. A code of any length is read: the digits are compared as text, never
    given to ``int`` past three (a JSON number beyond 4300 digits arrives as its text)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw if 100 <= raw <= 599 else None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit():
        digits = raw.lstrip("0")
        return int(digits) if len(digits) == 3 and 100 <= int(digits) <= 599 else None
    return None


def _error_object(error: Any, in_choice: bool) -> BodyError:
    if not isinstance(error, dict):
        return BodyError(None, None, _short(error), in_choice)
    raw = error.get("code")
    code = _status_code(raw)
    code_text = None if raw is None or code is not None else _short(raw, 60)
    message = error.get("message")
    return BodyError(code, code_text, _short(message) if message is not None else "", in_choice)


@dataclass(frozen=True)
class ToolCall:
    """One call as the model sent it; ``arguments`` is exactly what was sent (usually a
    JSON string)."""

    id: str | None
    name: str
    arguments: Any


@dataclass(frozen=True)
class ModelResponse:
    """The assistant message: its text, its tool calls, and the ``message`` dict as sent
    (for chains).

    ``problems`` lists what is malformed about the calls (each fails the step); ``legacy`` is True
    when the call came as a legacy ``function_call``; ``finish_reason`` is the choice's, when it is
    a string.
    """

    content: str | None
    tool_calls: tuple[ToolCall, ...]
    model: str | None
    message: dict[str, Any]
    finish_reason: str | None = None
    problems: tuple[str, ...] = ()
    legacy: bool = False
    # The neutral reading every dialect's decoder fills in, so the judge never reads the wire:
    # each call's name as sent, readable (``""``, ``(no name)``, JSON of a non-string); why the
    # answer was cut off (``finish_reason is length``), None when it was not; the transport
    # anomalies of a streamed answer (docs/METHOD.md, "Transport anomalies").
    sent_names: tuple[str, ...] | None = None
    cut_off: str | None = None
    anomalies: tuple[str, ...] = ()


def _kind(value: Any) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
    }
    return names.get(
        type(value), "a number" if isinstance(value, int | float) else type(value).__name__
    )


def content_text(content: Any) -> str | None:
    """The answer's text: a string as is; from a list of parts, the ``text`` of each text part
    joined (thinking parts are not the answer); None otherwise."""
    if isinstance(content, str) or content is None:
        return content
    if not isinstance(content, list):
        return None
    texts = [
        part["text"]
        for part in content
        if isinstance(part, dict)
        and part.get("type", "text") == "text"
        and isinstance(part.get("text"), str)
    ]
    return "".join(texts) if texts else None


def _call(entry: Any, where: str, problems: list[str]) -> ToolCall:
    """One entry of ``tool_calls``: every entry is a call; what cannot be read is a problem and a
    nameless call."""
    if not isinstance(entry, dict):
        problems.append(f"{where} is {_kind(entry)}, not an object")
        return ToolCall(None, "", None)
    function = entry.get("function")
    if not isinstance(function, dict):
        if function is not None:
            problems.append(f"{where}.function is {_kind(function)}, not an object")
        function = {}
    return read_call(entry.get("id"), function.get("name"), function.get("arguments"))


def read_call(call_id: Any, name: Any, arguments: Any) -> ToolCall:
    """A call as every dialect reads it: an id that is not a string is none, a name that is not a
    string is ``""`` (``readable_name`` says what was sent), the arguments as sent."""
    return ToolCall(
        call_id if isinstance(call_id, str) else None,
        name if isinstance(name, str) else "",
        arguments,
    )


def _calls(message: dict[str, Any], problems: list[str]) -> tuple[tuple[ToolCall, ...], bool]:
    raw = message.get("tool_calls")
    if isinstance(raw, list) and raw:
        return tuple(
            _call(entry, f"tool_calls[{i}]", problems) for i, entry in enumerate(raw)
        ), False
    if raw is not None and not isinstance(raw, list):
        problems.append(f"tool_calls is {_kind(raw)}, not a list")
        return (ToolCall(None, "", None),), False
    legacy = message.get("function_call")
    if legacy is None or legacy == {}:  # Snowflake sends an empty one beside its tool_calls
        return (), False
    if not isinstance(legacy, dict):
        problems.append(f"function_call is {_kind(legacy)}, not an object")
        return (ToolCall(None, "", None),), True
    name = legacy.get("name")
    return (ToolCall(None, name if isinstance(name, str) else "", legacy.get("arguments")),), True


def parse_completion(body: Any) -> ModelResponse:
    """Read a chat-completion body; raises MalformedResponse when it has no
    ``choices[0].message`` object."""
    if not isinstance(body, dict):
        raise MalformedResponse("malformed response: the body is not a JSON object")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise MalformedResponse("malformed response: no choices[0]")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise MalformedResponse("malformed response: choices[0].message is not an object")
    problems: list[str] = []
    calls, legacy = _calls(message, problems)
    model = body.get("model")
    finish = choices[0].get("finish_reason")
    return ModelResponse(
        content=content_text(message.get("content")),
        tool_calls=calls,
        model=model if isinstance(model, str) else None,
        message=message,
        finish_reason=finish if isinstance(finish, str) else None,
        problems=tuple(problems),
        legacy=legacy,
        sent_names=tuple(_sent_name(message, calls, i, legacy) for i in range(len(calls))),
        cut_off="finish_reason is length" if finish == "length" else None,
    )


def readable_name(holder: Any) -> str:
    """A call's name as sent, from the object that holds its ``name``: an empty name reads ``""``,
    a missing one ``(no name)``, any other JSON value as JSON, so a nameless call never looks like
    no call."""
    if not isinstance(holder, dict) or "name" not in holder:
        return "(no name)"
    name = holder["name"]
    if isinstance(name, str) and name:
        return name
    import json

    return json.dumps(name, ensure_ascii=False)


def _sent_name(
    message: dict[str, Any], calls: tuple[ToolCall, ...], index: int, legacy: bool
) -> str:
    if calls[index].name:
        return calls[index].name
    if legacy:
        return readable_name(message.get("function_call"))
    raw_calls = message.get("tool_calls")
    raw = raw_calls[index] if isinstance(raw_calls, list) and index < len(raw_calls) else None
    return readable_name(raw.get("function") if isinstance(raw, dict) else None)
