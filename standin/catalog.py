"""Every name the stand-in serves, and ``auto``, the router: a seeded hash of (seed, request digest)
picks ref/oracle, ref/noisy or ref/abstain."""

from __future__ import annotations

from typing import Any

from standin.drifting import drifting
from standin.flaky import flaky
from standin.hashing import pick
from standin.malformed import malformed
from standin.models import abstain, first_tool, no_temperature, noisy, oracle, xss
from standin.priced import mini_worse, oracle_mini
from standin.reply import Ask, ModelSpec
from standin.styles import (
    content_parts,
    error_in_200,
    gemini_check,
    gemini_style,
    openrouter_style,
    reasoning,
    reasoning_check,
)
from standin.text_calls import text_calls

ROUTER = "auto"
ROUTED = ("ref/oracle", "ref/noisy", "ref/abstain")
MODELS: dict[str, ModelSpec] = {
    "ref/oracle": ModelSpec(oracle),
    "ref/abstain": ModelSpec(abstain),
    "ref/first-tool": ModelSpec(first_tool),
    "ref/noisy": ModelSpec(noisy),
    "ref/flaky": ModelSpec(flaky),
    "ref/drifting": ModelSpec(drifting),
    "ref/no-temperature": ModelSpec(no_temperature, drops_temperature=True),
    "ref/xss": ModelSpec(xss),
    "ref/reasoning": ModelSpec(reasoning, check=reasoning_check),
    "ref/gemini-style": ModelSpec(gemini_style, check=gemini_check),
    "ref/content-parts": ModelSpec(content_parts),
    "ref/error-in-200": ModelSpec(error_in_200),
    "ref/malformed": ModelSpec(malformed),
    "ref/openrouter-style": ModelSpec(openrouter_style, price_in_body=True),
    "ref/text-calls": ModelSpec(text_calls),
    "ref/oracle-mini": ModelSpec(oracle_mini),
    "ref/mini-worse": ModelSpec(mini_worse),
}


def model_names() -> tuple[str, ...]:
    """Every name the gateway serves, in listing order."""
    return (*MODELS, ROUTER)


def route(model: str, ask: Ask) -> str:
    """The hosted model that answers ``model``: itself, or for ``auto`` the seeded pick."""
    if model != ROUTER:
        return model
    return ROUTED[pick(len(ROUTED), "auto", ask.seed, ask.body_digest)]


def offered_names(tools: Any) -> tuple[str, ...]:
    """The tool names a request offers, in order (entries without a function name are skipped)."""
    if not isinstance(tools, list):
        return ()
    names = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str):
            names.append(name)
    return tuple(names)
