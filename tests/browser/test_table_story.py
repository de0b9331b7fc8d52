"""How the table tells the story of a hand (issue 29): a fold is said at the seat that ran and
named in the hand's summary; the summary waits for the player (a tap, Enter or Space) unless
"Seguir sozinho" is on, and the next hand is not dealt under it; the wording of a mão de dez,
a raise asked and the prompt; and no text of an English or Spanish table that is not made
from that language's table in site/i18n/.

Three pages, each loaded once: Portuguese and Spanish with `?fast=1` (which plays on by itself
unless a test names the pace: `auto_next` in __truco.start), English as a player gets it (no
`fast`, the default pace). Time stands still on each (page.clock), so the bubbles stay up
until they are read and no pause runs out unless a test says so.
"""

from __future__ import annotations

import json
import re
import time
from datetime import datetime, timedelta
from functools import lru_cache

import pytest
from playwright.sync_api import expect

from helpers import ROOT
from helpers.browser import audit, open_table
from helpers.table import last_n, obs, start

I18N = ROOT / "site" / "i18n"


def strings(lang):
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def frozen(page):
    """Time stands still from now on (the engine's worker runs on: it is not the page's clock);
    window.__said gathers every line the live region is given."""
    page.clock.install()
    page.clock.pause_at(datetime.now() + timedelta(minutes=1))
    page.evaluate("""() => { window.__said = [];
        new MutationObserver((rs) => { for (const r of rs) for (const n of r.addedNodes) window.__said.push(n.textContent); })
          .observe(document.getElementById('live'), { childList: true }); }""")
    return page


@pytest.fixture(scope="module")
def pt(browser, base_url):
    for page in open_table(browser, base_url, "/?fast=1", reduced_motion="reduce"):
        yield frozen(page)


@pytest.fixture(scope="module")
def en(browser, base_url):
    for page in open_table(browser, base_url, "/en/", locale="en", reduced_motion="reduce"):
        yield frozen(page)


@pytest.fixture(scope="module")
def es(browser, base_url):
    for page in open_table(browser, base_url, "/es/?fast=1", locale="es", reduced_motion="reduce"):
        yield frozen(page)


