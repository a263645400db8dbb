"""The suite builder: a decoded suite document -> the frozen ``Suite``, every problem with its
case and field."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from scorer.checks import operand_problem
from scorer.iso_date import is_iso_date
from scorer.schema.subset import schema_errors
from scorer.suite import kind as suite_kind
from scorer.suite import rules as suite_rules
from scorer.suite.accepts import parse_accepts
from scorer.suite.model import GROUPS, Case, Check, ExpectedCall, Step, Suite, Tool
from scorer.suite.origin import origin_problems, origin_validators
from scorer.suite.tools import TOOL_NAME_RE, TOOL_NAME_RULE, build_tools, shown_name

# Used with fullmatch only: re.match's `$` also matches before a final newline ("1.1.0\n" passed).
VERSION_RE = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
_ROLES = ("user", "assistant", "tool", "system")


class SuiteBuilder:
    """Builds the frozen suite while collecting every problem with its case id and field path."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[str] = []
        # The Lobstack suite keeps the method page's group rules; another suite names its own groups
        # and ids.
        self.lobstack = False
        self.origin_tools: dict[str, Any] = {}

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def suite(self, data: Any, sha256: str) -> Suite | None:
        if not isinstance(data, dict):
            # check_suite refuses such a document first, in its format's words
            self.problem("(top level)", "a suite must be an object")
            return None
        for key in ("name", "version", "released", "system_prompt"):
            value = data.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                # YAML reads `version: 0.1` or `name: 2026` as a number: say so, not "missing"
                self.problem(key, f'{value!r} is a number, not a string: quote it ("{value!r}")')
            elif not isinstance(value, str) or not value:
                self.problem(key, "missing or not a non-empty string")
        if isinstance(data.get("version"), str) and not VERSION_RE.fullmatch(data["version"]):
            self.problem("version", f"{data['version']!r} is not MAJOR.MINOR.PATCH")
        if isinstance(data.get("released"), str) and not is_iso_date(data["released"]):
            self.problem("released", f"{data['released']!r} is not a YYYY-MM-DD date (a real day)")
        self.lobstack = suite_kind.is_lobstack(data.get("name"))
        if "origin" in data:
            found = origin_problems(data["origin"])
            if not found:
                self.origin_tools, found = origin_validators(data["origin"])
            self.problems.extend(found)
        tools = self.tools(data.get("tools"))
        raw_cases = data.get("cases")
        cases: list[Case] = []
        if not isinstance(raw_cases, list) or not raw_cases:
            self.problem("cases", "missing or not a non-empty list")
        else:
            seen: set[str] = set()
            for index, raw_case in enumerate(raw_cases):
                case = self.case(raw_case, index, tools, seen)
                if case is not None:
                    cases.append(case)
        if self.problems:
            return None
        return Suite(
            name=data["name"],
            version=data["version"],
            released=data["released"],
            system_prompt=data["system_prompt"],
            tools=tools,
            cases=tuple(cases),
            sha256=sha256,
            source=self.source,
            origin_tools=self.origin_tools,
        )

    def tools(self, raw: Any) -> dict[str, Tool]:
        """The suite's tool catalogue (a case offering a refused name is told so in ``case``)."""
        # Lobstack's suites keep the method page's subset; another suite's schemas are whole.
        tools, problems = build_tools(raw, whole=not self.lobstack)
        self.problems.extend(problems)
        return tools

    def case(self, raw: Any, index: int, tools: dict[str, Tool], seen: set[str]) -> Case | None:
        if not isinstance(raw, dict):
            self.problem(f"cases[{index}]", "a case must be an object")
            return None
        case_id = raw.get("id")
        if not isinstance(case_id, str) or not case_id:
            self.problem(f"cases[{index}].id", "missing or not a non-empty string")
            return None
        where = f"case {case_id}"
        before = len(self.problems)
        if case_id in seen:
            self.problem(f"{where}.id", "duplicate case id")
        seen.add(case_id)
        group = raw.get("group")
        if self.lobstack and group not in GROUPS:
            self.problem(f"{where}.group", f"{group!r} is not one of {', '.join(GROUPS)}")
        elif not isinstance(group, str) or not 0 < len(group) <= suite_rules.GROUP_MAX:
            self.problem(f"{where}.group", "missing or not a string of 1 to 64 characters")
        draft = raw.get("draft")
        if "draft" in raw and (not isinstance(draft, str) or not draft):
            self.problem(f"{where}.draft", "must be a non-empty string (what to edit)")
        # The rules that read raw fields run on every case, so one run lists every problem; they are
        # kept apart so they do not stop the case building (the shape rule needs it built). A
        # Lobstack suite's <group>-NN rule is narrower than every suite's file-name rule.
        rules = (
            suite_rules.id_problems(case_id, group)
            if self.lobstack and group in GROUPS
            else suite_rules.file_id_problems(case_id)
        )
        offered = raw.get("tools")
        if not isinstance(offered, list) or not all(isinstance(t, str) for t in offered):
            self.problem(f"{where}.tools", "must be a list of tool names")
            offered = []
        for name, count in Counter(offered).items():
            if count > 1:
                self.problem(f"{where}.tools", f"{name!r} is offered {count} times")
        for name in offered:
            if not TOOL_NAME_RE.fullmatch(name):
                self.problem(
                    f"{where}.tools",
                    f"{shown_name(name)} is not a tool name gateways accept: {TOOL_NAME_RULE}",
                )
            elif name not in tools:
                self.problem(
                    f"{where}.tools",
                    f"{name!r} is not in the tools catalogue (or its schema is invalid)",
                )
        messages = raw.get("messages")
        if not isinstance(messages, list) or not messages:
            self.problem(f"{where}.messages", "missing or not a non-empty list")
            messages = []
        for m_index, message in enumerate(messages):
            if not isinstance(message, dict) or message.get("role") not in _ROLES:
                self.problem(
                    f"{where}.messages[{m_index}]", f"must be an object with role one of {_ROLES}"
                )
        rules += suite_rules.message_problems(case_id, messages)
        steps = self.steps(raw.get("steps"), where, set(offered), tools)
        if steps and self.lobstack:
            self.group_rules(group, steps, where)
        built = len(self.problems) == before
        case = (
            Case(
                case_id,
                group,
                tuple(offered),
                tuple(messages),
                tuple(steps),
                draft if isinstance(draft, str) else None,
            )
            if built
            else None
        )
        if (
            case is not None and self.lobstack
        ):  # only a built case is whole enough for the shape rule
            rules += suite_rules.shape_problems(case)
        self.problems += rules
        return case

    def group_rules(self, group: Any, steps: list[Step], where: str) -> None:
        if group == "chains" and not 2 <= len(steps) <= 4:
            self.problem(f"{where}.steps", f"a chain has 2 to 4 steps, this one has {len(steps)}")
        if group == "no_call" and steps[0].expect != "none":
            self.problem(f"{where}.steps[0].expect", 'a no_call case expects "none" first')
        if group == "parallel" and not any(2 <= len(step.calls) <= 3 for step in steps):
            self.problem(f"{where}.steps", "a parallel case has a step expecting 2 or 3 calls")

    def steps(self, raw: Any, where: str, offered: set[str], tools: dict[str, Tool]) -> list[Step]:
        if not isinstance(raw, list) or not raw:
            self.problem(f"{where}.steps", "missing or not a non-empty list")
            return []
        steps: list[Step] = []
        for s_index, raw_step in enumerate(raw):
            at = f"{where}.steps[{s_index}]"
            last = s_index == len(raw) - 1
            if not isinstance(raw_step, dict) or raw_step.get("expect") not in ("call", "none"):
                self.problem(f"{at}.expect", 'must be "call" or "none"')
                continue
            if raw_step["expect"] == "none":
                if raw_step.get("calls"):
                    self.problem(f"{at}.calls", 'a "none" step has no calls')
                if not last:
                    self.problem(at, 'a "none" step may only be the last step')
                steps.append(Step("none"))
                continue
            raw_calls = raw_step.get("calls")
            if not isinstance(raw_calls, list) or not raw_calls:
                self.problem(f"{at}.calls", 'a "call" step needs a non-empty list of calls')
                continue
            calls = [
                self.call(raw_call, f"{at}.calls[{c_index}]", offered, tools, needs_result=not last)
                for c_index, raw_call in enumerate(raw_calls)
            ]
            steps.append(Step("call", tuple(call for call in calls if call is not None)))
        return steps

    def call(
        self, raw: Any, at: str, offered: set[str], tools: dict[str, Tool], needs_result: bool
    ) -> ExpectedCall | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            self.problem(f"{at}.name", "a call needs a tool name")
            return None
        name = raw["name"]
        if name not in offered:
            self.problem(f"{at}.name", f"{name!r} is not among the case's offered tools")
        tool = tools.get(name)
        args = self.args(raw.get("args", {}), f"{at}.args", tool)
        reference = raw.get("reference")
        result = raw.get("result")
        if result is not None and not isinstance(result, str):
            self.problem(f"{at}.result", "must be a string (the tool message content)")
        if needs_result and not isinstance(result, str):
            self.problem(f"{at}.result", "a call in a non-final step needs a scripted result")
        if not isinstance(reference, dict):
            self.problem(f"{at}.reference", "missing or not an argument object")
        else:
            for arg, checks in args:
                for check in checks:
                    failure = check.run(arg in reference, reference.get(arg))
                    if failure:
                        self.problem(f"{at}.reference.{arg}", f"fails its own check: {failure}")
            if tool is not None:
                for error in tool.errors(reference):
                    self.problem(
                        f"{at}.reference", f"does not validate against {name}'s schema: {error}"
                    )
            origin = self.origin_tools.get(name)
            if origin is not None and (tool is None or not tool.errors(reference)):
                for error in schema_errors(origin, reference):
                    self.problem(
                        f"{at}.reference",
                        f"does not validate against {name}'s schema in the origin: {error}",
                    )
        accepts, trouble = parse_accepts(raw.get("audit_accept"), f"{at}.audit_accept")
        self.problems.extend(trouble)
        return ExpectedCall(
            name, args, reference if isinstance(reference, dict) else None, result, accepts
        )

    def args(
        self, raw: Any, at: str, tool: Tool | None
    ) -> tuple[tuple[str, tuple[Check, ...]], ...]:
        if not isinstance(raw, dict):
            self.problem(at, "must be an object of argument name -> check(s)")
            return ()
        declared = tool.spec["function"]["parameters"].get("properties") if tool else None
        out = []
        for arg in raw:
            if isinstance(declared, dict) and arg not in declared:
                self.problem(f"{at}.{arg}", f"{tool.name if tool else '?'} has no argument {arg!r}")
            raw_checks = raw[arg] if isinstance(raw[arg], list) else [raw[arg]]
            checks = []
            for c_index, raw_check in enumerate(raw_checks):
                where = f"{at}.{arg}" + (f"[{c_index}]" if isinstance(raw[arg], list) else "")
                if not isinstance(raw_check, dict) or len(raw_check) != 1:
                    self.problem(where, "a check is an object with exactly one operator key")
                    continue
                ((op, operand),) = raw_check.items()
                trouble = operand_problem(op, operand)
                if trouble:
                    self.problem(where, trouble)
                    continue
                checks.append(Check(op, operand))
            out.append((arg, tuple(checks)))
        return tuple(out)
