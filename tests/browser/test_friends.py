"""A friends' table across devices (issue #31, second part), in Chromium: a host page and a
guest page in separate browser contexts join by the copy-the-text path (offer code, answer
code) over a WebRTC data channel with no ICE server, and play a 2 x 2 (two bots) to the end.
Every message on the channel is recorded on both sides (`?friends_log=1`) and checked for
another seat's hidden card; the guest page never loads the engine; no request leaves the
origin; the SDPs carry host candidates only. A guest reload mid-hand (its bot plays, the
seat is given back with new codes) and a host reload mid-hand (the match resumes, the guest
rejoins) are survived.

Same-machine note: Chromium hides host addresses behind mDNS names (`<uuid>.local`); two
contexts of one browser resolve each other's names here, as phones on one Wi-Fi do, so the
tests need no `--disable-features=WebRtcHideLocalIpsWithMdns`."""

from __future__ import annotations

import pytest

import json
import re
import time
from datetime import datetime, timedelta

from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, audit, new_page
from helpers.table import accept_or_play_first
from truco.table import deal_for

SEED = 7
GUEST = 1  # the guest plays seat 1 (an opponent of the host); seats 2 and 3 are bots

PHASE = "() => document.getElementById('app').dataset.phase"
# The player may act (or the match is over): the table's own hook, on either page.
MAY_ACT = """() => { const o = window.__truco && window.__truco.observation, p = document.getElementById('app').dataset.phase;
  return Boolean(o) && !window.__truco.busy && (p === 'human' || p === 'over'); }"""
LOG = "() => window.__trucoFriendsLog || []"
CARD_TOKEN = re.compile(r'"([2-7AKQJ][cdhs])"|(?:play|cover) ([2-7AKQJ][cdhs])\b')


def open_pages(browser, base_url, host_query):
    requests = {"host": [], "guest": []}
    hc, host = new_page(browser, base_url)
    gc, guest = new_page(browser, base_url, viewport={"width": 390, "height": 844})
    host.on("request", lambda r: requests["host"].append(r.url))
    guest.on("request", lambda r: requests["guest"].append(r.url))
    host.goto(f"/?fast=1&seed={SEED}&friends_log=1{host_query}")
    guest.goto("/?join=1&fast=1&friends_log=1")
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    return hc, host, gc, guest, requests


def exchange(host, guest, seat):
    """One code exchange for `seat`: the host's offer to the guest, the guest's answer back;
    returns the two codes' lengths once the host shows the seat connected (how long that
    takes is bench/timing/friends.py's figure, not a test's)."""
    offer = host.locator(f"#friends-offer-{seat}[data-ready]")
    offer.wait_for()
    code = offer.input_value()
    guest.locator("#join-offer").fill(code)
    guest.locator("#join-make").click()
    answer = guest.locator("#join-answer[data-ready]")
    answer.wait_for()
    back = answer.input_value()
    host.locator(f"#friends-answer-{seat}").fill(back)
    host.locator(f"#friends-connect-{seat}").click()
    host.wait_for_function(f"() => document.querySelector('.friends-seat[data-seat=\"{seat}\"]').dataset.connected === 'true'")
    return len(code), len(back)


def open_table(host, guests, mode=None, join=None):
    """The host opens a table for `guests` ({seat: page}), each joins (by `join`, the text
    exchange unless told), the host starts, and every guest has its seat's first view."""
    host.locator("#open-friends").click()
    if mode:
        host.locator(f"#friends-dialog input[name=friends-mode][value='{mode}']").check()
    for seat in guests:
        host.locator(f"#friends-dialog input[name=friends-seat][value='{seat}']").check()
    host.locator("#friends-make").click()
    for seat, page in guests.items():
        (join or exchange)(host, page, seat)
    host.locator("#friends-start").click()
    for seat, page in guests.items():
        page.wait_for_function("(s) => Boolean(window.__truco && window.__truco.observation && window.__truco.observation.seat === s)", arg=seat)


