"""The one exception family of lobstack-eval: the CLI prints ``error: <message>`` and exits with
``exit_code``."""

from __future__ import annotations


class LobstackError(Exception):
    """A failure the user must fix; its message is one line naming the file, case or field."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(LobstackError):
    """Bad command-line usage (exit 2)."""

    exit_code = 2

    def __init__(self, message: str, earlier: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.earlier = earlier  # problems found before this one, each worth its own error line


class SuiteError(LobstackError):
    """A suite file that cannot be loaded or fails validation; ``problems`` lists every
    one found."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


class CassetteError(LobstackError):
    """A cassette or manifest that is missing, corrupt or belongs to another suite."""


class GatewayError(LobstackError):
    """The gateway could not be used at all (no API key for a remote URL, bad base URL)."""


class ResultsError(LobstackError):
    """A results file or report directory that cannot be read or compared."""


class HistoryError(LobstackError):
    """A history of runs that cannot be tested (``drift``): unreadable, undated or mixed runs (exit
    2, so a scheduled watch tells a broken history from a changed model, exit 1)."""

    exit_code = 2

    def __init__(self, message: str, earlier: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.earlier = earlier  # problems found before this one, each worth its own error line
