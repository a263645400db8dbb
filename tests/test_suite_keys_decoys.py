"""The unknown-key walk checks the keys of ``origin.server`` and of a tool's ``function``, never
those of a look-alike key (``XXserverXX``, ``FUNCTION``) beside them: that key is itself one
unknown key of its object, its contents are not read."""

from __future__ import annotations

from scorer.suite.keys import unknown_key_problems


def test_only_the_server_and_function_objects_are_walked() -> None:
    look_alike = {"bogus": 1}
    data = {
        "origin": {
            "kind": "mcp",
            "server": {"name": "s", "version": "1"},
            "XXserverXX": look_alike,
            "SERVER": look_alike,
            "tools": [],
        },
        "tools": {
            "t": {
                "type": "function",
                "function": {"name": "t"},
                "XXfunctionXX": look_alike,
                "FUNCTION": look_alike,
            }
        },
    }
    found = unknown_key_problems(data)
    assert len(found) == 4
    assert [line for line in found if "bogus" in line] == []
