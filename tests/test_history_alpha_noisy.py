"""Every cell of the history gate's table for the noisy profile holds alpha (the other
profile's half: tests/test_history_alpha_near.py)."""

from __future__ import annotations

import pytest

from tests.history_simulation import assert_cell_holds_alpha


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("runs", [0, 5, 10, 20])
def test_every_cell_holds_alpha(k: int, runs: int) -> None:
    assert_cell_holds_alpha("noisy", k, runs)
