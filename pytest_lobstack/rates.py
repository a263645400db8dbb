"""The rates the ``lobstack_results`` fixture hands out: percent, as results.json has them, and safe
to compare.

results.json writes rates in percent (16.7 means 16.7%), so a test's ``rate > 0.5`` meant as "more
than half" passed on 16.7%. Each ``rate`` of the document the fixture returns is a ``Percent``: a
float equal to the written value (its JSON is unchanged) that refuses an ordering comparison with a
number in (0, 1], the shares nobody means as percent, and has ``.percent`` and ``.share``
(docs/commands/pytest-plugin.md#plugin-rates-percent).
"""

from __future__ import annotations

import copy
from typing import Any


def looks_like_share(number: float) -> bool:
    """A number in (0, 1]: what people write for a share (0.5 for half), never meant as a percent.
    The plugin's one rule for it: the fixture's rates refuse to compare with one, and
    ``--lobstack-min``/``--lobstack-max`` refuse one unless written with ``%``
    (``made_up_tool=1%``)."""
    return 0 < number <= 1


class Percent(float):
    """A rate in percent (0 to 100). ``.share`` is the same rate as a fraction (0 to 1),
    ``.percent`` a plain float. ``<``, ``<=``, ``>``, ``>=`` against a number in (0, 1] raise
    ``TypeError``: compare with a percent (``rate > 50``) or use ``rate.share > 0.5``."""

    __slots__ = ()

    @property
    def percent(self) -> float:
        """The rate in percent, as a plain float."""
        return float(self)

    @property
    def share(self) -> float:
        """The rate as a fraction of 1 (16.7% -> 0.167)."""
        return float(self) / 100

    def _checked(self, other: object) -> object:
        if (
            isinstance(other, int | float)
            and not isinstance(other, bool | Percent)
            and looks_like_share(other)
        ):
            raise TypeError(
                f"lobstack-eval rates are in percent ({float(self)!r} means {float(self)!r}%), and "
                f"{other!r} looks like a share: compare with a percent (rate > {other * 100:g}) or "
                f"use rate.share > {other!r}"
            )
        return other

    def __lt__(self, other: object) -> bool:
        return float.__lt__(self, self._checked(other))  # type: ignore[operator]

    def __le__(self, other: object) -> bool:
        return float.__le__(self, self._checked(other))  # type: ignore[operator]

    def __gt__(self, other: object) -> bool:
        return float.__gt__(self, self._checked(other))  # type: ignore[operator]

    def __ge__(self, other: object) -> bool:
        return float.__ge__(self, self._checked(other))  # type: ignore[operator]

    def __repr__(self) -> str:
        return float.__repr__(self)


def with_percent_rates(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of a results document whose every metric and group ``rate`` is a ``Percent`` (the
    plugin's own floors and gate keep reading the plain document)."""
    out = copy.deepcopy(document)
    for table in ("metrics", "groups"):
        for entry in (out.get(table) or {}).values():
            if isinstance(entry, dict) and isinstance(entry.get("rate"), int | float):
                entry["rate"] = Percent(entry["rate"])
    return out
