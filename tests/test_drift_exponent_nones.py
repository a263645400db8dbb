"""threshold() on a float32 theta (scorer/drift/exponent.py): it computes in float64 whatever the
input's float width, so a narrow float array gives the exact float64 ``scale / theta``. Written for
the audit of None crash reasons (benchmarks/README.md): ``np.asarray(theta, dtype=None)`` keeps
float32 and returns another value instead of raising."""

from __future__ import annotations

import numpy as np

from scorer.drift.exponent import threshold


def test_a_float32_theta_gives_the_float64_threshold() -> None:
    got = threshold(np.array([3.0, 0.0], dtype=np.float32), 1.0, 0.0, 10.0)
    assert got.dtype == np.float64
    # 1/3 in float64 (float32 would give 0.3333333432674408); theta 0 gives ``high``
    assert got.tolist() == [0.3333333333333333, 10.0]
