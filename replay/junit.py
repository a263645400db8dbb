"""JUnit XML for a run diff: the gate's verdict, case by case, in a CI system's test view.

One verdict, shown the same way everywhere: a ``<failure>`` is a regression of this change (a case that flipped
to failed, or Overall beyond ``--max-drop``), an ``<error>`` is a case or run that scored in A and did not in B
(errored, unrecorded, vanished, or no score at all), and everything else the gate does not count is
``<skipped>`` with a message saying why (a known failure, failing in both runs; errored in both; allowed). So
failures + errors is exactly the number of regressions the gate found.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from replay.diff_runs import CaseOutcome, Decision, ModelDiff, Regression, RunDiff

WHOLE_RUN = "(whole run)"  # the testcase of a regression about a model's run rather than one case
_COUNTS = ("tests", "failures", "errors", "skipped")


def to_junit(diff: RunDiff, decision: Decision) -> bytes:
    """JUnit XML bytes: one ``<testsuite>`` per model (compared, or only in A), one ``<testcase>`` per case of A
    or B, plus a ``(whole run)`` testcase for each regression about a whole run. No timestamps or durations, so
    the same diff always gives the same bytes."""
    root = ET.Element("testsuites", {"name": "lobstack-eval diff runs"})
    totals = dict.fromkeys(_COUNTS, 0)
    by_model: dict[str, list[Regression]] = {}
    for regression in decision.regressions:
        by_model.setdefault(regression.model, []).append(regression)
    suites = [_testsuite(m, by_model.get(m.model, [])) for m in diff.models]
    suites += [_vanished(model, by_model.get(model, [])) for model in diff.only_a]
    for suite in sorted(suites, key=lambda s: s.get("name", "")):
        root.append(suite)
        for key in _COUNTS:
            totals[key] += int(suite.get(key, "0"))
    for key in _COUNTS:
        root.set(key, str(totals[key]))
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _suite_element(name: str, cases: list[ET.Element], properties: list[tuple[str, str]]) -> ET.Element:
    counts = {
        "tests": len(cases),
        "failures": sum(1 for c in cases if c.find("failure") is not None),
        "errors": sum(1 for c in cases if c.find("error") is not None),
        "skipped": sum(1 for c in cases if c.find("skipped") is not None),
    }
    suite = ET.Element("testsuite", {"name": name, **{k: str(v) for k, v in counts.items()}})
    props = ET.SubElement(suite, "properties")
    for key, value in properties:
        ET.SubElement(props, "property", {"name": key, "value": value})
    suite.extend(cases)
    return suite


def _testsuite(model: ModelDiff, regressions: list[Regression]) -> ET.Element:
    per_case = {r.case_id: r for r in regressions if r.case_id is not None}
    cases = [_testcase(model.model, c, per_case.get(c.case_id)) for c in model.cases]
    cases += [_whole_run(model.model, r) for r in regressions if r.case_id is None]
    properties = [
        ("suite_a", f"{model.suite_a.name} {model.suite_a.version}"),
        ("suite_b", f"{model.suite_b.name} {model.suite_b.version}"),
        ("mcnemar_p", repr(model.mcnemar_p)),
    ]
    return _suite_element(model.model, cases, properties)


def _vanished(model: str, regressions: list[Regression]) -> ET.Element:
    return _suite_element(model, [_whole_run(model, r) for r in regressions], [])


def _whole_run(model: str, regression: Regression) -> ET.Element:
    element = ET.Element("testcase", {"classname": model, "name": WHOLE_RUN})
    tag = "failure" if regression.kind == "dropped" else "error"
    message = f"Overall dropped: {regression.message}" if regression.kind == "dropped" else regression.message
    ET.SubElement(element, tag, {"message": message, "type": regression.kind})
    return element


def _testcase(model: str, case: CaseOutcome, regression: Regression | None) -> ET.Element:
    element = ET.Element("testcase", {"classname": model, "name": case.case_id})
    if regression is not None:
        tag = "failure" if regression.kind == "flipped" else "error"
        node = ET.SubElement(element, tag, {"message": regression.message, "type": regression.kind})
        node.text = _history(case)
        return element
    if case.status_b == "passed":
        return element
    ET.SubElement(element, "skipped", {"message": _not_counted(case)})
    return element


def _history(case: CaseOutcome) -> str:
    return f"{case.status_a or 'absent'} in A, {case.status_b or 'absent'} in B"


def _not_counted(case: CaseOutcome) -> str:
    """Why a case that did not pass in B is not a regression of this change."""
    a, b = case.status_a, case.status_b
    reason = f": {case.reason_b}" if case.reason_b else ""
    if a == b == "failed":
        return f"known failure (failed in A and in B){reason}"
    if a == "passed" and b == "failed":
        return f"passed in A, failed in B; with --max-drop the gate judges Overall, not single flips{reason}"
    if a in ("passed", "failed"):
        return f"{b or 'absent'} in B, within --allow-errored{reason}"
    if b == "failed":
        return f"failed in B, not scored in A (nothing to regress from){reason}"
    if b is None:
        return f"absent from B, not scored in A either ({a})"
    return f"{b} in B, not scored in A either ({a or 'absent'}){reason}"
