"""``suite audit`` of one case (scorer/audit/run.py): the texts the wrong values come from, the
checks a survivor is named by, the counts, survivors matched against the suite's ``audit_accept``
markers, refused right answers and stale markers, each written out by hand for a case small enough
to follow (docs/METHOD.md, suite-audit and audit-accept)."""

from __future__ import annotations

import dataclasses
from typing import Any

from scorer.audit.model import Answer, CaseAudit, Finding
from scorer.audit.run import answers, audit_case, audit_suite, check_text, sources
from scorer.audit.values import GENERIC_TEXT, Sources
from scorer.schema.subset import make_validator
from scorer.suite.model import AuditAccept, Case, Check, ExpectedCall, Step, Suite, Tool

SEARCH = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "limit": {"type": "integer", "description": "Most results (default 10)"},
    },
    "required": ["query"],
}
EMAIL = {
    "type": "object",
    "properties": {
        "to": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "subject": {"type": "string"},
        "body": {"type": "string"},
    },
    "required": ["to", "subject", "body"],
}
SYSTEM = "You are a test assistant."
ASK = "Find flaky tests, then mail ann@example.com"


def _tool(name: str, schema: dict[str, Any]) -> Tool:
    spec = {"type": "function", "function": {"name": name, "parameters": schema}}
    return Tool(name, spec, make_validator(schema))


def _suite(*cases: Case) -> Suite:
    tools = {"search": _tool("search", SEARCH), "send_email": _tool("send_email", EMAIL)}
    return Suite("own", "2.0.0", "2026-01-01", SYSTEM, tools, cases, "", "test")


def _checks(**checks: tuple[str, Any]) -> tuple[tuple[str, tuple[Check, ...]], ...]:
    return tuple((arg, (Check(op, operand),)) for arg, (op, operand) in checks.items())


SEARCH_CALL = ExpectedCall(
    "search",
    _checks(query=("contains", "flaky"), limit=("absent", True)),
    {"query": "flaky tests"},
    "Found issue 452",
)
EMAIL_CALL = ExpectedCall(
    "send_email",
    _checks(to=("present", True), subject=("present", True), body=("contains", "452")),
    {"to": ["ann@example.com", "ann@example.com"], "subject": "Weekly notes", "body": "Found 452"},
    None,
    (
        AuditAccept("subject", "generic_text", "any subject will do", GENERIC_TEXT, True),
        AuditAccept("body", "flipped", "stale: the body is no boolean"),
        AuditAccept("to", "item_dropped", "stale: not this value", ["bob@example.com"], True),
    ),
)
CASE = Case(
    "chains-01",
    "chains",
    ("search", "send_email"),
    (
        {"role": "user", "content": ASK},
        {"role": "user", "content": [{"type": "text", "text": "not read"}]},
        {"role": "user", "content": "Thanks"},
    ),
    (Step("call", (SEARCH_CALL,)), Step("call", (EMAIL_CALL,))),
)


def test_the_sources_of_a_step_are_the_request_and_earlier_results() -> None:
    suite = _suite(CASE)
    assert sources(CASE, suite, 0) == Sources(f"{ASK}\nThanks\n{SYSTEM}", "", f"{ASK}\nThanks")
    assert sources(CASE, suite, 1) == Sources(
        f"{ASK}\nThanks\n{SYSTEM}", "Found issue 452", f"{ASK}\nThanks"
    )
    three = dataclasses.replace(
        CASE,
        steps=(
            Step("call", (SEARCH_CALL, dataclasses.replace(SEARCH_CALL, result=None))),
            Step("call", (dataclasses.replace(SEARCH_CALL, result="second"),)),
            Step("none"),
        ),
    )
    assert sources(three, suite, 2).results == "Found issue 452\nsecond"


