"""The table's sounds and vibrations, the player's name and the system share sheet (issue 29).

Sounds are checked by what the page asked the synthesizer to play (window.__truco.sounds:
sound.js records each request), not by listening, with the Web Audio nodes it made counted
through a wrapped AudioContext; vibrations and `navigator.share` are stubs (headless
Chromium has neither a motor nor a share sheet).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, new_page
from helpers.table import act, last_n, obs, phase, start, wait_turn

# Counts the Web Audio contexts and sound sources the page makes, and records vibrations.
AUDIO_AND_VIBRATION = """
(() => {
  window.__audio = { contexts: 0, sources: 0 };
  const Real = window.AudioContext;
  if (Real) {
    window.AudioContext = class extends Real {
      constructor(...args) { super(...args); window.__audio.contexts++; }
      createOscillator() { window.__audio.sources++; return super.createOscillator(); }
      createBufferSource() { window.__audio.sources++; return super.createBufferSource(); }
    };
  }
  window.__vibrations = [];
  Object.defineProperty(Navigator.prototype, "vibrate", {
    configurable: true, writable: true,
    value(pattern) { window.__vibrations.push(pattern); return true; },
  });
})();
"""

# navigator.share as a phone has it; window.__shareMode says how the sheet ends. And no
# navigator.vibrate, as on a desktop browser or an iPhone.
SHARE_SHEET = """
(() => {
  delete Navigator.prototype.vibrate;
  window.__shared = [];
  window.__shareMode = "ok";
  navigator.share = (data) => {
    window.__shared.push(data);
    if (window.__shareMode === "abort") return Promise.reject(new DOMException("closed", "AbortError"));
    if (window.__shareMode === "fail") return Promise.reject(new DOMException("no", "NotAllowedError"));
    return Promise.resolve();
  };
})();
"""

# The human leads and may ask truco; a bot (difícil, three manilhas) asks truco at once.
HUMAN_ASKS = {"seed": 7, "hands": [["4c", "7h", "As"], ["4d", "5s", "6h"]], "dealer": 1}
BOT_ASKS = {"seed": 7, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"]], "dealer": 0}


def sounds(page):
    return page.evaluate("window.__truco.sounds")


def new_sounds(page, before):
    now = sounds(page)
    return now["requested"][len(before["requested"]):], now["buzzed"][len(before["buzzed"]):]


def hide_tab(page, hidden):
    page.evaluate("""(hidden) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => hidden ? 'hidden' : 'visible' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
        document.dispatchEvent(new Event('visibilitychange'));
    }""", hidden)


def test_sounds_and_vibrations_follow_the_game_the_toggle_and_the_tab(browser, base_url):
    context, page = new_page(browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script(AUDIO_AND_VIBRATION)
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    toggle = page.locator("#sound-toggle")

    # A deal shuffles; the player's turn taps the phone.
    before = sounds(page)
    start(page, {"mode": "1x1", "level": "dificil"}, HUMAN_ASKS)
    played, buzzed = new_sounds(page, before)
    assert played == ["shuffle"] and buzzed == ["turn"], (played, buzzed)
    # The player's truco is a call, and the bot's answer has its own sound.
    before = sounds(page)
    n = last_n(page)
    page.get_by_role("button", name="Truco!").click()
    wait_turn(page, n)
    played, _ = new_sounds(page, before)
    assert played[0] == "call:truco", played
    assert played[1] in ("answer:accept", "answer:run", "call:seis"), played
    if phase(page) == "human" and not obs(page)["pending"]:
        before = sounds(page)
        act(page)  # a card on the felt (and the bot's, or the next deal)
        played, _ = new_sounds(page, before)
        assert played[0] == "card", played
    # The synthesizer made real Web Audio sources, once the context existed.
    audio = page.evaluate("window.__audio")
    assert audio["contexts"] == 1 and audio["sources"] > 0, audio

    # A raise aimed at the player buzzes twice (and not again for the turn it gives).
    before = sounds(page)
    start(page, {"mode": "1x1", "level": "dificil"}, BOT_ASKS)
    assert obs(page)["pending"], "the bot asked for truco with this deal"
    played, buzzed = new_sounds(page, before)
    assert played == ["shuffle", "call:truco"] and buzzed == ["raise"], (played, buzzed)
    assert page.evaluate("window.__vibrations.at(-1)") == [70, 50, 70]

    # A hidden tab: nothing is asked for, nothing buzzes, though the game goes on.
    hide_tab(page, True)
    before = sounds(page)
    n = last_n(page)
    page.get_by_role("button", name="Aceitar", exact=True).click()
    wait_turn(page, n)
    act(page)
    assert last_n(page) > n + 1
    assert new_sounds(page, before) == ([], [])
    hide_tab(page, False)

    # Muted: silent and still, and remembered over a reload.
    expect(toggle).to_have_attribute("aria-pressed", "true")
    box = toggle.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    before = sounds(page)
    start(page, {"mode": "1x1", "level": "dificil"}, BOT_ASKS)
    assert new_sounds(page, before) == ([], [])
    assert page.evaluate("JSON.parse(localStorage.getItem('truco:settings')).data.sound") is False
    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    # The start screen's "Som e vibração" (where a short phone has no room for the toggle
    # during a match) says the same as the toggle.
    page.wait_for_selector("#start-dialog[open]")
    expect(page.locator("#sound-setting")).not_to_be_checked()
    start(page, {"mode": "1x1", "level": "dificil"}, BOT_ASKS)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert sounds(page) == {"requested": [], "buzzed": []}
    assert page.evaluate("window.__audio.contexts") == 0, "no AudioContext while muted"
    toggle.tap()  # sound back: the next deal is heard
    start(page, {"mode": "1x1"}, HUMAN_ASKS)
    assert sounds(page)["requested"] == ["shuffle"]
    context.close()
    page.console_watch.check()


def clean(name):
    """The page's rule (table/seats.js cleanName): one space between words, trimmed, 20 characters."""
    return " ".join(name.split())[:20].strip()


