"""``lobstack-eval merge``: union the dirs of ``record --shard`` or ``rescore --shard`` jobs into
one dir."""

from __future__ import annotations

from pathlib import Path

import typer

from lobstack_eval.suite_option import SUITE_DEFAULT_HELP


def merge(
    shard_dirs: list[Path] = typer.Argument(
        ..., metavar="SHARD_DIRS", help="Cassette dirs, or report dirs, of the shards (one kind)."
    ),
    out: Path = typer.Option(
        ..., "--out", help="New or empty dir to write the merged cassettes or reports into."
    ),
    suite: Path = typer.Option(
        None,
        "--suite",
        help="Suite file: for the merged index.html; for cassettes, to warn of models missing "
        f"some of its cases {SUITE_DEFAULT_HELP}.",
    ),
    html: bool = typer.Option(True, "--html/--no-html", help="Reports: also write index.html."),
    rows: Path = typer.Option(
        None, "--rows", help="Reports: also write the merged run's partitions into a rows dir."
    ),
) -> int:
    """Merge shard dirs into one cassettes dir or one reports dir, as if one machine had done the
    whole run."""
    from lobstack_eval.suite_option import chosen_suite
    from replay.merge import merge as run_merge
    from replay.merge.inputs import CASSETTES, common_kind

    path, note = chosen_suite(suite, say=False)
    if note is not None and (
        html or common_kind(shard_dirs) == CASSETTES
    ):  # said only when the suite is read
        typer.echo(note, err=True)
    from replay.merge.inputs import check_out
    from replay.out.lock import out_dir_lock, rows_lock

    check_out(out, shard_dirs)  # before the lock file makes it non-empty
    with out_dir_lock(out, "merge"), rows_lock(rows, out, "merge"):
        merged = run_merge(shard_dirs, out, path, html=html, rows=rows)
    typer.echo(
        f"Merged {len(shard_dirs)} {merged.kind} dir(s) into {out}/: {merged.models} model(s), "
        f"{merged.cases} case(s), {len(merged.files)} file(s)",
        err=True,
    )
    for warning in merged.warnings:
        typer.echo(warning, err=True)
    if merged.kind == "cassettes":
        typer.echo(f"next: lobstack-eval rescore {out}", err=True)
    for line in merged.errors:
        typer.echo(f"error: {line}", err=True)
    return 1 if merged.errors else 0
