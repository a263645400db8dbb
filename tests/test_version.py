"""``lobstack-eval --version``: the installed version, printed without importing the
heavy libraries."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from lobstack_eval.main import main
from tests.conftest import ROOT

HEAVY = ("polars", "vcr", "requests", "jsonschema", "rich", "jinja2", "matplotlib")


def test_version_is_the_project_version(capsys) -> None:  # type: ignore[no-untyped-def]
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"lobstack-eval {declared}\n"


def test_version_imports_no_heavy_library() -> None:
    script = (
        "import sys\n"
        "from lobstack_eval.main import main\n"
        "code = main(['--version'])\n"
        f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert out.splitlines()[-1] == "0 []"
