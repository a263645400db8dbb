"""How the recorder reads Ctrl-C: one press drains, a second stops; the same press delivered twice
(a launcher forwarding the group's SIGINT) is still one press; SIGTERM always stops at once."""

from __future__ import annotations

import signal

from recorder.interrupts import SAME_PRESS_S, Interrupts


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _state(interrupts: Interrupts) -> tuple[bool, bool]:
    return interrupts.draining, interrupts.stop_now


def test_first_ctrl_c_drains_and_a_later_second_stops_now() -> None:
    clock = Clock()
    interrupts = Interrupts(lambda _text: None, clock)
    interrupts._interrupt(signal.SIGINT, None)
    assert _state(interrupts) == (True, False)
    clock.now += 1.0
    interrupts._interrupt(signal.SIGINT, None)
    assert _state(interrupts) == (True, True)


def test_the_same_press_forwarded_by_a_launcher_is_one_press() -> None:
    clock = Clock()
    interrupts = Interrupts(lambda _text: None, clock)
    interrupts._interrupt(signal.SIGINT, None)
    clock.now += SAME_PRESS_S / 10  # uv run forwards the group's SIGINT within milliseconds
    interrupts._interrupt(signal.SIGINT, None)
    assert _state(interrupts) == (True, False)
    clock.now += SAME_PRESS_S  # a person's second press
    interrupts._interrupt(signal.SIGINT, None)
    assert _state(interrupts) == (True, True)


def test_sigterm_stops_at_once_even_right_after_ctrl_c() -> None:
    clock = Clock()
    interrupts = Interrupts(lambda _text: None, clock)
    interrupts._interrupt(signal.SIGINT, None)
    interrupts._interrupt(signal.SIGTERM, None)
    assert _state(interrupts) == (True, True)
