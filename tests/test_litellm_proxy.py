"""Recording through a real LiteLLM proxy in front of the stand-in (issue 45): LiteLLM forwards the
stand-in's headers as ``llm_provider-<name>``, and with no option the run still knows the price and
that ``ref/no-temperature`` dropped ``temperature``; the proxy's master key never reaches a file.

LiteLLM is not a dependency of lobstack-eval (it pins much of what lobstack-eval pins): the test
runs the proxy from its own environment, ``uv tool run --from litellm[proxy]==<LITELLM>``, which
the package registry fills on first use and uv's cache afterwards. Its price list is the one it
ships (``LITELLM_LOCAL_MODEL_COST_MAP``): it never fetches one.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE
from tests.record_helpers import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

LITELLM = "1.108.7"  # the version docs/GATEWAYS.md's measurements were made with
MASTER_KEY = "sk-litellm-test-master-7f3a9c"
STARTUP_S = 600  # a cold package cache downloads LiteLLM's environment first


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def litellm_proxy(gateway: Any, tmp_path: Path) -> Iterator[str]:
    """A LiteLLM proxy on 127.0.0.1 whose models are the stand-in's, started in its own process
    group and stopped whole at the end; its base URL."""
    uv = os.environ.get("UV") or shutil.which("uv")
    assert uv, "uv is needed to run the LiteLLM proxy"
    models = ["ref/no-temperature", "ref/oracle"]
    config = {
        "model_list": [
            {
                "model_name": m,
                "litellm_params": {
                    "model": f"openai/{m}",
                    "api_base": gateway.url,
                    "api_key": "none",
                },
            }
            for m in models
        ],
        "general_settings": {"master_key": MASTER_KEY},
    }
    path = tmp_path / "litellm.json"  # YAML is a superset of JSON
    path.write_text(json.dumps(config), encoding="utf-8")
    port = _free_port()
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "NO_COLOR": "1"}
    log = (tmp_path / "litellm.log").open("wb")
    serve = ["--config", str(path), "--host", "127.0.0.1", "--port", str(port)]
    proxy = subprocess.Popen(
        [uv, "tool", "run", "--from", f"litellm[proxy]=={LITELLM}", "litellm", *serve],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        assert proxy.poll() is None, (tmp_path / "litellm.log").read_text(errors="replace")[-3000:]
        try:
            return requests.get(f"{url}/health/liveliness", timeout=2).status_code == 200
        except requests.ConnectionError:
            return False

    try:
        wait_until(ready, "the LiteLLM proxy to listen", timeout=STARTUP_S)
        yield f"{url}/v1"
    finally:
        os.killpg(proxy.pid, signal.SIGKILL)
        proxy.wait(timeout=30)
        log.close()


def test_through_a_real_litellm_proxy_the_facts_stay_facts(
    litellm_proxy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOBSTACK_API_KEY", MASTER_KEY)
    cassettes, out = tmp_path / "cassettes", tmp_path / "reports"
    for model in ("ref/no-temperature", "ref/oracle"):
        record = ["record", "--model", model, "--suite", str(MINI_SUITE)]
        record += ["--cassettes", str(cassettes), "--base-url", litellm_proxy]
        assert main([*record, "--concurrency", "2"]) == 0
    rescore = ["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out), "-q"]
    assert main([*rescore, "--no-html"]) == 0

    dropped = json.loads((out / "ref_no-temperature" / "results.json").read_text("utf-8"))
    kept = json.loads((out / "ref_oracle" / "results.json").read_text("utf-8"))
    assert dropped["temperature_ignored"] is True
    assert kept["temperature_ignored"] is False
    assert dropped["metrics"]["overall"]["rate"] == 100.0 == kept["metrics"]["overall"]["rate"]

    # The price is the stand-in's, as LiteLLM forwarded it, summed over every answer.
    forwarded = []
    for cassette in sorted((cassettes / "ref_no-temperature").glob("*-*.json")):
        for interaction in json.loads(cassette.read_text("utf-8"))["interactions"]:
            headers = {k.lower(): v for k, v in interaction["response"]["headers"].items()}
            assert "x-lobstack-cost-usd" not in headers  # only under LiteLLM's prefix
            forwarded.append(float(headers["llm_provider-x-lobstack-cost-usd"][0]))
    assert len(forwarded) == 10 and dropped["cost_usd"] == pytest.approx(sum(forwarded))

    board = (out / "leaderboard.md").read_text("utf-8")
    row = next(line for line in board.splitlines() if line.startswith("| ref/no-temperature "))
    assert "| yes |" in row and "| - |" not in row
    for written in [*cassettes.rglob("*"), *out.rglob("*")]:
        if written.is_file():
            assert MASTER_KEY.encode() not in written.read_bytes(), written
