"""The page's layout and marks in a real headless Chromium (as test_browser.py
drives it): the board fills a narrow screen, legal targets are marked before
any click and an option's places when the pointer is on it, the last move's
mark is unlike any group's band, Hex shows each player's sides and the
winning chain, and every option of a whole game of Vikings and of Nord can
be reached by a click on the board or by an option that says what it is."""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from browser_support import WIDE, require_browser, settled, view, wait

require_browser()

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

NARROW = 400


def width(drv, w):
    """The window `w` px wide, and the page laid out again for it."""
    drv.set_window_size(w, 1000)
    wait(drv, lambda d: d.execute_script("return window.innerWidth") == w, f"a window {w} px wide")
    time.sleep(0.4)                 # (the page lays itself out again 150 ms after the last resize)
    drv.execute_script("if (window.redraw) redraw()")


def new_game(drv, url, game, seats, seed):
    drv.set_window_size(WIDE, 1000)
    drv.get(url)
    wait(drv, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to load")
    Select(drv.find_element(By.ID, "game")).select_by_value(game)
    drv.execute_script("document.getElementById('players').value = arguments[0]; fillSeats()", len(seats))
    for i, s in enumerate(seats):
        Select(drv.find_element(By.ID, f"seat-{i}")).select_by_value(s)
    drv.find_element(By.ID, "seed").send_keys(str(seed))
    drv.find_element(By.ID, "start").click()
    wait(drv, lambda d: view(d) is not None and view(d)["game"] and (settled(d) or "human" not in seats),
         "the game to start")


def rect(drv, css):
    return drv.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                              "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}",
                              css)


def smallest_text(drv) -> float:
    """The smallest size, in screen px, of a text drawn in the board."""
    return drv.execute_script("""
        const sizes = [...document.querySelectorAll('#board svg text')].filter((t) => t.textContent.trim())
          .map((t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
        return Math.min(...sizes);""")


@pytest.mark.parametrize("game, seats", [("nord", ["human", "random", "random"]), ("hex", ["human", "random"]),
                                         ("vikings", ["human", "random"])])
def test_the_board_fills_a_narrow_screen_and_sits_beside_the_options_on_a_wide_one(server, browser, game, seats,
                                                                                     tmp_path):
    new_game(browser, server, game, seats, 3)
    board, right = rect(browser, "#board svg"), rect(browser, "#right")
    assert right["left"] >= board["right"]                     # side by side
    assert board["width"] >= 0.45 * WIDE
    browser.save_screenshot(str(tmp_path / f"{game}-{WIDE}.png"))
    width(browser, NARROW)
    board, right = rect(browser, "#board svg"), rect(browser, "#right")
    assert board["width"] >= 0.9 * NARROW, board
    assert right["top"] >= board["bottom"]                     # the options beneath the board
    assert browser.execute_script("return document.documentElement.scrollWidth") <= NARROW    # nothing past the edge
    if game == "vikings":           # (its panel goes beneath its homelands: read at its own size)
        assert browser.execute_script("return document.querySelector('#board svg').dataset.stacked") == "1"
        assert smallest_text(browser) >= 9
    browser.save_screenshot(str(tmp_path / f"{game}-{NARROW}.png"))
    # "actual size": the picture at its own size (every text at 9 px or more), the board box scrolls sideways
    browser.find_element(By.ID, "zoom").click()
    assert smallest_text(browser) >= 9
    assert browser.find_element(By.ID, "zoom").text == "fit to page"
    board = rect(browser, "#board")
    assert board["width"] >= 0.9 * NARROW
    assert browser.execute_script("return document.documentElement.scrollWidth") <= NARROW
    browser.find_element(By.ID, "zoom").click()
    assert rect(browser, "#board svg")["width"] >= 0.9 * NARROW         # (fitted again)
    width(browser, WIDE)


