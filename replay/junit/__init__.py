"""JUnit XML for a run diff: the gate's verdict, case by case, in a CI system's test view.

One verdict, shown the same way everywhere: a ``<failure>`` is a regression of this change, an
``<error>`` is a case or run that scored in A and did not in B (errored, unrecorded, vanished, or no
score at all), and everything else the gate does not count is ``<skipped>`` with a message saying
why. So failures + errors is exactly the number of regressions the gate found
(``Decision.regressions``).

Each testcase renders the case's verdict (``replay.diff_runs.verdict``: the one verdict every view
shows). A regression about one case (a scoring change, a flip under ``--strict``, a broken case, a
lost case) is that case's ``<failure>`` or ``<error>``. A regression about a model's whole run (the
paired test found B worse, Overall beyond ``--max-drop``, no score, a missing model) is a
``(whole run)`` testcase of its own; when the paired test decided, each case that got worse is
``<skipped>`` with "counted in the paired test", so the cases behind the statistical verdict are
listed without being counted twice. Cases that got worse but that no rule counted are ``<skipped>``
saying why (noise in a flaky case, or a flip the paired test cannot tell from noise).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from replay.diff_runs import Decision, ModelDiff, NotCompared, Regression, RunDiff
from replay.diff_runs.verdict import WHOLE_RUN, CaseVerdict, ModelVerdict, verdicts
from scorer.safe_text import for_xml

_COUNTS = ("tests", "failures", "errors", "skipped")
# Jenkins' junit-10.xsd allows no ``skipped`` on the root <testsuites> (each <testsuite> keeps
# its own).
_ROOT_COUNTS = ("tests", "failures", "errors")


def to_junit(
    diff: RunDiff, decision: Decision, judged: Sequence[ModelVerdict] | None = None
) -> bytes:
    """JUnit XML bytes: one ``<testsuite>`` per model (compared, or only in A), one ``<testcase>``
    per case of A or B, plus a ``(whole run)`` testcase for each regression about a whole run. No
    timestamps or durations, so the same diff always gives the same bytes. ``judged``:
    ``verdicts(diff, decision)`` when the caller has it already."""
    judged = tuple(verdicts(diff, decision) if judged is None else judged)
    suites = [_testsuite(m, v) for m, v in zip(diff.models, judged, strict=False)]
    suites += [_vanished(v) for v in judged[len(diff.models) :]]
    return _document(sorted(suites, key=lambda s: s.get("name", "")))


NOT_COMPARED = "(not compared)"  # the testsuite of runs that could not be compared at all


def not_compared_junit(problems: Sequence[NotCompared]) -> bytes:
    """JUnit XML for runs that could not be compared (METHOD decision 111): one ``(not compared)``
    testsuite with an ``<error>`` testcase per problem (named by the file or model it is about;
    the message is the error line's text), so a CI system shows why instead of finding no file."""
    cases = []
    for problem in problems:
        element = ET.Element("testcase", {"classname": NOT_COMPARED, "name": problem.name})
        ET.SubElement(element, "error", {"message": problem.message, "type": problem.kind})
        cases.append(element)
    return _document([_suite_element(NOT_COMPARED, cases, [])])


def _document(suites: list[ET.Element]) -> bytes:
    """The ``<testsuites>`` document of ``suites`` (in this order), with their counts summed on
    the root."""
    root = ET.Element("testsuites", {"name": "lobstack-eval diff runs"})
    totals = dict.fromkeys(_COUNTS, 0)
    for suite in suites:
        root.append(suite)
        for key in _COUNTS:
            totals[key] += int(suite.get(key, "0"))
    for key in _ROOT_COUNTS:
        root.set(key, str(totals[key]))
    for element in root.iter():  # the one place model and gateway text is made fit for XML 1.0
        for key, value in element.attrib.items():
            element.set(key, for_xml(value))
        element.text = for_xml(element.text) if element.text else element.text
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _suite_element(
    name: str, cases: list[ET.Element], properties: list[tuple[str, str]]
) -> ET.Element:
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


def _testsuite(model: ModelDiff, verdict: ModelVerdict) -> ET.Element:
    cases = [_testcase(c) for c in verdict.cases]
    cases += [_whole_run(model.model, r) for r in verdict.whole_run]
    properties = [
        ("suite_a", f"{model.suite_a.name} {model.suite_a.version}"),
        ("suite_b", f"{model.suite_b.name} {model.suite_b.version}"),
        ("mcnemar_p", repr(model.mcnemar_p)),
    ]
    if (
        not model.single_sample
    ):  # repeats: the gate's paired test is the sign-flip test on per-case pass rates
        properties += [
            ("repeats_a", str(model.repeats_a)),
            ("repeats_b", str(model.repeats_b)),
            # against a history the whole-run test is the history test, not the sign-flip test
            ("history_runs", str(model.history_runs))
            if model.history_runs > 1
            else ("sign_flip_p", repr(model.paired_p)),
        ]
        if model.history_runs > 1:
            properties.append(("history_p", repr(model.paired_p)))
    return _suite_element(model.model, cases, properties)


def _vanished(verdict: ModelVerdict) -> ET.Element:
    return _suite_element(
        verdict.model, [_whole_run(verdict.model, r) for r in verdict.whole_run], []
    )


def _whole_run(model: str, regression: Regression) -> ET.Element:
    element = ET.Element("testcase", {"classname": model, "name": WHOLE_RUN})
    tag = "error" if regression.is_error else "failure"
    message = (
        f"Overall dropped: {regression.message}"
        if regression.kind == "dropped"
        else regression.message
    )
    ET.SubElement(element, tag, {"message": message, "type": regression.kind})
    return element


def _testcase(verdict: CaseVerdict) -> ET.Element:
    """The case's verdict as a testcase: its outcome is the child element (none when it passed)."""
    element = ET.Element("testcase", {"classname": verdict.model, "name": verdict.case_id})
    if verdict.regression is not None:
        regression = verdict.regression
        node = ET.SubElement(
            element, verdict.outcome, {"message": regression.message, "type": regression.kind}
        )
        node.text = verdict.history
    elif verdict.outcome == "skipped":
        ET.SubElement(element, "skipped", {"message": verdict.message})
    return element
