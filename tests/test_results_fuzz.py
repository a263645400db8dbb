"""One-field mutations of a results.json through ``diff runs``, ``report`` and the plugin's
baseline: each is judged (compared, rendered) or refused with ``error:`` lines naming the file,
never a traceback (issue 28)."""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from pytest_lobstack.options import Settings
from pytest_lobstack.state import LobstackRun
from scorer.errors import LobstackError

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "reports" / "ref_noisy" / "results.json"
# A wrong type for every kind of field: a hashable-only use (a set, a dict key) dies on a list or
# an object.
WRONG = [None, "x", ["x"], {"x": 1}, -1]


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every field of the document, but of each list and of the metrics and groups objects only the
    first member: the others have the same shape, and every mutation that changes a figure
    redraws a plot."""
    if path:
        yield path
    if isinstance(node, dict):
        keys = list(node)[:1] if path and path[-1] in ("metrics", "groups") else list(node)
        for key in keys:
            yield from _paths(node[key], (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node[:1]):
            yield from _paths(item, (*path, i))


# Read once: each test writes it with one field swapped and put back (``_mutated_text``).
DOCUMENT = json.loads(SOURCE.read_text(encoding="utf-8"))


def _mutations() -> list[tuple[str, tuple[Any, ...], Any]]:
    return [("/".join(map(str, p)), p, value) for p in _paths(DOCUMENT) for value in WRONG]


def _mutated_text(path: tuple[Any, ...], value: Any) -> str:
    """The source document as JSON text with the field at ``path`` set to ``value``; the
    document itself is left as it was."""
    node = DOCUMENT
    for key in path[:-1]:
        node = node[key]
    kept = node[path[-1]]
    node[path[-1]] = copy.deepcopy(value)
    try:
        return json.dumps(DOCUMENT)
    finally:
        node[path[-1]] = kept


MUTATIONS = _mutations()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("base") / "ref_noisy"
    folder.mkdir()
    shutil.copy(SOURCE, folder / "results.json")
    return folder.parent


def test_the_table_covers_every_field_and_type() -> None:
    assert len(MUTATIONS) > 250
    assert any(p == ("results", 0, "status") for _, p, _ in MUTATIONS)


@pytest.mark.parametrize(
    ("where", "path", "value"), MUTATIONS, ids=[f"{w}={v!r}" for w, _, v in MUTATIONS]
)
def test_a_one_field_mutation_is_judged_or_refused_by_name(
    where: str,
    path: tuple[Any, ...],
    value: Any,
    base: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    head = tmp_path / "head" / "ref_noisy"
    head.mkdir(parents=True)
    file = head / "results.json"
    file.write_text(_mutated_text(path, value), encoding="utf-8")
    junit, markdown = tmp_path / "junit.xml", tmp_path / "summary.md"
    codes = [
        main(
            [
                "diff",
                "runs",
                str(base),
                str(head.parent),
                "--junit",
                str(junit),
                "--markdown",
                str(markdown),
            ]
        )
    ]
    # As the plugin's baseline the mutated file is side A: the same gate, read the other way round.
    # Its JUnit file is a new one: on ext4 a file renamed over another is flushed (auto_da_alloc),
    # milliseconds of waiting that fsync's absence in the tests does not save.
    junit_b = tmp_path / "junit_b.xml"
    codes.append(main(["diff", "runs", str(head.parent), str(base), "--junit", str(junit_b)]))
    codes.append(main(["report", str(head.parent), "--suite", str(ROOT / "evals" / "suite.json")]))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert codes[0] in (0, 1, 2) and codes[1] in (0, 1, 2) and codes[2] in (0, 1), (codes, err)
    if codes[2] == 1:  # report refused the file: one line naming it
        assert f"error: {file}: " in err, err
    # The plugin's baseline: read and asked for every case, or one ResultsError naming the file.
    state = LobstackRun(_settings(head.parent, tmp_path), lambda _text: None)
    try:
        assert all(isinstance(name, str) for name in state.baseline())
    except LobstackError as exc:
        assert exc.message.startswith(f"{file}: "), exc.message


def _settings(baseline: Path, start: Path) -> Settings:
    suite = ROOT / "evals" / "suite.json"
    return Settings(start / "cassettes", suite, (), "none", None, 1, (baseline,), (), start)
