"""The HTML report in a real browser: Debian's headless Chromium driven by selenium
(``.ci/browser-setup.sh``).

A missing browser fails these tests (never skips them): CI must run them.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from replay.html import write_report, write_run_diff
from replay.rescore import rescore
from standin.models import XSS_STRINGS, XSS_TEXT
from tests.conftest import MINI_SUITE

if TYPE_CHECKING:  # selenium's remote driver (0.13 s of CPU) is imported by the tests that drive
    # one, not by every process that collects this slow-only module (the fast loop's workers)
    from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SAMPLE = Path(__file__).parent / "fixtures" / "reports_sample"
REPO_REPORTS = Path(__file__).resolve().parents[1] / "reports"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
)
# Runs before any script of every page: anything that would pop a dialog is recorded instead, and so
# is every error event (script errors, failed resource loads, CSP violations).
TRAP = """
window.__xss = [];
["alert", "confirm", "prompt", "print"].forEach(function (name) {
  window[name] = function () {
    window.__xss.push(name + ":" + Array.prototype.join.call(arguments, ","));
  };
});
window.__errors = [];
window.addEventListener("error", function (e) {
  window.__errors.push(String(e.message || e.type));
}, true);
document.addEventListener("securitypolicyviolation", function (e) {
  window.__errors.push("csp:" + e.violatedDirective);
});
"""
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.fail(f"{CHROMIUM} and {CHROMEDRIVER} are needed: run .ci/browser-setup.sh")
    profile = tempfile.mkdtemp(prefix="lobstack-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TRAP})
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def sample_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reports = tmp_path_factory.mktemp("reports")
    shutil.copytree(SAMPLE, reports, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.html"))
    return write_report(reports, reports / "suite.json")


def _open(d: WebDriver, page: Path) -> None:
    d.set_window_size(1400, 1000)
    d.get(page.resolve().as_uri())
    d.get_log("browser")  # start each test with an empty console


def _board_models(d: WebDriver) -> list[str]:
    return [
        r.get_attribute("data-model") or ""
        for r in d.find_elements(By.CSS_SELECTOR, "#board tbody tr")
    ]


def _sort(d: WebDriver, label: str) -> list[str]:
    d.find_element(
        By.XPATH, f"//table[@id='board']/thead//button[normalize-space()='{label}']"
    ).click()
    return _board_models(d)


def _open_cell(d: WebDriver, model_index: int, case_index: int) -> str:
    row = d.find_element(By.CSS_SELECTOR, f"#grid tbody tr[data-m='{model_index}']")
    row.find_elements(By.TAG_NAME, "td")[case_index].click()
    assert d.execute_script("return document.getElementById('case').open") is True
    return d.find_element(By.ID, "case").text


def _focused(d: WebDriver) -> tuple[str | None, str | None, str | None, str | None]:
    """The focused grid cell as (model row data-m, cell index, aria-label, text), or Nones when
    focus is elsewhere."""
    return tuple(
        d.execute_script(
            "var td = document.activeElement;if (!td || td.tagName !== 'TD' || "
            "!td.closest('#grid')) return [null, null, null, null];return "
            "[td.parentNode.getAttribute('data-m'), String(td.cellIndex), "
            "td.getAttribute('aria-label'), td.textContent];"
        )
    )  # type: ignore[return-value]


def _wait_for_focus(d: WebDriver, cell: tuple[str, str]) -> None:
    """Wait until the focus is on grid cell (row, index): the dialog's close event comes after
    the close itself."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(d, 10).until(lambda _d: _focused(d)[:2] == cell)


def _tab_to_grid(d: WebDriver, limit: int = 200) -> int:
    """Press Tab until the focus is in the case grid; how many presses it took."""
    for presses in range(1, limit + 1):
        ActionChains(d).send_keys(Keys.TAB).perform()
        if _focused(d)[0] is not None:
            return presses
    raise AssertionError(f"the grid was not reached in {limit} Tab presses")


def _assert_quiet(d: WebDriver) -> None:
    """No console error, no error event, no dialog-opening call."""
    severe = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    assert severe == []
    assert d.execute_script("return window.__errors") == []
    assert d.execute_script("return window.__xss") == []


