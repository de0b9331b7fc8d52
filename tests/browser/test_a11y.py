"""Accessibility audit: axe-core (the npm dev dependency) on every page of the build, in the
states a player meets: the table's start screen, mid-game and end of the match, the
tutorial, the embed with a scenario, the marcador, and any other page in dist/.

A violation of impact "serious" or "critical" fails the test. The pages are served with
their production Content-Security-Policy (no inline script), so axe is not added as a
<script> tag: its source is evaluated through the DevTools protocol, which the CSP does not
govern, and the page's own policy stays as deployed.
"""

from __future__ import annotations

import pytest

from helpers import DIST  # noqa: F401
from helpers.browser import ENGINE_TIMEOUT_MS, EngineHold, audit, until, watched_page
from helpers.table import accept_or_play_first

KNOWN_PAGES = {"index.html", "tutorial.html", "embed.html", "marcador.html"}
# The engine's worker script: held back where a test checks the table's start screen only
# (a player meets it while the engine loads), so that Pyodide does not start for nothing.
WORKER = "**/static/js/engine/worker.js*"


def human_turn(page, timeout=90_000):
    until(page, """() => { const a = document.getElementById('app');
                           return !window.__truco.busy && (a.dataset.phase === 'human' || a.dataset.phase === 'over'); }""",
          timeout=timeout)


def test_table_start_screen(ready_table, axe_source):
    until(ready_table, "document.getElementById('app').dataset.phase === 'start'")
    audit(ready_table, axe_source, "table, start screen")
    ready_table.evaluate("document.getElementById('open-stats').click()")
    until(ready_table, "document.getElementById('stats-dialog').open")
    audit(ready_table, axe_source, "table, statistics dialog")
    ready_table.keyboard.press("Escape")
    until(ready_table, "!document.getElementById('stats-dialog').open")


def test_four_colour_deck_is_a_remembered_setting(ready_table, axe_source):
    assert ready_table.locator("#app").get_attribute("data-phase") == "start"
    assert not ready_table.evaluate("document.documentElement.classList.contains('four-colour')")
    ready_table.evaluate("document.getElementById('four_colour').click()")  # in the closed <details>
    until(ready_table, "document.documentElement.classList.contains('four-colour')")
    saved = ready_table.evaluate("""() => { const k = Object.keys(localStorage).find((k) => k.endsWith('settings'));
                                      return k && JSON.parse(localStorage.getItem(k)); }""")
    assert saved["data"]["four_colour"] is True, saved
    # Every suit its own colour: a card of each suit drawn by the page's own code.
    colours = ready_table.evaluate("""async () => {
        const { cardElement } = await import('./static/js/shared/cards.js');
        const box = document.createElement('div');
        document.getElementById('app').append(box);
        const out = {};
        for (const c of ['7c', '7h', '7s', '7d']) {
          const el = cardElement(c, { manilhas: [] });
          box.append(el);
          out[c[1]] = getComputedStyle(el).color;
        }
        box.remove();
        return out; }""")
    assert len(set(colours.values())) == 4, colours
    # The tutorial and the embed draw their cards with the same setting.
    other = ready_table.context.new_page()
    try:
        for path in ["/tutorial.html?fast=1", "/embed.html?scenario=manilhas-copas&fast=1"]:
            other.goto(path)
            until(other, "document.documentElement.classList.contains('four-colour')")
    finally:
        other.close()


def test_table_mid_game(ready_table, axe_source):
    ready_table.evaluate("window.__truco.start({mode: '2x2'}, {seed: 5})")
    human_turn(ready_table)
    assert ready_table.locator("#app").get_attribute("data-phase") == "human"
    audit(ready_table, axe_source, "table, mid-game (2x2, the human's turn, four-colour deck)")
    assert tab_through(ready_table, 30) == [], "table, mid-game: focus not visible"


