"""``lobstack-eval suite check``, ``suite audit`` and ``suite export``: validate a suite file, prove
its checks, write the bundled suite into a project."""

from __future__ import annotations

from pathlib import Path

import typer

from lobstack_eval.suite_option import SUITE_DEFAULT_HELP


def check(
    suite: Path = typer.Argument(
        None, metavar="SUITE", help=f"Suite file to validate {SUITE_DEFAULT_HELP}."
    ),
) -> int:
    """Validate a suite file: every problem is listed with its case id and field; exit 1 on any."""
    from lobstack_eval.suite_option import chosen_suite
    from recorder.files import check_suite_file

    suite = chosen_suite(suite)[0]
    report = check_suite_file(suite)
    counts = ", ".join(f"{group} {count}" for group, count in report.group_counts.items())
    total = sum(report.group_counts.values())
    for problem in report.problems:
        typer.echo(f"{suite}: {problem}", err=True)
    if report.problems:
        # no case with a group, no counts: an empty "cases per group: " looks like a lost line
        per_group = f"; cases per group: {counts}" if counts else ""
        typer.echo(f"error: {suite}: {len(report.problems)} problem(s){per_group}", err=True)
        return 1
    assert report.suite is not None
    s = report.suite
    typer.echo(
        f"{suite}: {s.name} {s.version} ({s.released}) is valid: {total} cases, {len(s.tools)} "
        "tools"
    )
    typer.echo(f"cases per group: {counts}")
    typer.echo(f"sha256 {s.sha256}")
    drafts = [case.id for case in s.cases if case.draft]
    if drafts:
        # A draft loads and scores like any case: the note is for the author, not a problem.
        typer.echo(
            f'drafts: {len(drafts)} of {total} cases still say what to edit (their "draft" key); '
            "rewrite them, then remove the key"
        )
    return 0


def export(
    path: Path = typer.Argument(
        Path("evals/suite.json"), metavar="PATH", help="Where to write the suite file."
    ),
    force: bool = typer.Option(
        False, "--force", help="Overwrite a different file already at PATH."
    ),
) -> int:
    """Write the suite bundled with lobstack-eval to PATH, for a project to commit (then every
    command uses it, whatever lobstack-eval version runs them). A different file already there is
    kept unless --force."""
    from recorder.bundled_suite import export_suite, tool_version

    done = export_suite(path, force)
    where = f"the suite bundled with lobstack-eval {tool_version()}"
    if not done.written:
        typer.echo(f"{path} already holds {where}: {done.title}")
    elif done.replaced is not None:
        typer.echo(f"wrote {path}: {done.title}, {where} (it replaced {done.replaced}); commit it")
    else:
        typer.echo(f"wrote {path}: {done.title}, {where}; commit it")
    return 0


def audit(
    suite: Path = typer.Argument(
        None, metavar="SUITE", help=f"Suite file to audit {SUITE_DEFAULT_HELP}."
    ),
    json_out: Path = typer.Option(
        None, "--json", help="Also write the audit as JSON to this file."
    ),
) -> int:
    """Prove every check tells a right answer from a wrong one: generate wrong answers (mutants) and
    right answers from each case, judge each with the real judge; exit 1 when a wrong answer
    passes (not accepted by an audit_accept marker), a right answer is refused, or a marker
    matches nothing."""
    from fileio.atomic import write_atomic
    from lobstack_eval.suite_option import chosen_suite
    from recorder.files import read_suite
    from replay.audit_render import audit_json, audit_lines
    from scorer.audit import audit_suite

    suite = chosen_suite(suite)[0]
    loaded = read_suite(suite)
    result = audit_suite(loaded)
    for line in audit_lines(result):
        typer.echo(line)
    if json_out is not None:
        write_atomic(json_out, audit_json(result, loaded.sha256))
    if result.failed:
        survivors = sum(1 for c in result.cases for f in c.survivors if f.accepted is None)
        rejected = sum(len(c.rejected) for c in result.cases)
        stale = sum(len(c.stale_accepts) for c in result.cases)
        typer.echo(
            f"error: {suite}: {survivors} surviving wrong answer(s), {rejected} refused right "
            f"answer(s), {stale} stale audit_accept marker(s)",
            err=True,
        )
        return 1
    return 0
