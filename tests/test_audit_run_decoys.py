"""A case's messages are read under their own names only: a message's ``content``, never a
look-alike key (``XXcontentXX``, ``CONTENT``) it may also hold. Values by hand."""

from __future__ import annotations

from scorer.audit.run import sources
from scorer.audit.values import Sources
from scorer.suite.model import Case, Step, Suite


def test_the_request_texts_are_the_messages_contents() -> None:
    message = {"role": "user", "content": "Find it", "XXcontentXX": "x", "CONTENT": "y"}
    case = Case("c1", "g", (), (message,), (Step("none"),))
    suite = Suite("own", "1.0.0", "2026-01-01", "Be brief.", {}, (case,), "", "test")
    assert sources(case, suite, 0) == Sources("Find it\nBe brief.", "", "Find it")
