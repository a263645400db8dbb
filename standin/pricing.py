"""Token counts and prices of the stand-in gateway, so cost reporting has real, checkable numbers.

Tokens are estimated from sizes (4 characters a token, at least 1): the prompt from the request's
canonical JSON, the completion from the answer message's canonical JSON. Prices are USD per million
tokens. The ``x-lobstack-cost-usd`` header is written in fixed-point with at most 10 decimals and no
trailing zeros (``"0.000123"``, ``"0.0"`` for error answers): Python's repr would switch to
``1.23e-05`` below 1e-4, which is harder to read and compare by eye, and ``float()`` reads both. A
model priced in the body (OpenRouter's way) sends ``usage.cost`` as a JSON number instead, with its
prompt and completion parts: each is an exact decimal of at most 15 significant digits, so the
number's text is that decimal and the parts add up.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any


@dataclass(frozen=True)
class Price:
    """USD per million prompt and completion tokens."""

    prompt_per_mtok: float
    completion_per_mtok: float


@dataclass(frozen=True)
class Usage:
    """OpenAI ``usage`` numbers."""

    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion."""
        return self.prompt_tokens + self.completion_tokens

    def as_json(self) -> dict[str, int]:
        """The ``usage`` object of an answer."""
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
        }


PRICES: dict[str, Price] = {
    "ref/oracle": Price(2.5, 10.0),
    "ref/abstain": Price(0.15, 0.6),
    "ref/first-tool": Price(0.5, 1.5),
    "ref/noisy": Price(1.0, 4.0),
    "ref/flaky": Price(1.0, 4.0),
    "ref/drifting": Price(1.0, 4.0),
    "ref/no-temperature": Price(3.0, 15.0),
    "ref/xss": Price(1.0, 1.0),
    "ref/reasoning": Price(0.55, 2.19),
    "ref/gemini-style": Price(1.25, 10.0),
    "ref/content-parts": Price(2.0, 5.0),
    "ref/error-in-200": Price(0.8, 3.2),
    "ref/malformed": Price(0.2, 0.6),
    "ref/openrouter-style": Price(3.0, 15.0),
    # The pick's pair (standin/priced.py): a fifth of ref/oracle's price.
    "ref/oracle-mini": Price(0.5, 2.0),
    "ref/mini-worse": Price(0.5, 2.0),
}


def estimate_tokens(text: str) -> int:
    """About 4 characters a token, never 0."""
    return max(1, len(text) // 4)


def cost_usd(model: str, usage: Usage) -> float:
    """What ``usage`` costs on ``model`` (a model with no price costs 0)."""
    price = PRICES.get(model, Price(0.0, 0.0))
    return (
        usage.prompt_tokens * price.prompt_per_mtok
        + usage.completion_tokens * price.completion_per_mtok
    ) / 1e6


def usage_with_cost(model: str, usage: Usage) -> dict[str, Any]:
    """OpenRouter's ``usage`` object: the token counts, ``cost`` in USD and its
    breakdown, ``is_byok``."""
    price = PRICES.get(model, Price(0.0, 0.0))
    prompt = Decimal(usage.prompt_tokens) * Decimal(repr(price.prompt_per_mtok)) / 1_000_000
    completion = (
        Decimal(usage.completion_tokens) * Decimal(repr(price.completion_per_mtok)) / 1_000_000
    )
    cost = float(prompt + completion)
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
        "cost": cost,
        "is_byok": False,
        "prompt_tokens_details": {
            "cached_tokens": 0,
            "cache_write_tokens": 0,
            "audio_tokens": 0,
            "video_tokens": 0,
        },
        "cost_details": {
            "upstream_inference_cost": cost,
            "upstream_inference_prompt_cost": float(prompt),
            "upstream_inference_completions_cost": float(completion),
        },
        "completion_tokens_details": {"reasoning_tokens": 0, "image_tokens": 0, "audio_tokens": 0},
    }


def format_usd(amount: float) -> str:
    """Fixed-point text for the cost header: ``0.000123``, ``0.0``."""
    text = f"{round(amount, 10):.10f}".rstrip("0")
    return text + "0" if text.endswith(".") else text
