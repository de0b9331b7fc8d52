"""A friends' table against a hostile or buggy device (issue 42; docs/friends.md, "Untrusted
input"): a guest's flood of requests does not stall the host's game, and a host's markup
puts no element into a guest's page.

The host's side is played as in test_seat_drivers.py: the friend's seat is fed by a
stand-in for its data channel (FriendsHost.receive, the channel's handler). The guest's
side takes a real connection from a host page, whose channel then carries what a tampered
host page would send."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import expect

from helpers.browser import ENGINE_TIMEOUT_MS, READY, new_page
from helpers.friends import FAKE_GUEST, GUEST_SENDS
from helpers.table import accept_or_play_first

PLAY_LIMIT_S = 90  # not a timing check: a stuck table fails here instead of hanging

# 10,000 messages of every kind, as fast as a channel delivers them (each its own call of
# the channel's handler, none awaited): the Dica, the partner's opinion, the seat's own
# move and garbage moves, a name, "Jogar de novo", bad JSON and an oversized message.
FLOOD = """(count) => {
  const host = window.__trucoFriendsHost, g = host.guests.get(1);
  const kinds = [
    (i) => ({ id: i, type: 'hint' }),
    (i) => ({ id: i, type: 'opinion' }),
    (i) => ({ id: i, type: 'apply', action: i % 2 ? 'raise' : 'play 4c' }),
    (i) => ({ id: i, type: 'hello', name: 'Zé ' + i }),
    (i) => ({ id: i, type: 'again' }),
  ];
  for (let i = 0; i < count; i++) {
    const k = i % 7;
    const text = k < 5 ? JSON.stringify(kinds[k](1000 + i)) : k === 5 ? '{"id": ' : 'x'.repeat(5000);
    host.receive(1, g, text);
  }
  return host.dropped;
}"""

# The friend asks its partner's opinion; the host's engine call for it is timed out at once
# (the engine client's own time-out, as if the call had run past its limit).
GUEST_CALL_TIMED_OUT = """async () => {
  const { client } = await import('/static/js/engine/engine_boot.js');
  const host = window.__trucoFriendsHost, g = host.guests.get(1);
  g.tokens = {};
  host.receive(1, g, JSON.stringify({ id: 900000 + client.nextId, type: 'opinion' }));
  for (let i = 0; i < 100; i++) {
    const entry = [...client.pending].find(([, e]) => e.tag === 'guest');
    if (entry) { client._stuck(entry[0], 1); return true; }
    await Promise.resolve(); // microtasks only: no reply of the worker can come meanwhile
  }
  return false;
}"""

SEEN = """() => ({ phase: document.getElementById('app').dataset.phase, busy: window.__truco.busy,
  obs: window.__truco.observation,
  dialogs: [...document.querySelectorAll('dialog[open]')].map((d) => d.id + ': ' + d.textContent.trim().slice(0, 80)) })"""
ENGINE_OBS = "(seat) => window.__engine.call('observation', { seat }).then((r) => r.observation)"


def test_a_guest_flooding_every_kind_of_request_does_not_stall_the_hosts_game(browser, base_url):
    context, host = new_page(browser, base_url)
    # A time limit for every engine call shorter than the default, so that a guest's queue
    # in the engine would show as a restarted worker here (the limit itself is generous).
    host.goto("/?fast=1&seed=7&friends_log=1&call_limit=10000")
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    warnings = []
    host.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    host.locator("#open-friends").click()
    host.locator("#friends-dialog input[name=friends-mode][value='1x1']").check()
    host.locator("#friends-make").click()
    host.locator("#friends-offer-1[data-ready]").wait_for()
    host.evaluate(FAKE_GUEST)
    host.locator("#friends-start").click()
    host.wait_for_function("() => window.__truco.observation && window.__truco.observation.winner === null")
    assert host.evaluate(GUEST_SENDS, {"id": 1, "type": "hello", "name": "Zé"})["ok"]
    next_id = 2
    flooded = False
    deadline = time.monotonic() + PLAY_LIMIT_S
    moves = 0
    while True:
        assert time.monotonic() < deadline, "the match did not go on"
        host.wait_for_function("""() => { const o = window.__truco.observation, p = document.getElementById('app').dataset.phase;
          return !window.__truco.busy && (p === 'human' || p === 'over' || (p === 'bots' && o.to_move === 1)); }""")
        view = host.evaluate(SEEN)
        obs = view["obs"]
        assert not view["dialogs"], view["dialogs"]
        if (obs["hand_number"] > 1 and flooded and moves >= 4) or obs["winner"] is not None:
            break
        n = obs["log"][-1]["n"]
        if view["phase"] == "human":
            accept_or_play_first(host)
        else:
            if not flooded:
                # The friend's turn, as in the issue: the flood, then the friend's own move.
                dropped = host.evaluate(FLOOD, 10_000)
                assert dropped >= 2800  # the bad JSON and the oversized ones (2 in 7)
                flooded = True
            legal = host.evaluate(ENGINE_OBS, 1)["legal_actions"]
            action = "accept" if "accept" in legal else next(a for a in legal if a.startswith("play "))
            answer = None
            while answer is None or (not answer["ok"] and answer["error"].startswith("busy")):
                # The flood's one request in flight may still be in the engine: asked again.
                answer = host.evaluate(GUEST_SENDS, {"id": next_id, "type": "apply", "action": action})
                next_id += 1
            assert answer["ok"], answer
        moves += 1
        host.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)
    assert flooded
    # The worker was never restarted ("took over … s; restarting"), nothing asked to set the
    # match aside, and the host's save is the match in play.
    assert not [w for w in warnings if "restarting the worker" in w], warnings[:5]
    assert not host.locator("dialog[open]").count()
    saved = host.evaluate("() => JSON.parse(localStorage.getItem('truco:session'))")
    assert saved and saved["data"]["settings"]["friends"] == "host"
    assert not host.evaluate("() => localStorage.getItem('truco:backup')")
    # The guest got replies it can read, and far fewer engine answers than it asked for.
    inbox = host.evaluate("() => window.__guestInbox.filter((m) => m.id >= 1000)")
    hints = [m for m in inbox if m["ok"] and "action" in (m.get("result") or {}) and "reason" in m["result"]]
    assert len(hints) <= 4, len(hints)  # the one in flight, then the bucket's few
    refused = [m for m in inbox if not m["ok"]]
    assert refused and all(len(m["error"]) <= 200 for m in refused)
    # Each refusal names its reason for the guest's page to say (friends/protocol.js, REFUSALS).
    codes = {m.get("code") for m in refused}
    assert "busy" in codes and codes <= {"busy", "rate", "turn", "not_over", "illegal", "changed", "engine"}, codes
    # A call the host makes for the friend's device that passes its time limit (a slow host
    # phone's Dica, here timed out at once) restarts the worker and puts the match back, but
    # says nothing of the host's save: twice, and no offer to set the match aside.
    if host.evaluate("() => window.__truco.observation.winner") is None:
        for _ in range(2):
            assert host.evaluate(GUEST_CALL_TIMED_OUT)
            assert not host.locator("dialog[open]").count()
            host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
            expect(host.locator(BANNER)).to_have_text(re.compile("^O motor do jogo travou e foi reiniciado"))
            host.wait_for_function("() => !window.__truco.busy")
        assert not host.locator("dialog[open]").count()
    host.console_watch.check()
    context.close()


# ------------------------------------------------------------ a host that writes markup
MARKUP = '<img class="evil" src="x"><a class="evil" href="https://example.com">x</a><form class="evil"></form>'

# From the host's page: for every field of the last observation the guest got (and of the
# table's settings), a message whose field is markup (strings, numbers, lists and objects
# alike, nested values too), each as a new match so that the guest's page would deal it in
# and draw it (a match over, then one not: GuestLink's "first" observation); sent on the
# channel's own send, as a tampered host page would. The first ones are the fields the
# probe saw written as HTML.
EVIL_MESSAGES = """(markup) => {
  const g = window.__trucoFriendsHost.guests.get(1);
  const evil = (v) => Array.isArray(v) ? (v.length ? v.map(evil) : [markup])
    : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, evil(x)])) : markup;
  const base = structuredClone(g.sent);
  const table = JSON.parse(g.tableSent);
  const over = { type: 'obs', observation: { ...base, winner: 0 }, table };
  const news = (observation, t = table) => ({ type: 'obs', observation: { ...observation, winner: null }, table: t });
  const first = ['score', 'hand_value', 'rules', 'manilhas', 'hand'];
  const keys = [...first, ...Object.keys(base).filter((k) => !first.includes(k))];
  const messages = [];
  for (const key of keys) messages.push(news({ ...base, [key]: evil(base[key]) }));
  messages.push(news({ ...base, rules: { ...base.rules, manilha_names: [markup, markup, markup, markup] } }));
  for (const key of Object.keys(table)) messages.push(news(base, { ...table, [key]: evil(table[key]) }));
  messages.push(news(evil(base), evil(table)));
  messages.push({ type: 'obs', delta: { set: { score: [markup, markup], hand_value: markup }, tail: {} } });
  return { over: JSON.stringify(over), messages: messages.map((m) => JSON.stringify(m)) };
}"""
SEND = "(texts) => { const g = window.__trucoFriendsHost.guests.get(1); for (const t of texts) g.channel.send(t); }"
# The guest's request is answered only after every message the host sent before it (one
# ordered channel): a round trip from the guest flushes what the host sent.
ROUND_TRIP = "() => window.__trucoFriendsGuest.request({ type: 'again' }).catch(() => null)"
EVIL_ELEMENTS = "() => document.querySelectorAll('.evil, img[src=\"x\"], form.evil, a[href^=\"https://example\"]').length"
SETTLED = "() => !window.__truco.busy"
# The message was dropped, or the guest's table shows the latest observation the host sent.
TAKEN = """(before) => { const link = window.__trucoFriendsGuest;
  return !window.__truco.busy && ((link.dropped ?? 0) > before
    || JSON.stringify(window.__truco.observation) === JSON.stringify(link.latest)); }"""


# What the guest's page says of a request the host refused: its words for the host's reason.
GUEST_ASKS = """async (body) => {
  const { engineWords } = await import('/static/js/shared/engine_words.js');
  try { await window.__trucoFriendsGuest.request(body); return null; } catch (err) { return engineWords(err); } }"""
GUEST_PHASE = "() => document.getElementById('app').dataset.phase === 'human' && !window.__truco.busy"
BANNER = "#banner .banner-title"


def said_on_the_guests_page(host, guest):
    """The host's refusals and silence, said to the guest in its language (issue 42): not
    "um erro interno", and a host that does not answer is a slow host or link, not an engine."""
    assert guest.evaluate(GUEST_ASKS, {"type": "again"}) == "quem abriu a mesa recusou — a partida ainda não acabou"
    if guest.evaluate("() => window.__truco.observation.to_move") != 1:
        host.wait_for_function(GUEST_PHASE)
        accept_or_play_first(host)
    guest.wait_for_function(GUEST_PHASE)
    # The guest's move while the host still works on its last request: refused as "busy".
    host.evaluate("() => { window.__trucoFriendsHost.guests.get(1).busy = true; }")
    accept_or_play_first(guest)
    expect(guest.locator(BANNER)).to_have_text(
        "Jogada não permitida: quem abriu a mesa ainda está respondendo ao seu pedido anterior; espere um pouco")
    host.evaluate("() => { window.__trucoFriendsHost.guests.get(1).busy = false; }")
    guest.wait_for_function(GUEST_PHASE)
    # A host that does not answer (its messages dropped), past the guest's wait.
    host.evaluate("() => { window.__trucoFriendsHost.receive = () => {}; }")
    guest.evaluate("() => { window.__trucoFriendsGuest.requestMs = 300; }")
    accept_or_play_first(guest)
    expect(guest.locator(BANNER)).to_have_text(re.compile("^Quem abriu a mesa não respondeu a tempo"))
    assert not guest.locator("dialog[open]").count()
    host.evaluate("() => { delete window.__trucoFriendsHost.receive; }")
    guest.evaluate("() => { window.__trucoFriendsGuest.requestMs = 15000; }")
    guest.wait_for_function(GUEST_PHASE)


def test_a_host_sending_markup_in_every_field_puts_no_element_into_the_guests_page(browser, base_url):
    hc, host = new_page(browser, base_url)
    gc, guest = new_page(browser, base_url, viewport={"width": 390, "height": 844})
    host.goto("/?fast=1&seed=7&friends_log=1")
    guest.goto("/?join=1&fast=1&friends_log=1")
    host.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    host.locator("#open-friends").click()
    host.locator("#friends-dialog input[name=friends-mode][value='1x1']").check()
    host.locator("#friends-make").click()
    offer = host.locator("#friends-offer-1[data-ready]")
    offer.wait_for()
    guest.locator("#join-offer").fill(offer.input_value())
    guest.locator("#join-make").click()
    answer = guest.locator("#join-answer[data-ready]")
    answer.wait_for()
    host.locator("#friends-answer-1").fill(answer.input_value())
    host.locator("#friends-connect-1").click()
    host.wait_for_function("() => document.querySelector('.friends-seat[data-seat=\"1\"]').dataset.connected === 'true'")
    host.locator("#friends-start").click()
    guest.wait_for_function("() => window.__truco?.observation?.seat === 1")
    guest.wait_for_function("() => !window.__truco.busy")
    said_on_the_guests_page(host, guest)
    evil = host.evaluate(EVIL_MESSAGES, MARKUP)
    assert len(evil["messages"]) > 30
    for text in evil["messages"]:
        before = guest.evaluate("() => window.__trucoFriendsGuest.dropped ?? 0")
        host.evaluate(SEND, [evil["over"], text])
        guest.evaluate(ROUND_TRIP)
        guest.wait_for_function(TAKEN, arg=before)
        assert guest.evaluate(EVIL_ELEMENTS) == 0, text[:300]
    # A reply to the guest's requests with markup in every field (the Dica's reason, its
    # text, an observation, an error), for each id the guest may be waiting on.
    host.evaluate("""(markup) => { const g = window.__trucoFriendsHost.guests.get(1);
      for (let id = 1; id < 200; id++) {
        g.channel.send(JSON.stringify({ id, ok: true, result: { action: markup, reason: { key: markup, params: { card: markup } }, text: markup, observation: { score: markup } } }));
        g.channel.send(JSON.stringify({ id, ok: false, error: markup.repeat(100) }));
      } }""", MARKUP)
    guest.evaluate(ROUND_TRIP)
    guest.wait_for_function(SETTLED)
    assert guest.evaluate(EVIL_ELEMENTS) == 0
    assert guest.evaluate("() => window.__trucoFriendsGuest.dropped") >= len(evil["messages"]) - 10
    # The honest host's next view goes whole: the guest's table draws it, numbers as numbers.
    host.evaluate("() => { const h = window.__trucoFriendsHost, g = h.guests.get(1); g.sent = null; g.tableSent = null; h.changed(); }")
    guest.evaluate(ROUND_TRIP)
    guest.wait_for_function(SETTLED)
    us = guest.locator("[data-testid=score-us] .n").first.text_content()
    assert us.isdigit(), us
    assert guest.evaluate(EVIL_ELEMENTS) == 0
    hc.close()
    gc.close()
