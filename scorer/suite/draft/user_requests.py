"""The user's request of a drafted case, from deterministic templates (issue 40, part 4): it asks
for the outcome in plain words, never names the tool (``create_event``) nor copies its description,
and states each value the reference call holds, so each of the audit's wrong values meets a check.

A tool's name is read as a verb and a thing (``create_event``: create, event; ``list_events``: list,
events; ``git_log``: no verb, "git log"); each verb family has its own phrasing, with synonyms, so
the request describes what the user wants done rather than the function to call.
"""

from __future__ import annotations

import json
from typing import Any

from scorer.suite.draft.value_hints import words

# verb word -> family; a family -> (how to ask, how to say "do not do it").
_FAMILIES = {
    "read": (
        "get",
        "read",
        "fetch",
        "show",
        "view",
        "retrieve",
        "describe",
        "open",
        "lookup",
        "check",
    ),
    "list": ("list", "browse", "enumerate"),
    "find": ("search", "find", "query", "lookup", "filter"),
    "make": ("create", "add", "new", "make", "insert", "schedule", "book", "register", "open"),
    "change": (
        "update",
        "edit",
        "set",
        "change",
        "modify",
        "patch",
        "rename",
        "move",
        "reschedule",
    ),
    "remove": ("delete", "remove", "cancel", "drop", "archive", "clear", "revoke", "unsubscribe"),
    "send": ("send", "post", "notify", "invite", "email", "share", "reply", "forward", "publish"),
    "run": ("run", "execute", "start", "trigger", "deploy", "build", "restart", "stop"),
    "work": ("convert", "translate", "calculate", "compute", "format", "summarize", "analyze"),
}
VERB_FAMILY = {verb: family for family, verbs in _FAMILIES.items() for verb in verbs}
_ASK = {
    "read": "Can you pull up {the}{thing}{details}?",
    "list": "What {thing} are there{details}?",
    "find": "Look for {thing}{details}.",
    "make": "Please set up {a}{thing}{details}.",
    "change": "Please make a change to {the}{thing}{details}.",
    "remove": "Please get rid of {the}{thing}{details}.",
    "send": "Please send {the}{thing} out{details}.",
    "run": "Please kick off {the}{thing}{details}.",
    "work": "Please work out {the}{thing}{details}.",
    "": "I need {the}{thing}{details}.",
}
_NOT = {
    "read": "look anything up",
    "list": "list anything",
    "find": "search for anything",
    "make": "create anything new",
    "change": "change anything",
    "remove": "delete or cancel anything",
    "send": "send anything",
    "run": "run anything",
    "work": "work anything out",
    "": "do anything",
}


def verb_and_thing(tool: str) -> tuple[str, str]:
    """The verb family of tool name ``tool`` ("" when it starts with no verb we know) and the thing
    it acts on, in words."""
    named = words(tool)
    if len(named) > 2 and named[0] not in VERB_FAMILY and named[1] in VERB_FAMILY:
        named = named[1:]  # a namespace first (github_get_issue): the verb follows it
    family = VERB_FAMILY.get(named[0], "") if named else ""
    thing = " ".join(named[1:] if family else named)
    return family, thing


def ask(tool: str, reference: dict[str, Any], given: tuple[str, ...] = ()) -> str:
    """A request for what ``tool`` does with the values of ``reference`` (those in ``given`` left
    unsaid: they come from an earlier tool's result)."""
    family, thing = verb_and_thing(tool)
    said = [(name, value) for name, value in reference.items() if name not in given]
    details = (" with " + _pairs(said)) if said else ""
    the = "the " if thing and family != "list" else ""
    if given:
        details += ", using the id from that result"
    a = "a new " if thing else ""
    text = _ASK[family].format(a=a, the=the, thing=thing or "it", details=details)
    return text[0].upper() + text[1:]


def do_not(tool: str) -> str:
    """How to ask that nothing like ``tool`` is done ("change anything")."""
    return _NOT[verb_and_thing(tool)[0]]


def _pairs(items: list[tuple[str, Any]]) -> str:
    shown = [f"{' '.join(words(name)) or name} {_value(value)}" for name, value in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "set to true" if value else "set to false"
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False)
