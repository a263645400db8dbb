"""JUnit XML for a run diff: the gate's verdict, case by case, in a CI system's test view.

One verdict, shown the same way everywhere: a ``<failure>`` is a regression of this change, an ``<error>`` is a
case or run that scored in A and did not in B (errored, unrecorded, vanished, or no score at all), and everything
else the gate does not count is ``<skipped>`` with a message saying why. So failures + errors is exactly the
number of regressions the gate found (``Decision.regressions``).

A regression about one case (a scoring change, a flip under ``--strict``, a consistent failure, a lost case) is
that case's ``<failure>`` or ``<error>``. A regression about a model's whole run (the paired test found B worse,
Overall beyond ``--max-drop``, no score, a missing model) is a ``(whole run)`` testcase of its own; when the paired
test decided, each case that got worse is ``<skipped>`` with "counted in the paired test", so the cases behind the
statistical verdict are listed without being counted twice. Cases that got worse but that no rule counted are
``<skipped>`` saying why (noise in a flaky case, or a flip the paired test cannot tell from noise).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from replay.diff_runs import CaseOutcome, Decision, ModelDiff, NotCompared, Regression, RunDiff
from replay.diff_runs.rules import case_history
from scorer.safe_text import for_xml

WHOLE_RUN = "(whole run)"  # the testcase of a regression about a model's run rather than one case
_COUNTS = ("tests", "failures", "errors", "skipped")


def to_junit(diff: RunDiff, decision: Decision) -> bytes:
    """JUnit XML bytes: one ``<testsuite>`` per model (compared, or only in A), one ``<testcase>`` per case of A
    or B, plus a ``(whole run)`` testcase for each regression about a whole run. No timestamps or durations, so
    the same diff always gives the same bytes."""
    by_model: dict[str, list[Regression]] = {}
    for regression in decision.regressions:
        by_model.setdefault(regression.model, []).append(regression)
    suites = [_testsuite(m, by_model.get(m.model, []), decision) for m in diff.models]
    suites += [_vanished(model, by_model.get(model, [])) for model in diff.only_a]
    return _document(sorted(suites, key=lambda s: s.get("name", "")))


NOT_COMPARED = "(not compared)"  # the testsuite of runs that could not be compared at all


def not_compared_junit(problems: Sequence[NotCompared]) -> bytes:
    """JUnit XML for runs that could not be compared (METHOD decision 111): one ``(not compared)`` testsuite with
    an ``<error>`` testcase per problem (named by the file or model it is about; the message is the error line's
    text), so a CI system shows why instead of finding no file."""
    cases = []
    for problem in problems:
        element = ET.Element("testcase", {"classname": NOT_COMPARED, "name": problem.name})
        ET.SubElement(element, "error", {"message": problem.message, "type": problem.kind})
        cases.append(element)
    return _document([_suite_element(NOT_COMPARED, cases, [])])


def _document(suites: list[ET.Element]) -> bytes:
    """The ``<testsuites>`` document of ``suites`` (in this order), with their counts summed on the root."""
    root = ET.Element("testsuites", {"name": "lobstack-eval diff runs"})
    totals = dict.fromkeys(_COUNTS, 0)
    for suite in suites:
        root.append(suite)
        for key in _COUNTS:
            totals[key] += int(suite.get(key, "0"))
    for key in _COUNTS:
        root.set(key, str(totals[key]))
    for element in root.iter():  # the one place model and gateway text is made fit for XML 1.0
        for key, value in element.attrib.items():
            element.set(key, for_xml(value))
        element.text = for_xml(element.text) if element.text else element.text
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


def _testsuite(model: ModelDiff, regressions: list[Regression], decision: Decision) -> ET.Element:
    per_case = {r.case_id: r for r in regressions if r.case_id is not None}
    whole = [r for r in regressions if r.case_id is None]
    paired = any(r.kind == "paired_test" for r in whole)
    cases = [_testcase(model, c, per_case.get(c.case_id), paired, decision) for c in model.cases]
    cases += [_whole_run(model.model, r) for r in whole]
    properties = [
        ("suite_a", f"{model.suite_a.name} {model.suite_a.version}"),
        ("suite_b", f"{model.suite_b.name} {model.suite_b.version}"),
        ("mcnemar_p", repr(model.mcnemar_p)),
    ]
    if not model.single_sample:  # repeats: the gate's paired test is the sign-flip test on per-case pass rates
        properties += [
            ("repeats_a", str(model.repeats_a)),
            ("repeats_b", str(model.repeats_b)),
            ("sign_flip_p", repr(model.paired_p)),
        ]
    return _suite_element(model.model, cases, properties)


def _vanished(model: str, regressions: list[Regression]) -> ET.Element:
    return _suite_element(model, [_whole_run(model, r) for r in regressions], [])


def _whole_run(model: str, regression: Regression) -> ET.Element:
    element = ET.Element("testcase", {"classname": model, "name": WHOLE_RUN})
    tag = "error" if regression.is_error else "failure"
    message = f"Overall dropped: {regression.message}" if regression.kind == "dropped" else regression.message
    ET.SubElement(element, tag, {"message": message, "type": regression.kind})
    return element


def _testcase(
    model: ModelDiff, case: CaseOutcome, regression: Regression | None, paired: bool, decision: Decision
) -> ET.Element:
    element = ET.Element("testcase", {"classname": model.model, "name": case.case_id})
    if regression is not None:
        tag = "error" if regression.is_error else "failure"
        node = ET.SubElement(element, tag, {"message": regression.message, "type": regression.kind})
        node.text = case_history(case)
        return element
    if case.change == "worse":  # a worse pass rate that is not a regression of its own
        ET.SubElement(element, "skipped", {"message": _worse_not_counted(model, case, paired, decision)})
        return element
    if case.status_b == "passed":
        return element
    ET.SubElement(element, "skipped", {"message": _not_counted(case)})
    return element


def _worse_not_counted(model: ModelDiff, case: CaseOutcome, paired: bool, decision: Decision) -> str:
    """Why a case whose pass rate fell is not a regression by itself."""
    reason = f": {case.reason_b}" if case.reason_b else ""
    history = case_history(case)
    if paired:
        return f"counted in the paired test ({WHOLE_RUN} failure): {history}{reason}"
    if case.flaky and not model.single_sample:
        return f"noise: flaky case ({history}){reason}"
    if decision.regression:  # the gate failed on other rules; this model's flips were not among them
        return f"{history}; not a regression by itself (paired test p = {model.paired_p:.4g}){reason}"
    return (
        f"{history}; not a regression by itself: the paired test cannot tell it from noise "
        f"(p = {model.paired_p:.4g}); --strict counts every flip{reason}"
    )


def _not_counted(case: CaseOutcome) -> str:
    """Why a case that did not pass in B is not a regression of this change."""
    a, b = case.status_a, case.status_b
    reason = f": {case.reason_b}" if case.reason_b else ""
    if a == b == "failed":
        single = len(case.samples("a")) <= 1 and len(case.samples("b")) <= 1
        what = "failed in A and in B" if single else case_history(case)
        return f"known failure ({what}){reason}"
    if a in ("passed", "failed"):
        return f"{b or 'absent'} in B, within --allow-errored{reason}"
    if b == "failed":
        return f"failed in B, not scored in A (nothing to regress from){reason}"
    if b is None:
        return f"absent from B, not scored in A either ({a})"
    return f"{b} in B, not scored in A either ({a or 'absent'}){reason}"