def move(page):
    """One move as a person makes it: accept a raise or mão de dez, else the first card."""
    n = page.evaluate("() => window.__truco.observation.log.at(-1).n")
    accept_or_play_first(page)
    page.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)


def play_until(host, guest, done, limit=60, others=()):
    """Each page makes its moves when its turn comes, until `done()`; the moves made."""
    pages = [("guest", guest), ("host", host), *[(f"guest{i + 2}", p) for i, p in enumerate(others)]]
    moves = {name: 0 for name, _ in pages}
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the match did not go on"
        for name, page in pages:
            if page.evaluate(MAY_ACT) and page.evaluate(PHASE) == "human":
                move(page)
                moves[name] += 1
    return moves


def observations(texts):
    """The observations a guest rebuilds from the messages it got, in order: each message's
    text with the whole observation it stands for (the host sends the first whole and then what
    changed, friends/protocol.js), and the part of it the message itself carried."""
    base = None
    for text in texts:
        msg = json.loads(text)
        carrier = msg if msg.get("type") == "obs" else (msg.get("result") or {})
        if "observation" in carrier:
            base = carrier["observation"]
            yield text, base, base
        elif "delta" in carrier:
            d = carrier["delta"]
            assert base is not None, "a delta before any whole observation"
            tails = {k: base.get(k, [])[:kept] + items for k, (kept, items) in d.get("tail", {}).items()}
            base = {**base, **d.get("set", {}), **tails}
            for key in d.get("drop", []):
                del base[key]
            yield text, base, {**d.get("set", {}), **{k: items for k, (_, items) in d.get("tail", {}).items()}}


def hidden_cards_in(obs, seat, carried=None):
    """Cards of another seat's hand (not yet shown) that a message to `seat` carries: the
    whole observation it stands for (`obs`) and what it carried itself (`carried`)."""
    assert obs["seat"] == seat, f"a message to seat {seat} carries seat {obs['seat']}'s view"
    deal = deal_for(SEED, obs["hand_number"] - 1, obs["players"])
    start = max([e["n"] for e in obs["log"] if e["type"] == "deal"] or [-1])
    this_hand = [e for e in obs["log"] if e["n"] >= start]
    public = {e.get("card") for e in this_hand} | {p.get("card") for r in obs["rounds"] for p in r["plays"]}
    public |= {c for v in obs["visible_hands"] for c in v["cards"]} | {obs.get("vira")}
    hidden = {c for s, hand in enumerate(deal) if s != seat for c in hand} - public
    # Scanned: the message minus the fixed tables (manilhas, rules) and the older hands'
    # public events (`log` before this deal, `history`: cards shown then may be dealt again).
    assert not [e for e in obs.get("history", []) if e["type"] == "cover" and e.get("card")]
    found = set()
    for part in (obs, carried or {}):
        scanned = dict(part, log=[e for e in part.get("log", []) if e["n"] >= start], manilhas=None, rules=None, history=None)
        found |= {a or b for a, b in CARD_TOKEN.findall(json.dumps(scanned))}
    return found & hidden


def check_messages(host, guest, seat=GUEST):
    sent = [m["text"] for m in host.evaluate(LOG) if m["dir"] == "out" and m["seat"] == seat]
    got = [m["text"] for m in guest.evaluate(LOG) if m["dir"] == "in"]
    assert sent and got
    # Each side's messages in order (a reload starts a new chain with a whole observation).
    for texts in (sent, got):
        for text, obs, carried in observations(texts):
            leak = hidden_cards_in(obs, seat, carried)
            assert not leak, f"another seat's hidden card {leak} crossed the channel: {text[:200]}"
    for text in [m["text"] for m in guest.evaluate(LOG) if m["dir"] == "out"]:
        assert len(text) < 200 and json.loads(text)["type"] in {"hello", "apply", "hint", "opinion", "again"}
    return len(sent) + len(got), sum(len(t) for t in sent)


