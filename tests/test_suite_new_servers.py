"""``suite new --mcp``: the server is owned whole and starts as the user's shell would start it
(issues 40 part 5, 42 part 5). A child the server started dies with it; 2 GB on its stderr costs no
memory (under an address-space limit); junk on its stdout is one ``error:`` line; it gets the user's
environment and ``--env``, an HTTP server gets ``--header``, and neither value is ever written or
printed; without the ``mcp`` extra, one line says how to install it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.tool_lists import hide_secrets, secret_values
from tests.conftest import ROOT
from tests.record_helpers import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]
SERVER = ROOT / "tests" / "fixtures" / "mcp_calendar" / "server.py"
COMMAND = f"{sys.executable} {SERVER}"
TOKEN = "cal-token-7f3a9c2e5b"


def new(capsys: pytest.CaptureFixture[str], out: Path, *args: str) -> tuple[int, str, str]:
    code = main(["suite", "new", str(out), "--released", "2026-12-05", *args])
    said, err = capsys.readouterr()
    return code, said, err


def gone(pid: int) -> bool:
    """True once ``pid`` is dead (a zombie left to an init that does not reap counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_a_child_the_server_started_does_not_outlive_suite_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "grandchild.pid"
    monkeypatch.setenv("CALENDAR_TOKEN", TOKEN)
    monkeypatch.setenv("CALENDAR_MODE", "grandchild")
    monkeypatch.setenv("CALENDAR_PIDFILE", str(pidfile))
    _, said, err = new(capsys, tmp_path / "s.json", "--mcp", COMMAND, "--timeout", "60")
    assert said.startswith("wrote "), err  # listed, then stopped
    pid = int(pidfile.read_text())
    wait_until(lambda: gone(pid), "the server's child to be killed with its group")


STDERR_RUN = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
from lobstack_eval.main import main
sys.exit(main(["suite", "new", sys.argv[2], "--mcp", sys.argv[3], "--timeout", "100"]))
"""


def test_two_gigabytes_on_stderr_cost_no_memory(tmp_path: Path) -> None:
    """The old reader kept the whole stderr and read it back: 2 GB over a 1 GiB address space."""
    limit = 1024 * 1024 * 1024
    env = {**os.environ, "CALENDAR_TOKEN": TOKEN, "CALENDAR_MODE": "stderr"}
    env["CALENDAR_STDERR_MB"] = "2048"
    done = subprocess.run(
        [sys.executable, "-c", STDERR_RUN, str(limit), str(tmp_path / "s.json"), COMMAND],
        capture_output=True, text=True, timeout=110, env=env, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"error: --mcp {COMMAND}: cannot list its tools: ")
    assert last.endswith("(the server said: calendar: cannot start, the disk is full)")


def test_junk_on_stdout_is_one_error_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CALENDAR_TOKEN", TOKEN)
    monkeypatch.setenv("CALENDAR_MODE", "junk")
    code, said, err = new(capsys, tmp_path / "s.json", "--mcp", COMMAND, "--timeout", "60")
    assert (code, said) == (1, "")
    assert err.splitlines()[1:] == [
        f"error: --mcp {COMMAND}: the server wrote a line on stdout that is not a JSON-RPC "
        "message: 'calendar server 3.1.0 starting, hello!' (an MCP server over stdio writes only "
        "protocol messages there; logs go to stderr)"
    ]
    assert not (tmp_path / "s.json").exists()


def test_the_server_gets_the_users_environment_and_env(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CALENDAR_TOKEN", raising=False)
    code, _, err = new(capsys, tmp_path / "a.json", "--mcp", COMMAND, "--timeout", "60")
    assert code == 1 and "(the server said: calendar: CALENDAR_TOKEN is not set)" in err
    out = tmp_path / "b.json"
    code, said, err = new(
        capsys, out, "--mcp", COMMAND, "--env", f"CALENDAR_TOKEN={TOKEN}", "--timeout", "60"
    )
    assert "wrote " in said, err
    assert TOKEN not in said + err + out.read_text(encoding="utf-8")
    monkeypatch.setenv("CALENDAR_TOKEN", TOKEN)  # the user's own environment, as a shell passes it
    code, said, err = new(capsys, tmp_path / "c.json", "--mcp", COMMAND, "--timeout", "60")
    assert "wrote " in said, err


def test_an_env_value_the_server_echoes_is_hidden(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CALENDAR_MODE", "echo-token")
    code, said, err = new(
        capsys, tmp_path / "s.json", "--mcp", COMMAND, "--env", f"CALENDAR_TOKEN={TOKEN}"
    )
    assert code == 1 and TOKEN not in said + err
    assert err.rstrip().endswith("(the server said: calendar: token [hidden] refused)")


def test_an_http_server_gets_the_header_and_it_is_never_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ROOT / "tests" / "fixtures" / "mcp_http" / "server.py"
    env = {**os.environ, "NOTES_HTTP_TOKEN": TOKEN}
    process = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env=env,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        url = f"http://127.0.0.1:{int(process.stdout.readline())}/mcp"
        code, _, err = new(capsys, tmp_path / "a.json", "--mcp", url, "--timeout", "30")
        assert code == 1 and "cannot list its tools" in err, err
        out = tmp_path / "b.json"
        header = f"Authorization: Bearer {TOKEN}"
        code, said, err = new(capsys, out, "--mcp", url, "--header", header, "--timeout", "30")
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert code == 0, err
    assert TOKEN not in said + err + out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--tools", "t.json", "--env", "A=1"], "--env: sets a variable for a --mcp command"),
        (["--mcp", "http://127.0.0.1:9/mcp", "--env", "A=1"], "--env: sets a variable for a"),
        (["--mcp", COMMAND, "--header", "X: y"], "--header: is sent to an --mcp http(s):// URL"),
        (["--mcp", COMMAND, "--env", f"1BAD={TOKEN}"], "must be KEY=VALUE"),
        (["--mcp", "http://127.0.0.1:9/mcp", "--header", f"Bearer {TOKEN}"], "'NAME: VALUE'"),
    ],
)
def test_bad_server_options_are_one_line_without_the_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], line: str
) -> None:
    code, said, err = new(capsys, tmp_path / "s.json", *args)
    assert (code, said) == (2, "") and err.count("\n") == 1 and line in err
    assert TOKEN not in err


def test_without_the_mcp_extra_one_line_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp raises ImportError
    code, _, err = new(capsys, tmp_path / "s.json", "--mcp", COMMAND)
    assert code == 1
    assert err.splitlines()[-1] == (
        "error: --mcp needs the MCP SDK, an optional extra: install lobstack-eval[mcp] "
        "(pip install 'lobstack-eval[mcp]', or uv add mcp)"
    )


def test_mcp_is_an_extra_that_allows_both_majors() -> None:
    """A project pinned to mcp<2 resolves (checked with uv pip compile, docs/install.md)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.split(">")[0].strip() == "mcp"]
    assert project["optional-dependencies"]["mcp"] == ["mcp>=1.10"]


def test_secrets_are_hidden_in_text_and_data() -> None:
    secrets = secret_values({"DEBUG": "1", "TOKEN": TOKEN}, {"Authorization": "Bearer abc.def"})
    assert secrets == [TOKEN, "Bearer abc.def", "abc.def"]
    assert hide_secrets(f"x {TOKEN} y abc.def", secrets) == "x [hidden] y [hidden]"
    data = [{"description": f'say "{TOKEN}"', "n": 1}]
    assert hide_secrets(data, secrets) == [{"description": 'say "[hidden]"', "n": 1}]
    assert json.dumps(hide_secrets(data, [])) == json.dumps(data)
