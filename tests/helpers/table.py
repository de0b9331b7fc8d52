"""The table page (index.html) driven through its hooks (window.__truco) with `?fast=1`, and
the mini-table's picture (tutorial, embed)."""

from __future__ import annotations

from playwright.sync_api import expect


def start(page, settings=None, scenario=None):
    """A new match with `settings` merged into the page's (one person, at seat 0, unless
    they say otherwise: a test before on a shared page may have sat people elsewhere)."""
    page.evaluate("""([s, c]) => { (window.__workerMessages || []).splice(0);
                                   return window.__truco.start(s, c); }""",
                  [{"humans": "0", **(settings or {})}, scenario or {}])
    wait_turn(page, None)


def last_n(page):
    return page.evaluate("window.__truco.observation ? window.__truco.observation.log.at(-1).n : -1")


def wait_turn(page, before):
    """Wait until the human may act (or the match is over) after the event `before`."""
    page.wait_for_function(
        """(before) => {
             const o = window.__truco && window.__truco.observation, app = document.getElementById('app');
             if (!o || window.__truco.busy) return false;
             if (before !== null && o.log.at(-1).n === before) return false;
             return app.dataset.phase === 'human' || app.dataset.phase === 'over';
           }""",
        arg=before, timeout=90_000)


def obs(page):
    return page.evaluate("window.__truco.observation")


def phase(page):
    return page.locator("#app").get_attribute("data-phase")


ACCEPT = "#actions button[data-action=accept]"
PLAYABLE = "#hand .card.in-hand:not([disabled])"


def accept_or_play_first(page, how="click"):
    """One move as a person makes it, without waiting for what follows: accept a raise or a
    mão de dez when asked, else play the first playable card. `how`: "click", "tap" (a touch
    screen's page), "keys" (A to accept, 1 for the first card) or "drag" (onto the table)."""
    accept = page.locator(ACCEPT)
    if accept.count():
        if how == "keys":
            page.keyboard.press("a")
        elif how == "tap":
            accept.first.tap()
        else:
            accept.first.click()
        return
    card = page.locator(PLAYABLE).first
    if how == "keys":
        card.focus()
        page.keyboard.press("1")
    elif how == "drag":
        drag_to(page, card, "#drop-zone")
    elif how == "tap":
        card.tap()
    else:
        card.click()


def act(page, how="click"):
    """`accept_or_play_first`, then wait until the human may act again (or the match is over)."""
    before = last_n(page)
    accept_or_play_first(page, how)
    wait_turn(page, before)


def click_and_wait(page, target):
    """Click `target` (a locator, or a selector on `page`) as the human's move, then wait
    until the human may act again (or the match is over)."""
    before = last_n(page)
    (page.locator(target) if isinstance(target, str) else target).click()
    wait_turn(page, before)


def replay_of_a_deciding_hand(page, settings=None):
    """A mão de ferro at 10 x 10 in 2 x 2 (one hand decides the match), played to its end,
    then "Rever a partida" from the end screen, on its first step (a touch screen's page)."""
    start(page, {"mode": "2x2", "level": "facil", "ferro": "claras", **(settings or {})},
          {"seed": 5, "dealer": 3, "score": [10, 10]})
    for _ in range(20):
        if phase(page) == "over":
            break
        act(page)
    page.locator("#end-replay").tap()
    expect(page.locator("#replay-count")).to_contain_text("passo 1 de")


def drag_to(page, card, target):
    box = card.bounding_box()
    dest = page.locator(target).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 9):  # real pointer moves, the card follows
        page.mouse.move(x + (dest["x"] + dest["width"] / 2 - x) * i / 8, y + (dest["y"] + dest["height"] / 2 - y) * i / 8)
    page.mouse.up()


# A mini-table as the reader sees it: what each seat shows, the cards on the felt, the hand
# and its buttons, the score, the value, the round marks, the vira, the bubbles, the prompt.
TABLE_PICTURE = """(root) => {
  const card = (c) => c.classList.contains('back') ? (c.classList.contains('covered') ? 'covered' : 'back')
      : (c.getAttribute('aria-label') || c.querySelector('.card-name')?.textContent || '?');
  const value = root.querySelector('.mt-value');
  const vira = root.querySelector('.mt-vira');
  return {
    score: root.querySelector('.mt-score').getAttribute('aria-label'),
    value: value.hidden ? null : value.textContent,
    marks: [...root.querySelectorAll('.mt-marks li')].map((li) => li.getAttribute('aria-label')),
    seats: [...root.querySelectorAll('.mt-seat')].map((s) => [s.getAttribute('aria-label'),
      s.querySelector('.mt-seat-name').textContent, [...s.querySelectorAll('.mt-seat-cards .card')].map(card),
      s.querySelector('.mt-bubble')?.textContent || null]),
    trick: [...root.querySelectorAll('.mt-played')].map((p) => [p.dataset.pos, [...p.querySelectorAll('.card')].map(card)]),
    vira: vira.hidden ? null : vira.getAttribute('aria-label'),
    hand: [...root.querySelectorAll('.mt-hand button')].map((b) => [b.dataset.action, b.disabled, card(b)]),
    actions: [...root.querySelectorAll('.mt-actions button')].map((b) => [b.dataset.action, b.textContent]),
    prompt: root.querySelector('.mt-prompt').textContent,
    myTurn: root.classList.contains('my-turn'),
  };
}"""