def test_table_end_of_match_dialog(ready_table, axe_source):
    # 1x1 at 10 x 10 (mão de ferro): one hand decides the match.
    ready_table.evaluate("window.__truco.start({mode: '1x1'}, {seed: 7, score: [10, 10]})")
    for _ in range(40):
        human_turn(ready_table)
        if ready_table.locator("#app").get_attribute("data-phase") == "over":
            break
        before = ready_table.evaluate("window.__truco.observation.log.at(-1).n")
        accept_or_play_first(ready_table)
        until(ready_table, "(n) => !window.__truco.observation || window.__truco.observation.log.at(-1).n !== n"
                     " || document.getElementById('app').dataset.phase === 'over'", before, timeout=90_000)
    assert ready_table.locator("#app").get_attribute("data-phase") == "over"
    until(ready_table, "!!document.querySelector('dialog[open]')", timeout=10_000)
    audit(ready_table, axe_source, "table, end-of-match dialog")


def test_tutorial(browser, base_url, axe_source):
    with watched_page(browser, base_url) as page:
        # Untouched: the exercises' first positions, drawn before the engine.
        page.goto("/tutorial.html?fast=1")
        until(page, "() => document.querySelector('.exercise-live[data-state=preview] .mt.my-turn')")
        audit(page, axe_source, "tutorial, first lesson, untouched")
        # A move made while the engine loads: the progress under the table.
        page.locator(".exercise .mt-hand button:not([disabled])").first.click()
        until(page, "() => document.querySelector('.ex-loading:not([hidden])')")
        audit(page, axe_source, "tutorial, the engine loading after a touch")
        until(page, "document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS)
        page.evaluate("location.hash = 'manilhas'")
        until(page, "window.__tutorial.current === 'manilhas'")
        audit(page, axe_source, "tutorial, manilhas lesson")


def test_embed(browser, base_url, axe_source):
    with watched_page(browser, base_url) as page:
        page.goto("/embed.html?scenario=manilhas-copas&fast=1")
        page.wait_for_selector(".mt.my-turn", timeout=ENGINE_TIMEOUT_MS)
        audit(page, axe_source, "embed, a scenario")
        page.goto("/embed.html?scenario=no-such-scenario")
        until(page, "document.readyState === 'complete'")
        page.console_watch.allow(".")  # the error page may log what it shows
        audit(page, axe_source, "embed, an unknown scenario")


def test_marcador(browser, base_url, axe_source):
    with watched_page(browser, base_url) as page:
        page.goto("/marcador.html")
        until(page, "document.readyState === 'complete'")
        audit(page, axe_source, "marcador")
        page.locator("#rules-button").click()
        until(page, "document.getElementById('settings').open")
        audit(page, axe_source, "marcador, rules dialog")
        page.keyboard.press("Escape")
        page.locator("button.mc-pt").first.click()
        audit(page, axe_source, "marcador, after a point")


@pytest.mark.parametrize("name", sorted(p.name for p in DIST.glob("*.html") if p.name not in KNOWN_PAGES) or ["(none)"])
def test_other_pages(browser, base_url, axe_source, name):
    if name == "(none)":
        pytest.skip("no other page in dist/")
    with watched_page(browser, base_url) as page:
        page.goto(f"/{name}")
        until(page, "document.readyState === 'complete'")
        audit(page, axe_source, name)


NOTHING_MOVES = """() => {
  const moving = [];
  for (const el of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      const secs = (v) => Math.max(...v.split(',').map((x) => parseFloat(x) * (x.trim().endsWith('ms') ? 0.001 : 1)));
      if (cs.animationName !== 'none' && secs(cs.animationDuration) > 0.01) moving.push(`${el.tagName}.${el.className} ${pseudo || ''} animation`);
      if (secs(cs.transitionDuration) > 0.01) moving.push(`${el.tagName}.${el.className} ${pseudo || ''} transition`);
    }
  }
  return moving.slice(0, 10);
}"""


def test_reduced_motion_and_a_light_system_scheme_on_every_page(browser, base_url, axe_source):
    """A player who asks for less motion gets none on any page, and one whose system is light
    still gets the dark, readable pages (the audit checks the contrast)."""
    with watched_page(browser, base_url, reduced_motion="reduce", color_scheme="light") as page:
        EngineHold(page, WORKER)  # no page here needs the engine: the tutorial and the embed are untouched
        for path, ready in [("/marcador.html", "document.readyState === 'complete'"),
                            ("/?fast=1", "document.getElementById('app').dataset.phase === 'start'"),
                            ("/tutorial.html?fast=1", "() => document.querySelector('.exercise-live[data-state=preview] .mt.my-turn')"),
                            ("/embed.html?scenario=manilhas-copas&fast=1", "!!document.querySelector('.mt.my-turn')")]:
            page.goto(path)
            until(page, ready, timeout=ENGINE_TIMEOUT_MS)
            assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark", path
            assert page.evaluate(NOTHING_MOVES) == [], path
            audit(page, axe_source, f"{path} (reduced motion, light system scheme)")


FOCUS_SHOWN = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const cs = getComputedStyle(el);
  const ring = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2;
  const shadow = cs.boxShadow && cs.boxShadow !== 'none';
  const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')}`;
  return { name, shown: ring || shadow };
}"""


def tab_through(page, limit=40):
    """Tab through the page (from the top); returns the focused elements without a visible focus."""
    unseen, seen = [], set()
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUS_SHOWN)
        if info is None:
            continue
        if info["name"] in seen:
            continue
        seen.add(info["name"])
        if not info["shown"]:
            unseen.append(info["name"])
    assert seen, "nothing took the keyboard focus"
    return unseen


def test_visible_keyboard_focus_on_every_page(browser, base_url):
    with watched_page(browser, base_url) as page:
        page.goto("/marcador.html")
        until(page, "document.readyState === 'complete'")
        assert tab_through(page) == [], "marcador"
        EngineHold(page, WORKER)
        page.goto("/?fast=1")
        until(page, "document.getElementById('app').dataset.phase === 'start'", timeout=ENGINE_TIMEOUT_MS)
        page.evaluate("document.querySelectorAll('#start-dialog details').forEach((d) => { d.open = true; })")
        assert tab_through(page) == [], "table, start screen"
        page.unroute(WORKER)  # the tutorial's engine goes on (the held request goes with the page)
        page.goto("/tutorial.html?fast=1&engine=now")
        until(page, "document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS)
        assert tab_through(page, 60) == [], "tutorial"


def test_dialogs_take_and_return_the_focus(browser, base_url):
    """Native modal dialogs: opened by keyboard, the focus goes in; Escape closes them and
    the focus is back on the button that opened them."""
    with watched_page(browser, base_url) as page:
        page.goto("/marcador.html")
        until(page, "document.readyState === 'complete'")
        page.locator("#rules-button").focus()
        page.keyboard.press("Enter")
        until(page, "document.getElementById('settings').open")
        assert page.evaluate("document.getElementById('settings').contains(document.activeElement)")
        page.keyboard.press("Escape")
        until(page, "!document.getElementById('settings').open")
        assert page.evaluate("document.activeElement.id") == "rules-button"
        EngineHold(page, WORKER)
        page.goto("/?fast=1")
        until(page, "document.getElementById('app').dataset.phase === 'start'", timeout=ENGINE_TIMEOUT_MS)
        page.locator("#open-stats").focus()
        page.keyboard.press("Enter")
        until(page, "document.getElementById('stats-dialog').open")
        assert page.evaluate("document.getElementById('stats-dialog').contains(document.activeElement)")
        for _ in range(25):  # Tab stays inside the modal dialog
            page.keyboard.press("Tab")
            assert page.evaluate("""() => document.activeElement === document.body
                || document.getElementById('stats-dialog').contains(document.activeElement)"""), "focus left the dialog"
        page.keyboard.press("Escape")
        until(page, "!document.getElementById('stats-dialog').open")
        assert page.evaluate("document.activeElement.id") == "open-stats"