def test_a_survivor_is_named_by_the_checks_on_its_argument() -> None:
    expected = ExpectedCall(
        "t",
        (
            ("a", (Check("present", True),)),
            ("b", (Check("contains", "x"), Check("regex", "^y"))),
            ("c", (Check("absent", True),)),
            ("d", (Check("range", {"min": 1, "max": 2}),)),
        ),
        None,
        None,
    )
    assert check_text(expected, ("b", "x", "y")) == 'contains "x" and regex "^y"'
    assert check_text(expected, ()) == "the call's checks"
    assert check_text(expected, ("a",)) == "present"
    assert check_text(expected, ("c",)) == "absent"
    assert check_text(expected, ("d",)) == 'range {"max": 2, "min": 1}'
    assert check_text(expected, ("zz",)) == "no check on this argument"


def test_a_survivor_under_an_argument_whose_name_holds_a_dot_gets_that_argument_s_checks() -> None:
    # "a.b" is one top-level argument; ("a", "b") is field b of argument a: each has its own checks
    expected = ExpectedCall(
        "t",
        (
            ("a", (Check("present", True),)),
            ("a.b", (Check("eq", "x"),)),
            ("", (Check("absent", True),)),
            ("7", (Check("eq", 7),)),
        ),
        None,
        None,
    )
    assert check_text(expected, ("a.b",)) == 'eq "x"'
    assert check_text(expected, ("a", "b")) == "present"
    assert check_text(expected, ("a.b", "c")) == 'eq "x"'
    assert check_text(expected, ("",)) == "absent"
    assert check_text(expected, ("7",)) == "eq 7"
    assert check_text(expected, ("b",)) == "no check on this argument"


def _email(**args: Any) -> tuple[tuple[str, dict[str, Any]], ...]:
    return (("send_email", {**EMAIL_CALL.reference, **args}),)  # type: ignore[dict-item]


def test_a_case_audit_counts_survivors_markers_and_refused_right_answers() -> None:
    audit = audit_case(CASE, _suite(CASE))
    # step 0: text, other tool, extra call, query left out, generic query: all killed; right: the
    # reference, the query upper-cased, the stated default 10 given (refused: limit must be absent).
    # step 1: text, other tool, extra call, each argument left out, the body without the result's
    # 452, a generic body: killed; the two item_dropped answers are one (judged once) and survive
    # `present`, as does a generic subject, which the first marker accepts.
    limit = Answer(
        0,
        False,
        "default_given",
        (("search", {"query": "flaky tests", "limit": 10}),),
        call=0,
        arg="limit",
        path=("limit",),
        value=10,
        has_value=True,
    )
    item = Answer(
        1,
        True,
        "item_dropped",
        _email(to=["ann@example.com"]),
        call=0,
        arg="to",
        path=("to",),
        value=["ann@example.com"],
        has_value=True,
    )
    generic = Answer(
        1,
        True,
        "generic_text",
        _email(subject=GENERIC_TEXT),
        call=0,
        arg="subject",
        path=("subject",),
        value=GENERIC_TEXT,
        has_value=True,
    )
    assert audit == CaseAudit(
        "chains-01",
        mutants_tried=15,
        mutants_killed=13,
        rights_tried=6,
        rights_accepted=5,
        survivors=(
            Finding("chains-01", item, "send_email", "present"),
            Finding("chains-01", generic, "send_email", "present", "any subject will do"),
        ),
        rejected=(Finding("chains-01", limit, "search", "search.limit: expected absent, got 10"),),
        stale_accepts=(
            "steps[1].calls[0].audit_accept[1]: body flipped matches no surviving wrong answer",
            "steps[1].calls[0].audit_accept[2]: to item_dropped matches no surviving wrong answer",
        ),
    )
    whole = audit_suite(_suite(CASE))
    assert (whole.name, whole.version, whole.cases) == ("own", "2.0.0", (audit,))


