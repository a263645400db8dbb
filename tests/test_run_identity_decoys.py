"""A recorded body is free JSON: ``model`` and ``system_fingerprint`` are read under their own
names only, never under a look-alike key (``XXmodelXX``, ``MODEL``) the body may also hold.
Bodies and the expected identity by hand."""

from __future__ import annotations

from scorer.run_identity import RecordedAnswer, identity


def test_identity_reads_model_and_fingerprint_under_their_own_names() -> None:
    decoys = {
        "XXmodelXX": "x",
        "MODEL": "y",
        "XXsystem_fingerprintXX": "fx",
        "SYSTEM_FINGERPRINT": "fy",
    }
    empty = RecordedAnswer({}, {"model": "", "system_fingerprint": "", **decoys})
    named = RecordedAnswer({}, {"model": "m-1", "system_fingerprint": "fp_1", **decoys})
    assert identity([empty, named]) == {
        "model": ["m-1"],
        "system_fingerprint": ["fp_1"],
        "routing": {},
    }
