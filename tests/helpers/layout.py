"""What a person sees on the table at this moment (issue 41): every card on the table whose
index corner or centre is under something else, every line of text under something else,
every box whose text is cut off, and any page scroll. Judged by what the browser paints on
top at a point (`elementsFromPoint`), the page's scroll size and each text box's scroll size,
not by class names.

`problems(page)` returns them, each a dict {kind, what, where, by} whose `str` via
`describe()` reads as a sentence; `play_and_audit()` plays a started match step by step and
audits each step and each hand's summary (the test and bench/layout/audit.py share it).

The page's CSP refuses string-evaluated code, so everything here is a function expression
that Playwright passes to `page.evaluate`."""

from __future__ import annotations

# The scenarios the audit plays (tests/browser/test_table_no_overlap.py, bench/layout/audit.py):
# seeded deals; in the first hand Tonho (seat 1) holds three manilhas and calls truco; the
# Dica, sinais and humano decide are on; each hand's summary waits for "Próxima mão".
H2 = [["4d", "5s", "6h"], ["4c", "7h", "As"]]
H4 = [["4d", "5s", "6h"], ["4c", "7h", "As"], ["Qd", "Qs", "Jd"], ["5d", "6s", "Kh"]]
H6 = H4 + [["5c", "6c", "Jc"], ["Kc", "Ks", "Jh"]]
_COMMON = {"level": "dificil", "hint": True, "auto_next": False}
_PAIRS = {"humano_decide": True, "sinais": True}
MODES = {
    "1x1": ({"mode": "1x1", **_COMMON}, {"seed": 11, "dealer": 0, "hands": H2}),
    "2x2": ({"mode": "2x2", **_COMMON, **_PAIRS}, {"seed": 11, "dealer": 3, "hands": H4}),
    "3x3": ({"mode": "3x3", **_COMMON, **_PAIRS}, {"seed": 11, "dealer": 5, "hands": H6}),
    # A mão de dez: the partner's cards shown to the pair (RULES.md §6).
    "2x2 dez": ({"mode": "2x2", **_COMMON, **_PAIRS}, {"seed": 17, "score": [10, 4], "dealer": 3}),
    # A mão de ferro (RULES.md §6): both teams at 10, every card dealt face down, played by its place.
    "2x2 ferro": ({"mode": "2x2", **_COMMON, **_PAIRS}, {"seed": 17, "score": [10, 10], "dealer": 3}),
    # Pass-and-play: two people at one device (seats 0 and 1), each turn after the pass screen's
    # tap is the person's own at a shared table (the pass screen itself is a modal dialog).
    "2x2 pass": ({"mode": "2x2", **_COMMON, "humans": "01", "timer": 0}, {"seed": 11, "dealer": 3, "hands": H4}),
}
LANG_PATH = {"pt-BR": "/?fast=1", "es": "/es/?fast=1", "en": "/en/?fast=1"}

# Kinds of problem: a card's index corner covered, a card's centre covered, a line of text
# covered, a text box cut off (its text scrolls inside it, or runs out of the screen), the
# page scrolls.
KINDS = ("card corner", "card centre", "text covered", "text cut off", "page scroll")

