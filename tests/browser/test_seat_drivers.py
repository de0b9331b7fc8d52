"""Every seat is moved by its driver (issue 40; site/static/js/table/seat_drivers.js), and the
table plays the same way whoever sits there: a bot match, a pass-and-play match between two
people at one device, and a friends' table on its host's page, with the friend's moves
arriving as a guest's messages do (FriendsHost.receive, the data channel's handler, fed by
a stand-in for the channel). Each is played to a hand's end or the match's end with
`?fast=1` and a seed, and checked as a person at the table sees it: the score shown is the
engine's, the seat whose turn it is is marked, and a "Passe para …" screen shows no card."""

from __future__ import annotations

import json
import time

from helpers.browser import ENGINE_TIMEOUT_MS, READY, new_page
from helpers.friends import FAKE_GUEST, GUEST_SENDS
from helpers.table import accept_or_play_first, start

PLAY_LIMIT_S = 60  # not a timing check: a stuck table fails here instead of hanging

# What a person sees: the phase, the score in the header, whose seat is marked as to move,
# the cards face up in the player's hand, the pass screen and the name under the hand.
SEEN = """() => {
  const $ = (s) => document.querySelector(s), app = $('#app'), pass = $('#pass-dialog');
  const n = (id) => Number($(`[data-testid=${id}] .n`)?.textContent ?? NaN);
  const marked = [...document.querySelectorAll('.seat.to-move')].map((e) => Number(e.dataset.seat));
  return { phase: app.dataset.phase, busy: window.__truco.busy, obs: window.__truco.observation,
           us: n('score-us'), them: n('score-them'), marked, meMarked: $('#me').classList.contains('to-move'),
           handFaces: document.querySelectorAll('#hand .card.face').length,
           playable: document.querySelectorAll('#hand .card.in-hand:not([disabled])').length,
           passOpen: pass.open, passSeat: pass.open ? Number(pass.dataset.seat) : null,
           passTitle: $('#pass-title').textContent, ownLabel: $('#me .me-label > span')?.textContent ?? '' };
}"""

ENGINE_OBS = "(seat) => window.__engine.call('observation', { seat }).then((r) => r.observation)"


def seen(page):
    return page.evaluate(SEEN)


def open_page(browser, base_url, query=""):
    context, page = new_page(browser, base_url)
    page.goto(f"/?fast=1{query}")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    return context, page


def check_score(page, view):
    """The header's score is the engine's, from the seat on screen's side (§7: the match's points)."""
    engine = page.evaluate(ENGINE_OBS, view["obs"]["seat"])
    team = engine["team"]
    assert (view["us"], view["them"]) == (engine["score"][team], engine["score"][1 - team]), (view, engine["score"])


def test_a_bot_match_to_its_end(browser, base_url):
    context, page = open_page(browser, base_url)
    # 10 x 8 in 1 x 1: a mão de dez for the player's side (§6), so this one hand ends the match.
    start(page, {"mode": "1x1", "level": "facil", "humans": "0"}, {"seed": 5, "score": [10, 8]})
    assert page.evaluate("window.__truco.drivers") == ["LocalPlayer", "BotDriver"]
    deadline = time.monotonic() + PLAY_LIMIT_S
    moves = 0
    while True:
        assert time.monotonic() < deadline, "the match did not go on"
        page.wait_for_function("() => !window.__truco.busy && ['human', 'over'].includes(document.getElementById('app').dataset.phase)")
        view = seen(page)
        check_score(page, view)
        if view["phase"] == "over":
            break
        # The player's turn: their own seat is marked, no other, and their cards may be played.
        assert view["obs"]["to_move"] == view["obs"]["seat"] == 0
        assert view["meMarked"] and view["marked"] == []
        n = view["obs"]["log"][-1]["n"]
        accept_or_play_first(page)
        page.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)
        moves += 1
    obs = view["obs"]
    assert moves > 0 and obs["winner"] in (0, 1)
    assert max(obs["score"]) >= 12  # §7: a match is won at 12
    title = page.locator("#end-dialog h2, #end-title").first.text_content()
    assert title and page.locator("#end-dialog").is_visible()
    page.console_watch.check()
    context.close()


