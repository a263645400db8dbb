"""Each docs/commands page shows its command's ``--help`` byte for byte (as simonw/llm checks its
help docs).

``LOBSTACK_UPDATE_DOCS=1 uv run pytest tests/test_command_docs.py`` rewrites the blocks from the
real output.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import ROOT
from tests.test_cli_help import same_name

PAGES = {
    "suite-check": ["suite", "check"],
    "suite-audit": ["suite", "audit"],
    "suite-export": ["suite", "export"],
    "suite-new": ["suite", "new"],
    "record": ["record"],
    "rescore": ["rescore"],
    "merge": ["merge"],
    "leaderboard": ["leaderboard"],
    "report": ["report"],
    "diff-suites": ["diff", "suites"],
    "diff-runs": ["diff", "runs"],
    "diff-dialects": ["diff", "dialects"],
    "drift": ["drift"],
    "pick": ["pick"],
    "gateway": ["gateway"],
}
DOCS = ROOT / "docs" / "commands"
FENCE = "```text\n"
PLUGIN_GROUP = "lobstack-eval: one test per (model, case) of recorded cassettes:"


def cli_help(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    """The command's --help at a fixed width with no colour, from the CLI's own main."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr("sys.argv", ["lobstack-eval"])
    assert main([*args, "--help"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return same_name(out)


def plugin_help(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    """The pytest plugin's option group of ``pytest --help`` at a fixed width, from pytest's own
    main in this process: a new config loads the installed plugins (the ``pytest11`` entry point)
    as a ``pytest`` command does, and prints the same help (compared with ``python -m pytest
    --help``'s when this moved in process; a subprocess cost about 1 s of CPU, this 0.15 s). Run
    in an empty folder, so that no conftest nor ini file of this checkout is read twice."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert pytest.main(["--help"]) == 0
    out = capsys.readouterr().out
    group = out.split("\n" + PLUGIN_GROUP + "\n", 1)[1].split("\n\n", 1)[0]
    return f"{PLUGIN_GROUP}\n{group}\n"


def check_block(page: Path, help_text: str) -> None:
    """Compare the page's first
    ```text block with help_text, or rewrite it under LOBSTACK_UPDATE_DOCS=1."""
    text = page.read_text(encoding="utf-8")
    before, rest = text.split(FENCE, 1)
    block, after = rest.split("```\n", 1)
    if os.environ.get("LOBSTACK_UPDATE_DOCS") == "1":
        page.write_text(before + FENCE + help_text + "```\n" + after, encoding="utf-8")
        return
    assert block == help_text, (
        f"{page.name} is stale: LOBSTACK_UPDATE_DOCS=1 uv run pytest {__file__}"
    )


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_shows_the_help_verbatim(  # type: ignore[no-untyped-def]
    page: str,
    capsys,
    monkeypatch,
) -> None:
    check_block(DOCS / f"{page}.md", cli_help(PAGES[page], capsys, monkeypatch))


def test_plugin_page_shows_its_options_verbatim(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch
) -> None:
    check_block(DOCS / "pytest-plugin.md", plugin_help(tmp_path, capsys, monkeypatch))


def test_index_links_every_page() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    pages = sorted(path.name for path in DOCS.glob("*.md") if path.name != "README.md")
    assert pages == sorted([f"{name}.md" for name in PAGES] + ["pytest-plugin.md"])
    for name in pages:
        assert f"]({name})" in index, name