def _screenshot(d: WebDriver, default: Path) -> Path:
    """A PNG of the page top; to ``LOBSTACK_SCREENSHOT`` when set (the README's picture),
    else ``default``."""
    target = Path(os.environ.get("LOBSTACK_SCREENSHOT") or default)
    target.parent.mkdir(parents=True, exist_ok=True)
    d.set_window_size(1400, 1500)
    d.execute_script("window.scrollTo(0, 0)")
    assert d.save_screenshot(str(target))
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    return target


class TestSampleReport:
    def test_one_row_per_model_and_sorting(self, driver: WebDriver, sample_page: Path) -> None:
        _open(driver, sample_page)
        assert _board_models(driver) == ["alpha/oracle", "beta/mixed", "gamma/evil"]
        assert _sort(driver, "Overall") == ["gamma/evil", "beta/mixed", "alpha/oracle"]
        assert _sort(driver, "Overall") == ["alpha/oracle", "beta/mixed", "gamma/evil"]
        # First click sorts best first: Right tool 100 > 60 > 33.3.
        assert _sort(driver, "Right tool") == ["alpha/oracle", "gamma/evil", "beta/mixed"]
        # Cheapest first, the unpriced model last.
        assert _sort(driver, "Cost per 100 cases") == ["beta/mixed", "alpha/oracle", "gamma/evil"]
        assert _sort(driver, "Latency p50") == ["alpha/oracle", "beta/mixed", "gamma/evil"]
        _assert_quiet(driver)

    def test_case_cell_opens_its_details(self, driver: WebDriver, sample_page: Path) -> None:
        _open(driver, sample_page)
        text = _open_cell(driver, 1, 4)  # beta/mixed, parallel-01: 503 four times
        assert text.startswith("parallel-01 · beta/mixed")
        assert "errored" in text and "http_503 after 4 attempts" in text
        assert "What's the weather in Paris and in Oslo?" in text
        assert "Expected 2 calls:" in text and '"regex": "^paris$"' in text
        assert (
            text.count("http_503") == 6
        )  # the case's reason, the step's reason and the four attempts
        driver.find_element(By.ID, "case-close").click()
        assert driver.execute_script("return document.getElementById('case').open") is False
        text = _open_cell(driver, 1, 1)  # beta/mixed, arguments-01: arguments sent as an object
        assert (
            '"end_line": 20,\n  "path": "src/app.py",\n  "start_line": 10\n}' in text
            and "passed" in text
        )
        _assert_quiet(driver)

    def test_grid_by_keyboard(self, driver: WebDriver, sample_page: Path) -> None:
        """Tab reaches the grid (one stop), the arrows and Home/End move, Enter opens the focused
        case, Esc closes it and gives the focus back; each focused cell is labelled case · model
        · status for screen readers."""
        _open(driver, sample_page)
        driver.execute_script("document.activeElement.blur()")  # Tab from the top of the page
        steps = _tab_to_grid(driver)
        assert (
            steps <= 40
        )  # the nav links and the sort buttons come first, then the grid: no cell-by-cell trap
        assert _focused(driver) == ("0", "1", "selection-01 · alpha/oracle · passed", "✓")
        keys = ActionChains(driver)
        keys.send_keys(
            Keys.ARROW_DOWN, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT
        )
        keys.perform()
        assert _focused(driver) == ("1", "5", "parallel-01 · beta/mixed · errored", "!")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        assert driver.execute_script("return document.getElementById('case').open") is True
        text = driver.find_element(By.ID, "case").text
        assert text.startswith("parallel-01 · beta/mixed") and "http_503 after 4 attempts" in text
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        assert driver.execute_script("return document.getElementById('case').open") is False
        _wait_for_focus(driver, ("1", "5"))  # back where the user was
        ActionChains(driver).send_keys(Keys.END, Keys.ARROW_UP, Keys.ARROW_UP).perform()
        assert _focused(driver) == (
            "0",
            "6",
            "chains-01 · alpha/oracle · passed",
            "✓",
        )  # stops at the top row
        ActionChains(driver).send_keys(
            Keys.HOME, Keys.ARROW_LEFT, Keys.ARROW_DOWN, Keys.ARROW_DOWN
        ).perform()
        assert _focused(driver) == ("2", "1", "selection-01 · gamma/evil · failed", "✗")
        ActionChains(driver).send_keys(Keys.SPACE).perform()
        assert driver.find_element(By.ID, "case").text.startswith("selection-01 · gamma/evil")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        _wait_for_focus(driver, ("2", "1"))
        # Leaving and coming back by Tab lands on the same cell: the grid is one tab stop
        # that remembers.
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        assert _focused(driver)[0] is None
        ActionChains(driver).send_keys(Keys.TAB).perform()
        assert _focused(driver)[:2] == ("2", "1")
        tab_stops = driver.execute_script(
            "return document.querySelectorAll('#grid td[tabindex=\"0\"]').length"
        )
        assert tab_stops == 1
        _assert_quiet(driver)

    def test_hostile_answers_show_as_text_and_nothing_runs(
        self, driver: WebDriver, sample_page: Path
    ) -> None:
        _open(driver, sample_page)
        board = driver.find_element(By.ID, "board").text
        assert f"routed to gamma/evil (6), <b>routed</b>{IMG} (1)" in board
        expected = {
            0: [f"Sure! {SCRIPT}"],
            1: [f'"path": "\\{IMG}"'],
            2: ['"text": "resolved, see javascript:alert(1)"'],
            3: [f"4 {SCRIPT}", f"answered by <b>routed</b>{IMG}"],
            4: [IMG, "not an offered tool", '"href": "javascript:alert(1)"'],
            5: ['{"path": "javascript:alert(1)"', "arguments are not a JSON object"],
        }
        for case_index, needles in expected.items():
            text = _open_cell(driver, 2, case_index)
            for needle in needles:
                assert needle in text, (case_index, needle)
            driver.find_element(By.ID, "case-close").click()
        counts: dict[str, Any] = driver.execute_script(
            "return {img: document.querySelectorAll('img').length, scripts: "
            "document.scripts.length, js_links: "
            "document.querySelectorAll('[href^=\"javascript:\"]').length, bold: "
            "document.querySelectorAll('b').length}"
        )
        assert counts == {"img": 0, "scripts": 2, "js_links": 0, "bold": 0}
        _assert_quiet(driver)

    def test_screenshot(self, driver: WebDriver, sample_page: Path, tmp_path: Path) -> None:
        _open(driver, sample_page)
        if not (REPO_REPORTS / "index.html").exists():
            _screenshot(driver, tmp_path / "report.png")
        else:  # the README's picture comes from the real report (TestRepoReport)
            assert driver.save_screenshot(str(tmp_path / "report.png"))
        _assert_quiet(driver)

    def test_run_diff_page(self, driver: WebDriver, tmp_path: Path) -> None:
        out = write_run_diff(
            SAMPLE / "alpha_oracle" / "results.json",
            SAMPLE / "gamma_evil" / "results.json",
            tmp_path / "diff.html",
            SAMPLE / "suite.json",
        )
        _open(driver, out)
        # One flip of four at one sample per case: the gate calls it noise (orange), as diff
        # runs does.
        noise = driver.find_element(
            By.CSS_SELECTOR, "tr.changed[data-case='selection-01'][data-verdict='noise']"
        )
        assert noise.value_of_css_property("background-color") == "rgba(255, 244, 224, 1)"
        assert "worse (noise)" in noise.text
        assert (
            "Overall 100.0%\n61.0–100.0\n33.3%\n9.7–70.0\n-66.7 pp"
            in driver.find_element(By.ID, "metrics").text
        )
        assert driver.execute_script("return document.querySelectorAll('img').length") == 0
        _assert_quiet(driver)


