"""``lobstack-eval merge``: union the dirs of ``record --shard`` or ``rescore --shard`` jobs into one dir."""

from __future__ import annotations

from pathlib import Path

import typer


def merge(
    shard_dirs: list[Path] = typer.Argument(..., help="Cassette dirs, or report dirs, of the shards (one kind)."),
    out: Path = typer.Option(..., "--out", help="New or empty dir to write the merged cassettes or reports into."),
    suite: Path = typer.Option(
        Path("evals/suite.json"),
        "--suite",
        help="Suite file: for the merged index.html; for cassettes, to warn of models missing some of its cases.",
    ),
    html: bool = typer.Option(True, "--html/--no-html", help="Reports: also write index.html."),
    rows: Path = typer.Option(None, "--rows", help="Reports: also write the merged run's partitions into a rows dir."),
) -> int:
    """Merge shard dirs into one cassettes dir or one reports dir, as if one machine had done the whole run."""
    from replay.merge import merge as run_merge

    merged = run_merge(shard_dirs, out, suite, html=html, rows=rows)
    typer.echo(
        f"Merged {len(shard_dirs)} {merged.kind} dir(s) into {out}/: {merged.models} model(s), "
        f"{merged.cases} case(s), {len(merged.files)} file(s)",
        err=True,
    )
    for warning in merged.warnings:
        typer.echo(warning, err=True)
    if merged.kind == "cassettes":
        typer.echo(f"Next: lobstack-eval rescore {out}", err=True)
    return 0
