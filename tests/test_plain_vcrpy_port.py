"""The cassettes under plain vcrpy (and so pytest-recording, which passes its ``vcr_config`` to
vcrpy): a cassette recorded from a loopback gateway stores its URI without the port, so a client
that calls the gateway at its port (``http://127.0.0.1:8080/v1``) matches only when ``port`` is
left out of ``match_on``, as docs/FORMATS.md#plain-vcrpy-and-pytest-recording says."""

from __future__ import annotations

import json

import pytest
import requests
import vcr
from vcr.errors import CannotOverwriteExistingCassetteException

from tests.conftest import ROOT

CASSETTE = ROOT / "cassettes" / "ref_oracle" / "selection-01.json"
WITHOUT_PORT = ["method", "scheme", "host", "path", "query", "body"]  # the documented match_on


def _post(port: int) -> requests.Response:
    request = json.loads(CASSETTE.read_text(encoding="utf-8"))["interactions"][0]["request"]
    assert request["uri"] == "http://127.0.0.1/v1/chat/completions"  # stored without the port
    return requests.post(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        data=request["body"].encode(),
        headers={"Content-Type": "application/json"},
        timeout=10,
    )


def test_a_client_at_a_port_replays_with_the_documented_match_on() -> None:
    plain = vcr.VCR(serializer="json", record_mode="none", match_on=WITHOUT_PORT)
    with plain.use_cassette(str(CASSETTE)):
        answer = _post(8080)
    assert answer.status_code == 200 and answer.json()["choices"][0]["message"]["tool_calls"]


def test_vcrpys_default_matchers_miss_it_at_a_port() -> None:
    plain = vcr.VCR(serializer="json", record_mode="none")  # default match_on includes the port
    with plain.use_cassette(str(CASSETTE)), pytest.raises(CannotOverwriteExistingCassetteException):
        _post(8080)
