"""The mutation benchmark's count (benchmarks/mutation.py's tally): which outcome lands in which
column, and which leave the score's denominator."""

from __future__ import annotations

from benchmarks.mutation import tally

STATUSES = {
    "scorer.m.x_f__mutmut_1": "killed",  # by assertion
    "scorer.m.x_f__mutmut_2": "killed",  # by crash, explained
    "scorer.m.x_f__mutmut_3": "killed",  # by crash, not explained
    "scorer.m.x_f__mutmut_4": "timeout",  # explained as a hang
    "scorer.m.x_f__mutmut_5": "timeout",  # not explained
    "scorer.m.x_f__mutmut_6": "survived",  # equivalent
    "scorer.m.x_f__mutmut_7": "survived",  # accepted
    "scorer.m.x_f__mutmut_8": "survived",
    "scorer.m.x_f__mutmut_9": "not checked",
    "scorer.m.x_f__mutmut_10": "killed",  # no failed test logged
}
KILLS = {
    "scorer.m.x_f__mutmut_1": "assertion",
    "scorer.m.x_f__mutmut_2": "crash",
    "scorer.m.x_f__mutmut_3": "crash",
}
EXPLAINED = {
    "scorer.m.x_f__mutmut_2": "crash: raises",
    "scorer.m.x_f__mutmut_4": "hang: loops",
    "scorer.m.x_f__mutmut_5": "crash: a crash reason does not explain a timeout",
    "scorer.m.x_f__mutmut_6": "equivalent: same",
    "scorer.m.x_f__mutmut_7": "accepted: why",
}


def test_each_outcome_lands_in_its_column() -> None:
    t = tally(STATUSES, KILLS, EXPLAINED)["scorer.m"]
    assert (t.mutants, t.assertion, t.crash, t.timeout, t.not_run) == (9, 1, 1, 1, 1)
    assert t.crash_only == ["scorer.m.x_f__mutmut_2", "scorer.m.x_f__mutmut_4"]
    assert t.equivalent == ["scorer.m.x_f__mutmut_6"]
    assert t.accepted == ["scorer.m.x_f__mutmut_7"]
    assert t.survived == ["scorer.m.x_f__mutmut_8"]
    assert t.unlogged == ["scorer.m.x_f__mutmut_10"]
    # 1 by assertion over 9 - 1 equivalent - 2 with no value to check (a crash and a hang).
    assert t.score == 100.0 / 6
    assert t.strict == 100.0 / 8