AUDIT_JS = r"""() => {
  const problems = [];
  const app = document.getElementById('app');
  const modal = document.querySelector('dialog:modal');
  // Hit testing skips pointer-events: none (the summary, the bubbles' tails, the felt's
  // corners): for this look every element answers, as every element is painted.
  const unpointed = [];
  for (const e of app.querySelectorAll('*')) {
    if (getComputedStyle(e).pointerEvents === 'none') {
      unpointed.push([e, e.style.getPropertyValue('pointer-events'), e.style.getPropertyPriority('pointer-events')]);
      e.style.setProperty('pointer-events', 'auto', 'important');
    }
  }
  const name = (e) => {
    if (!e) return 'nothing';
    if (e.nodeType === 3) e = e.parentElement;
    const id = e.id ? '#' + e.id : '';
    const cls = typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).slice(0, 3).join('.') : '';
    const text = (e.getAttribute('aria-label') || e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 28);
    return `${e.tagName.toLowerCase()}${id}${cls}${text ? ` "${text}"` : ''}`;
  };
  const where = (e) => {
    const seat = e.closest('[data-seat]');
    const place = e.closest('#trick') ? 'on the felt' : e.closest('#hand') ? 'in the hand'
      : e.closest('.seat-cards') ? 'in a seat\'s hand' : e.closest('#me') ? 'in the player\'s corner'
      : e.closest('.seat') ? 'at a seat' : e.closest('.topbar') ? 'in the header' : e.closest('#banner') ? 'in the summary'
      : e.closest('.center') ? 'in the centre' : 'on the page';
    return place + (seat ? ` (seat ${seat.dataset.seat})` : '') + (e.dataset && e.dataset.round ? ` round ${e.dataset.round}` : '');
  };
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const alpha = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return c === 'transparent' ? 0 : 1;
    const p = m[1].split(/[ ,/]+/).filter(Boolean); return p.length > 3 ? Number(p[3]) : 1; };
  // Whether `e` paints something that hides what is under it at (x, y): a background, an
  // image or control, a border there, or its own text there. A tint under 0.3 hides nothing.
  const paints = (e, x, y) => {
    if (!shown(e)) return false;
    const s = getComputedStyle(e);
    if (Number(s.opacity) < 0.3) return false;
    if (alpha(s.backgroundColor) >= 0.3 || s.backgroundImage !== 'none') return true;
    if (/^(IMG|SVG|CANVAS|INPUT|SELECT|TEXTAREA|VIDEO)$/i.test(e.tagName)) return true;
    for (const n of e.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      if (alpha(s.color) < 0.3) continue;
      const r = document.createRange(); r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (x >= b.left && x <= b.right && y >= b.top && y <= b.bottom) return true;
    }
    return false;
  };
  // What covers `target` at (x, y): the first element on top of it that paints there.
  const coverAt = (target, x, y) => {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 'the edge of the screen';
    for (const e of document.elementsFromPoint(x, y)) {
      if (e === target || target.contains(e)) return null;
      if (e.contains(target)) continue; // a container, beneath it
      if (paints(e, x, y)) return e;
    }
    return null;
  };
  const inModal = (e) => modal && modal.contains(e);
  // Hidden for the eye on purpose, kept for screen readers (clip-path: inset(50%)).
  const clippedAway = (e) => { for (let x = e; x; x = x.parentElement) if (getComputedStyle(x).clipPath.includes('inset(50%')) return true; return false; };
  const skip = (e) => inModal(e) || e.closest('dialog, .visually-hidden, #live, [aria-hidden="true"] .sound-label')
    || e.closest('.status');

  // 1. Cards on the table: the played cards, the hand, a seat's cards shown face up.
  const cards = [...app.querySelectorAll('#trick .card, #hand .card, .seat-cards .card.face')]
    .filter((c) => !modal && shown(c) && !skip(c) && c.getBoundingClientRect().width > 4); // a modal dialog covers the table on purpose
  for (const c of cards) {
    const r = c.getBoundingClientRect();
    const label = c.getAttribute('aria-label') || c.querySelector('.card-name')?.textContent || (c.classList.contains('back') ? 'a card face down' : '?');
    const points = [['card corner', r.left + r.width * 0.16, r.top + r.height * 0.13],
                    ['card centre', r.left + r.width / 2, r.top + r.height / 2]];
    for (const [kind, x, y] of points) {
      const by = coverAt(c, x, y);
      if (by) problems.push({ kind, what: `card "${label}"`, where: where(c), by: typeof by === 'string' ? by : name(by) });
    }
  }

  // 2. Text: each line of visible text, sampled at its ends and middle.
  const walker = document.createTreeWalker(modal || app, NodeFilter.SHOW_TEXT);
  const lines = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    // A card's own marks are judged with the card (its corner and centre, above).
    if (!n.textContent.trim() || !p || !shown(p) || (!modal && skip(p)) || p.closest('select, option, noscript, script, style, .card') || clippedAway(p)) continue;
    const s = getComputedStyle(p);
    if (alpha(s.color) < 0.3 || Number(s.opacity) === 0) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const b of range.getClientRects()) if (b.width > 2 && b.height > 2) lines.push([n, p, b]);
  }
  for (const [n, p, b] of lines) {
    const text = n.textContent.trim().replace(/\s+/g, ' ').slice(0, 40);
    if (b.right > innerWidth + 1 || b.left < -1 || b.bottom > innerHeight + 1 || b.top < -1) {
      problems.push({ kind: 'text cut off', what: `text "${text}"`, where: where(p), by: 'the edge of the screen' });
      continue;
    }
    const y = b.top + b.height / 2;
    for (const x of [b.left + Math.min(3, b.width / 4), b.left + b.width / 2, b.right - Math.min(3, b.width / 4)]) {
      const by = coverAt(p, x, y);
      if (by) { problems.push({ kind: 'text covered', what: `text "${text}"`, where: where(p), by: typeof by === 'string' ? by : name(by) }); break; }
    }
  }

  // 3. Boxes whose text is cut off: an element that clips or scrolls its overflow, with
  // text inside, whose content is larger than its box.
  const boxes = new Set(lines.map(([, p]) => p));
  const clipping = new Set();
  for (const p of boxes) {
    for (let e = p; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible' || s.textOverflow === 'ellipsis') clipping.add(e);
    }
  }
  for (const e of clipping) {
    if (e === app || e === document.documentElement || !shown(e) || e.closest('.visually-hidden, #live')) continue;
    const s = getComputedStyle(e);
    if (clippedAway(e)) continue;
    const wide = e.scrollWidth > e.clientWidth + 1 && s.overflowX !== 'visible';
    const tall = e.scrollHeight > e.clientHeight + 1 && s.overflowY !== 'visible';
    if (wide || tall) {
      problems.push({ kind: 'text cut off', what: name(e), where: where(e),
        by: `its own box (${e.clientWidth} x ${e.clientHeight} px shows ${e.scrollWidth} x ${e.scrollHeight})` });
    }
  }

  // 4. The page scrolls (a modal dialog scrolls in itself: not counted).
  const page = document.scrollingElement;
  if (!modal && (page.scrollHeight > innerHeight + 1 || page.scrollWidth > innerWidth + 1)) {
    problems.push({ kind: 'page scroll', what: 'the page', where: `${page.scrollWidth} x ${page.scrollHeight} px`,
      by: `a ${innerWidth} x ${innerHeight} screen` });
  }

  for (const [e, value, priority] of unpointed) {
    if (value) e.style.setProperty('pointer-events', value, priority); else e.style.removeProperty('pointer-events');
  }
  return problems;
}"""


