"""Model slugs: the model name with every character outside ``[A-Za-z0-9._-]`` replaced by ``_``."""

from __future__ import annotations

import re

from scorer.errors import UsageError

_OUTSIDE = re.compile(r"[^A-Za-z0-9._-]")


def model_slug(model: str) -> str:
    """``openai/gpt-4o`` -> ``openai_gpt-4o``."""
    return _OUTSIDE.sub("_", model)


def checked_model_slug(model: str) -> str:
    """The slug of a model to record; UsageError when it would name the cassettes dir itself or its
    parent, or a hidden folder (starting with ``.``), which rescore does not read as a model dir
    (decision 117)."""
    slug = model_slug(model)
    if slug in ("", ".", ".."):
        raise UsageError(
            f"--model {model!r}: not a model name (its folder would be "
            f"{slug or 'the cassettes dir'!r})"
        )
    if slug.startswith("."):
        raise UsageError(
            f"--model {model!r}: its folder would be {slug!r}, a hidden folder that rescore does "
            "not read as a model dir; a model name starts with a letter, digit, '_' or '-'"
        )
    return slug
