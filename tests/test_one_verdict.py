"""One verdict everywhere: on the same two runs, ``diff runs --fail-on-regression`` (exit code,
JUnit, markdown, HTML) and the pytest plugin's baseline mode (``--lobstack-baseline``, in a
subprocess) fail exactly the same cases.

The pairs: the same model (ref/flaky, stand-in seeds 1 and 2) at K = 1 and at K = 3; a real drop
(ref/oracle's committed results as the baseline of ref/first-tool); a scoring change (the same
recorded answers under a suite whose check of one case changed); a lost case (one cassette deleted).
So docs/ci.md's two steps can never disagree. Each K = 1 pair again with a history as A
(``--history`` / ``--lobstack-history``: seeds 3 and 4 of ref/flaky, or two more copies of the
oracle baseline), so the history test's verdict is one verdict too.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.repeats import CaseRun
from recorder.settings import RecordSettings
from replay.rescore import rescore
from tests.conftest import ROOT
from tests.test_pytest_plugin import INNER
from tests.test_repeat_gate import _changed_check, _plain_string_arg

SUITE_PATH = ROOT / "evals" / "suite.json"
ALL = [case.id for case in read_suite(SUITE_PATH).cases]
WHOLE_RUN = "(whole run)"


def _record(root: Path, seed: int, model: str, repeats: int) -> Path:
    from standin import GatewayConfig, StandInGateway

    cassettes = root / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=SUITE_PATH, seed=seed)) as gateway:
        todo = [CaseRun(case_id, n) for n in range(1, repeats + 1) for case_id in ALL]
        record(SUITE_PATH, model, cassettes, gateway.url, todo, RecordSettings(concurrency=4))
    rescore(cassettes, SUITE_PATH, root / "reports", workers=1, html=False)
    return root


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, Path, Path]]:
    """name -> (A's reports, B's reports, B's cassettes, B's suite); ``history-*`` names have the
    earlier runs in ``HISTORIES``."""
    root = tmp_path_factory.mktemp("verdict")
    runs = {
        f"k{k}-s{seed}": _record(root / f"k{k}-s{seed}", seed, "ref/flaky", k)
        for k, seed in ((1, 1), (1, 2), (3, 1), (3, 2), (1, 3), (1, 4))
    }
    worse = _record(root / "worse", 1, "ref/first-tool", 1)
    # The drop: ref/oracle's committed results, named as the model B is, are the baseline.
    oracle = json.loads((ROOT / "reports" / "ref_oracle" / "results.json").read_text())
    (root / "drop-a" / "ref_first-tool").mkdir(parents=True)
    (root / "drop-a" / "ref_first-tool" / "results.json").write_text(
        json.dumps({**oracle, "model": "ref/first-tool"})
    )
    # The scoring change: seed 1's answers at K = 1 under a suite with one check changed
    # (same version).
    baseline = json.loads((runs["k1-s1"] / "reports" / "ref_flaky" / "results.json").read_text())
    doc = json.loads(SUITE_PATH.read_text())
    plain = {
        c["id"]
        for c in doc["cases"]
        if c["steps"][0]["expect"] == "call" and _plain_string_arg(doc, c)
    }
    target = next(
        r["id"] for r in baseline["results"] if r["id"] in plain and r["status"] == "passed"
    )
    (root / "change").mkdir()
    changed_suite = _changed_check(root / "change", target)
    rescore(
        runs["k1-s1"] / "cassettes",
        changed_suite,
        root / "change" / "reports",
        workers=1,
        html=False,
    )
    # The lost case: seed 1's K = 1 cassettes with one passing case's cassette deleted.
    shutil.copytree(runs["k1-s1"] / "cassettes", root / "lost" / "cassettes")
    passed = next(
        r["id"] for r in baseline["results"] if r["status"] == "passed" and r["id"] != target
    )
    (root / "lost" / "cassettes" / "ref_flaky" / f"{passed}.json").unlink()
    rescore(
        root / "lost" / "cassettes", SUITE_PATH, root / "lost" / "reports", workers=1, html=False
    )
    for copy in ("drop-a2", "drop-a3"):
        shutil.copytree(root / "drop-a", root / copy)
    flaky_history = [runs["k1-s3"] / "reports", runs["k1-s4"] / "reports"]
    HISTORIES.update(
        {
            "history-same-model-k1": flaky_history,
            "history-real-drop": [root / "drop-a2", root / "drop-a3"],
            "history-scoring-change": flaky_history,
            "history-lost-case": flaky_history,
        }
    )
    found = {
        "same-model-k1": (
            runs["k1-s1"] / "reports",
            runs["k1-s2"] / "reports",
            runs["k1-s2"] / "cassettes",
            SUITE_PATH,
        ),
        "same-model-k3": (
            runs["k3-s1"] / "reports",
            runs["k3-s2"] / "reports",
            runs["k3-s2"] / "cassettes",
            SUITE_PATH,
        ),
        "real-drop": (root / "drop-a", worse / "reports", worse / "cassettes", SUITE_PATH),
        "scoring-change": (
            runs["k1-s1"] / "reports",
            root / "change" / "reports",
            runs["k1-s1"] / "cassettes",
            changed_suite,
        ),
        "lost-case": (
            runs["k1-s1"] / "reports",
            root / "lost" / "reports",
            root / "lost" / "cassettes",
            SUITE_PATH,
        ),
    }
    return found | {name: found[name.removeprefix("history-")] for name in HISTORIES}


# What each pair must be (the acceptance of issue 24; issue 31 for the histories): the gate fails.
EXPECTED = {
    "same-model-k1": False,
    "same-model-k3": False,
    "real-drop": True,
    "scoring-change": True,
    "lost-case": True,
    "history-same-model-k1": False,
    "history-real-drop": True,
    "history-scoring-change": True,
    "history-lost-case": True,
}
HISTORIES: dict[
    str, list[Path]
] = {}  # filled by the fixture: the earlier runs of each history-* pair


def _failing(junit: Path) -> set[str]:
    """Test names with a failure or an error in a JUnit file (pytest's or diff runs')."""
    names = set()
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            names.add(case.get("name", ""))
    return names


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_diff_runs_and_the_plugin_fail_the_same_cases(
    name: str,
    pairs: dict[str, tuple[Path, Path, Path, Path]],
    pytester: pytest.Pytester,
    tmp_path: Path,
    capsys,
) -> None:  # type: ignore[no-untyped-def]
    a, b, b_cassettes, suite = pairs[name]
    earlier = [str(p) for p in HISTORIES.get(name, [])]
    out = {kind: tmp_path / f"diff.{kind}" for kind in ("xml", "md", "html")}
    history = [arg for p in earlier for arg in ("--history", p)]
    code = main(["diff", "runs", str(a), str(b), "--fail-on-regression", "--junit", str(out["xml"]),
                 "--markdown", str(out["md"]), "--html", str(out["html"]), *history])  # fmt: skip
    verdict = capsys.readouterr().out.splitlines()[0]
    assert (code == 1) is EXPECTED[name], verdict
    gate_failing = _failing(out["xml"])
    assert bool(gate_failing) is EXPECTED[name]

    markdown = out["md"].read_text(encoding="utf-8")
    assert markdown.startswith(
        "### lobstack-eval: regression\n" if code else "### lobstack-eval: no regression\n"
    )
    html = out["html"].read_text(encoding="utf-8")
    assert ("<strong>Regression</strong>" in html) is bool(code)
    html_failing = {
        row.split('data-case="', 1)[1].split('"', 1)[0]
        for row in html.split("<tr ")[1:]
        if 'data-verdict="regression"' in row or 'data-verdict="lost"' in row
    }
    assert html_failing == gate_failing - {WHOLE_RUN}

    # The plugin, in a subprocess, on B's cassettes with A as the baseline.
    shutil.copytree(b_cassettes, pytester.path / "cassettes")
    plugin_junit = tmp_path / "plugin.xml"
    result = pytester.runpytest_subprocess(
        *INNER,
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-suite",
        str(suite),
        "--lobstack-baseline",
        str(a),
        f"--junitxml={plugin_junit}",
        *[arg for p in earlier for arg in ("--lobstack-history", p)],
        timeout=300,
    )
    assert (result.ret == 1) is bool(code), result.stdout.str()[-3000:]
    assert _failing(plugin_junit) == gate_failing
    if name == "same-model-k3":
        # Noise is an expected failure with the gate's reason, never a failure.
        assert "XFAIL" in result.stdout.str() or result.parseoutcomes().get("xfailed", 0) > 0
    if name in ("real-drop", "history-real-drop"):
        assert WHOLE_RUN in gate_failing  # the paired (or history) test: the whole run is worse
    if name.startswith("history-"):
        assert "history exact (3 runs)" in markdown  # the model's section names the test