@pytest.mark.soak  # test_a_host_and_three_guests plays the same protocol with more guests
def test_a_host_and_a_guest_play_a_2x2_to_the_end(browser, base_url, axe_source):
    # The guest's team's mão de dez (8 x 10), dealer 1: o mão is seat 2, so by the rules bot 3
    # (team 1's first to play) would decide; with humano decide the guest does.
    hc, host, gc, guest, requests = open_pages(browser, base_url, "&score=8,10&dealer=1")
    host.locator("#open-friends").click()
    host.locator("#friends-dialog input[name=friends-mode][value='2x2']").check()
    host.locator(f"#friends-dialog input[name=friends-seat][value='{GUEST}']").check()
    host.locator("#friends-make").click()
    # The handshake screens pass axe (labels, names, contrast), and are reached by keyboard.
    host.locator(f"#friends-offer-{GUEST}[data-ready]").wait_for()
    audit(host, axe_source, "the host's friends panel", "#friends-dialog")
    audit(guest, axe_source, "the guest's join screen", "#join-dialog")
    assert guest.evaluate("() => document.activeElement.id") == "join-offer"
    # A pasted text that is no answer (or the host's own offer) is said to be none, plainly.
    for wrong in ("olá, tudo bem?", host.locator(f"#friends-offer-{GUEST}").input_value()):
        host.locator(f"#friends-answer-{GUEST}").fill(wrong)
        host.locator(f"#friends-connect-{GUEST}").click()
        expect(host.locator(f"#friends-status-{GUEST}")).to_have_text(re.compile("não é uma resposta desta mesa"))
    guest.locator("#join-offer").fill("nada")
    guest.locator("#join-make").click()
    expect(guest.locator("#join-status")).to_have_text(re.compile("não é um código de mesa"))
    # The guest runs no engine: its footer says where the game runs, not "Python via Pyodide".
    expect(guest.locator("footer.footer")).to_contain_text("quem abriu a mesa")
    expect(guest.locator("footer.footer")).not_to_contain_text("Pyodide")
    # The language switch, in the join dialog (the header is inert behind it), keeps ?join=1
    # and the offer pasted so far.
    guest.locator("#join-offer").fill(host.locator(f"#friends-offer-{GUEST}").input_value())
    guest.locator("#join-dialog .lang-switch a[data-lang=en]").click()
    guest.wait_for_url(re.compile(r"/en/(index\.html)?\?join=1&fast=1&friends_log=1$"))
    expect(guest.locator("#join-title")).to_have_text("Join a table")
    expect(guest.locator("#join-status")).to_have_text(re.compile("code you pasted was kept"))
    assert guest.locator("#join-offer").input_value() == host.locator(f"#friends-offer-{GUEST}").input_value()
    expect(guest.locator("footer.footer")).not_to_contain_text("Pyodide")
    guest.locator("#join-dialog .lang-switch a[data-lang=pt-BR]").click()
    guest.wait_for_url(re.compile(r"\d/(index\.html)?\?join=1&fast=1&friends_log=1$"))
    expect(guest.locator("#join-title")).to_have_text("Entrar numa mesa")
    offer_len, answer_len = exchange(host, guest, GUEST)
    # Codes kept short (an SDP is ~700 bytes), and the seat connects (exchange waits for it).
    assert offer_len < 300 and answer_len < 300, (offer_len, answer_len)
    host.locator("#friends-start").click()
    guest.wait_for_function(MAY_ACT)
    assert guest.evaluate("() => window.__truco.observation.seat") == GUEST
    # The host typed no name: it goes blank, for the guest's page to name it in its language.
    assert host.evaluate(f"() => window.__trucoFriendsHost.tableInfo({GUEST}).names[0]") == ""
    # Humano decide across devices: the guest decides its team's mão de dez, seeing its
    # partner's cards and its bot's opinion; the host's page shows none of team 1's cards.
    assert guest.evaluate("() => window.__truco.observation.decision") == {"type": "mao_de_dez", "seat": 1, "team": 1}
    expect(guest.locator('.seat[data-seat="3"] .seat-cards .card.face')).to_have_count(3)
    expect(guest.locator("#partner-opinion")).to_contain_text("Parceiro")
    expect(guest.locator("#actions button[data-action=accept]")).to_be_visible()
    assert host.evaluate("() => window.__truco.observation.to_move") == 1
    expect(host.locator('.seat[data-seat="1"] .seat-cards .card.face, .seat[data-seat="3"] .seat-cards .card.face')).to_have_count(0)
    # The host trusts nothing a guest sends: each of these is dropped unread and counted...
    bad = ["not json", "x" * 5000, "[1]", "null", '{"id":1,"type":"eval"}', '{"id":"x","type":"hint"}',
           '{"id":2,"type":"apply","action":"' + "a" * 100 + '"}', '{"id":3,"type":"apply","action":"run","seat":0}',
           '{"id":4,"type":"hint","extra":1}', '{"id":5,"type":"apply","action":7}']
    guest.evaluate("(bad) => bad.forEach((m) => window.__trucoFriendsGuest.channel.send(m))", bad)
    host.wait_for_function("(n) => window.__trucoFriendsHost.dropped === n", arg=len(bad))
    # ...and a well-formed action the rules refuse is answered with an error, the match unchanged.
    refused = guest.evaluate("() => window.__trucoFriendsGuest.request({type: 'apply', action: 'play Zz'}).then(() => 'taken', (e) => e.message)")
    assert refused != "taken" and refused
    # The Dica on the guest's turn is the host's engine answering from the guest's seat.
    play_until(host, guest, lambda: guest.evaluate(MAY_ACT) and guest.evaluate(PHASE) == "human")
    hint = guest.evaluate("() => window.__trucoFriendsGuest.request({type: 'hint'})")
    legal = guest.evaluate("() => window.__truco.observation.legal_actions")
    assert hint["action"] in legal or hint["action"].startswith("signal "), (hint, legal)
    moves = play_until(host, guest, lambda: host.evaluate(PHASE) == "over" and guest.evaluate(PHASE) == "over")
    assert moves["guest"] > 0 and moves["host"] > 0
    assert host.evaluate("() => window.__truco.observation.winner") == guest.evaluate("() => window.__truco.observation.winner")
    # The host sends a guest what changed, not whole observations: a few KB a hand (here
    # ~7 KB for ~33 KB of whole observations; bench/timing/friends_results.md).
    _, sent_bytes = check_messages(host, guest)
    hands = host.evaluate("() => window.__truco.observation.log.filter((e) => e.type === 'hand').length")
    whole = sum(len(json.dumps(o)) for _, o, _ in observations(
        [m["text"] for m in host.evaluate(LOG) if m["dir"] == "out" and m["seat"] == GUEST]))
    assert sent_bytes < whole / 3 and sent_bytes / hands < 15_000, (sent_bytes, whole, hands)
    # The guest rebuilt, from the changes, exactly the view the host's engine has of its seat.
    engine_view = host.evaluate("(s) => window.__trucoFriendsHost.client.call('observation', { seat: s }).then((r) => r.observation)", GUEST)
    assert guest.evaluate("() => window.__truco.observation") == engine_view
    # "Jogar de novo" on the guest's device: the host's end screen says the guest is ready,
    # the guest's says the host deals; the host's "Jogar de novo" deals the guest in.
    expect(guest.locator("#end-replay")).to_be_hidden()  # the replay and share need the host's engine
    guest.locator("#end-dialog #again").click()
    expect(guest.locator("#banner")).to_contain_text("Aguardando a próxima partida")
    expect(host.locator("#end-dialog #friends-again")).to_have_text(re.compile("quer jogar de novo"))
    host.locator("#end-dialog #again").click()
    guest.wait_for_function("() => { const o = window.__truco.observation; return o.winner === null && o.hand_number === 1 && o.seat === 1; }")
    expect(guest.locator("#end-dialog")).not_to_be_visible()
    expect(host.locator("#friends-again")).to_be_hidden()
    # Host candidates only (no STUN/TURN: no srflx, no relay), in every SDP either side made.
    for page in (host, guest):
        sdps = page.evaluate("() => window.__trucoFriendsSDPs")
        assert sdps
        for sdp in sdps:
            kinds = set(re.findall(r"typ (\w+)", sdp))
            assert kinds == {"host"}, kinds
    # The guest never loaded the engine; neither page asked another origin for anything.
    assert not [u for u in requests["guest"] if re.search(r"pyodide|worker|\.whl|\.wasm|snapshot", u)]
    for url in requests["host"] + requests["guest"]:
        assert url.startswith(base_url) or url.startswith(("data:", "blob:")), url
    host.console_watch.check()
    guest.console_watch.check()
    # The host's page closes: the guest is told plainly, and how to join again.
    host.close()
    expect(guest.locator("#join-lost")).to_be_visible()
    expect(guest.locator("#join-title")).to_have_text("Quem abriu a mesa saiu")
    expect(guest.locator("#join-rejoin")).to_be_focused()
    assert guest.evaluate(PHASE) == "start"
    audit(guest, axe_source, "the guest's message that the host left", "#join-dialog")
    hc.close()
    gc.close()


