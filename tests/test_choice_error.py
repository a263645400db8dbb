"""An error inside a 200's first choice (OpenRouter's upstream failure) is an error answer,
never judged.

The stand-in's ``~inchoice<status>`` sends the real body's shape: no top-level ``error``,
``choices[0]`` ending in ``finish_reason: "error"`` with ``error: {"code", "message"}`` and an empty
message. Each row records a call case and a no-call case through it, then rescores the cassettes:
the same statuses, reasons and attempts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recorder.files import read_suite
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from replay.rescore import rescore_model
from scorer.wire.response import body_error
from standin.wire import CHOICE_ERROR, choice_error_json
from tests.conftest import MINI_SUITE

SUITE = read_suite(MINI_SUITE)
CASES = ["selection-01", "no_call-01"]
IN_CHOICE = "error {code} in a 200 answer's choice: " + CHOICE_ERROR

# suffix: (status, reason, attempt outcomes, errored by transport)
ROWS = {
    # a 502 in the choice is a transport error: retried, and the retry's answer judged
    "502-then-answer": ("inchoice502", "passed", None, ["in_body_502", "ok"], False),
    "503-every-attempt": (
        "inchoice503,inchoice503,inchoice503,inchoice503",
        "errored",
        "step 1: " + IN_CHOICE.format(code=503) + " (after 4 attempt(s))",
        ["in_body_503"] * 4,
        True,
    ),
    # any other code errors the case at once, with the provider's code and words
    "400": (
        "inchoice400",
        "errored",
        "step 1: " + IN_CHOICE.format(code=400),
        ["in_body_400"],
        False,
    ),
}


@pytest.mark.parametrize("row", list(ROWS), ids=list(ROWS))
def test_an_error_in_the_choice_is_an_error_answer_at_record_and_rescore(
    gateway, tmp_path: Path, row: str
) -> None:
    suffix, status, reason, outcomes, by_transport = ROWS[row]
    summary = record(
        MINI_SUITE,
        f"ref/oracle~{suffix}",
        tmp_path,
        gateway.url,
        CASES,
        RecordSettings(concurrency=1, backoff_scale=0.0),
    )
    manifest = read_manifest(summary.model_dir)
    rescored = {r["id"]: r for r in rescore_model(summary.model_dir, SUITE)["results"]}
    for case in CASES:
        entry = manifest.cases[case]
        assert (entry.status, entry.reason) == (status, reason), case
        assert [a.outcome for a in entry.attempts] == outcomes, case
        assert entry.errored_by_transport is by_transport, case
        assert rescored[case]["status"] == status and rescored[case].get("reason") == reason, case


BODY = choice_error_json("openai/gpt-4o", 502)
NO_OBJECT = json.loads(json.dumps(BODY))
del NO_OBJECT["choices"][0]["error"]
NULL_ERROR = json.loads(json.dumps(BODY))
NULL_ERROR["choices"][0].update(error=None, finish_reason="stop")


@pytest.mark.parametrize(
    ("body", "describe", "transport"),
    [
        (BODY, "error 502 in a 200 answer's choice: " + CHOICE_ERROR, True),
        (
            NO_OBJECT,
            """an error in a 200 answer's choice: finish_reason "error" and no error object""",
            False,
        ),
        (NULL_ERROR, None, None),
        ({"error": {"code": 503, "message": "x"}, **BODY}, "error 503 in a 200 answer: x", True),
    ],
    ids=["openrouter-body", "finish-reason-only", "null-error-is-an-answer", "top-level-first"],
)
def test_the_body_error_of_a_choice(
    body: dict, describe: str | None, transport: bool | None
) -> None:
    error = body_error(body)
    if describe is None:
        assert error is None
    else:
        assert error is not None and error.describe() == describe and error.transport is transport