def test_legal_targets_are_marked_before_a_click_and_an_option_under_the_pointer_is_marked(server, browser):
    new_game(browser, server, "hex", ["human", "random"], 1)
    v = view(browser)
    assert len(v["decision"]["options"]) == 121
    marked = browser.execute_script("return [...document.querySelectorAll('#board .ov.cand')].map((e) => e.dataset.of)")
    assert sorted(marked) == sorted(v["decision"]["options"])
    assert browser.find_elements(By.CSS_SELECTOR, "#board .ov.hover") == []
    option = browser.find_elements(By.CSS_SELECTOR, "#options li")[13]
    ActionChains(browser).move_to_element(option).perform()
    hover = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .ov.hover"), "the hover mark")
    assert [e.get_attribute("data-of") for e in hover] == [v["decision"]["options"][13]] == ["c2"]
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "log")).perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board .ov.hover"), "the hover mark to go")
    # and the other way: the pointer on a cell lights its option in the list
    cell = next(e for e in browser.find_elements(By.CSS_SELECTOR, "#board .space")
                if e.get_attribute("data-at") == "f6")
    ActionChains(browser).move_to_element(cell).perform()
    lit = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#options li.lit button.option"), "a lit option")
    assert [b.get_attribute("data-option") for b in lit] == ["f6"]


def test_the_last_moves_mark_is_unlike_a_groups_band(server, browser):
    """Nord's groups are bands of light tints (fills inside a space's outline); the last move is a
    black line with a white dashed line inside it, drawn over the pieces."""
    browser.get(server)
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to load")
    browser.find_element(By.ID, "tab-replay").click()
    Select(browser.find_element(By.ID, "replay-file")).select_by_visible_text("replays/nord-2p.jsonl")
    browser.find_element(By.ID, "open-replay").click()
    wait(browser, lambda d: view(d) and view(d)["kind"] == "replay", "the replay")
    browser.execute_script("goStep(40)")
    wait(browser, lambda d: view(d)["step"] == 40 and d.find_elements(By.CSS_SELECTOR, "#board .ov.mark-out"),
         "step 40")
    bands = browser.execute_script(
        "return [...document.querySelectorAll('#board g.tint')].map((g) => getComputedStyle(g).fill)")
    assert bands, "the position has groups with bands"
    style = browser.execute_script("""
        const s = (css) => { const c = getComputedStyle(document.querySelector(css));
                             return [c.stroke, c.strokeWidth, c.strokeDasharray, c.fill]; };
        return [s('#board .ov.mark-out'), s('#board .ov.mark-in')];""")
    assert style == [["rgb(17, 17, 17)", "7px", "none", "none"], ["rgb(255, 255, 255)", "3px", "7px, 5px", "none"]]
    assert "rgb(17, 17, 17)" not in bands
    # drawn last: over the pieces and the bands
    last = browser.execute_script("return document.querySelector('#board svg').lastElementChild.getAttribute('class')")
    assert last == "overlay"


def test_hex_shows_each_players_sides_and_the_winning_chain(server, browser):
    new_game(browser, server, "hex", ["random", "random"], 2)
    # (the agents play to the end at once, not one move a quarter second as the page shows them)
    wait(browser, lambda d: d.execute_script("return !busy"), "the page to be idle")
    browser.execute_script("""return (async () => {
        clearTimeout(agentTimer); busy = true;
        let v = view;
        while (!v.over) v = await api('POST', `/api/games/${v.id}/agent`, {steps: 50});
        busy = false; show(v); })()""")
    wait(browser, lambda d: view(d)["over"] and settled(d), "the agents' game to end")
    sides = browser.execute_script("""return [...document.querySelectorAll('#board line.side')]
        .map((e) => e.dataset.player + ' ' + e.dataset.side)""")
    counts = {s: sides.count(s) for s in set(sides)}
    assert counts == {"red top": 22, "red bottom": 22, "blue left": 22, "blue right": 22}    # two edges a cell
    keys = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#board text.side-key")]
    assert keys == ["red joins top and bottom", "blue joins left and right"]
    winner = view(browser)["result"]["winners"][0]
    chain = browser.find_elements(By.CSS_SELECTOR, "#board g.chain")
    assert [c.get_attribute("data-player") for c in chain] == [winner]
    cells = {e.get_attribute("data-space") for e in chain[0].find_elements(By.CSS_SELECTOR, ".chain-space")}
    mine = {e.get_attribute("data-at") for e in browser.find_elements(By.CSS_SELECTOR, "#board .piece")
            if e.get_attribute("data-owner") == winner}
    assert cells <= mine and len(cells) >= 11
    ends = (("a", "k") if winner == "blue" else ("1", "11"))
    if winner == "blue":
        assert {c[0] for c in cells} >= set(ends)
    else:
        assert {c[1:] for c in cells} >= set(ends)