def problems(page) -> list[dict]:
    """Every problem a person would see on the page now (see AUDIT_JS)."""
    return page.evaluate(AUDIT_JS)


def describe(problem: dict) -> str:
    return f"{problem['kind']}: {problem['what']} {problem['where']}, under {problem['by']}"


# A step the player sees: their turn, the match over, or a hand's summary waiting for them
# ("Próxima mão" shown); or, at a pass-and-play table, the pass screen. Returns which.
STEP = """(before) => {
  const o = window.__truco.observation, app = document.getElementById('app');
  const next = document.getElementById('banner-next');
  if (!o) return false;
  if (next && !next.hidden && next.checkVisibility()) return 'summary';
  if (app.dataset.phase === 'pass' && document.getElementById('pass-dialog')?.open) return 'pass';
  if (window.__truco.busy) return false;
  if (before !== null && o.log.at(-1).n === before) return false;
  return app.dataset.phase === 'human' ? 'turn' : app.dataset.phase === 'over' ? 'over' : false;
}"""


def wait_step(page, before, timeout=90_000) -> str:
    handle = page.wait_for_function(STEP, arg=before, timeout=timeout)
    return handle.json_value()


def go_on(page, before) -> None:
    """After "Próxima mão": wait until the summary has gone, or another has come (a run from
    a mão de dez ends the next hand at once)."""
    page.wait_for_function("""(before) => document.getElementById('banner-next').hidden
                              || window.__truco.observation.log.at(-1).n !== before""", arg=before)


def last_n(page) -> int:
    return page.evaluate("window.__truco.observation ? window.__truco.observation.log.at(-1).n : -1")


def ask_dica(page) -> None:
    """The Dica's button, where it shows, and wait for its reason."""
    button = page.locator("#hint-button")
    if button.is_visible() and button.is_enabled():
        button.click()
        page.wait_for_function("() => !document.getElementById('hint-follow').hidden"
                               " || /\\S/.test(document.getElementById('hint-text').textContent)", timeout=30_000)


def audit_match(page, mode: str, hands: int, kinds=KINDS) -> tuple[list[dict], int]:
    """Start `mode` (MODES) and play `hands` hands, auditing each of the player's turns (before
    and after asking the Dica, where no raise waits for an answer) and each hand's summary;
    returns the problems of `kinds` found, each with the step it was seen at, and the number of
    steps."""
    settings, scenario = MODES[mode]
    page.evaluate("([s, c]) => window.__truco.start(s, c)", [settings, scenario])
    page.evaluate("window.scrollTo(0, 0)")
    found = []

    def on_step(label):
        if label.split()[2] == "turn" and page.locator("#actions button[data-action=accept]").count() == 0:
            found.extend({**p, "step": label} for p in problems(page) if p["kind"] in kinds)
            ask_dica(page)
            label += " + Dica"
        found.extend({**p, "step": label} for p in problems(page) if p["kind"] in kinds)

    found_steps = play_and_audit(page, hands, on_step)
    return found, found_steps


def play_and_audit(page, hands: int, on_step, max_steps: int = 80) -> int:
    """Play the started match (started with `auto_next: false`, so each hand's summary waits)
    for `hands` hands as a person would (accept a raise or a mão de dez, else play the first
    card it may), calling `on_step(label)` at each of the player's turns and each summary.
    Returns how many steps were checked."""
    steps = 0
    done = 0
    state = wait_step(page, None)
    for _ in range(max_steps):
        if state == "pass":  # pass-and-play: the next person takes the device
            page.locator("#pass-ready").click()
            page.wait_for_function("() => !document.getElementById('pass-dialog').open")
            state = wait_step(page, None)
            continue
        o = page.evaluate("window.__truco.observation")
        hand = o["hand_number"] - (1 if state == "summary" else 0)  # the summary's hand; the next one is dealt
        label = f"hand {hand} {state}" + (f" after {o['log'][-1]['type']}" if o["log"] else "")
        on_step(label)
        steps += 1
        if state == "over":
            break
        before = last_n(page)
        if state == "summary":
            done += 1
            if done >= hands:
                break
            page.locator("#banner-next").click()
            go_on(page, before)
            state = wait_step(page, None)
            continue
        accept = page.locator("#actions button[data-action=accept]")
        if accept.count():
            accept.click()
        else:
            page.locator("#hand .card.in-hand:not([disabled])").first.click()
        state = wait_step(page, before)
    return steps