def test_a_guest_reload_and_a_host_reload_mid_hand(browser, base_url):
    hc, host, gc, guest, _ = open_pages(browser, base_url, "")
    open_table(host, {GUEST: guest})
    # A sinal from the guest to its (bot) partner, on anyone's turn, reaches the host's engine.
    assert guest.evaluate("() => window.__truco.observation.may_signal")
    guest.locator("#signal-toggle").click()  # by the table's own menu, as a person would
    guest.locator("#signal-menu button").first.click()
    guest.wait_for_function("() => window.__truco.observation.signals.some((s) => s.seat === 1)")
    # Play until the guest has made a move in this hand, then it reloads mid-hand.
    play_until(host, guest, lambda: guest.evaluate(
        "() => window.__truco.observation.log.some((e) => e.type === 'play' && e.seat === 1 && e.n > Math.max(...window.__truco.observation.log.filter((d) => d.type === 'deal').map((d) => d.n)))"))
    n = host.evaluate("() => window.__truco.observation.log.at(-1).n")
    guest.reload()
    # The host goes on: seat 1's bot plays while its person is away (a move of seat 1's after n).
    host.wait_for_selector("#friends-table:not([hidden])")
    play_until(host, guest, lambda: host.evaluate(
        "(n) => window.__truco.observation.log.some((e) => e.n > n && e.seat === 1 && ['play', 'cover', 'accept', 'run', 'raise'].includes(e.type))", n))
    # The seat is given back with a new code exchange.
    host.locator("#friends-table").click()
    exchange(host, guest, GUEST)
    host.locator("#friends-close").click()
    guest.wait_for_function("() => Boolean(window.__truco && window.__truco.observation && window.__truco.observation.seat === 1)")
    before = guest.evaluate("() => window.__truco.observation.log.at(-1).n")
    play_until(host, guest, lambda: guest.evaluate(
        "(n) => window.__truco.observation.log.some((e) => e.n > n && e.seat === 1 && e.type !== 'signal')", before))
    # The host reloads mid-hand: the match resumes from its save, the guest rejoins.
    STAND = "() => { const o = window.__truco.observation; return [o.hand_number, o.score, o.log.at(-1).n]; }"
    before_stand = host.evaluate(STAND)
    host.reload()
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    host.locator("#continue:not([hidden])").click()
    host.locator("#friends-dialog[open]").wait_for()
    # The same match, resumed from its save (its bots may already have gone on), not a new one.
    hand, score, n = host.evaluate(STAND)
    assert hand >= before_stand[0] and n >= before_stand[2], (before_stand, hand, n)
    assert all(a >= b for a, b in zip(score, before_stand[1])) and sum(score) + hand > 1
    # The guest is told the host left, and how to come back: "Entrar de novo" opens the
    # paste field for the host's new code.
    guest.locator("#join-dialog[open]").wait_for()
    expect(guest.locator("#join-lost")).to_contain_text("Continuar partida")
    expect(guest.locator("#join-form")).to_be_hidden()
    guest.locator("#join-rejoin").click()
    expect(guest.locator("#join-offer")).to_be_focused()
    exchange(host, guest, GUEST)
    host.locator("#friends-close").click()
    before = host.evaluate("() => window.__truco.observation.log.at(-1).n")
    play_until(host, guest, lambda: guest.evaluate(
        "(n) => window.__truco.observation.log.some((e) => e.n > n && e.seat === 1 && e.type !== 'signal')", before))
    check_messages(host, guest)
    host.console_watch.check()
    guest.console_watch.check()
    hc.close()
    gc.close()


