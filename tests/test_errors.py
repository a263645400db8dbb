"""scorer/errors.py by exact value: each error's message, exit code and extra fields, as the CLI's
one handler reads them (``error: <message>``, then ``exit_code``)."""

from __future__ import annotations

import pytest

from scorer.errors import (
    CassetteError,
    GatewayError,
    HistoryError,
    LobstackError,
    ResultsError,
    SuiteError,
    UsageError,
)


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        (LobstackError, 1),
        (UsageError, 2),
        (SuiteError, 1),
        (CassetteError, 1),
        (GatewayError, 1),
        (ResultsError, 1),
        (HistoryError, 2),
    ],
)
def test_each_error_keeps_its_message_and_exit_code(kind: type[LobstackError], code: int) -> None:
    error = kind("runs/a.json: not a file")
    assert error.message == "runs/a.json: not a file"
    assert str(error) == "runs/a.json: not a file"
    assert error.args == ("runs/a.json: not a file",)
    assert error.exit_code == code
    assert isinstance(error, LobstackError)


def test_the_earlier_problems_and_the_suite_problems() -> None:
    assert UsageError("bad").earlier == ()
    assert UsageError("bad", ("first", "second")).earlier == ("first", "second")
    assert HistoryError("bad").earlier == ()
    assert HistoryError("bad", ("one",)).earlier == ("one",)
    assert SuiteError("bad").problems == ()
    assert SuiteError("2 problems", ("a: x", "b: y")).problems == ("a: x", "b: y")
    for error in (UsageError("u", ("e",)), HistoryError("h", ("e",)), SuiteError("s", ("p",))):
        assert (error.message, str(error)) == (error.args[0], error.args[0])
        assert error.args[0] in ("u", "h", "s")
