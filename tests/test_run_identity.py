"""A run's date and the model's identity from the recorded answers (scorer/run_identity.py), on
hand-made answers: the expected values are written out here, not computed by the code under test."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from scorer.run_identity import (
    RecordedAnswer,
    header_date,
    identity,
    parse_recorded_at,
    run_date,
    run_object,
)


def answer(headers: dict[str, list[str]] | None = None, **body: object) -> RecordedAnswer:
    return RecordedAnswer(headers or {}, body)


def test_identity_is_the_sorted_distinct_values_of_the_answers() -> None:
    answers = [
        answer(
            {"X-Lobstack-Provider": ["b-host"], "Date": ["Wed, 21 Oct 2026 00:00:00 GMT"]},
            model="gpt-4o-2024-08-06",
            system_fingerprint="fp_2",
        ),
        answer(
            {"x-lobstack-provider": ["a-host"], "x-litellm-model-id": ["m1"]},
            model="gpt-4o-2024-08-06",
            system_fingerprint="fp_1",
        ),
        answer(
            {"llm_provider-x-lobstack-model": ["up"], "x-other": ["ignored"]}, model="gpt-4o-mini"
        ),
        # OpenRouter's provider field; an empty model is no name
        answer(provider="Together", model=""),
        RecordedAnswer({}, "not an object"),
    ]
    assert identity(answers) == {
        "model": ["gpt-4o-2024-08-06", "gpt-4o-mini"],
        "system_fingerprint": ["fp_1", "fp_2"],
        "routing": {
            "llm_provider-x-lobstack-model": ["up"],
            "provider": ["Together"],
            "x-litellm-model-id": ["m1"],
            "x-lobstack-provider": ["a-host", "b-host"],
        },
    }
    assert identity([]) == {"model": [], "system_fingerprint": [], "routing": {}}


def test_the_date_is_recorded_at_in_utc_else_the_earliest_date_header_else_none() -> None:
    late = answer({"Date": ["Fri, 23 Oct 2026 10:00:00 GMT"]})
    early = answer({"date": ["Thu, 22 Oct 2026 23:59:59 GMT", "garbage"]})
    assert run_date("2026-10-21T23:30:00-02:00", [late]) == "2026-10-22"  # 01:30 UTC the next day
    assert run_date(None, [late, early]) == "2026-10-22"
    assert run_date(None, [answer()]) is None
    assert header_date("Wed, 21 Oct 2026 00:00:00 -0000") == "2026-10-21"
    assert header_date("yesterday") is None


def test_the_run_object_has_the_agreed_names() -> None:
    run = run_object(
        "2026-10-21", None, [answer({"Date": ["Wed, 21 Oct 2026 06:00:00 GMT"]}, model="m")]
    )
    assert run == {
        "id": "2026-10-21",
        "date": "2026-10-21",
        "recorded_at": None,
        "identity": {"model": ["m"], "system_fingerprint": [], "routing": {}},
    }


def test_identity_of_one_routing_header() -> None:
    answers = [answer({"X-Lobstack-Provider": ["a-host", ""]})]
    assert identity(answers) == {
        "model": [],
        "system_fingerprint": [],
        "routing": {"x-lobstack-provider": ["a-host"]},
    }


def test_recorded_at_wins_over_the_date_headers() -> None:
    run = run_object(
        "r1", "2026-10-20T23:00:00+00:00", [answer({"Date": ["Wed, 21 Oct 2026 06:00:00 GMT"]})]
    )
    assert run["date"] == "2026-10-20"


def test_recorded_at_without_a_time_zone_is_not_a_date() -> None:
    assert parse_recorded_at("2026-10-21T10:00:00") is None
    early = answer({"Date": ["Thu, 22 Oct 2026 23:59:59 GMT"]})
    assert run_date("2026-10-21T10:00:00", [early]) == "2026-10-22"


def test_the_date_is_utc_whatever_the_machines_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    """20:00 UTC is the next morning in Tokyo: the run's date stays the UTC one."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert parse_recorded_at("2026-10-21T20:00:00+00:00") == datetime(
            2026, 10, 21, 20, 0, tzinfo=UTC
        )
        assert run_date("2026-10-21T20:00:00+00:00", []) == "2026-10-21"
        assert run_date("2026-10-21T22:00:00-02:00", []) == "2026-10-22"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_identity_skips_empty_and_non_string_values() -> None:
    nothing = {"model": [], "system_fingerprint": [], "routing": {}}
    assert identity([answer(model="", system_fingerprint="", provider="")]) == nothing
    assert identity([answer(model=5, system_fingerprint=7, provider=9)]) == nothing


def test_identity_of_the_body_provider_alone() -> None:
    assert identity([answer(provider="Together")]) == {
        "model": [],
        "system_fingerprint": [],
        "routing": {"provider": ["Together"]},
    }


def test_date_headers_are_utc_whatever_the_machines_time_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Date header's day in UTC: naive "-0000" is GMT, not the machine's (Tokyo's) time."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert header_date("Wed, 21 Oct 2026 02:00:00 -0000") == "2026-10-21"
        assert header_date("Wed, 21 Oct 2026 20:00:00 GMT") == "2026-10-21"
        assert header_date("Thu, 22 Oct 2026 01:00:00 +0900") == "2026-10-21"
    finally:
        monkeypatch.undo()
        time.tzset()