def test_no_ice_server_anywhere_in_dist(dist_dir):
    """No STUN/TURN server in any configuration: no such URL in the build, and every
    `iceServers` the scripts name is the empty list."""
    url = re.compile(r"\b(stuns?|turns?):[\w.\[\]-]+", re.I)
    named = 0
    for path in dist_dir.rglob("*"):
        if path.suffix not in {".js", ".html", ".json", ".toml", ".txt", ".webmanifest"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not url.search(text), f"{path}: {url.search(text).group(0)}"
        for m in re.finditer(r"iceServers\s*:\s*(\[[^\]]*\]|[^\s,}]+)", text):
            assert m.group(1).strip() == "[]", f"{path}: iceServers {m.group(1)}"
            named += 1
    assert named >= 2  # RTC_CONFIG and newPeer() in friends/codes.js


def test_a_host_and_three_guests(browser, base_url):
    """Four pages: every seat a person's, three code exchanges, a match to its end."""
    hc, host, gc, guest, _ = open_pages(browser, base_url, "&score=10,8")
    more = []
    for _ in range(2):
        context, page = new_page(browser, base_url, viewport={"width": 390, "height": 844})
        page.goto("/?join=1&fast=1&friends_log=1")
        more.append((context, page))
    guests = {1: guest, 2: more[0][1], 3: more[1][1]}
    open_table(host, guests)
    # Team 0's mão de dez (10 x 8) between partners at devices of their own: each sees the
    # other's cards, as the rules allow; the opponents see neither.
    expect(guests[2].locator('.seat[data-seat="0"] .seat-cards .card.face')).to_have_count(3)
    expect(host.locator('.seat[data-seat="2"] .seat-cards .card.face')).to_have_count(3)
    expect(guests[1].locator('.seat-cards .card.face')).to_have_count(0)
    everyone = [host, *guests.values()]
    moves = play_until(host, guest, lambda: all(p.evaluate(PHASE) == "over" for p in everyone), others=[more[0][1], more[1][1]])
    assert sum(moves.values()) > 0
    for seat, page in guests.items():
        check_messages(host, page, seat)
    for page in everyone:
        page.console_watch.check()
    for context in (hc, gc, *[c for c, _ in more]):
        context.close()


def test_the_host_owns_the_clock_of_a_guest_turn(browser, base_url):
    """A guest who does not play in time: the host's clock (the referee's) plays `timeout`
    for that seat, and the guest's page follows."""
    hc, host = new_page(browser, base_url)
    gc, guest = new_page(browser, base_url, viewport={"width": 390, "height": 844})
    host.clock.install()
    host.goto(f"/?fast=1&seed={SEED}&friends_log=1")
    # The guest's own clock stands still: only the host's can take the turn away.
    guest.clock.install()
    guest.goto("/?join=1&fast=1&friends_log=1")
    guest.clock.pause_at(datetime.now() + timedelta(minutes=1))
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    host.locator("details.more summary").first.click()  # "Mais opções": the turn's clock
    host.locator("#timer-select").select_option("10")
    host.locator("#open-friends").click()
    host.locator("#friends-dialog input[name=friends-mode][value='1x1']").check()
    host.locator("#friends-make").click()
    # An answer whose device cannot be reached: after 20 s the host says so plainly.
    host.locator("#friends-offer-1[data-ready]").wait_for()
    unreachable = host.evaluate("""async () => { const m = await import('/static/js/friends/codes.js');
      return m.encodeCode('a', m.sdpOf({ ufrag: 'abcd', pwd: 'abcdefghijklmnopqrstuvwx', fingerprint: 'ab'.repeat(32),
                                         setup: 'active', candidates: [['127.0.0.1', 9]] })); }""")
    host.locator("#friends-answer-1").fill(unreachable)
    host.locator("#friends-connect-1").click()
    expect(host.locator("#friends-status-1")).to_have_text(re.compile("Conectando"))
    host.clock.run_for(21_000)
    expect(host.locator("#friends-status-1")).to_have_text(re.compile("Não foi possível conectar.*mesma rede Wi-Fi"))
    host.locator("#friends-retry-1").click()  # "Código novo": a fresh offer, and the real friend
    exchange(host, guest, 1)
    host.locator("#friends-start").click()
    play_until(host, guest, lambda: host.evaluate("() => window.__truco.observation?.to_move") == 1
               and guest.evaluate(MAY_ACT) and guest.evaluate(PHASE) == "human")
    host.clock.run_for(12_500)  # the 10 s turn and the host's grace for the channel
    host.wait_for_function("() => window.__truco.observation.log.some((e) => e.type === 'timeout' && e.seat === 1)")
    guest.wait_for_function("() => window.__truco.observation.log.some((e) => e.type === 'timeout' && e.seat === 1)")
    check_messages(host, guest, 1)
    host.console_watch.check()
    guest.console_watch.check()
    hc.close()
    gc.close()


# The QR path: what a camera would read off each screen. The code drawn on one page is
# photographed (a screenshot of its SVG), decoded by the QR module's own JS decoder (the path
# of a browser with no BarcodeDetector, as headless Chromium on Linux), and typed into the
# other page; the two connect.
READ_QR = """async (b64) => {
  const qr = await import('/static/js/friends/qr.js');
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = Object.assign(document.createElement('canvas'), { width: bitmap.width, height: bitmap.height });
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  return qr.decodeImageData(ctx.getImageData(0, 0, canvas.width, canvas.height));
}"""


def read_qr(page, box):
    """The text of the QR code shown in `box`, as a camera pointed at the screen reads it."""
    svg = page.locator(f"{box} svg.qr-code")
    svg.wait_for()
    assert svg.get_attribute("role") == "img" and svg.get_attribute("aria-label")
    png = svg.screenshot()
    import base64
    return page.evaluate(READ_QR, base64.b64encode(png).decode())


def qr_exchange(host, guest, seat):
    """One code exchange by the QR path: each side's code read off the other's screen."""
    offer = host.locator(f"#friends-offer-{seat}[data-ready]")
    offer.wait_for()
    seen = read_qr(host, f"#friends-dialog .friends-seat[data-seat='{seat}'] .friends-qr")
    assert seen == offer.input_value(), "the host's QR holds its offer"
    guest.locator("#join-offer").fill(seen)
    guest.locator("#join-make").click()
    answer = guest.locator("#join-answer[data-ready]")
    answer.wait_for()
    back = read_qr(guest, "#join-qr")
    assert back == answer.input_value(), "the guest's QR holds its answer"
    host.locator(f"#friends-answer-{seat}").fill(back)
    host.locator(f"#friends-connect-{seat}").click()
    host.wait_for_function(f"() => document.querySelector('.friends-seat[data-seat=\"{seat}\"]').dataset.connected === 'true'")


def test_the_codes_travel_as_qr_codes_and_a_guest_joins_offline(browser, base_url):
    """The QR path, then the installed site with the network off: after a first visit each
    page is served by its service worker (the friends' modules, loaded through constant
    paths, are in its precache), the host's friends panel draws its QR again, and a guest
    page that was reloaded offline joins and is dealt its seat."""
    hc, host = new_page(browser, base_url, service_workers="allow")
    gc, guest = new_page(browser, base_url, viewport={"width": 390, "height": 844}, service_workers="allow")
    requests = []
    for page in (host, guest):
        page.on("request", lambda r: requests.append(r.url))
    host.goto(f"/?fast=1&seed={SEED}&friends_log=1")
    guest.goto("/?join=1&fast=1&friends_log=1")
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    open_table(host, {GUEST: guest}, mode="2x2", join=qr_exchange)
    # Both pages have dealt: their service workers install and precache the build.
    for page in (host, guest):
        page.wait_for_function("() => window.__pwa && window.__pwa.precacheState === 'complete'", timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("""async () => { const c = await caches.open((await caches.keys()).find((k) => k.startsWith('truco-build-')));
          const names = ['static/js/friends/host.js', 'static/js/friends/guest.js', 'static/js/friends/qr.js', 'static/css/friends.css'];
          return (await Promise.all(names.map((n) => c.match(new URL(n, location.origin + '/').href)))).every(Boolean); }""")
    # The network off: both pages reload from their service workers, the friends' modules too.
    hc.set_offline(True)
    gc.set_offline(True)
    host.reload()
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    assert host.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    host.locator("#continue:not([hidden])").click()
    host.locator("#friends-dialog[open]").wait_for()
    host.locator(f"#friends-dialog .friends-seat[data-seat='{GUEST}'] .friends-qr svg.qr-code").wait_for()
    expect(guest.locator("#join-lost")).to_be_visible()  # the host's reload, said on the guest's page
    guest.reload()
    guest.locator("#join-dialog[open]").wait_for()
    assert guest.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    assert guest.evaluate("() => import('/static/js/friends/qr.js').then((m) => typeof m.renderCode)") == "function"
    # Chromium's offline mode stops WebRTC's own UDP too (the channel never opens with it on,
    # service worker or not), where a phone on a Wi-Fi with no internet still reaches the
    # others: from here HTTP stays cut by refusing every request that reaches the network.
    reached = []
    for context in (hc, gc):
        context.route("**/*", lambda route: (reached.append(route.request.url), route.abort()))
        context.set_offline(False)
    qr_exchange(host, guest, GUEST)
    host.locator("#friends-close").click()
    guest.wait_for_function("(s) => Boolean(window.__truco && window.__truco.observation && window.__truco.observation.seat === s)", arg=GUEST)
    expect(guest.locator("#hand .card.in-hand")).not_to_have_count(0)
    assert not [u for u in reached if not u.endswith("/sw.js")], reached  # all from the service workers
    base = base_url.rstrip("/")
    assert all(u.startswith(base) or u.startswith(("data:", "blob:")) for u in requests), requests
    check_messages(host, guest)
    host.console_watch.check()
    guest.console_watch.check()
    hc.close()
    gc.close()


def test_the_hidden_card_check_reads_the_changes_a_message_carries():
    """The check above can fail: another seat's card in a whole observation, or only in the
    changes a later message carries (a delta's `set` or `tail`), is found."""
    deal = deal_for(SEED, 0, 4)
    other = deal[2][0]  # seat 2's first card, never seat 1's to see
    obs = {"seat": 1, "players": 4, "hand_number": 1, "log": [{"n": 0, "type": "deal"}], "rounds": [],
           "visible_hands": [], "vira": None, "hand": deal[1]}
    whole = json.dumps({"type": "obs", "observation": obs})
    assert [hidden_cards_in(o, 1, c) for _, o, c in observations([whole])] == [set()]
    for delta in ({"set": {"hand": [other]}, "tail": {}},
                  {"set": {}, "tail": {"log": [1, [{"n": 1, "type": "play", "seat": 2, "card": "Zz"}, {"n": 2, "type": "x", "note": f"play {other}"}]]}}):
        texts = [whole, json.dumps({"id": 3, "ok": True, "result": {"delta": delta}})]
        _, rebuilt, carried = list(observations(texts))[-1]
        assert other in hidden_cards_in(rebuilt, 1, carried)
