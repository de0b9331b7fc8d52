"""embed.html: a live mini-table for one scenario, framed by a page of another site (host
page on `localhost`, the game on `127.0.0.1`), reporting its height to that page; a deal of
one's own in the address; malformed addresses that show a clear message instead of a
broken table; and netlify.toml letting only embed.html be framed."""

from __future__ import annotations

import fnmatch
import http.server
import json
import re
import threading
import tomllib
from urllib.parse import parse_qs, quote, urlparse

import pytest
from playwright.sync_api import expect

from helpers import ROOT
from helpers.browser import ENGINE_TIMEOUT_MS, Traffic, new_page, until, watch_untouched, watched_page
from helpers.table import TABLE_PICTURE


HOST_PAGE = """<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Regras do truco</title><link rel="icon" href="data:,"></head>
<body style="margin:0;font-family:sans-serif">
<h1>Regras do Truco Mineiro</h1>
<p>Veja na mesa:</p>
<iframe id="game" src="{src}" title="Truco Mineiro" style="width:{width};height:200px;border:0"></iframe>
<p id="after">Fim.</p>
<script>
window.heights = [];
addEventListener("message", function (e) {{
  var d = e.data;
  if (!d || d.type !== "truco-embed:height") return;
  window.heights.push({{height: d.height, origin: e.origin, scenario: d.scenario}});
  var f = document.getElementById("game");
  if (f.contentWindow === e.source) f.style.height = d.height + "px";
}});
</script>
</body></html>
"""


