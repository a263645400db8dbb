"""An argument whose name holds a space (scorer/audit/wrong.py): a wrong value of ``first name``
replaces that argument, not ``name`` inside a ``first`` object beside it. Written for the audit of
None crash reasons (benchmarks/README.md), when paths were dotted strings (``path.split(None)``
split on the space and returned another answer instead of raising); paths are now tuples of keys,
and the answer keeps both the dotted ``arg`` and the ``path``."""

from __future__ import annotations

from scorer.audit.model import Answer
from scorer.audit.values import Sources
from scorer.audit.wrong import TEXT_ANSWER, step_wrong
from scorer.suite.model import Case, Check, ExpectedCall, Step, Suite, Tool

PERSON = {
    "type": "object",
    "properties": {
        "first name": {"type": "string", "enum": ["Ada", "Bob"], "default": "Ada"},
        "first": {"type": "object"},
    },
}


def test_a_wrong_value_of_an_argument_named_with_a_space_replaces_that_argument() -> None:
    # "first name" holds its default (no left_out answer), "first" an empty object
    reference = {"first name": "Ada", "first": {}}
    call = ExpectedCall("add_person", (("first", (Check("present", True),)),), reference, None)
    hi = ({"role": "user", "content": "hi"},)
    case = Case("c-01", "selection", ("add_person",), hi, (Step("call", (call,)),))
    spec = {"type": "function", "function": {"name": "add_person", "parameters": PERSON}}
    tools = {"add_person": Tool("add_person", spec, None)}
    suite = Suite("own", "1.0.0", "2026-01-01", "", tools, (case,), "", "test")
    ref = ("add_person", {"first name": "Ada", "first": {}})
    assert step_wrong(case, suite, 0, Sources("", "")) == [
        Answer(0, True, "text_answer", (), content=TEXT_ANSWER),
        Answer(0, True, "extra_call", (ref, ref)),
        Answer(
            0,
            True,
            "enum_neighbour",
            (("add_person", {"first name": "Bob", "first": {}}),),
            call=0,
            arg="first name",
            value="Bob",
            has_value=True,
            path=("first name",),
        ),
        Answer(
            0,
            True,
            "left_out",
            (("add_person", {"first name": "Ada"}),),
            call=0,
            arg="first",
            path=("first",),
        ),
    ]
