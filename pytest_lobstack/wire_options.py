"""The plugin's wire options, as ``record``'s ``--dialect``, ``--stream`` and ``--param``: the
dialect, streaming and request settings a record mode records with (docs/FORMATS.md)."""

from __future__ import annotations

from typing import Any

import pytest

# scorer is imported only once an option is used (options.py says why).


def add_wire_options(group: Any) -> None:
    """Register ``--lobstack-dialect``, ``--lobstack-stream`` and ``--lobstack-param``."""
    group.addoption(
        "--lobstack-dialect",
        metavar="NAME",
        help="With a record mode: the API dialect to record with, as record --dialect: chat "
        "(/chat/completions, the default), responses (/responses) or messages (Anthropic "
        "/messages).",
    )
    group.addoption(
        "--lobstack-stream",
        action="store_true",
        default=False,
        help="With a record mode: ask for streamed (SSE) answers, as record --stream (kept raw).",
    )
    group.addoption(
        "--lobstack-param",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="With a record mode: a request setting (repeatable), as record --param: "
        "tool_choice, parallel_tool_calls, max_tokens, reasoning_effort, body.FIELD, header.NAME.",
    )


def read_wire(option: Any) -> Any:
    """--lobstack-dialect, --lobstack-stream and --lobstack-param as the Wire a record mode records
    with (record's own checks); None when none is given. A usage error before collection when
    one is bad, or given without a record mode (the judged cassettes carry their own wire)."""
    given = [
        name
        for name, value in (
            ("--lobstack-dialect", option.lobstack_dialect),
            ("--lobstack-stream", option.lobstack_stream),
            ("--lobstack-param", option.lobstack_param),
        )
        if value
    ]
    if not given:
        return None
    if option.lobstack_record_mode == "none":
        raise pytest.UsageError(
            f"{given[0]} needs --lobstack-record-mode once, new_episodes or all (a cassette "
            "replays with the wire it was recorded with)"
        )
    from scorer.errors import LobstackError
    from scorer.wire.dialect import checked_wire

    try:
        return checked_wire(
            option.lobstack_dialect or "chat", option.lobstack_stream, option.lobstack_param
        )
    except LobstackError as exc:
        raise pytest.UsageError(
            exc.message.replace("--param", "--lobstack-param").replace(
                "unknown API dialect", "--lobstack-dialect: unknown API dialect"
            )
        ) from None