class TestRecordedHostileModel:
    """The whole pipeline: the stand-in's ``ref/xss`` recorded and rescored, its report opened
    in Chromium."""

    def test_hostile_model_recorded_then_rendered_runs_nothing(
        self, driver: WebDriver, start_gateway: Callable[..., Any], tmp_path: Path
    ) -> None:
        suite = read_suite(MINI_SUITE)
        gateway = start_gateway()
        cassettes = tmp_path / "cassettes"
        for model in ("ref/xss", "ref/oracle"):
            ids = [c.id for c in suite.cases]
            record(
                MINI_SUITE,
                model,
                cassettes,
                gateway.url,
                ids,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
        rescore(cassettes, MINI_SUITE, tmp_path / "reports", workers=1, warn=lambda _t: None)
        page = tmp_path / "reports" / "index.html"
        _open(driver, page)
        assert sorted(_board_models(driver)) == ["ref/oracle", "ref/xss"]
        data = json.loads(
            driver.execute_script("return document.getElementById('case-data').textContent")
        )
        m = data["models"].index("ref/xss")
        seen = ""
        for c in range(len(data["cases"])):
            seen += _open_cell(driver, m, c)
            driver.find_element(By.ID, "case-close").click()
        # Whatever the payloads landed in (text answers or string arguments), they read as typed.
        assert XSS_TEXT in seen
        for payload in XSS_STRINGS:
            assert json.dumps(payload)[1:-1] in seen or payload in seen
        counts = driver.execute_script(
            "return [document.querySelectorAll('img').length, document.scripts.length,"
            " document.querySelectorAll('[href^=\"javascript:\"]').length]"
        )
        assert counts == [0, 2, 0]
        _assert_quiet(driver)


def _repo_models() -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(REPO_REPORTS.glob("*/results.json"))
    ]


