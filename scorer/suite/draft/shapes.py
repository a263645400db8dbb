"""Which tools make which drafted cases beyond one call each (issue 40, part 4): near misses (tools
that look alike), a parallel pair (independent calls in one response), a two-step chain (one tool's
output feeds another's input) and no-call requests near the tools' domain.

All are chosen from the names alone, deterministically and in time linear in the number of tools:
tools look alike when their things share a word (``get_event``, ``delete_event``;
``git_diff_staged``, ``git_diff_unstaged``), each word's candidates capped; a chain joins a tool
that makes, lists or finds a thing (``create_event``) to one that takes that thing's id
(``invite(event_id)``).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from scorer.suite.draft.user_requests import verb_and_thing
from scorer.suite.draft.value_hints import words

_CANDIDATES = 32  # tools per shared word considered as look-alikes: keeps it linear
_MAKERS = ("make", "list", "find")
_READERS = ("read", "list", "find", "")


def _stem(word: str) -> str:
    """A plural's singular, roughly (events, notes; not status, address)."""
    plural = len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
    return word[:-1] if plural else word


def _thing_words(tool: str) -> set[str]:
    return {_stem(w) for w in verb_and_thing(tool)[1].split()}


def _everywhere(names: Sequence[str]) -> set[str]:
    """Words in every tool's thing (a namespace: ``git`` of ``git_log``): they tell no
    tool apart."""
    if len(names) < 3:  # two tools sharing a word: a look-alike pair, not a namespace
        return set()
    return set.intersection(*({_stem(w) for w in words(name)} for name in names))


def look_alikes(names: Sequence[str]) -> dict[str, str]:
    """Each tool's closest other tool by the words of their things (ties: the closer name, then
    listed order); tools that share no word with any other are left out."""
    by_word: dict[str, list[int]] = {}
    common = _everywhere(names)
    things = [_thing_words(name) - common for name in names]
    for index, found in enumerate(things):
        for word in found:
            if len(by_word.setdefault(word, [])) < _CANDIDATES:
                by_word[word].append(index)
    pairs: dict[str, str] = {}
    for index, name in enumerate(names):
        best: tuple[int, float, int] | None = None
        for word in sorted(things[index]):
            for other in by_word.get(word, []):
                if other == index:
                    continue
                shared = len(things[index] & things[other])
                ratio = difflib.SequenceMatcher(None, name, names[other]).ratio()
                key = (shared, ratio, -other)
                if best is None or key > best:
                    best = key
        if best is not None:
            pairs[name] = names[-best[2]]
    return pairs


def parallel_pair(names: Sequence[str]) -> tuple[str, str] | None:
    """Two tools to call side by side: the first two that read (look up, list, find), else the
    first two."""
    readers = [n for n in names if verb_and_thing(n)[0] in _READERS]
    chosen = readers if len(readers) >= 2 else list(names)
    return (chosen[0], chosen[1]) if len(chosen) >= 2 else None


def id_argument(required: Sequence[str], tool: str) -> tuple[str, set[str]] | None:
    """The required argument of ``tool`` that names a thing's id (``event_id``, ``id``) and the
    words of that thing."""
    for name in required:
        named = words(name)
        if named and named[-1] == "id":
            return name, {_stem(w) for w in named[:-1]} or _thing_words(tool)
    return None


def chain_pairs(names: Sequence[str], required: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """``(first, then, id argument)``: a tool that makes, lists or finds a thing, then one whose
    required id argument takes that thing; at most one chain per second tool, the first found."""
    makers: dict[str, list[str]] = {}
    for name in names:
        family, _ = verb_and_thing(name)
        if family in _MAKERS:
            for word in _thing_words(name):
                if len(makers.setdefault(word, [])) < _CANDIDATES:
                    makers[word].append(name)
    order = {name: index for index, name in enumerate(names)}
    found = []
    for name in names:
        taken = id_argument(required.get(name, []), name)
        if taken is None:
            continue
        argument, thing = taken
        candidates = [m for word in sorted(thing) for m in makers.get(word, []) if m != name]
        candidates.sort(key=lambda m: (_MAKERS.index(verb_and_thing(m)[0]), order[m]))
        if candidates:
            found.append((candidates[0], name, argument))
    return found


def domain_thing(names: Sequence[str]) -> str:
    """The thing the tools act on most, for no-call requests near their domain ("event")."""
    counts: dict[str, int] = {}
    common = _everywhere(names)
    for name in names:
        for word in verb_and_thing(name)[1].split():
            if not word.isdigit() and _stem(word) not in common:
                counts[_stem(word)] = counts.get(_stem(word), 0) + 1
    return max(counts, key=lambda w: (counts[w], -len(w))) if counts else "request"