class HostHandler(http.server.BaseHTTPRequestHandler):
    """The rules site: /host?src=URL&width=CSS gives a page that frames URL."""

    def do_GET(self):  # noqa: N802 (stdlib's name)
        url = urlparse(self.path)
        q = parse_qs(url.query)
        if url.path != "/host" or "src" not in q:
            self.send_error(404)
            return
        body = HOST_PAGE.format(src=q["src"][0].replace('"', "&quot;"), width=q.get("width", ["100%"])[0]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def host_site():
    """Another site: served on 127.0.0.1 but addressed as `localhost` (another origin)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), HostHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def host_url(host_site, src, width="100%"):
    return f"{host_site}/host?src={quote(src, safe='')}&width={quote(width)}"


def test_embed_works_framed_by_another_site_and_reports_its_height(browser, base_url, host_site):
    """Untouched, the frame shows the exercise's first position without the engine; the
    visitor's first move starts it and is played once it is up."""
    assert "127.0.0.1" in base_url
    with watched_page(browser, base_url, viewport={"width": 1000, "height": 900}) as page:
        page.goto(host_url(host_site, f"{base_url}/embed.html?scenario=manilhas-copas&fast=1"))
        assert page.evaluate("location.origin").startswith("http://localhost:")
        frame = page.frame_locator("#game")
        expect(frame.locator(".mt.my-turn")).to_be_visible()
        expect(frame.locator(".exercise-live")).to_have_attribute("data-state", "preview")
        expect(frame.locator("#embed-heading")).to_have_text("Ganhe da Espadilha")
        expect(frame.locator("#embed-prompt")).to_contain_text("Tonho jogou a Espadilha")
        # The visitor plays; the engine starts, judges; the lesson explains.
        frame.locator('.mt-hand button[data-card="7c"]').click()
        feedback = frame.locator(".ex-feedback")
        expect(feedback).to_have_attribute("data-verdict", "wrong", timeout=ENGINE_TIMEOUT_MS)
        expect(feedback).to_contain_text("O 7 de paus não é manilha")
        # "Tentar de novo" by the keyboard: once in CI the exercise never restarted after a
        # pointer click (in a frame its host resizes as the content grows); Enter rules out the
        # click's geometry, and the feedback hiding shows the restart began
        frame.locator(".ex-again").press("Enter")
        expect(feedback).to_be_hidden()  # the restart has begun
        # the exercise is dealt again by the engine (and its bots' moves replayed): on a busy
        # CI machine that has taken over 5 s
        expect(frame.locator(".mt.my-turn")).to_be_visible(timeout=30_000)
        frame.locator('.mt-hand button[data-card="7h"]').click()
        expect(feedback).to_have_attribute("data-verdict", "right")
        expect(feedback).to_contain_text("Copas")
        # Heights came from the game's origin, and the host page sized the frame with them.
        until(page, "window.heights.length > 0")
        until(page,
            "() => { const f = document.getElementById('game'); const h = window.heights.at(-1).height;"
            " return Math.abs(f.getBoundingClientRect().height - h) < 1 && h > 300; }")
        inner = page.frames[1]
        assert inner.url.startswith(base_url)
        # Once the layout settles, the last height reported is the content's height, and the frame
        # shows all of it (grown with the feedback: nothing hidden, no scrollbar inside).
        for _ in range(50):
            last = page.evaluate("window.heights.at(-1)")
            content = inner.evaluate("document.getElementById('embed').getBoundingClientRect().height")
            fits = inner.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
            if abs(content - last["height"]) <= 1 and fits:
                break
            page.wait_for_timeout(100)
        assert abs(content - last["height"]) <= 1 and fits, (content, last)
        assert last["origin"] == base_url.rstrip("/")
        assert last["scenario"] == "manilhas-copas"
        # A small link back to the game, opening outside the frame.
        link = frame.locator("#embed-link")
        expect(link).to_have_text("Jogar no Truco Mineiro")
        assert link.get_attribute("target") == "_blank"
        assert inner.evaluate("document.getElementById('embed-link').href") == f"{base_url}/index.html"
        # No site chrome in the frame.
        assert inner.evaluate("document.querySelector('.tut-top, .topbar, .tut-toc') === null")


def test_embed_fits_a_narrow_frame(browser, base_url, host_site):
    with watched_page(browser, base_url, viewport={"width": 400, "height": 800}) as page:
        page.goto(host_url(host_site, f"{base_url}/embed.html?scenario=rodadas-dupla&fast=1", width="320px"))
        frame = page.frame_locator("#game")
        expect(frame.locator(".mt.my-turn")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
        inner = page.frames[1]
        assert inner.evaluate("document.documentElement.scrollWidth") <= 320
        # Four seats on a 320 px frame: partner on top, opponents in the top corners.
        assert frame.locator(".mt-seat").count() == 3
        expect(frame.locator('.mt-seat[data-pos="top"] .mt-seat-name')).to_contain_text("Dito")


# Each seat's name and cards, at their centre, show themselves: nothing of the trick lies on them.
SEATS_COVERED = """() => [...document.querySelectorAll('.mt-seat-name, .mt-seat-cards .card')].filter((el) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(top && (el === top || el.contains(top)));
}).map((el) => el.closest('.mt-seat').dataset.pos + ': ' + (el.textContent || el.className))"""


@pytest.mark.parametrize("lang", ["", "en/"])
def test_embed_at_320px_four_seats_stay_clear_of_the_rounds_cards(browser, base_url, host_site, lang):
    """2 x 2 in a 320 px frame, second round: the cards of the round (and the earlier one under
    them) covered Tonho's name and cards at the right side of the felt."""
    with watched_page(browser, base_url, viewport={"width": 400, "height": 900}) as page:
        page.goto(host_url(host_site, f"{base_url}/{lang}embed.html?scenario=sinais-zap-do-parceiro&fast=1&engine=now", width="320px"))
        frame = page.frame_locator("#game")
        expect(frame.locator(".mt.my-turn")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
        inner = page.frames[1]
        assert inner.evaluate(SEATS_COVERED) == []
        frame.locator('.mt-hand button[data-card="5s"]').click()  # the first round; Dito's Zap wins it
        expect(frame.locator(".mt-played .card.earlier")).to_have_count(4, timeout=30_000)
        expect(frame.locator(".mt.my-turn")).to_be_visible(timeout=30_000)
        # the last card's deal-in animation has run (a finished CSS animation leaves the list)
        inner.wait_for_function("() => document.getAnimations().length === 0")
        assert inner.evaluate(SEATS_COVERED) == []
        expect(frame.locator('.mt-seat[data-pos="right"] .mt-seat-name')).to_contain_text("Tonho")
        # The three seats side by side at the top: no label runs into the next ("Leads" into "Dito").
        labels = frame.locator(".mt-seat-name")
        for i in range(labels.count()):
            assert labels.nth(i).evaluate("(p) => p.scrollWidth <= p.clientWidth + 1"), labels.nth(i).inner_text()
        boxes = [labels.nth(i).bounding_box() for i in range(labels.count())]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
                            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5), (a, b)
        assert inner.evaluate("document.documentElement.scrollWidth") <= 320



def embed_page(browser, base_url, width, height):
    """A page of its own at this size with its console watched: (context, page, watch)."""
    context, page = new_page(browser, base_url, viewport={"width": width, "height": height})
    watch = page.console_watch
    return context, page, watch


def test_embed_caption_is_the_title_and_the_prompt_says_what_to_do(browser, base_url):
    """A caption was shown twice, as the title and again as the line under it."""
    context, page, watch = embed_page(browser, base_url, 560, 800)
    page.goto("/embed.html?hands=4c.3h.Kd-7h.2s.Qc&score=10,10&ferro=claras&caption=M%C3%A3o+de+ferro&fast=1")
    expect(page.locator("#embed-heading")).to_have_text("Mão de ferro")
    expect(page.locator("#embed-prompt")).to_have_text("Jogue esta mão: você é quem está embaixo.")
    expect(page.locator(".mt.my-turn")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    context.close()
    watch.check()


def test_embed_plays_a_deal_given_in_the_address(browser, base_url):
    context, page, watch = embed_page(browser, base_url, 560, 800)
    page.goto("/embed.html?hands=4c.7h.3s-Kd.5c.6h&score=4,2&dealer=1&level=facil&seed=3&fast=1&engine=now"
              "&caption=Zap%20e%20Copas%3A%20d%C3%A1%20pra%20perder%3F")
    expect(page.locator("#embed-heading")).to_have_text("Zap e Copas: dá pra perder?")
    expect(page.locator(".mt.my-turn")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator('[data-testid="mt-score-us"]')).to_have_text("4")
    expect(page.locator('[data-testid="mt-score-them"]')).to_have_text("2")
    # Play the hand out: the strongest card each time; answer a raise by accepting.
    for _ in range(12):
        if page.locator(".ex-feedback:not([hidden])").count():
            break
        accept = page.locator('.mt-actions button[data-action="accept"]')
        if accept.count():
            accept.click()
        else:
            page.locator(".mt-hand button:not([disabled])").first.click()
        until(page,
            "() => document.querySelector('.mt.my-turn') || !document.querySelector('.ex-feedback').hidden")
    feedback = page.locator(".ex-feedback")
    expect(feedback).to_have_attribute("data-verdict", "done")
    expect(feedback).to_contain_text("Você ganhou a mão")
    expect(page.locator(".ex-again")).to_be_visible()
    context.close()
    watch.check()


MALFORMED = [
    ("", "Falta o cenário"),
    ("?scenario=nao-existe", 'Não existe o exercício "nao-existe".'),
    ("?scenario=%3Cscript%3E", 'Não existe o exercício "<script>".'),
    ("?hands=4c.7h-3c.2h.Kd", "hands deve ter 2 mãos de 3 cartas"),
    ("?hands=4c.7h.As-3c.2h.XX", '"XX" não é uma carta'),
    ("?hands=4c.7h.As-4c.2h.Kd", "A carta 4c aparece duas vezes."),
    ("?hands=4c.7h.As-3c.2h.Kd&score=dez", "score deve ser o placar"),
    ("?hands=4c.7h.As-3c.2h.Kd&preset=gaucho", 'Regras desconhecidas: "gaucho"'),
    ("?hands=4c.7h.As-3c.2h.Kd&players=4", "hands deve ter 4 mãos"),
    ("?hands=4c.7h.As-3c.2h.Kd&dealer=5", "dealer deve ser um lugar da mesa, de 0 a 1."),
    ("?hands=4c.7h.As-3c.2h.Kd&level=impossivel", "level deve ser"),
    ("?hands=4c.7h.As-3c.2h.Kd&cards=1", 'Parâmetro desconhecido: "cards".'),
    ("?hands=4c.7h.As-3c.2h.Kd&engine=later", "engine só aceita now"),
]


@pytest.fixture(scope="module")
def plain(browser, base_url):
    context, page, watch = embed_page(browser, base_url, 560, 700)
    page.console_watch = watch
    yield page
    context.close()
    watch.check()


@pytest.mark.parametrize("query, message", MALFORMED, ids=[q or "empty" for q, _ in MALFORMED])
def test_a_malformed_address_says_what_is_wrong(plain, query, message):
    page = plain
    page.goto(f"/embed.html{query}")
    error = page.locator("#embed-error")
    expect(error).to_be_visible()
    assert error.get_attribute("role") == "alert"
    expect(error).to_contain_text("Não deu para montar esta mesa.")
    expect(error).to_contain_text(message)
    expect(page.locator("#embed-host")).to_be_hidden()
    assert page.locator(".mt-hand button").count() == 0


@pytest.mark.parametrize("query, detail", [
    ("?hands=4c.7h.As-3c.2h.Kd&score=10,3", "multiple of 2"),
    ("?hands=4c.7h.As-3c.2h.Kd&score=12,0", "already ends the game"),
    ("?hands=4c.7h.As-3c.2h.Kd&vira=Qd", "has no vira"),
])
def test_a_deal_the_engine_refuses_says_so(plain, query, detail):
    page = plain
    page.goto(f"/embed.html{query}&engine=now")
    error = page.locator("#embed-error")
    expect(error).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    expect(error).to_contain_text("O jogo recusou este cenário")
    expect(error.locator(".embed-error-detail code")).to_contain_text(detail)
    expect(page.locator("#embed-host")).to_be_hidden()


def test_paulista_deal_with_a_vira_is_accepted(plain):
    page = plain
    page.goto("/embed.html?hands=5c.2h.Kd-3c.6h.Jd&preset=paulista&vira=4d&fast=1&engine=now")
    expect(page.locator(".mt.my-turn")).to_be_visible(timeout=ENGINE_TIMEOUT_MS)
    # With the vira 4, the fives are the manilhas (the engine says so on the cards).
    expect(page.locator('.mt-hand button[data-card="5c"]')).to_have_class(__import__("re").compile(r"\bmanilha\b"))


# ---------------------------------------------------------------- deploy headers

def _rules():
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    return config.get("headers", [])


def _matching(path):
    return [r for r in _rules() if fnmatch.fnmatchcase(path, r["for"])]


def _frame_policy(rule):
    values = {k.lower(): v for k, v in rule.get("values", {}).items()}
    csp = values.get("content-security-policy", "")
    ancestors = next((d.strip().split()[1:] for d in csp.split(";") if d.strip().startswith("frame-ancestors")), None)
    return ancestors, values.get("x-frame-options")


def test_netlify_lets_only_the_embed_be_framed(dist_dir):
    pages = sorted(p.name for p in dist_dir.glob("*.html"))
    assert "embed.html" in pages and "tutorial.html" in pages
    for name in pages:
        # The page in every language (Portuguese at the root, /es/, /en/).
        paths = [p for d in ("", "es/", "en/")
                 for p in [f"/{d}{name}", f"/{d}{name[:-5]}"] + ([f"/{d}"] if name == "index.html" else [])]
        for path in paths:
            policies = [_frame_policy(r) for r in _matching(path)]
            if name == "embed.html":
                # Nothing that matches the embed may refuse framing (Netlify merges matching rules).
                for ancestors, xfo in policies:
                    assert xfo is None, f"{path}: X-Frame-Options {xfo}"
                    assert ancestors in (None, ["*"]), f"{path}: frame-ancestors {ancestors}"
                assert any(a == ["*"] for a, _ in policies), f"{path}: say frame-ancestors * deliberately"
            else:
                assert any(a == ["'none'"] for a, _ in policies), f"{path}: must refuse framing"
                assert any(x == "DENY" for _, x in policies), f"{path}: X-Frame-Options DENY for old browsers"


# ---------------------------------------------------------------- the engine waits for a touch

@pytest.mark.parametrize("path", [
    "/embed.html?scenario=manilhas-copas",
    "/embed.html?hands=4c.7h.3s-Kd.5c.6h&score=4,2&dealer=1&caption=Zap",
    "/en/embed.html?scenario=sinais-zap-do-parceiro",
])
def test_an_untouched_embed_draws_its_table_and_downloads_no_engine(browser, base_url, path):
    context, page, watch = embed_page(browser, base_url, 560, 800)
    traffic = Traffic(context)
    page.goto(path)
    table = page.locator(".mt")
    expect(table).to_have_class(re.compile(r"\bmy-turn\b"))
    expect(table.locator(".mt-hand button:not([disabled])")).to_have_count(3)
    expect(table.locator(".mt-seat .card.back").first).to_be_visible()
    watch_untouched(page, traffic)
    expect(page.locator(".ex-loading")).to_be_hidden()
    context.close()
    watch.check()


def test_the_first_position_drawn_untouched_is_the_engines(browser, base_url):
    """The table drawn from the page's data before the engine is the table the engine deals
    (a covered card, a pending truco with its bubble, a mão de dez, a dark mão de ferro, a vira
    and four seats: tests/browser/test_tutorial.py compares every exercise)."""
    context, page, watch = embed_page(browser, base_url, 560, 800)
    for scenario in ["coberta-vale-nada", "truco-correr"]:
        page.goto(f"/embed.html?scenario={scenario}&fast=1")
        expect(page.locator(".exercise-live")).to_have_attribute("data-state", "preview")
        drawn = page.locator(".mt").evaluate(TABLE_PICTURE)
        page.goto(f"/embed.html?scenario={scenario}&fast=1&engine=now")
        expect(page.locator(".exercise-live")).to_have_attribute("data-state", "playing", timeout=ENGINE_TIMEOUT_MS)
        expect(page.locator(".mt.my-turn")).to_be_visible()
        assert page.locator(".mt").evaluate(TABLE_PICTURE) == drawn, scenario
    context.close()
    watch.check()


def test_engine_now_starts_the_engine_with_the_page(browser, base_url):
    context, page, watch = embed_page(browser, base_url, 560, 800)
    traffic = Traffic(context)
    page.goto("/embed.html?scenario=manilhas-copas&fast=1&engine=now")
    until(page, "() => document.documentElement.dataset.engine === 'ready'", timeout=ENGINE_TIMEOUT_MS)
    assert any("/static/js/engine/worker.js" in u for u in traffic.engine_files())
    expect(page.locator(".exercise-live")).to_have_attribute("data-state", "playing")
    expect(page.locator(".ex-loading")).to_be_hidden()
    page.locator('.mt-hand button[data-card="7h"]').click()
    expect(page.locator(".ex-feedback")).to_have_attribute("data-verdict", "right")
    context.close()
    watch.check()


def test_a_card_of_the_address_touched_before_the_engine_is_played_once_it_is_up(browser, base_url):
    """A deal of the address: only its cards are drawn (the others' backs; no value, no turn
    worked out on the page); the card touched waits with the loading progress, then is played."""
    context, page, watch = embed_page(browser, base_url, 560, 800)
    page.goto("/embed.html?hands=4c.7h.3s-Kd.5c.6h&score=4,2&level=facil&seed=3&fast=1")
    table = page.locator(".mt")
    expect(table.locator('[data-testid="mt-score-us"]')).to_have_text("4")
    expect(table.locator(".mt-value")).to_be_hidden()  # the hand's value is the engine's to say
    expect(table.locator(".mt-seat .card.back")).to_have_count(3)
    expect(table.locator(".mt-prompt")).to_have_text("Toque numa carta para jogar.")
    assert page.evaluate("document.documentElement.dataset.engine") == "idle"
    table.locator('.mt-hand button[data-card="3s"]').click()
    loading = page.locator(".ex-loading")
    expect(loading).to_be_visible()
    expect(loading).to_contain_text("Sua jogada sai assim que ele estiver pronto.")
    expect(loading.locator('[role="progressbar"]')).to_have_attribute("aria-valuenow", re.compile(r"^\d+$"))
    expect(table.locator('.mt-hand button[data-card="3s"]')).to_be_disabled()  # the controls wait
    # Once the engine is up, the 3 of spades is on the felt in front of the visitor.
    mine = table.locator('.mt-played[data-seat="0"] .card')
    expect(mine.first).to_have_attribute("aria-label", re.compile(r"^3 de espadas"), timeout=ENGINE_TIMEOUT_MS)
    expect(loading).to_be_hidden()
    expect(table.locator(".mt-value")).to_be_visible()
    context.close()
    watch.check()


def _scenarios(dist_dir, lang=""):
    html = (dist_dir / lang / "embed.html").read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="scenarios">(.*?)</script>', html, re.S).group(1)
    return json.loads(block)["exercises"]


def test_no_hidden_card_is_drawn_before_the_engine(browser, base_url, dist_dir):
    """Every scenario untouched: no card of another seat's hand that seat 0 has not seen is
    named anywhere on the table (the page's data holds the same view: tests/build/test_lessons.py)."""
    scenarios = _scenarios(dist_dir)
    context, page, watch = embed_page(browser, base_url, 560, 800)
    for name, ex in scenarios.items():
        obs = ex["first"]["obs"]
        seen = {p["card"] for r in obs["rounds"] for p in r["plays"] if not p["covered"]}
        seen |= {c for v in obs["visible_hands"] for c in v["cards"]}
        hidden = sorted({c for h in ex["hands"][1:] for c in h} - seen)
        page.goto(f"/embed.html?scenario={name}")
        expect(page.locator(".exercise-live")).to_have_attribute("data-state", "preview")
        named = page.evaluate("""async (cards) => {
            const { cardName } = await import('./static/js/shared/cards.js');
            const html = document.querySelector('.mt').outerHTML;
            return cards.filter((c) => html.includes(cardName(c)) || html.includes(`data-card="${c}"`));
          }""", hidden)
        assert named == [], f"{name}: hidden cards on the table: {named}"
        # The seats show as many backs as they hold cards.
        sizes = ex["first"]["obs"]["hand_sizes"]
        for seat in range(1, len(sizes)):
            expect(page.locator(f'.mt-seat[data-seat="{seat}"] .mt-seat-cards .card.back')).to_have_count(sizes[seat])
    context.close()
    watch.check()