def test_the_players_name_is_text_capped_remembered_and_told_and_share_uses_the_sheet(browser, base_url):
    context, page = new_page(browser, base_url)
    context.add_init_script(SHARE_SHEET)
    # A one-hand match (10 x 10, a mão de ferro: whoever wins the hand wins), cards face up.
    page.goto("/?fast=1&mode=1x1&ferro=claras&seed=5&score=10,10")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    field = page.locator("#player-name")
    expect(field).to_be_visible()
    # Each level has its line of character on the start screen.
    for lv, word in (("facil", "Fácil"), ("medio", "Médio"), ("dificil", "Difícil")):
        line = page.locator(f"#level-{lv}-line")
        expect(line).to_be_visible()
        assert line.inner_text().startswith(word) and len(line.inner_text()) > len(word) + 20

    field.fill("  <b>Zé</b>  & <img src=x onerror=window.__pwned=1>")
    field.press("Tab")
    name = clean(field.input_value())
    assert name.startswith("<b>Zé</b> & <img") and len(name) <= 20, name
    page.locator("#start-button").click()
    wait_turn(page, None)
    me = page.locator("#my-name")
    expect(me).to_have_text(name)  # literally, tags and all
    assert page.locator("#my-name *, #me .me-label img").count() == 0 and page.evaluate("window.__pwned") is None
    expect(page.locator("#me")).to_have_attribute("aria-label", name)
    # Without navigator.vibrate the deal still sounds, and the turn buzzes nothing.
    assert sounds(page) == {"requested": ["shuffle"], "buzzed": []}
    while phase(page) != "over":
        act(page)
    assert any(name in p for p in page.locator("#live p").all_inner_texts()), "the live region names the player"

    # The replay tells the player's moves by the name.
    page.locator("#end-replay").click()
    caption = page.locator("#replay-caption")
    expect(caption).to_be_visible()
    for _ in range(12):
        if f"{name} jogou" in caption.inner_text():
            break
        page.locator("#replay-next").click()
    assert f"{name} jogou" in caption.inner_text()
    page.locator("#replay-close").click()

    # Compartilhar: the system's share sheet with the link, where the browser has one.
    page.locator("#end-share").click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    q = parse_qs(urlparse(shared["url"]).query)
    assert q["partida"] == ["1"] and q["seed"] == ["5"] and q["score"] == ["10,10"], shared
    assert shared["title"] == "Compartilhar a partida" and shared["text"]
    assert "player_name" not in q and "sound" not in q, "a link carries no one's name or sound"
    expect(page.locator("#share-dialog")).to_be_hidden()
    # Closed by the player (AbortError): nothing more.
    page.evaluate("window.__shareMode = 'abort'")
    page.locator("#end-share").click()
    page.wait_for_function("() => window.__shared.length === 2")
    expect(page.locator("#share-dialog")).to_be_hidden()
    # The sheet failed: the link in the dialog's field, as where there is no sheet.
    page.evaluate("window.__shareMode = 'fail'")
    page.locator("#end-share").click()
    expect(page.locator("#share-dialog")).to_be_visible()
    expect(page.locator("#share-url")).to_have_value(shared["url"])
    page.locator("#share-close").click()
    page.evaluate("delete navigator.share")
    page.locator("#end-share").click()
    expect(page.locator("#share-url")).to_have_value(shared["url"])
    expect(page.locator("#share-message")).to_have_text(re.compile("copiado|copie"))
    page.locator("#share-close").click()

    # Remembered over a reload; the page caps what the field's maxlength did not.
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    expect(field).to_have_value(name)
    start(page, {"mode": "1x1"})
    expect(me).to_have_text(name)
    page.locator("#leave").click()
    page.get_by_role("button", name="Sair e perder").click()
    long = "Maria Aparecida dos Santos Ferreira"
    field.evaluate("(f, v) => { f.value = v; f.dispatchEvent(new Event('change', { bubbles: true })); }", long)
    assert page.evaluate("JSON.parse(localStorage.getItem('truco:settings')).data.player_name") == clean(long)
    # Blank: the default "Você".
    field.fill("   ")
    field.press("Tab")
    start(page, {"mode": "1x1"})
    expect(me).to_have_text("Você")
    context.close()
    page.console_watch.check()
