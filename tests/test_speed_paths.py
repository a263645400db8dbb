"""What the speed work relies on (benchmarks/run.py measures the speed itself): the lighter paths give what the
standard ones give, and each command imports only what it uses."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from replay.cassette_transport import load_interactions
from tests.conftest import ROOT

COMMITTED = sorted(p for p in (ROOT / "cassettes").glob("*/*.json") if p.name != "run.json")
HEAVY = ("vcr", "requests", "urllib3", "http.client", "rich", "jinja2", "matplotlib", "polars", "jsonschema")


def imported_by(args: list[str]) -> list[str]:
    """Which of HEAVY a fresh interpreter has imported after running the CLI with ``args``."""
    script = (
        "import sys\n"
        "from lobstack_eval.main import main\n"
        f"code = main({args!r})\n"
        f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120, cwd=ROOT
    ).stdout
    return [out.splitlines()[-1]]


def test_committed_cassettes_read_as_vcrpys_own_loader_reads_them() -> None:
    from vcr.serialize import deserialize
    from vcr.serializers import jsonserializer

    assert len(COMMITTED) > 800
    for path in COMMITTED:
        requests, responses, *_ = deserialize(path.read_text(encoding="utf-8"), jsonserializer)
        mine = load_interactions(path)
        assert [(r.method, r.uri, r.body) for r, _ in mine] == [(r.method, r.uri, r.body) for r in requests], path
        for (_, response), theirs in zip(mine, responses, strict=True):
            assert response["status"] == theirs["status"], path
            assert response["headers"] == theirs["headers"], path
            assert response["body"]["string"].encode("utf-8") == theirs["body"]["string"], path


def test_version_and_help_import_no_heavy_library() -> None:
    assert imported_by(["--version"]) == ["0 []"]
    assert imported_by(["--help"]) == ["0 []"]


def test_rescore_without_html_imports_neither_vcrpy_nor_an_http_client(tmp_path: Path) -> None:
    # Scoring needs polars (metrics) and jsonschema (argument checks); reading cassettes needs no HTTP library.
    # One model dir: scored in this process (many go to a pool, and then this process does not even need polars).
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", tmp_path / "cassettes" / "ref_oracle")
    args = ["rescore", str(tmp_path / "cassettes"), "--out", str(tmp_path / "out"), "--no-html", "--quiet"]
    assert imported_by(args) == ["0 ['jsonschema', 'polars']"]
