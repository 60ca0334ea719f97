"""The scenario stepper, the seat menus and the why answers in a real
headless Chromium (test_browser.py's server and browser): every bundled
scenario's verdict on the page is `nord test`'s, branch by branch; a
branched file shows its branches; a why answer shows one sentence with the
details folded and no path of the server's machine; and how soon the page
is ready, measured and printed."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from browser_support import page, require_browser, start_server, view, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
ABSOLUTE = re.compile(r"(?<![\w.])/(?:[\w.-]+/)+[\w.-]+")

# (set before the page's own script runs: when the page says it is ready, and when a board is first drawn)
TIMES = """
window.__times = {};
new MutationObserver(() => {
  const t = performance.now();
  if (!window.__times.ready && document.body && document.body.dataset.ready === "1") window.__times.ready = t;
  if (!window.__times.board && document.querySelector("#board svg")) window.__times.board = t;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def nord_test_verdicts(paths) -> dict:
    """{FILE or FILE::BRANCH relative to variants/: PASS, FAIL or ERROR}, as `nord test PATHS` prints them."""
    from nordlang.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["test", *map(str, paths)])
    found = {}
    for line in out.getvalue().splitlines():
        m = re.match(r"(PASS|FAIL|ERROR) +(\S+)", line)
        if m:
            file, _, branch = m.group(2).partition("::")
            found[Path(file).resolve().relative_to(VARIANTS).as_posix() + (f"::{branch}" if branch else "")] = \
                m.group(1)
    return found


def open_scenario(drv, name):
    drv.find_element(By.ID, "tab-scenario").click()
    Select(drv.find_element(By.ID, "scenario-file")).select_by_visible_text(f"variants/{name}")
    before = (view(drv) or {}).get("id")
    drv.find_element(By.ID, "open-scenario").click()
    wait(drv, lambda d: view(d) and view(d)["kind"] == "scenario" and view(d)["id"] != before
         and not d.execute_script("return busy"), name)


def shown_verdicts(drv) -> dict:
    """What the page shows: {None or branch: PASS/FAIL/ERROR}, from the verdict line and the branch buttons."""
    buttons = drv.find_elements(By.CSS_SELECTOR, "#branches button.branch")
    if not buttons:
        text = drv.find_element(By.ID, "verdict").text
        return {None: text.removeprefix("nord test: ")}
    return {b.get_attribute("data-branch"): b.text.split(": ")[-1] for b in buttons}


def test_the_page_shows_nord_tests_verdicts(server, browser):  # noqa: F811
    """Every Nord scenario (the branched ones, the two that were shown failing) and the first of each
    other game: the verdict shown is `nord test`'s (test_page_api.py compares every bundled one)."""
    chosen = sorted(VARIANTS.glob("nord/scenarios/**/*.yaml")) + [
        sorted(d.glob("*.yaml"))[0] for d in sorted(VARIANTS.glob("*/scenarios")) if d.parent.name != "nord"]
    expected = nord_test_verdicts(chosen)
    page(browser, server)
    browser.find_element(By.ID, "tab-scenario").click()
    listed = [o.text for o in Select(browser.find_element(By.ID, "scenario-file")).options]
    names = [p.relative_to(VARIANTS).as_posix() for p in chosen]
    assert len(names) > 30 and all(f"variants/{n}" in listed for n in names)
    assert {k.split("::")[0] for k in expected} == set(names)
    branched = []
    for name in names:
        open_scenario(browser, name)
        want = {k.split("::")[1] if "::" in k else None: v for k, v in expected.items()
                if k.split("::")[0] == name}
        assert shown_verdicts(browser) == want, name
        if None not in want:
            branched.append(name)
    assert "nord/scenarios/placement-1.yaml" in branched          # (a file of branches, each shown)


def test_branches_are_shown_and_stepped(server, browser):  # noqa: F811
    page(browser, server)
    open_scenario(browser, "nord/scenarios/placement-1.yaml")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#branches button.branch")
    assert [b.text for b in buttons] == ["forest: PASS", "karst: PASS", "mountain: PASS", "sea: PASS"]
    assert browser.find_element(By.ID, "verdict").text == "nord test: 4 of 4 branches pass"
    assert "current" in buttons[0].get_attribute("class")
    buttons[1].click()
    wait(browser, lambda d: view(d)["branch"] == "karst", "the karst branch")
    assert "#scenario=" in browser.current_url and browser.current_url.endswith("&step=0&branch=karst")
    items = lambda: browser.find_elements(By.CSS_SELECTOR, "#steps li")  # noqa: E731
    assert [li.text for li in items()] == ["position", "play none", "expect: options", "expect: legal, illegal",
                                           "place d4", "expect at the end: at, choice, player"]
    assert ["branch-own" in li.get_attribute("class") for li in items()] == [False] * 3 + [True] * 3
    browser.find_element(By.ID, "last").click()
    wait(browser, lambda d: view(d)["step"] == 5, "the last step")
    assert [sorted(li.get_attribute("class").split()) for li in items()] == [
        [], [], ["pass"], ["branch-own", "pass"], ["branch-own"], ["branch-own", "current", "pass"]]
    browser.refresh()           # a reload finds the branch and the step again
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === '1'") and view(d), "reload")
    assert (view(browser)["branch"], view(browser)["step"]) == ("karst", 5)


def test_a_why_answer_is_a_sentence_with_its_details_folded(server, browser):  # noqa: F811
    page(browser, server)
    open_scenario(browser, "nord/scenarios/attack-merger-case-1.yaml")
    browser.execute_script("goStep(4)")
    wait(browser, lambda d: view(d)["step"] == 4, "step 4")
    assert view(browser)["decision"]["choice"] == "attack"
    browser.execute_script("explainMove('attack C>A')")
    box = browser.find_element(By.ID, "why-text")
    wait(browser, lambda d: box.text, "the why answer")
    sentence = browser.find_element(By.CSS_SELECTOR, "#why-text .why-sentence").text
    print("\nwhy:", sentence)
    assert box.text.splitlines() == [sentence, "details: the rule, step by step"]      # (the rest folded)
    assert sentence.startswith("attack C>A: illegal: 'C>A' is not an option of 'attack'")
    details = browser.find_element(By.CSS_SELECTOR, "#why-text details")
    assert details.get_attribute("open") is None
    details.find_element(By.TAG_NAME, "summary").click()
    wait(browser, lambda d: "rule at " in box.text, "the details unfolded")
    assert not ABSOLUTE.search(box.get_attribute("textContent")) and str(ROOT) not in box.get_attribute("textContent")


def test_the_seat_menus_offer_the_agents_each_game_can_use(server, browser):  # noqa: F811
    page(browser, server)
    seen = {}
    for game in ("hex", "nord", "tictactoe", "vikings"):
        Select(browser.find_element(By.ID, "game")).select_by_value(game)
        seen[game] = [o.text for o in Select(browser.find_element(By.ID, "seat-1")).options]
    assert seen == {"hex": ["human", "random"], "nord": ["human", "greedy", "mcts", "random"],
                    "tictactoe": ["human", "random"], "vikings": ["human", "greedy", "mcts", "random"]}


def _fresh_server(folder):
    """`nord serve --folder FOLDER` as a user starts it: a new app on a port of its own (url, stop)."""
    from nordlang.web import create_app
    return start_server(create_app([folder]))


def test_how_soon_the_page_is_ready(server, browser):  # noqa: F811
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMES})
    ready = lambda d: d.execute_script("return window.__times.ready")  # noqa: E731
    url, stop = _fresh_server(ROOT)          # (the whole project served, as `nord serve` in a checkout)
    try:
        browser.get(url)                     # the first visit to a server just started
        first = wait(browser, ready, "ready")
    finally:
        stop()
    figures = []
    for _ in range(3):
        browser.get(server)
        figures.append(wait(browser, ready, "ready"))
    open_scenario(browser, "tictactoe/scenarios/diagonal-win.yaml")
    step = browser.current_url
    boards = []
    for _ in range(3):                              # a reload of a scenario's step: ready with its board drawn
        browser.get("about:blank")
        browser.get(step)
        wait(browser, lambda d: d.execute_script("return window.__times.ready && window.__times.board"), "board")
        boards.append(browser.execute_script("return window.__times.board"))
    shown = lambda ts: ", ".join(f"{t:.0f}" for t in ts)  # noqa: E731
    print(f"\npage ready: {first:.0f} ms at the first visit to a server just started on the whole project; "
          f"then {min(figures):.0f} ms (best of 3: {shown(figures)}); "
          f"a scenario's step reloaded, its board drawn: {min(boards):.0f} ms ({shown(boards)})")
    assert first < 5000 and min(figures) < 5000 and min(boards) < 5000      # (generous bounds: a busy machine)