def test_the_origin_names_a_looser_suite_and_refuses_a_right_answer() -> None:
    lookup = ExpectedCall(
        "search",
        _checks(query=("present", True), limit=("absent", True)),
        {"query": "a b\nc"},
        None,
    )
    step = Step("call", (lookup,))
    case = Case(
        "selection-01", "selection", ("search",), ({"role": "user", "content": ASK},), (step,)
    )
    strict = {
        "type": "object",
        "properties": {"query": {"type": "string", "maxLength": 5}, "limit": {"maximum": 5}},
    }
    suite = dataclasses.replace(_suite(case), origin_tools={"search": make_validator(strict)})

    def answer(wrong: bool, kind: str, args: dict[str, Any], arg: str, value: Any) -> Answer:
        calls = (("search", args),)
        return Answer(
            0, wrong, kind, calls, call=0, arg=arg, value=value, has_value=True, path=(arg,)
        )

    generic = answer(True, "generic_text", {"query": GENERIC_TEXT}, "query", GENERIC_TEXT)
    limit = answer(False, "default_given", {"query": "a b\nc", "limit": 10}, "limit", 10)
    newline = answer(False, "final_newline", {"query": "a b\nc\n"}, "query", "a b\nc\n")
    # wrong: a text, an extra call, the query left out (killed), a generic query (survives
    # `present`; the origin refuses it); right: the reference, the default 10 given (the
    # judge refuses it: its reason, not the origin's), the final newline (the origin refuses it)
    assert audit_case(case, suite) == CaseAudit(
        "selection-01",
        mutants_tried=4,
        mutants_killed=3,
        rights_tried=3,
        rights_accepted=1,
        survivors=(
            Finding(
                "selection-01",
                generic,
                "search",
                "the suite's schema is looser than the origin's, which refuses search: query: "
                f"'{GENERIC_TEXT}' is too long",
            ),
        ),
        rejected=(
            Finding("selection-01", limit, "search", "search.limit: expected absent, got 10"),
            Finding(
                "selection-01",
                newline,
                "search",
                "the suite accepts it but the origin's schema refuses search: query: 'a b\\nc\\n' "
                "is too long",
            ),
        ),
        stale_accepts=(),
    )


def test_a_survivor_both_schemas_refuse_is_named_by_its_checks() -> None:
    short = {"type": "object", "properties": {"query": {"type": "string", "maxLength": 5}}}
    lookup = ExpectedCall("search", _checks(query=("present", True)), {"query": "a b"}, None)
    case = Case("selection-01", "selection", ("search",), (), (Step("call", (lookup,)),))
    suite = dataclasses.replace(
        _suite(case),
        tools={"search": _tool("search", short)},
        origin_tools={"search": make_validator(short)},
    )
    (survivor,) = audit_case(case, suite).survivors
    assert (survivor.answer.kind, survivor.check) == ("generic_text", "present")


def test_a_marker_on_the_second_call_of_a_parallel_step() -> None:
    flaky = ExpectedCall(
        "search", _checks(query=("contains", "flaky")), {"query": "flaky tests"}, None
    )
    slow = ExpectedCall(
        "search",
        _checks(query=("present", True)),
        {"query": "slow tests"},
        None,
        (AuditAccept("query", "generic_text", "any query will do"),),
    )
    case = Case("parallel-01", "parallel", ("search",), (), (Step("call", (flaky, slow)),))
    audit = audit_case(case, _suite(case))
    # wrong: a text, an extra call, each call missing, each query left out, each generic: only
    # the second generic survives, accepted; right: the reference, the calls swapped, each call
    # given the stated default limit, FLAKY TESTS
    assert (audit.mutants_tried, audit.mutants_killed) == (8, 7)
    assert (audit.rights_tried, audit.rights_accepted, audit.rejected) == (5, 5, ())
    assert [(f.answer.kind, f.answer.call, f.accepted) for f in audit.survivors] == [
        ("generic_text", 1, "any query will do")
    ]
    assert audit.stale_accepts == ()


def test_a_step_s_wrong_values_come_from_the_results_before_it_only() -> None:
    own = ExpectedCall(
        "search", _checks(query=("present", True)), {"query": "find 452"}, "452 found"
    )
    case = Case("selection-01", "selection", ("search",), (), (Step("call", (own,)),))
    got = [(a.kind, a.value) for a in answers(case, _suite(case)) if a.wrong and a.arg == "query"]
    assert got == [("required_left_out", None), ("generic_text", GENERIC_TEXT)]
