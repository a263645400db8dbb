"""Model slugs: the model name with every character outside ``[A-Za-z0-9._-]`` replaced by ``_``."""

from __future__ import annotations

import re

_OUTSIDE = re.compile(r"[^A-Za-z0-9._-]")


def model_slug(model: str) -> str:
    """``openai/gpt-4o`` -> ``openai_gpt-4o``."""
    return _OUTSIDE.sub("_", model)