def test_two_people_at_one_device_play_a_hand(browser, base_url):
    context, page = open_page(browser, base_url)
    # A shared table opens on a pass screen (helpers.table.start waits for the player's turn).
    page.evaluate("([s, c]) => window.__truco.start(s, c)",
                  [{"mode": "1x1", "humans": "01", "player_name": "Ana", "player_names": ["", "Bia", "", ""]}, {"seed": 11}])
    assert page.evaluate("window.__truco.drivers") == ["PersonAtDevice", "PersonAtDevice"]
    names = {0: "Ana", 1: "Bia"}
    deadline = time.monotonic() + PLAY_LIMIT_S
    passes = turns = 0
    on_screen = None
    while True:
        assert time.monotonic() < deadline, "the match did not go on"
        page.wait_for_function("""() => { const p = document.getElementById('app').dataset.phase, pass = document.getElementById('pass-dialog');
          return !window.__truco.busy && ((p === 'pass' && pass.open) || (p === 'human' && !pass.open) || p === 'over'); }""")
        view = seen(page)
        obs = view["obs"]
        if obs["hand_number"] > 1 or obs["winner"] is not None:
            break
        if view["phase"] == "pass":
            # The device goes to the person to move: named, and no card of any hand shown.
            passes += 1
            assert view["passSeat"] == obs["to_move"] != on_screen and names[obs["to_move"]] in view["passTitle"]
            assert view["handFaces"] == 0 and obs["hand"] == []
            page.locator("#pass-ready").click()
            # The screen stays up until that seat's view has come from the engine: wait for it
            # to go, or the next look would see the same pass screen (tapped already) again.
            page.wait_for_function("() => !document.getElementById('pass-dialog').open")
            continue
        # That person's own view: their seat to move, their name under their hand.
        turns += 1
        on_screen = obs["seat"]
        assert obs["seat"] == obs["to_move"] and view["ownLabel"] == names[obs["seat"]]
        assert view["meMarked"] and view["playable"] + page.locator("#actions button[data-action=accept]").count() > 0
        check_score(page, view)
        n = obs["log"][-1]["n"]
        accept_or_play_first(page)
        page.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)
    # Both people played, the device handed over whenever the turn went to the other one
    # (within a round the seats alternate; a round's winner leads the next, §3).
    assert turns >= passes >= 2
    # The hand's points are on the board as the engine counts them (§5: a hand is worth 2 in Mineiro).
    engine = page.evaluate(ENGINE_OBS, 0)
    assert sum(engine["score"]) >= 2
    page.console_watch.check()
    context.close()


def test_a_friends_seat_on_the_hosts_page(browser, base_url):
    context, host = open_page(browser, base_url, "&seed=7&friends_log=1")
    host.locator("#open-friends").click()
    host.locator("#friends-dialog input[name=friends-mode][value='1x1']").check()
    host.locator("#friends-make").click()
    host.locator("#friends-offer-1[data-ready]").wait_for()
    host.evaluate(FAKE_GUEST)
    host.locator("#friends-start").click()
    host.wait_for_function("() => window.__truco.observation && window.__truco.observation.winner === null")
    assert host.evaluate("window.__truco.drivers") == ["LocalPlayer", "FriendSeat"]
    # The guest says its name: the host's table calls seat 1 by it.
    hello = host.evaluate(GUEST_SENDS, {"id": 1, "type": "hello", "name": "Zé"})
    assert hello["ok"] and hello["result"] == {"seat": 1}
    assert "Zé" in host.locator('.seat[data-seat="1"]').text_content()
    deadline = time.monotonic() + PLAY_LIMIT_S
    guest_moves = host_moves = 0
    next_id = 2
    while True:
        assert time.monotonic() < deadline, "the match did not go on"
        host.wait_for_function("""() => { const o = window.__truco.observation, p = document.getElementById('app').dataset.phase;
          return !window.__truco.busy && (p === 'human' || p === 'over' || (p === 'bots' && o.to_move === 1)); }""")
        view = seen(host)
        obs = view["obs"]
        if obs["hand_number"] > 1 or obs["winner"] is not None:
            break
        check_score(host, view)
        n = obs["log"][-1]["n"]
        if view["phase"] == "human":
            assert view["meMarked"] and 1 not in view["marked"]
            accept_or_play_first(host)
            host_moves += 1
        else:
            # The friend's turn: the host shows whose it is and offers none of its own cards.
            assert view["marked"] == [1] and not view["meMarked"] and view["playable"] == 0
            legal = host.evaluate(ENGINE_OBS, 1)["legal_actions"]
            action = "accept" if "accept" in legal else next(a for a in legal if a.startswith("play "))
            answer = host.evaluate(GUEST_SENDS, {"id": next_id, "type": "apply", "action": action})
            next_id += 1
            assert answer["ok"], answer
            guest_moves += 1
        host.wait_for_function("(n) => window.__truco.observation.log.at(-1).n !== n", arg=n)
    assert guest_moves > 0 and host_moves > 0
    # A move out of turn is refused and changes nothing (only the seat to move plays, §3).
    if host.evaluate("window.__truco.observation.to_move") != 1:
        before = host.evaluate("window.__truco.observation.log.at(-1).n")
        refused = host.evaluate(GUEST_SENDS, {"id": next_id, "type": "apply", "action": "run"})
        assert refused["ok"] is False
        assert host.evaluate("window.__truco.observation.log.at(-1).n") == before
    # The guest was sent its own seat's view only: every observation it got was seat 1's.
    sent = host.evaluate("window.__guestInbox")
    views = [m for m in sent if m.get("type") == "obs" and "observation" in m]
    assert views and all(m["observation"]["seat"] == 1 for m in views), json.dumps(views[:1])[:300]
    check_score(host, seen(host))
    host.console_watch.check()
    context.close()
