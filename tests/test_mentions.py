"""No ``@mention`` reaches a pull-request comment: GitHub would notify whoever a model's
answer named.

End to end: `diff runs --markdown` (and the step summary it appends to) over runs whose case reasons
quote a model that wrote ``@octocat`` and ``(@acme/security)``; every would-be mention comes out
broken by a zero-width space (``@&#8203;``), what it said still readable, and an e-mail address
left alone."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from scorer.safe_text import without_mentions
from tests.conftest import ROOT

RUNS = ROOT / "tests" / "fixtures" / "runs"
# GitHub's mention: an @ not preceded by a word character, then a user or org name (1-39 of
# [A-Za-z0-9-]).
MENTION = re.compile(r"(?:^|[^A-Za-z0-9_])@[A-Za-z0-9][A-Za-z0-9-]*")
SAID = "I asked @octocat and (@acme/security) to review; mail ops@example.com"


def test_a_mention_in_a_reason_is_broken_in_the_comment_and_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(RUNS / "base", a)
    shutil.copytree(RUNS / "cand", b)
    results = b / "ref_noisy" / "results.json"
    doc = json.loads(results.read_text(encoding="utf-8"))
    regressed = next(r for r in doc["results"] if r["id"] == "parallel-02")  # passed in A
    regressed["reason"] = f"step 1: expected 2 calls in one response, got text: {SAID!r}"
    results.write_text(json.dumps(doc), encoding="utf-8")
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    comment = tmp_path / "comment.md"
    main(["diff", "runs", str(a), str(b), "--markdown", str(comment), "--fail-on-regression"])
    for text in (comment.read_text(encoding="utf-8"), summary.read_text(encoding="utf-8")):
        assert "@&#8203;octocat" in text and "(@&#8203;acme/security)" in text
        assert "ops@example.com" in text  # not a mention: left as written
        assert MENTION.findall(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@octocat", "@&#8203;octocat"),
        ("cc @a-b, @c", "cc @&#8203;a-b, @&#8203;c"),
        ("(@org/team)", "(@&#8203;org/team)"),
        ("me@example.com", "me@example.com"),
        ("model@v2", "model@v2"),
        ("@ alone", "@ alone"),
        ("no at sign", "no at sign"),
    ],
)
def test_without_mentions(text: str, expected: str) -> None:
    assert without_mentions(text) == expected
    assert MENTION.findall(without_mentions(text)) == []
