"""The pages in Spanish and English, end to end in Chromium.

- Every page in every language: its `lang`, its texts from its own table, no serious axe
  violation (Portuguese: tests/browser/test_a11y.py), including the engine's loading error. One
  browser context per language walks through every page (each page's engine start is the
  cost).
- The language: a first visit follows the browser's languages; the switch in the header
  leads to the same page in another language and is remembered; the saved game is the
  same in every language.
- A whole game by keyboard alone (in Spanish), and what the live region announces in a
  scripted hand (in English).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from helpers import ROOT, run_build
from helpers.browser import ENGINE_TIMEOUT_MS, audit, new_page, until

I18N = ROOT / "site" / "i18n"
FOLDER = {"pt-BR": "", "es": "es/", "en": "en/"}
PT_MARK = re.compile(r"\{pt:([^{}]+)\}")  # a word a phrasing keeps in Portuguese (i18n.js)


def strings(lang: str) -> dict:
    table = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return {k: v[0] if isinstance(v, list) else v for k, v in table.items()}


def text(page, selector: str) -> str:
    return " ".join(page.locator(selector).first.inner_text().split())


def lang_of(page) -> str:
    return page.evaluate("document.documentElement.lang")


def path_of(page) -> str:
    return page.evaluate("location.pathname + location.search + location.hash")


# What the player sees of a game: the hand, its cards, the rounds, the score.
STATE = """() => { const o = window.__truco.observation;
  return JSON.stringify([o.hand_number, o.score, o.hand, o.rounds]); }"""
START = "document.getElementById('app').dataset.phase === 'start'"
# Whether the start screen opens at any moment of a page's life (window.__startShown).
NO_START_SCREEN = """window.__startShown = false;
document.addEventListener("DOMContentLoaded", () => {
  const d = document.getElementById("start-dialog");
  if (!d) return;
  new MutationObserver(() => { if (d.open) window.__startShown = true; }).observe(d, { attributes: true });
});"""


def tour(page, axe_source, lang):
    """The pages but the table, in `lang`: the table's loading error, the tutorial, the
    embed (and its error page) and the marcador. Each: its `lang`, its texts, axe."""
    s, d = strings(lang), FOLDER[lang]
    # The engine's loading error (the start page's other face).
    page.goto(f"/{d}index.html?fail=pyodide")
    until(page, "document.getElementById('app').dataset.engineState === 'error'", timeout=ENGINE_TIMEOUT_MS)
    assert lang_of(page) == lang
    assert text(page, ".error-title") == s["load.failed"]
    assert text(page, "#error-text") == s["load.fail.pyodide"]
    assert text(page, "#retry") == s["load.retry"]
    page.console_watch.allow(".")  # the failed load logs why
    audit(page, axe_source, f"{lang}: the table's loading error")
    page.console_watch.allowed.clear()

    page.goto(f"/{d}tutorial.html?fast=1&engine=now")
    until(page, "document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS)
    assert lang_of(page) == lang
    assert text(page, ".tut-intro h1") == s["tutorial.title"]
    assert text(page, "#toc-title") == s["tutorial.lessons"]
    # The second exercise, started while the first is live, offers "Começar" to the first.
    page.locator(".exercise").nth(1).locator(".ex-again").evaluate("(b) => b.click()")
    page.locator(".exercise").first.locator(".ex-start").wait_for()
    assert s["tutorial.start"] in [" ".join(t.split()) for t in page.locator(".exercise button").all_inner_texts()]
    audit(page, axe_source, f"{lang}: tutorial")

    page.goto(f"/{d}embed.html?scenario=manilhas-copas&fast=1")
    page.wait_for_selector(".mt.my-turn", timeout=ENGINE_TIMEOUT_MS)
    assert lang_of(page) == lang
    assert text(page, ".embed-link") == s["embed.link"]
    audit(page, axe_source, f"{lang}: embed")
    page.goto(f"/{d}embed.html?scenario=no-such-scenario")
    until(page, "!document.getElementById('embed-error').hidden")
    assert text(page, ".embed-error-title") == s["embed.error.title"]
    assert s["embed.error.scenario"].replace("{name}", "no-such-scenario") in text(page, "#embed-error-list")
    page.console_watch.allow(".")
    audit(page, axe_source, f"{lang}: embed, an unknown scenario")
    page.console_watch.allowed.clear()

    page.goto(f"/{d}marcador.html")
    until(page, "document.readyState === 'complete'")
    assert lang_of(page) == lang
    assert text(page, ".mc-title") == s["marcador.heading"]
    assert page.locator("#name-0").get_attribute("placeholder") == s["team.us"]
    audit(page, axe_source, f"{lang}: marcador")


def start_screen(page, axe_source, lang, query):
    s = strings(lang)
    page.goto(f"/{FOLDER[lang]}index.html?{query}")
    until(page, START, timeout=ENGINE_TIMEOUT_MS)
    assert lang_of(page) == lang
    assert text(page, "#start-title") == s["start.title"]
    assert text(page, "#start-button") == s["start.new"]
    # The start screen is modal (the header is inert): it has its own language switch.
    assert page.locator("#start-dialog .lang-switch a[aria-current=page]").get_attribute("hreflang") == lang
    audit(page, axe_source, f"{lang}: table, start screen")


def test_spanish_pages_and_a_whole_game_by_keyboard_alone(browser, base_url, axe_source):
    """Every page in Spanish; then from the start screen to the end of the match with keys
    only (Enter, 1-3, A): a 1 x 1 game from 8 x 8 (RULES.md §7: a game is won at 12 points)."""
    s = strings("es")
    context, page = new_page(browser, base_url, locale="es")
    try:
        tour(page, axe_source, "es")
        start_screen(page, axe_source, "es", "fast=1&mode=1x1&level=facil&seed=31&score=8,8")
        assert page.evaluate("document.activeElement.id") == "start-button"
        page.keyboard.press("Enter")
        keys = []
        for _ in range(200):
            until(page, """() => { const a = document.getElementById('app');
                                   return !window.__truco.busy && (a.dataset.phase === 'human' || a.dataset.phase === 'over'); }""",
                  timeout=90_000)
            if page.locator("#app").get_attribute("data-phase") == "over":
                break
            if not keys:
                assert text(page, "#prompt") == s["prompt.your_turn"]
                audit(page, axe_source, "es: table, mid-game")
            before = page.evaluate("window.__truco.observation.log.at(-1).n")
            key = "a" if page.locator("#actions button[data-action=accept]:not([disabled])").count() else "1"
            keys.append(key)
            page.keyboard.press(key)
            until(page, "(n) => window.__truco.observation.log.at(-1).n !== n || document.getElementById('app').dataset.phase === 'over'",
                  before, timeout=90_000)
        assert page.locator("#app").get_attribute("data-phase") == "over", "the match did not end"
        assert max(page.evaluate("window.__truco.observation.score")) >= 12
        until(page, "document.getElementById('end-dialog').open")
        assert text(page, "#end-title") in (s["match.won"], s["match.lost"])
        audit(page, axe_source, "es: table, end of the match")
        live = page.locator("#live").inner_text()
        assert "jugó" in live, live
        # The dialog took the focus: Enter plays again.
        assert page.evaluate("document.getElementById('end-dialog').contains(document.activeElement)")
        page.keyboard.press("Enter")
        until(page, "!document.getElementById('end-dialog').open")
        until(page, "window.__truco.observation.winner === null && window.__truco.observation.hand_number === 1")
    finally:
        context.close()
    page.console_watch.check()


# A fixed deal: seat 0 (the player) holds Zap, Copas and Espadilha and leads (Tonho deals);
# Tonho's easy bot plays what it plays for this seed, and loses both rounds (RULES.md §2, §3).
SCRIPTED = {"seed": 4, "hands": [["4c", "7h", "As"], ["3c", "2h", "Kd"]], "dealer": 1}


def test_english_pages_the_announcements_and_the_save_shared_with_portuguese(browser, base_url, axe_source):
    """Every page in English; what the live region says, in order, in a scripted hand; the
    game saved in English continues in Portuguese."""
    s = strings("en")
    context, page = new_page(browser, base_url, locale="en")
    try:
        tour(page, axe_source, "en")
        start_screen(page, axe_source, "en", "fast=1")
        page.evaluate("""() => { window.__said = [];
            new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes) window.__said.push(n.textContent); })
              .observe(document.getElementById('live'), { childList: true }); }""")
        page.evaluate("(sc) => window.__truco.start({mode: '1x1', level: 'facil'}, sc)", SCRIPTED)
        for _ in range(2):  # the first card in hand each time, by keyboard: 4c, then 7h
            until(page, "!window.__truco.busy && document.getElementById('app').dataset.phase === 'human'", timeout=90_000)
            before = page.evaluate("window.__truco.observation.log.at(-1).n")
            page.keyboard.press("1")
            until(page, "(n) => window.__truco.observation.log.at(-1).n !== n", before)
        # The next hand: the player's turn again.
        until(page, """() => { const o = window.__truco.observation;
                               return o.hand_number === 2 && !window.__truco.busy
                                      && document.getElementById('app').dataset.phase === 'human'; }""", timeout=90_000)
        said = page.evaluate("window.__said")
        assert text(page, "#prompt") == s["prompt.your_turn"]
        audit(page, axe_source, "en: table, mid-game")
        # The saved game is the same in every language: switched to Portuguese mid-hand, the
        # player is back at the table, at the same turn with the same hand, and no start
        # screen came in between (issue 41: it threw the player out to it).
        seen = page.evaluate(STATE)
        page.context.add_init_script(NO_START_SCREEN)
        page.locator(".topbar .lang-switch a[hreflang='pt-BR']").click()
        page.wait_for_url(re.compile(r"/index\.html\?fast=1$"))
        until(page, "!window.__truco?.busy && document.getElementById('app').dataset.phase === 'human'", timeout=ENGINE_TIMEOUT_MS)
        assert lang_of(page) == "pt-BR"
        assert page.evaluate(STATE) == seen
        assert text(page, "#prompt") == strings("pt-BR")["prompt.your_turn"]
        assert page.evaluate("window.__startShown") is False, "the start screen came up on the way"
        # Word for one page only: a reload later offers the start screen, "Continuar" on it.
        page.reload()
        until(page, START, timeout=ENGINE_TIMEOUT_MS)
        assert text(page, "#continue") == strings("pt-BR")["start.continue"]
    finally:
        context.close()
    page.console_watch.check()

    you, tonho = json.loads((I18N / "en.json").read_text(encoding="utf-8"))["seat.names"][:2]

    def card(code):
        return fill(s["card.name"], rank=s.get(f"rank.{code[0]}", code[0]), suit=s[f"suit.{code[1]}"])

    tonho_cards = [x for x in said if x.startswith(fill(s["announce.play"], name=tonho, card="\0").split("\0")[0])]
    assert len(tonho_cards) >= 2, said
    rounds = [fill(s["round.won"], ord=s["ord.1"]), fill(s["round.won"], ord=s["ord.2"])]
    expected = [
        fill(s["announce.deal"], name=tonho),
        s["announce.your_turn"],
        fill(s["announce.play"], name=you, card=card("4c")),
        tonho_cards[0],
        fill(s["announce.round"], n=1, result=rounds[0]),
        s["announce.your_turn"],
        fill(s["announce.play"], name=you, card=card("7h")),
        tonho_cards[1],
        fill(s["announce.round"], n=2, result=rounds[1]),
        f"{fill(s['hand.won'], points=2)} {rounds[0][0].upper()}{rounds[0][1:]}, {rounds[1]}.",
        fill(s["announce.deal"], name=you),
    ]
    assert said[:len(expected)] == expected
    assert expected[2] == "You played 4 of clubs."  # what the English table sounds like


def fill(text: str, **params) -> str:
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


FIRST_VISITS = [
    ("es-AR", "/es/marcador.html"),
    ("en-GB", "/en/marcador.html"),
    ("pt-PT", "/marcador.html"),
    ("fr-FR", "/marcador.html"),  # a language the site does not have: the default
]


def test_a_first_visit_follows_the_browser_language(browser, base_url):
    for locale, expected in FIRST_VISITS:
        context, page = new_page(browser, base_url, locale=locale)
        try:
            page.goto("/marcador.html?x=1#hands")
            until(page, "document.readyState === 'complete'")
            assert path_of(page) == expected + "?x=1#hands", f"{locale}: the query and the hash go along"
            assert lang_of(page) == {"/es/": "es", "/en/": "en"}.get(expected[:4], "pt-BR")
        finally:
            context.close()
        page.console_watch.check()


def test_with_the_sites_address_configured_hreflang_is_absolute_and_the_redirect_stays_on_this_host(browser, tmp_path):
    """Search engines want absolute hreflang links (TRUCO_SITE_URL, or Netlify's URL): a
    copy of the site served from anywhere else still sends a Spanish browser to its own
    Spanish page, not to the deployed site."""
    import os

    from truco_tools.serve import serve_in_thread

    site = "https://truco.example/"
    run_build(dict(os.environ, TRUCO_SITE_URL=site, TRUCO_DIST_DIR=str(tmp_path / "dist")))
    server, url = serve_in_thread(tmp_path / "dist")
    context, page = new_page(browser, url, locale="es-AR")
    try:
        page.goto("/marcador.html?x=1")
        until(page, "document.readyState === 'complete'")
        assert page.url == url.rstrip("/") + "/es/marcador.html?x=1"
        links = page.eval_on_selector_all("link[rel=alternate]", "els => els.map(e => [e.hreflang, e.getAttribute('href')])")
        assert links == [["pt-BR", site + "marcador.html"], ["es", site + "es/marcador.html"],
                         ["en", site + "en/marcador.html"], ["x-default", site + "marcador.html"]]
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    page.console_watch.check()
    # A malformed address stops the build with a clear message (nothing half-written).
    bad = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, TRUCO_SITE_URL="javascript:alert(1)", TRUCO_DIST_DIR=str(tmp_path / "bad")))
    assert bad.returncode != 0 and "TRUCO_SITE_URL must be an http(s) address" in bad.stdout + bad.stderr
    assert not (tmp_path / "bad").exists()


def test_the_language_switch_is_remembered(browser, base_url):
    context, page = new_page(browser, base_url, locale="en-US")
    try:
        page.goto("/marcador.html")
        page.wait_for_url("**/en/marcador.html")
        assert page.locator(".lang-switch .lang-code").all_inner_texts() == ["PT", "ES", "EN"]
        assert [a.get_attribute("hreflang") for a in page.locator(".lang-switch a").all()] == ["pt-BR", "es", "en"]
        assert page.locator(".lang-switch a[aria-current=page]").get_attribute("hreflang") == "en"
        # Chosen Portuguese: no more redirects to English, on any page.
        page.keyboard.press("Tab")  # the switch is reachable by keyboard
        page.locator(".lang-switch a[hreflang='pt-BR']").focus()
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/marcador\.html$"))
        until(page, "document.readyState === 'complete'")
        assert lang_of(page) == "pt-BR"
        assert page.evaluate("localStorage.getItem('truco:lang')") == "pt-BR"
        page.goto("/marcador.html")
        until(page, "document.readyState === 'complete'")
        assert path_of(page) == "/marcador.html"
        page.goto("/en/marcador.html")  # an old English link: the remembered choice wins
        page.wait_for_url(re.compile(r"/marcador\.html$"))
        assert path_of(page) == "/marcador.html"
        # Chosen Spanish: the Portuguese pages lead there.
        page.locator(".lang-switch a[hreflang='es']").click()
        page.wait_for_url("**/es/marcador.html")
        page.goto("/marcador.html#x")
        page.wait_for_url("**/es/marcador.html#x")
        assert lang_of(page) == "es"
    finally:
        context.close()
    page.console_watch.check()




def test_a_stored_language_that_names_no_page_is_ignored(browser, base_url):
    """`truco:lang` set to a name every object has ("__proto__", "toString"…) sent every page
    to a 404 until storage was cleared."""
    context, page = new_page(browser, base_url, locale="pt-BR")
    try:
        page.goto("/marcador.html")
        until(page, "document.readyState === 'complete'")
        for bad in ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "xx", ""]:
            page.evaluate("(v) => localStorage.setItem('truco:lang', v)", bad)
            page.goto("/marcador.html?x=1")
            until(page, "document.readyState === 'complete'")
            assert path_of(page) == "/marcador.html?x=1", bad
            assert lang_of(page) == "pt-BR", bad
            expect(page.locator("#marcador")).to_be_visible()
    finally:
        context.close()
    page.console_watch.check()


# The hand review told about the human: seat 0 deals, calls, folds, times out, wins a round
# and catches a signal; seat 1 catches the human's. "You" is second person in Spanish and
# English, and "você" takes "seu" in Portuguese: none of it may read as a third person.
REVIEW_EVENTS = [
    {"type": "deal", "hand_number": 1, "dealer": 0, "mao": 1, "kind": "normal"},
    {"type": "raise", "seat": 0, "name": "truco", "value": 4},
    {"type": "accept", "seat": 1, "value": 4},
    {"type": "round", "round": 1, "result": 0, "seat": 0},
    {"type": "timeout", "seat": 0},
    {"type": "run", "seat": 0},
    {"type": "signals_caught", "caught": [{"seat": 1, "signal": "zap", "caught_by": [0]},
                                          {"seat": 0, "signal": "tres", "caught_by": [1]}]},
    {"type": "deal", "hand_number": 2, "dealer": 1, "mao": 0, "kind": "normal"},
]
REVIEW_LINES = {
    "pt-BR": ["Mão 1: você deu as cartas", "Você pediu Truco (vale 4).", "rodada: você ganhou.",
              "Seu tempo acabou", "Você correu.", "Você pegou o sinal de", "pegou o seu sinal",
              "Mão 2: Tonho deu as cartas, você é mão."],
    "es": ["Mano 1: repartiste tú", "Cantaste Truco (vale 4).", "baza: la ganaste tú.",
           "Se acabó tu tiempo", "No quisiste.", "Viste la seña de", "vio tu seña",
           "tú eres mano."],
    "en": ["Hand 1: you dealt", "You called Truco (worth 4).", "round: you won it.",
           "Your time ran out", "You folded.", "You caught", "caught your signal",
           "dealt, you lead."],
}


@pytest.mark.parametrize("lang", ["pt-BR", "es", "en"])
def test_the_hand_review_speaks_to_the_human_in_the_second_person(browser, base_url, lang):
    context, page = new_page(browser, base_url)
    path = {"pt-BR": "/", "es": "/es/", "en": "/en/"}[lang]
    page.goto(path + "?fast=1&join=1")  # (a guest's page: it starts no engine, not needed here)
    lines = page.evaluate("""async (events) => {
        const m = await import(new URL("static/js/table/hand_review.js", document.baseURI.replace(/(es|en)\\/[^/]*$/, "")).href);
        return m.eventLines(events, { seat: 0, players: 2 }).map((l) => l.text);
    }""", REVIEW_EVENTS)
    context.close()
    text = "\n".join(lines)
    for want in REVIEW_LINES[lang]:
        assert want in text, f"{want!r} not in the {lang} review:\n{text}"
    for wrong in ("Tú cantó", "tú repartió", "Tú se fue", "ganó tú", "you leads", "you's", "de você"):
        assert wrong not in text, f"{wrong!r} in the {lang} review:\n{text}"


# The prompt's call (in Portuguese) and the word before it: the space between them and
# whether they sit on one line.
CALL_AFTER_ITS_WORD = """() => {
  const call = document.querySelector('#prompt [lang="pt-BR"]');
  const before = call.previousSibling;
  const words = document.createRange();
  words.setStart(before, 0);
  words.setEnd(before, before.textContent.trimEnd().length);
  const word = [...words.getClientRects()].at(-1), box = call.getBoundingClientRect();
  return [box.left - word.right, Math.abs(box.top - word.top) < 4];
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_truco_words_kept_in_portuguese_are_marked_as_portuguese(browser, base_url, axe_source, lang):
    """The Spanish and English tables keep the calls in Portuguese ("Truco!", "Seis!", "mão de
    ferro"), but the page said they were Spanish or English: a screen reader read the raise
    button "¡Truco!" as a Spanish "truco" and the English "Truco!" as "truck-o", "Seis" as
    Spanish six, "mão de ferro" with English sounds. The raise buttons, the prompt that
    names a call, the hand's kind and the hand summary hold them in lang="pt-BR"; so do the
    speech bubbles ("¡Truco, ladrón!", "Then it's seis!"), at the table and on the mini-table
    of the lessons and the embed."""
    s = strings(lang)
    says = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    context, page = new_page(browser, base_url, locale=lang)
    page.goto(f"/{FOLDER[lang]}index.html?fast=1")
    until(page, START, timeout=ENGINE_TIMEOUT_MS)
    assert page.locator("label[for=ferro]").get_attribute("lang") == "pt-BR"

    def start(settings, scenario):
        page.evaluate("([s, c]) => window.__truco.start(s, c)", [settings, scenario])
        until(page, "() => !window.__truco.busy && document.getElementById('app').dataset.phase === 'human'",
              timeout=90_000)

    def portuguese(selector):
        return [" ".join(t.split()) for t in page.locator(f"{selector} [lang='pt-BR']").all_inner_texts()]

    # The human leads: the ladder's first step, "Truco!".
    start({"mode": "1x1", "level": "dificil"}, {"seed": 7, "hands": [["4c", "7h", "As"], ["4d", "5s", "6h"]], "dealer": 1})
    raise_button = page.locator("#actions button[data-action=raise]")
    assert text(page, "#actions button[data-action=raise]") == s["action.raise"].replace("{name}", "Truco")
    assert portuguese("#actions button[data-action=raise]") == ["Truco"]
    assert raise_button.locator("[lang]").count() == 1  # the call only: "¡" and "!" are the page's
    # The bot calls truco: the prompt names it, the button raises to "Seis!".
    start({"mode": "1x1", "level": "dificil"}, {"seed": 7, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"]], "dealer": 0})
    assert page.evaluate("window.__truco.observation.pending.name") == "truco"
    assert portuguese("#actions button[data-action=raise]") == ["Seis"]
    assert portuguese("#prompt") == ["Truco"]
    # On a phone the prompt is centred in a flex box: the call, a node of its own, sat glued to
    # the word before it ("Tonho cantóTruco") upright and in a column of its own sideways.
    table_size = page.viewport_size
    for width, height in ((390, 844), (844, 390)):
        page.set_viewport_size({"width": width, "height": height})
        gap, same_line = page.evaluate(CALL_AFTER_ITS_WORD)
        assert same_line and 2 <= gap <= 12, f"{width}x{height}: the call {gap:.1f} px after the word before it"
    page.set_viewport_size(table_size)

    def said(bubble, call):
        """What `bubble` says is a phrasing of the call's; the call is its one marked word."""
        words = " ".join(page.locator(bubble).inner_text().split())
        phrasings = [PT_MARK.sub(r"\1", p) for p in says[f"say.{call}"]]
        assert words in phrasings, f"{bubble} says {words!r}, not one of {phrasings}"
        marked = portuguese(bubble)
        assert len(marked) == 1 and marked[0].lower().startswith(call), \
            f"{bubble} {words!r}: {marked} marked as Portuguese, not the call"

    said(".seat .bubble:not([hidden])", "truco")  # Tonho: "Truco!", "Truco, you thief!", "Trucooo!"…
    audit(page, axe_source, f"{lang}: table, answering a truco")
    # The player's own bubble, raising back: "Seis!", "Then it's seis!"…
    page.locator("#actions button[data-action=raise]").click()
    until(page, "() => !document.getElementById('my-bubble').hidden")
    said("#my-bubble", "seis")
    # Mão de ferro: the hand's value says its kind.
    start({"mode": "1x1"}, {"seed": 19, "score": [10, 10], "dealer": 1})
    assert portuguese("#hand-value") == ["mão de ferro"]
    assert portuguese("#prompt") == ["Mão de ferro"]  # "Mão de ferro: ..." at the player's turn
    # Mão de dez, run from: the prompt and the hand's summary name it.
    start({"mode": "1x1"}, {"seed": 17, "score": [10, 4], "dealer": 1})
    assert portuguese("#hand-value") == ["mão de dez"]
    assert portuguese("#prompt") == ["Mão de dez"]
    assert text(page, "#prompt").startswith("Mão de dez: ")
    page.locator("#actions button[data-action=run]").click()
    until(page, "() => document.querySelector('#banner .banner-title [lang]')", timeout=90_000)
    assert page.locator("#banner .banner-title [lang='pt-BR']").text_content() == "mão de dez"
    points = page.evaluate("window.__truco.observation.score[1]") - 4
    title = s["hand.dez_run_lost.you"].replace("{kind}", "mão de dez").replace("{points}", str(points))
    assert page.locator("#banner .banner-title").text_content() == title
    # A lesson's mini-table (here the embed of one): Tonho calls truco as the exercise opens.
    page.goto(f"/{FOLDER[lang]}embed.html?scenario=truco-correr&fast=1")
    page.wait_for_selector(".mt.my-turn", timeout=ENGINE_TIMEOUT_MS)
    assert text(page, ".mt-bubble") == s["action.raise"].replace("{name}", "Truco")
    assert portuguese(".mt-bubble") == ["Truco"]
    context.close()
    page.console_watch.check()


def test_a_portuguese_page_marks_no_word_apart(browser, base_url):
    """On the Portuguese table every word is Portuguese already: no lang attribute inside it."""
    context, page = new_page(browser, base_url)
    page.goto("/index.html?fast=1")
    until(page, START, timeout=ENGINE_TIMEOUT_MS)
    page.evaluate("([s, c]) => window.__truco.start(s, c)",
                  [{"mode": "1x1", "level": "dificil"}, {"seed": 7, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"]], "dealer": 0}])
    until(page, "() => !window.__truco.busy && document.getElementById('app').dataset.phase === 'human'", timeout=90_000)
    assert text(page, "#actions button[data-action=raise]") == "Seis!"
    assert page.locator("#table [lang], #banner [lang]").count() == 0
    context.close()
    page.console_watch.check()