def settle(page, js, arg=None, tick=False, timeout=60):
    """Wait until `js` holds; with `tick` the page's (stopped) clock moves on meanwhile, so the
    bots' pauses pass."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(js, arg):
        assert time.monotonic() < deadline, f"timed out waiting for {js}"
        if tick:
            page.clock.run_for(400)
        time.sleep(0.03)


# The human's turn, or a hand's summary waiting for the player.
STOPPED = """() => { const b = document.getElementById('banner-next');
  return (!window.__truco.busy && document.getElementById('app').dataset.phase === 'human') || (b && !b.hidden); }"""
WAITING = "() => !document.getElementById('banner-next').hidden"
# A round trip to the worker: the page had every chance to move on by itself meanwhile.
ROUND_TRIP = "() => window.__engine.call('echo', {}).then(() => true)"
LIVE = "() => [...document.querySelectorAll('#live p')].map((p) => p.textContent)"

# The player (seat 0) leads with Zap, Copas and Espadilha and asks truco at once: Tonho, on
# the right, holding nothing, runs (in every mode).
STRONG = ["4c", "7h", "As"]
JUNK = [["4d", "5s", "6h"], ["5d", "6s", "Qh"], ["Qd", "Qs", "Jd"], ["5c", "6c", "Jh"], ["Js", "Jc", "Qc"]]


def tonho_runs(players):
    return {"seed": 1, "dealer": players - 1, "hands": [STRONG] + JUNK[:players - 1]}


def test_a_fold_is_said_at_the_seat_and_the_summary_waits_for_the_player(pt):
    """In 1 x 1, 2 x 2 and 3 x 3 Tonho runs from the player's truco: "Corro…" (or another
    phrasing) at his seat, the summary names him ("Tonho correu", not "Eles correram"), the
    live region says both and that "Próxima mão" goes on; the summary stays, the next hand
    unseen, until the player goes on: by Enter, by a tap on the table, by the button."""
    s = strings("pt-BR")
    go_on = {2: lambda: pt.keyboard.press("Enter"),
             4: lambda: pt.locator("#table").click(position={"x": 20, "y": 20}),
             6: lambda: pt.locator("#banner-next").click()}
    for players, mode in ((2, "1x1"), (4, "2x2"), (6, "3x3")):
        start(pt, {"mode": mode, "level": "facil", "partner_level": "facil", "sinais": False, "auto_next": False},
              tonho_runs(players))
        pt.locator("#actions [data-action=raise]").click()
        settle(pt, WAITING)
        bubble = pt.locator('.seat[data-seat="1"] .bubble')
        expect(bubble).to_be_visible()
        assert bubble.inner_text() in s["say.run"], f"{mode}: Tonho's bubble says {bubble.inner_text()!r}"
        title = s["hand.run_won"].replace("{name}", "Tonho").replace("{points}", "2")
        expect(pt.locator("#banner .banner-title")).to_have_text(title)
        button = pt.locator("#banner-next")
        expect(button).to_have_text(s["summary.next"])
        expect(button).to_be_focused()
        live = pt.evaluate(LIVE)
        wait_line = s["announce.summary_wait"].replace("{button}", s["summary.next"])
        assert live[-3:] == [s["announce.run"].replace("{name}", "Tonho"), title, wait_line], live
        # It stays: nothing of the next hand is shown or told while the player reads.
        for _ in range(2):
            assert pt.evaluate(ROUND_TRIP)
        expect(pt.locator("#banner")).to_be_visible()
        expect(pt.locator("#hand .card")).to_have_count(0)
        expect(pt.locator("#seats .seat-cards .card")).to_have_count(0)
        assert pt.evaluate(LIVE)[-1] == wait_line
        assert pt.evaluate("window.__truco.busy")
        told = pt.evaluate("window.__said.length")
        go_on[players]()
        settle(pt, "() => !window.__truco.busy")
        expect(button).to_be_hidden()
        expect(pt.locator("#banner")).to_be_hidden()
        expect(pt.locator("#last-review")).to_be_visible()  # the hand can still be reviewed
        expect(pt.locator("#hand .card")).to_have_count(3)
        assert pt.evaluate("(n) => window.__said.slice(n)", told)[0].startswith("Nova mão.")
        settle(pt, STOPPED)
        assert pt.evaluate("document.getElementById('app').contains(document.activeElement)"), \
            "the focus went back to the table on the player's turn"


def test_mao_de_dez_chip_and_prompt_agree_and_a_raise_is_asked_not_accepted(pt):
    """A mão de dez is worth 4 played (3 in Paulista's mão de onze: RULES.md §6, §9): the chip
    said "Vale 2" while the prompt said "Jogar (vale 4)". A truco asked read "A mão passa a
    valer 4" before anyone had accepted. And the mouse user was told to "toque nela"."""
    s = strings("pt-BR")
    for preset, score, value in (("mineiro", [10, 4], 4), ("paulista", [11, 4], 3)):
        start(pt, {"mode": "2x2", "preset": preset}, {"seed": 17, "score": score, "dealer": 3})
        expect(pt.locator("#prompt")).to_contain_text(f"Jogar (vale {value})")
        expect(pt.locator("[data-testid=hand-value]")).to_have_text(str(value))
        expect(pt.locator("#actions button[data-action]")).to_have_text([s["action.play_dez"], s["action.run_dez"]])
    # The opponent across, three manilhas in hand, calls truco at once.
    start(pt, {"mode": "1x1", "preset": "mineiro", "level": "dificil", "auto_next": True}, {"seed": 7, "hands": [["4d", "5s", "6h"], ["4c", "7h", "As"]], "dealer": 0})
    assert obs(pt)["pending"]["value"] == 4
    expect(pt.locator("#prompt")).to_have_text("Tonho pediu Truco: se você aceitar, a mão vale 4.")
    assert "Tonho pediu Truco: se aceito, a mão vale 4." in pt.evaluate(LIVE)
    expect(pt.locator("[data-testid=hand-value]")).to_have_text("2")  # not yet 4
    # A mouse (this page's pointer) clicks a card; a finger taps it.
    start(pt, {"mode": "1x1", "level": "facil"}, {"seed": 1, "dealer": 1, "hands": [STRONG, JUNK[0]]})
    expect(pt.locator("#prompt")).to_have_text(s["prompt.your_turn"])
    assert "clique" in s["prompt.your_turn"] and "toque" in s["prompt.your_turn.touch"]
    pt.evaluate("() => document.getElementById('table').dispatchEvent(new PointerEvent('pointerdown', {pointerType: 'touch', bubbles: true}))")
    before = last_n(pt)
    pt.keyboard.press("1")  # a key leaves the pointer as it was: the finger
    settle(pt, "(n) => !window.__truco.busy && window.__truco.observation.log.at(-1).n !== n && document.getElementById('app').dataset.phase === 'human'", before)
    expect(pt.locator("#prompt")).to_have_text(s["prompt.your_turn.touch"])


def test_the_summary_waits_by_default_and_seguir_sozinho_goes_on(en, axe_source):
    """A player's table (no test pace): the summary of a hand stays however long it is left
    (here 10 s) until Enter; with "Seguir sozinho" (remembered with the settings) it goes on by
    itself after the pause, as before. Also: the player's own fold of a mão de dez is told in
    the second person, with the button the tables name."""
    s = strings("en")
    assert en.locator("#auto_next").is_checked() is False
    scenario = {"seed": 17, "score": [10, 4], "dealer": 1}
    start_default = "(sc) => window.__truco.start({mode: '1x1', level: 'facil'}, sc)"
    en.evaluate(start_default, scenario)
    settle(en, STOPPED, tick=True)
    en.get_by_role("button", name=s["action.run_dez"]).click()
    settle(en, WAITING)
    title = s["hand.dez_run_lost.you"].replace("{kind}", "mão de dez").replace("{points}", "2")
    expect(en.locator("#banner .banner-title")).to_have_text(title)
    expect(en.locator('#banner .banner-title [lang="pt-BR"]')).to_have_text("mão de dez")
    en.clock.run_for(10_000)
    assert en.evaluate(ROUND_TRIP)
    expect(en.locator("#banner-next")).to_be_visible()
    en.clock.resume()  # axe waits on timers
    audit(en, axe_source, "en: a hand's summary waiting for the player")
    en.clock.pause_at(datetime.now() + timedelta(minutes=10))
    expect(en.locator("#hand .card")).to_have_count(0)
    en.keyboard.press("Enter")
    expect(en.locator("#hand .card")).to_have_count(3)
    expect(en.locator("#banner")).to_be_hidden()
    # "Seguir sozinho": remembered, and the summary goes by itself once the pause is over.
    en.evaluate("(sc) => window.__truco.start({mode: '1x1', level: 'facil', auto_next: true}, sc)", scenario)
    settle(en, STOPPED, tick=True)
    settings = en.evaluate("JSON.parse(localStorage.getItem('truco:settings'))")
    assert settings["data"]["auto_next"] is True
    en.get_by_role("button", name=s["action.run_dez"]).click()
    settle(en, "() => window.__truco.busy === false || document.getElementById('banner').hidden === false")
    expect(en.locator("#banner")).to_be_visible()
    expect(en.locator("#banner-next")).to_be_hidden()
    en.clock.run_for(2_500)
    expect(en.locator("#hand .card")).to_have_count(3)
    # The match's last hand (mão de ferro, 10 x 10): its summary waits too, then the result.
    en.evaluate("(sc) => window.__truco.start({mode: '1x1', level: 'facil', auto_next: false}, sc)",
                {"seed": 4, "score": [10, 10], "dealer": 1})
    for _ in range(3):
        settle(en, STOPPED, tick=True)
        if en.evaluate(WAITING):
            break
        before = last_n(en)
        en.keyboard.press("1")
        settle(en, "(n) => window.__truco.observation.log.at(-1).n !== n", before, tick=True)
    settle(en, WAITING)
    expect(en.locator("#banner-next")).to_have_text(s["summary.end"])
    expect(en.locator("#end-dialog")).to_be_hidden()
    en.keyboard.press("Enter")
    expect(en.locator("#end-dialog")).to_be_visible()
    en.locator("#to-menu").click()


# ------------------------------------------------------------------ every text from the tables

# Every element with text of its own that a player sees in the table (the cards' drawn
# glyphs aside: their names are there as text), and the live region's lines, each with the
# text outside the words marked as Portuguese.
COLLECT = """() => {
  const out = [];
  const own = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const roots = ['table', 'score', 'live'].map((id) => document.getElementById(id));
  for (const root of roots) for (const el of root.querySelectorAll('*')) {
    if (!own(el)) continue;
    const inLive = root.id === 'live';
    if (!inLive && !el.checkVisibility()) continue;
    if (el.closest('.card [aria-hidden=true]')) continue;
    const copy = el.cloneNode(true);
    for (const pt of copy.querySelectorAll('[lang="pt-BR"]')) pt.remove();
    const text = el.textContent.replace(/\\s+/g, ' ').trim();
    const outside = el.closest('[lang="pt-BR"]') ? '' : copy.textContent.replace(/\\s+/g, ' ').trim();
    out.push([text, outside, el.id || el.className || el.tagName]);
  }
  return out;
}"""

PLACEHOLDER = re.compile(r"\{(\w+)\}")
MARK = re.compile(r"\{pt:([^{}]+)\}")
WORD = re.compile(r"[^\W\d_]+")
SEPARATORS = " ·×—-–:,.!?…()+"


class Tables:
    """A language's table as templates: a text is made from the table when it is one of them
    with each placeholder filled by a number or, in turn, by a text made from the table."""

    def __init__(self, lang):
        values = []
        for v in strings(lang).values():
            values += v if isinstance(v, list) else [v]
        texts = [MARK.sub(r"\1", v) for v in values]
        self.templates = [self.parts(t.lower()) for t in texts]
        self.words = {w.lower() for t in texts for w in WORD.findall(PLACEHOLDER.sub(" ", t))}
        pt_values = []
        for v in strings("pt-BR").values():
            pt_values += v if isinstance(v, list) else [v]
        self.portuguese = {w.lower() for t in pt_values for w in WORD.findall(PLACEHOLDER.sub(" ", t))} - self.words

    @staticmethod
    def parts(template):
        """"{name} played {card}." -> ["", "name", " played ", "card", "."] (literals at even places)."""
        out, last = [], 0
        for m in PLACEHOLDER.finditer(template):
            out += [template[last:m.start()], m.group(1)]
            last = m.end()
        return tuple(out + [template[last:]])

    def made(self, text, depth=0):
        return self._made(text.lower().strip(), depth)

    @lru_cache(maxsize=None)
    def _made(self, text, depth):
        if not WORD.search(text):  # numbers and signs: ✓, ×, +2
            return True
        if depth > 4:
            return False
        return any(self.fits(parts, text, 0, 0, depth) for parts in self.templates
                   if all(lit in text for lit in parts[::2]))

    def fits(self, parts, text, i, pos, depth):
        """Whether text[pos:] is parts[i:] (i: a literal's place), each placeholder filled by a
        text made from the table."""
        lit = parts[i]
        if not text.startswith(lit, pos):
            return False
        pos += len(lit)
        if i == len(parts) - 1:
            return pos == len(text)
        nxt = parts[i + 2]
        if i + 2 == len(parts) - 1:
            ends = [len(text) - len(nxt)] if text.endswith(nxt) else []
        elif nxt:
            ends = [m.start() for m in re.finditer(re.escape(nxt), text)]
        else:
            ends = range(pos + 1, len(text) + 1)
        return any(end > pos and self._made(text[pos:end].strip(), depth + 1) and self.fits(parts, text, i + 2, end, depth)
                   for end in ends)

    def sentences_made(self, text):
        """One text of the table, or several in a row (the live region's summary: title, rounds)."""
        if self.made(text):
            return True
        cuts = [m.end() for m in re.finditer(r"[.!?…] ", text)]
        return any(self.made(text[:c].strip()) and self.sentences_made(text[c:].strip()) for c in cuts)


def check_texts(tables, seen):
    bad = []
    for text, outside, where in seen:
        if not tables.sentences_made(text):
            bad.append(f"{where}: {text!r} is not made from the table")
        leaked = {w for w in WORD.findall(outside) if w.lower() not in tables.words}
        if leaked:
            pt_words = {w for w in leaked if w.lower() in tables.portuguese}
            bad.append(f"{where}: {text!r} has words the table lacks: {sorted(leaked)}"
                       + (f" (Portuguese: {sorted(pt_words)})" if pt_words else ""))
    assert not bad, "\n".join(sorted(set(bad)))


def play_collecting(page, tick, choose):
    """Play the hand with `choose(page, observation)` at each turn, go on from its summary, and
    return every text seen on the way (at each stop, and everything the live region said)."""
    told = page.evaluate("window.__said.length")
    seen = []
    for _ in range(40):
        settle(page, STOPPED, tick=tick)
        seen += page.evaluate(COLLECT)
        if page.evaluate(WAITING):
            page.keyboard.press("Enter")
            settle(page, STOPPED, tick=tick)
            seen += page.evaluate(COLLECT)
            break
        before = last_n(page)
        choose(page, obs(page))
        settle(page, "(n) => window.__truco.observation.log.at(-1).n !== n", before, tick=tick)
    else:
        raise AssertionError("the hand did not end")
    seen += [[x, x, "#live"] for x in page.evaluate("(n) => window.__said.slice(n)", told)]
    return seen


def first_card_or_accept(page, o):
    legal = o["legal_actions"]
    if "accept" in legal:
        page.locator("#actions [data-action=accept]").click()
    else:
        card = next(a for a in legal if a.startswith("play "))[5:]
        page.locator(f'#hand .card[data-card="{card}"]').click()


def test_every_text_of_an_english_hand_comes_from_the_english_table(en):
    """A 1 x 1 hand in English with the Dica on: the player asks truco, plays it out and goes
    on from the summary. Every text seen (seats, prompts, buttons, bubbles, the value, the
    summary, the live region) is made from en.json, and no word of it is Portuguese unless
    marked so."""
    en.evaluate("""(sc) => window.__truco.start({mode: '1x1', level: 'facil', hint: true}, sc)""",
                {"seed": 4, "hands": [["4c", "7h", "As"], ["3c", "2h", "Kd"]], "dealer": 1})
    settle(en, STOPPED, tick=True)
    en.locator("#hint-button").click()
    settle(en, "() => !document.getElementById('hint-text').textContent.includes('…') && document.getElementById('hint-text').textContent")
    first = en.evaluate(COLLECT)
    en.keyboard.press("t")  # Truco!

    def choose(page, o):
        first_card_or_accept(page, o)
    seen = first + play_collecting(en, True, choose)
    check_texts(Tables("en"), seen)
    texts = " | ".join(t for t, _, _ in seen)
    assert "called Truco" in texts and "Next hand" in texts, texts


def test_every_text_of_a_spanish_hand_comes_from_the_spanish_table(es):
    """A 2 x 2 hand in Spanish with sinais: the player signals the Zap and both opponents see
    it ("Tonho y Zé vieron: Zap.", once "Tonho e Zé saw"), the partner calls truco, the other
    pair says "No quiero". Every text seen is made from es.json, none is Portuguese unless
    marked so, and the answers are "Quiero" / "No quiero"."""
    s = strings("es")
    start(es, {"mode": "2x2", "level": "facil", "partner_level": "facil", "sinais": True, "humano_decide": True,
               "auto_next": False}, {"seed": 32, "dealer": 3, "hands": [["4c", "7h", "As"], ["4d", "5s", "6h"],
                                                                        ["5d", "6s", "Qh"], ["Qd", "Qs", "Jd"]]})
    es.locator("#signal-toggle").click()
    es.locator('#signal-menu [data-signal="zap"]').click()
    settle(es, "() => window.__truco.observation.log.some((e) => e.type === 'signal' && e.seat === 0)")
    seen = play_collecting(es, False, first_card_or_accept)
    check_texts(Tables("es"), seen)
    texts = [t for t, _, _ in seen]
    caught = s["signal.caught.by_many"].replace("{who}", "Tonho y Zé").replace("{signal}", s["signal.zap.name"])
    assert any(caught in t for t in texts), texts
    ran = [t for t in texts if "no quiso: +" in t]
    assert ran and not any(t.startswith(("Ellos", "Nos ")) for t in ran), ran
    assert s["action.accept"] == "Quiero" and s["action.run"] == "No quiero"
