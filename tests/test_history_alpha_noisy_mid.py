"""Every cell of the history gate's table for the noisy profile with 5 and 10 earlier runs holds
alpha. The table's cells are cut over four files of about the same CPU (noisy and near; 0 and 20
earlier runs, 5 and 10), so that pytest-xdist's ``--dist loadfile`` (a file's tests in one worker)
can balance them over the workers; the simulation is tests/history_simulation.py."""

from __future__ import annotations

import pytest

from tests.history_simulation import assert_cell_holds_alpha


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("runs", [5, 10])
def test_every_cell_holds_alpha(k: int, runs: int) -> None:
    assert_cell_holds_alpha("noisy", k, runs)
