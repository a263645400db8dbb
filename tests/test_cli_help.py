"""Every command's ``--help`` (issue 25): whole sentences in the command lists, values named like
their option (``--out OUT``, ``rescore [CASSETTES]``) instead of Python types (``<list[str]>``)
or braces (``{rows}``)."""

from __future__ import annotations

import re

import pytest

from lobstack_eval.cli_help import first_sentence
from lobstack_eval.main import main

GROUPS = {
    "": [
        "record",
        "rescore",
        "gateway",
        "report",
        "merge",
        "leaderboard",
        "drift",
        "pick",
        "suite",
        "diff",
    ]
}
GROUPS |= {"suite": ["check", "export", "audit", "new"], "diff": ["suites", "runs", "dialects"]}
COMMANDS = [f"{group} {name}".split() for group, names in GROUPS.items() for name in names]


def help_of(
    capsys: pytest.CaptureFixture[str], args: list[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr("sys.argv", ["lobstack-eval"])  # the program name the usage line shows
    assert main([*args, "--help"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return same_name(out)


def same_name(out: str) -> str:
    """The program name as the usage line shows it depends on how Python was started (under python
    -m pytest, typer 0.27 says "python -m pytest.lobstack-eval"): compared from the command's
    name on."""
    return re.sub(r"^Usage: \S*(?: -m \S*)?lobstack-eval", "Usage: lobstack-eval", out)


@pytest.mark.parametrize("args", [[], ["suite"], ["diff"]], ids=["top", "suite", "diff"])
def test_each_command_is_listed_with_its_whole_first_sentence(
    capsys, monkeypatch, args: list[str]
) -> None:  # type: ignore[no-untyped-def]
    text = help_of(capsys, args, monkeypatch)
    listing = text.split("Commands:\n", 1)[1]
    entries = re.split(r"\n  (?=\S)", "\n" + listing.rstrip())[1:]
    names = [entry.split()[0] for entry in entries]
    assert names == GROUPS[" ".join(args)]
    for entry in entries:
        description = " ".join(entry.split()[1:])
        assert description.endswith("."), entry  # a sentence, not cut with "..."
        assert "..." not in description


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_no_python_types_or_braces_in_any_help(  # type: ignore[no-untyped-def]
    capsys,
    monkeypatch,
    args: list[str],
) -> None:
    text = help_of(capsys, args, monkeypatch)
    usage = text.splitlines()[0]
    assert usage.startswith(f"Usage: lobstack-eval {' '.join(args)} ")
    assert "{" not in usage and "<" not in usage, usage
    for line in text.splitlines():
        option = re.match(r"  (?:-\w, )?--[\w-]+(?: / --[\w-]+)?(?: (\S+))?(?:  |$)", line)
        if option and option.group(1):
            assert re.fullmatch(r"[A-Z_=/]+", option.group(1)), line
    assert not re.search(r"<(str|path|list\[|int|float)", text), text


def test_rescore_usage_and_options_name_their_values(  # type: ignore[no-untyped-def]
    capsys,
    monkeypatch,
) -> None:
    text = help_of(capsys, ["rescore"], monkeypatch)
    assert text.splitlines()[0] == "Usage: lobstack-eval rescore [OPTIONS] [CASSETTES]"
    assert "\n  CASSETTES  Cassette directory" in text
    assert "\n  --out OUT " in text and "\n  --shard SHARD " in text
    merge = help_of(capsys, ["merge"], monkeypatch)
    assert merge.splitlines()[0] == "Usage: lobstack-eval merge [OPTIONS] SHARD_DIRS..."


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("Re-score cassettes: results.json per model.\n\nMore.", "Re-score cassettes."),
        (
            "Record into x/ (resumes: only what is missing).",
            "Record into x/ (resumes: only what is missing).",
        ),
        ("Compute it; print it.", "Compute it."),
        ("One. Two.", "One."),
        ("Work with suite files.", "Work with suite files."),
        ("", ""),
    ],
)
def test_first_sentence(text: str, sentence: str) -> None:
    assert first_sentence(text) == sentence


@pytest.mark.parametrize("args", [[], ["suite"], ["diff"]], ids=["top", "suite", "diff"])
def test_a_group_without_a_command_prints_its_help_and_exits_2(
    capsys, monkeypatch, args: list[str]
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.argv", ["lobstack-eval"])
    assert main(args) == 2
    out, err = capsys.readouterr()
    usage = f"Usage: lobstack-eval {' '.join(args)}".rstrip() + " [OPTIONS] COMMAND"
    assert same_name(out).startswith(usage) and err == ""


@pytest.mark.parametrize(
    ("args", "missing"),
    [
        (["merge"], "SHARD_DIRS"),
        (["leaderboard"], "ROWS"),
        (["drift"], "RUN"),
        (["diff", "suites"], "OLD"),
        (["diff", "suites", "old.json"], "NEW"),
        (["diff", "runs"], "A"),
    ],
)
def test_a_missing_argument_is_named_as_the_usage_line_names_it(
    capsys: pytest.CaptureFixture[str], args: list[str], missing: str
) -> None:
    """`Missing argument 'rows'` beside `Missing argument 'OLD'`: every argument is named by its
    upper-case metavar, the name its usage line shows."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: Missing argument '{missing}'.\n"


def test_every_argument_has_its_upper_case_metavar() -> None:
    """Typer names an argument without a metavar by its Python name in errors (`'shard_dirs'`)."""
    import typer

    from lobstack_eval.main import app

    command = typer.main.get_command(app)
    ctx = command.make_context("lobstack-eval", [], resilient_parsing=True)
    seen = 0
    for path in COMMANDS:
        target = command
        for name in path:
            target = target.get_command(ctx, name)  # type: ignore[attr-defined]
        for param in target.params:
            if param.param_type_name == "argument":
                seen += 1
                assert param.metavar is not None and param.metavar == param.metavar.upper(), (
                    path,
                    param.name,
                )
    assert seen >= 12
