"""JUnit XML for a run diff, so CI systems show each case of run B as a test (and regressions as failures)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from replay.diff_runs import CaseOutcome, ModelDiff, RunDiff


def to_junit(diff: RunDiff) -> bytes:
    """JUnit XML bytes: one ``<testsuite>`` per compared model, one ``<testcase>`` per case of run B.

    A case failed in B gets ``<failure>`` (its message is B's reason; the text says whether it is a
    regression, i.e. passed in A); an errored or unrecorded case gets ``<skipped>``. No timestamps or
    durations, so the same diff always gives the same bytes.
    """
    root = ET.Element("testsuites", {"name": "lobstack-eval diff runs"})
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for model in diff.models:
        suite, counts = _testsuite(model)
        root.append(suite)
        for key in totals:
            totals[key] += counts[key]
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", "0")
    root.set("skipped", str(totals["skipped"]))
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _testsuite(model: ModelDiff) -> tuple[ET.Element, dict[str, int]]:
    in_b = [c for c in model.cases if c.status_b is not None]
    failures = sum(1 for c in in_b if c.status_b == "failed")
    skipped = sum(1 for c in in_b if c.status_b in ("errored", "unrecorded"))
    suite = ET.Element(
        "testsuite",
        {
            "name": model.model,
            "tests": str(len(in_b)),
            "failures": str(failures),
            "errors": "0",
            "skipped": str(skipped),
        },
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (
        ("suite_a", f"{model.suite_a.name} {model.suite_a.version}"),
        ("suite_b", f"{model.suite_b.name} {model.suite_b.version}"),
        ("mcnemar_p", repr(model.mcnemar_p)),
    ):
        ET.SubElement(props, "property", {"name": name, "value": value})
    for case in in_b:
        suite.append(_testcase(model.model, case))
    return suite, {"tests": len(in_b), "failures": failures, "skipped": skipped}


def _testcase(model: str, case: CaseOutcome) -> ET.Element:
    element = ET.Element("testcase", {"classname": model, "name": case.case_id})
    if case.status_b == "failed":
        failure = ET.SubElement(element, "failure", {"message": case.reason_b or "failed"})
        failure.set("type", "regression" if case.status_a == "passed" else "failed")
        failure.text = _history(case)
    elif case.status_b in ("errored", "unrecorded"):
        reason = f"{case.status_b}: {case.reason_b}" if case.reason_b else case.status_b
        ET.SubElement(element, "skipped", {"message": reason})
    return element


def _history(case: CaseOutcome) -> str:
    if case.status_a == "passed":
        return "regression: passed in A, failed in B"
    if case.status_a is None:
        return "not in A; failed in B"
    return f"{case.status_a} in A, failed in B"