def _overall(result: dict[str, Any]) -> float | None:
    return result["metrics"]["overall"]["rate"]


class TestRepoReport:
    """The committed ``reports/index.html`` (made by rescore from the committed cassettes)."""

    def test_rows_sorting_details_and_screenshot(self, driver: WebDriver, tmp_path: Path) -> None:
        results = _repo_models()
        _open(driver, REPO_REPORTS / "index.html")
        by_rate = sorted(
            results, key=lambda r: (_overall(r) is None, -(_overall(r) or 0), r["model"])
        )
        assert _board_models(driver) == [r["model"] for r in by_rate]
        ascending = sorted(
            results, key=lambda r: (_overall(r) is None, _overall(r) or 0, r["model"])
        )
        assert _sort(driver, "Overall") == [r["model"] for r in ascending]
        data = json.loads(
            driver.execute_script("return document.getElementById('case-data').textContent")
        )
        text = _open_cell(driver, 0, 0)
        assert text.startswith(f"{data['cases'][0]['id']} · {data['models'][0]}")
        driver.find_element(By.ID, "case-close").click()
        _sort(driver, "Overall")
        _screenshot(driver, tmp_path / "report.png")
        _assert_quiet(driver)


# Collected only once the lead has committed the real report (rescore writes it); the sample
# runs always.
if not (REPO_REPORTS / "index.html").exists():
    del TestRepoReport


class TestRepeatsReport:
    """A report with repeats: the grid's strips and every repeat in the drill-down (repeats.js)."""

    def test_strip_cell_lists_every_repeat(
        self, driver: WebDriver, repeat_cassettes: Path, tmp_path: Path
    ) -> None:
        rescore(repeat_cassettes, MINI_SUITE, tmp_path / "reports", workers=1)
        results = json.loads((tmp_path / "reports" / "ref_flaky" / "results.json").read_text())
        _open(driver, tmp_path / "reports" / "index.html")
        models = _board_models(driver)
        first = results["results"][0]
        text = _open_cell(driver, models.index("ref/flaky"), 0)
        passed, scored = first["passed_repeats"], first["scored_repeats"]
        assert f"Repeats: {passed} of {scored} scored passed" in text
        summaries = [
            e.text for e in driver.find_elements(By.CSS_SELECTOR, "#case-body .repeats summary")
        ]
        assert [line.split()[:3] for line in summaries] == [
            [run["status"], "repeat", str(run["repeat"])] for run in first["runs"]
        ]
        strip = driver.find_elements(
            By.CSS_SELECTOR, f"#grid tbody tr[data-m='{models.index('ref/flaky')}'] td"
        )[0]
        assert len(strip.find_elements(By.TAG_NAME, "i")) == 5
        driver.find_element(By.ID, "case-close").click()
        _assert_quiet(driver)
