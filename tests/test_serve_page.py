"""The page of ``sudoku serve`` (``GET /``), driven in a real headless Chromium as a person would use it.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them when missing), driven by
selenium through that chromedriver; the server is a real ``sudoku serve`` process. What the page
shows is read back from its board and compared with the library's own answers.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from sudokit import count_solutions, hint, parse_puzzle, solve  # noqa: E402
from sudokit.features.candidates import true_candidates  # noqa: E402
from tests.test_serve import EASY, MANY, start_server, stop_server  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip(
        "Debian's chromium and chromium-driver are not installed (.ci/run installs them)", allow_module_level=True
    )

KILLER = next(
    line
    for line in (Path(__file__).parents[1] / "puzzles" / "variants" / "corpus.txt").read_text().splitlines()
    if line.startswith("{") and '"killer"' in line and '"kind": "killer"' in line.split("constraints")[1][:40]
)


@pytest.fixture(scope="module")
def page() -> Iterator[tuple[Any, str]]:
    proc, url, _ = start_server("--engines", "backtrack,cp-sat", "--time-limit", "20")
    options = Options()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(url + "/")
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        yield driver, url
    finally:
        driver.quit()
        stop_server(proc)


def press(driver: Any, button: str) -> str:
    """Click a button and wait for the status line it writes; that line."""
    driver.execute_script("document.getElementById('status').textContent = ''")
    driver.find_element(By.ID, button).click()
    try:
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "status").text)
    except Exception:
        print(driver.get_log("browser"), driver.execute_script("return document.getElementById('status').outerHTML"))
        raise
    text: str = driver.find_element(By.ID, "status").text
    return text


def load(driver: Any, puzzle: str) -> str:
    box = driver.find_element(By.ID, "puzzle")
    box.clear()
    driver.execute_script("arguments[0].value = arguments[1]", box, puzzle)  # pasted, not typed key by key
    return press(driver, "load")


def board(driver: Any) -> list[int]:
    """The digits the board shows (givens and found ones), by cell; 0 for none."""
    n = int(driver.find_element(By.ID, "board").get_attribute("data-n"))
    cells = [0] * (n * n)
    for text in driver.find_elements(By.CSS_SELECTOR, "#board text.digit"):
        cells[int(text.get_attribute("data-cell"))] = int(text.text, 36)
    return cells


def test_the_page_is_one_file_that_loads_nothing_from_elsewhere(page: tuple[Any, str]) -> None:
    driver, url = page
    answer = httpx.get(url + "/", timeout=30)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    text = answer.text.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace: a name, never fetched
    assert "http://" not in text and "https://" not in text
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    assert fetched and all(name.startswith(url + "/") for name in fetched)  # /strategies: this server only


def test_a_variant_puzzle_is_drawn_with_its_rules_and_solved(page: tuple[Any, str]) -> None:
    driver, _ = page
    grid = parse_puzzle(KILLER)
    assert load(driver, KILLER).startswith("loaded: 9x9")
    cages = [rule for rule in json.loads(KILLER)["constraints"] if rule["kind"] == "killer"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board g[data-kind=killer]")) == len(cages)
    totals = {t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board g[data-kind=killer] text")}
    assert totals == {str(cage["total"]) for cage in cages}
    assert "killer" in driver.find_element(By.ID, "rules").text
    assert board(driver) == list(grid.cells)
    assert press(driver, "solve").startswith("solved by")
    expected = solve(grid, "cp-sat").solution
    assert expected is not None and board(driver) == list(expected.cells)
    assert press(driver, "check").startswith("agree: 1 solution")
    assert press(driver, "candidates") == "true candidates"  # the solution's digit alone in each cell
    marks = driver.find_elements(By.CSS_SELECTOR, "#board g.marks")
    shown = {int(g.get_attribute("data-cell")): g.get_attribute("data-marks") for g in marks}
    assert shown == {cell: str(expected.cells[cell]) for cell in range(81) if not grid.cells[cell]}


def test_count_and_true_candidates_show_what_the_library_finds(page: tuple[Any, str]) -> None:
    driver, _ = page
    load(driver, MANY)
    assert press(driver, "count") == f"{count_solutions(MANY).count} solutions"
    assert press(driver, "candidates") == "true candidates"
    found = true_candidates(MANY)
    shown = {
        int(group.get_attribute("data-cell")): group.get_attribute("data-marks")
        for group in driver.find_elements(By.CSS_SELECTOR, "#board g.marks")
    }
    expected = {cell: ",".join(map(str, found.digits(cell))) for cell in range(81) if MANY[cell] == "."}
    assert shown == expected


def test_hints_step_through_and_givens_are_typed_on_the_board(page: tuple[Any, str]) -> None:
    driver, _ = page
    load(driver, EASY)
    step = hint(EASY)
    assert step is not None
    assert press(driver, "hint") == step.technique
    assert driver.find_element(By.ID, "details").text == step.explanation
    hinted = {int(r.get_attribute("data-cell")) for r in driver.find_elements(By.CSS_SELECTOR, "#board rect.hinted")}
    assert hinted == set(step.cells)
    before = board(driver)
    assert press(driver, "step") == f"applied: {step.technique}"
    after = board(driver)
    [(cell, digit)] = step.placements
    assert after == [digit if i == cell else v for i, v in enumerate(before)]
    blank = after.index(0)
    driver.find_element(By.CSS_SELECTOR, f"#board rect[data-cell='{blank}']").click()
    solution = solve(EASY).solution
    assert solution is not None
    driver.find_element(By.TAG_NAME, "body").send_keys(str(solution.cells[blank]))
    assert board(driver)[blank] == solution.cells[blank]
    typed = json.loads(driver.find_element(By.ID, "puzzle").get_attribute("value"))
    assert typed["givens"][blank] == str(solution.cells[blank])
    assert press(driver, "explain").startswith("rated ")
    lines = driver.find_element(By.ID, "details").text.splitlines()
    assert lines[0].startswith("1. ") and len(lines) == after.count(0) - 1
