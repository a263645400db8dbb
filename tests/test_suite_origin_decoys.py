"""An origin's tool entry is read from its ``function`` object, never from a look-alike key
(``XXfunctionXX``, ``FUNCTION``) beside it. Values by hand."""

from __future__ import annotations

from scorer.suite.origin import origin_validators


def test_the_validator_is_named_by_the_function() -> None:
    schema = {"type": "object"}
    entry = {
        "type": "function",
        "function": {"name": "get", "parameters": schema},
        "XXfunctionXX": {"name": "x", "parameters": schema},
        "FUNCTION": {"name": "y", "parameters": schema},
    }
    validators, problems = origin_validators({"kind": "tools_file", "tools": [entry]})
    assert (list(validators), problems) == (["get"], [])