def _options_reached(drv) -> list[dict]:
    """For each option of the pending decision: its text, its label, and whether each of its places is on
    the board."""
    return drv.execute_script("""
        const d = view.decision;
        const labels = Object.fromEntries([...document.querySelectorAll('#options button.option')]
          .map((b) => [b.dataset.option, b.textContent]));
        return d.options.map((t, i) => ({text: t, label: labels[t],
          on_board: d.parts[i].every((p) => atElements(p).length > 0)}));""")


def _click_board(drv, part):
    el = drv.execute_script("const e = atElements(arguments[0])[0]; e.scrollIntoView({block: 'center'}); return e",
                            part)
    ActionChains(drv).move_to_element(el).click().perform()


@pytest.mark.parametrize("game, players, seed", [("vikings", 2, 5), ("nord", 3, 5)])
def test_every_option_of_a_whole_game_is_on_the_board_or_says_what_it_is(server, browser, game, players, seed):
    """Every seat a person (the page is handed over between them): at each decision every option has
    its places on the board or a label that is not a bare number; a seeded pick is played by a click on
    the board when its one place is there, else by its button; the replay records the options' texts."""
    new_game(browser, server, game, ["human"] * players, seed)
    rng = random.Random(seed)
    by_choice: dict = {}
    bare, clicks, played, off_board = [], 0, [], set()
    while not view(browser)["over"]:
        if browser.find_element(By.ID, "handover").is_displayed():
            browser.find_element(By.ID, "handover-ok").click()
        v = view(browser)
        d = v["decision"]
        options = _options_reached(browser)
        for o in options:
            seen = by_choice.setdefault(d["choice"], [0, 0])
            seen[0] += 1
            seen[1] += o["on_board"]
            if not o["on_board"]:
                off_board.add(f"{d['choice']} {o['label']}")
                if re.fullmatch(r"\d+", o["label"]):
                    bare.append((d["choice"], o["text"]))
        i = rng.randrange(len(options))
        text, parts = d["options"][i], d["parts"][i]
        sharing = [k for k, ps in enumerate(d["parts"]) if parts[0] in ps] if len(parts) == 1 else []
        if options[i]["on_board"] and sharing == [i]:
            _click_board(browser, parts[0])
            clicks += 1
        else:
            button = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#options button.option")
                          if b.get_attribute("data-option") == text)
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        played.append(f"{d['choice']} {text}")
        wait(browser, lambda dr, n=v["decisions"]: view(dr)["decisions"] > n and settled(dr), f"'{played[-1]}'")
    assert bare == []
    replay = browser.execute_script("return fetch(`/api/games/${view.id}/replay`).then((r) => r.text())")
    moves = iter(json.loads(line)["move"] for line in replay.splitlines()[1:])
    assert all(any(m == p for m in moves) for p in played)        # (in order, among the forced ones)
    # the options with no place on the board are words that say what they do; every other option's
    # places are there (a slot of the offer, a cell, a space, a structure, an item of the hand)
    assert off_board == ({"ferry each", "ferry stop", "settle base"} if game == "vikings" else {"play none"})
    for choice, (total, on_board) in by_choice.items():
        if choice not in ("ferry", "settle", "play"):
            assert on_board == total > 0, (choice, total, on_board)
    if game == "vikings":
        assert clicks >= by_choice["buy"][0] // 12          # (buys were clicked on the wheel too)
    assert clicks > 0
