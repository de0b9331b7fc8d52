"""The marcador (score counter for games played with real cards) end to end in Chromium:
a whole series tapped through at phone size, undo across games, the values of every preset
against the engine's, mão de dez / de ferro, reload, corrupt saves, keyboard only, offline,
wake lock, and that it never touches Pyodide.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from helpers.browser import QUOTA_STORAGE, ConsoleWatch, watched_page

import truco

KEY = "truco:marcador"
OLD_BACKUP_KEY = "truco:marcador:backup"  # where earlier versions kept one set-aside score
BACKUP_KEY = "truco:backup"  # the shared list of set-aside data, the table's too
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
PRESETS = ["mineiro", "truco473", "torneio", "paulista"]


# --- helpers ---------------------------------------------------------------------------

def backed_up(page) -> list[str]:
    """The scores set aside in the shared backup list."""
    text = page.evaluate(f"() => localStorage.getItem({json.dumps(BACKUP_KEY)})")
    if text is None:
        return []
    return [i["raw"] for i in json.loads(text)["data"]["items"] if i["from"] == KEY]


def open_marcador(page, path="/marcador.html"):
    page.goto(path)
    page.wait_for_selector("#marcador[data-ready=true]")


def button(page, team, pts, kind="hand"):
    return page.locator(f"#buttons-{team} button[data-kind='{kind}'][data-pts='{pts}']")


def tap(page, team, pts, kind="hand", touch=False):
    b = button(page, team, pts, kind)
    expect(b).to_have_count(1)
    b.tap() if touch else b.click()


def scores(page):
    return [int(page.text_content(f"#points-{team}")) for team in (0, 1)]


def offers(page, team):
    return page.eval_on_selector_all(
        f"#buttons-{team} button", "bs => bs.map(b => [b.dataset.kind, Number(b.dataset.pts)])")


def saved(page):
    raw = page.evaluate(f"localStorage.getItem({json.dumps(KEY)})")
    return json.loads(raw) if raw is not None else None


def choose_rules(page, preset=None, series=None, touch=False):
    """Switch preset / series through the settings dialog, as a user does."""
    act = (lambda loc: loc.tap()) if touch else (lambda loc: loc.click())
    act(page.locator("#rules-button"))
    expect(page.locator("#settings")).to_be_visible()
    if preset:
        act(page.locator(f"#settings input[name=preset][value={preset}]"))
    if series:
        act(page.locator(f"#settings input[name=series][value='{series}']"))
    act(page.locator("#settings-start"))
    expect(page.locator("#settings")).to_be_hidden()


def engine_values(name):
    r = truco.preset(name)
    return {
        "normal": [["hand", r.start_value]] + [["hand", s.value] for s in r.ladder],
        "x": r.mao_de_x,
        "dez": r.mao_de_x_value,
        "run": r.mao_de_x_run_gives,
        "ferro": r.ferro_value,
        "target": r.target,
        "start": r.start_value,
        "tentos": r.tentos,
        "blind": r.ferro_blind,
    }


@pytest.fixture
def phone(browser, base_url):
    """A phone-sized touch page with its own console watch."""
    with watched_page(browser, base_url, **PHONE) as page:
        yield page


@pytest.fixture
def requests_seen(page):
    urls = []
    page.on("request", lambda req: urls.append(req.url))
    return urls


# --- tests -----------------------------------------------------------------------------

def test_whole_series_at_phone_size_with_undo_across_a_game_boundary(phone, base_url):
    page = phone
    open_marcador(page)
    # Fits the phone: nothing sideways, the score and every button of both teams on screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for team in (0, 1):
        for b in page.locator(f"#buttons-{team} button").all():
            box = b.bounding_box()
            assert box["height"] >= 48 and box["width"] >= 120
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    expect(page.locator("#undo")).to_be_in_viewport()

    choose_rules(page, series=3, touch=True)
    expect(page.locator("#status")).to_contain_text("Melhor de 3")
    expect(page.locator("#pips-0 li")).to_have_count(2)

    # Game 1: Nós win 12 x 6 (2 + 4 truco + 6 seis; Eles 2 + 4; then mão de dez).
    for team, pts in [(0, 2), (1, 4), (0, 4), (1, 2), (0, 4)]:
        tap(page, team, pts, touch=True)
    assert scores(page) == [10, 6]
    expect(page.locator("#badge-0")).to_have_text("Mão de dez")
    tap(page, 0, 4, "dez", touch=True)
    assert scores(page) == [14, 6]  # 10 + 4: the score is kept as it is
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-title")).to_have_text("Fim do jogo 1!")
    expect(page.locator("#over-result")).to_contain_text("Nós 14 × 6 Eles")
    expect(page.locator("#buttons-0 button")).to_have_count(0)
    expect(page.locator("#next")).to_have_text("Próximo jogo")
    page.locator("#next").tap()

    # Game 2 started; undo goes back across the boundary, then back into game 1.
    expect(page.locator("#status")).to_contain_text("Jogo 2")
    assert scores(page) == [0, 0]
    expect(page.locator("#pips-0 li.on")).to_have_count(1)
    expect(page.locator("#undo-what")).to_have_text("o novo jogo")
    page.locator("#undo").tap()
    expect(page.locator("#status")).to_contain_text("Jogo 1")
    assert scores(page) == [14, 6]
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#undo-what")).to_have_text("Nós +4 (mão de dez)")
    page.locator("#undo").tap()
    assert scores(page) == [10, 6]
    expect(page.locator("#over")).to_be_hidden()
    expect(page.locator("#pips-0 li.on")).to_have_count(0)
    # This time they run from the mão de dez: the other side scores 2.
    assert offers(page, 1) == [["dez", 4], ["dez_run", 2]]
    tap(page, 1, 2, "dez_run", touch=True)
    assert scores(page) == [10, 8]
    tap(page, 0, 4, "dez", touch=True)
    assert scores(page) == [14, 8]
    page.locator("#next").tap()

    # Game 2: Eles win with a doze.
    tap(page, 1, 12, touch=True)
    expect(page.locator("#over-result")).to_contain_text("Eles 12 × 0 Nós")
    expect(page.locator("#over-series")).to_contain_text("Melhor de 3: Nós 1 × 1 Eles")
    expect(page.locator("#next")).to_have_text("Próximo jogo")
    page.locator("#next").tap()

    # Game 3: history of the hands, a correction, and the series' end.
    tap(page, 0, 6, touch=True)
    tap(page, 1, 2, touch=True)
    page.locator("#fix-1").tap()  # the 2 was a mistake
    assert scores(page) == [6, 0]
    expect(page.locator("#fix-1")).to_be_disabled()
    hands = page.locator("#hands li")
    expect(hands).to_have_count(3)
    expect(hands.nth(0)).to_contain_text("Correção")
    expect(hands.nth(2)).to_contain_text("Mão 1")
    expect(hands.nth(2)).to_contain_text("Nós +6")
    expect(hands.nth(2)).to_contain_text("seis")
    tap(page, 0, 6, touch=True)
    assert scores(page) == [12, 0]
    expect(page.locator("#over-title")).to_have_text("Fim da partida!")
    expect(page.locator("#over-series")).to_contain_text("Nós 2 × 1 Eles")
    games = page.locator("#games > li")
    expect(games).to_have_count(3)
    # A finished game opens to show its hands.
    games.nth(1).locator("summary").tap()
    expect(games.nth(1).locator(".mc-hand")).to_have_count(1)
    expect(games.nth(1).locator(".mc-hand")).to_contain_text("Eles +12")
    expect(page.locator("#next")).to_have_text("Nova partida")
    page.locator("#next").tap()

    # The next series: 0 x 0, game 1, one queda counted for Nós.
    assert scores(page) == [0, 0]
    expect(page.locator("#status")).to_contain_text("Jogo 1")
    expect(page.locator("#status-tally")).to_contain_text("Quedas: Nós 1 × 0 Eles")
    expect(page.locator("#pips-0 li.on")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("name", PRESETS)
def test_values_offered_are_the_engines(page, console_errors, name):
    v = engine_values(name)
    open_marcador(page)
    choose_rules(page, preset=name)
    expect(page.locator("#status-rules")).to_have_text(truco.preset(name).title)
    assert offers(page, 0) == v["normal"]
    assert offers(page, 1) == v["normal"]
    expect(page.locator("#fix-0")).to_contain_text(f"−{v['start']}")
    for step in truco.preset(name).ladder:
        assert step.name in page.text_content("#reminder").lower()
    expect(page.locator("#tentos-0")).to_be_visible() if v["tentos"] else expect(page.locator("#tentos-0")).to_be_hidden()

    # Eles to X minus the mão de X value, then Nós to X: mão de X for Nós.
    start = v["start"]
    for _ in range((v["x"] - v["dez"]) // start):
        tap(page, 1, start)
    for _ in range(v["x"] // start):
        tap(page, 0, start)
    assert scores(page) == [v["x"], v["x"] - v["dez"]]
    assert offers(page, 0) == [["dez", v["dez"]]]
    assert offers(page, 1) == [["dez", v["dez"]], ["dez_run", v["run"]]]
    if v["tentos"]:
        expect(page.locator("#tentos-0")).to_have_text(f"{v['x'] // 2} tentos")

    # Eles win the mão de X: both at X, mão de ferro.
    tap(page, 1, v["dez"], "dez")
    assert scores(page) == [v["x"], v["x"]]
    assert offers(page, 0) == offers(page, 1) == [["ferro", v["ferro"]]]
    expect(page.locator("#reminder")).to_contain_text(f"vale {v['ferro']}")
    expect(page.locator("#reminder")).to_contain_text("No escuro" if v["blind"] else "Às claras")
    tap(page, 0, v["ferro"], "ferro")
    assert scores(page)[0] >= v["target"]
    expect(page.locator("#over")).to_be_visible()


def test_mao_de_dez_and_ferro_reminders(page, console_errors):
    open_marcador(page)
    expect(page.locator("#reminder")).to_have_text(
        "A mão vale 2; truco 4, seis 6, dez 10, doze 12. Jogo a 12.")
    tap(page, 1, 6)
    tap(page, 1, 4)
    expect(page.locator("#marcador")).to_have_attribute("data-phase", "dez")
    expect(page.locator("#badge-1")).to_have_text("Mão de dez")
    expect(page.locator("#badge-0")).to_be_hidden()
    expect(page.locator("#reminder")).to_have_text(
        "Mão de dez (Eles): quem está com dez olha as cartas (e as do parceiro) e decide — "
        "joga valendo 4 ou corre e o outro lado ganha 2. Sem truco.")
    expect(page.locator("#team-1")).to_have_class(re.compile(r"\bat-x\b"))
    assert offers(page, 0) == [["dez", 4], ["dez_run", 2]]
    assert offers(page, 1) == [["dez", 4]]
    tap(page, 0, 2, "dez_run")  # 2 x 10: still a mão de dez for Eles
    tap(page, 0, 4, "dez")      # 6 x 10
    tap(page, 0, 4, "dez")      # 10 x 10
    expect(page.locator("#marcador")).to_have_attribute("data-phase", "ferro")
    expect(page.locator("#badge-0")).to_have_text("Mão de ferro")
    expect(page.locator("#badge-1")).to_have_text("Mão de ferro")
    expect(page.locator("#reminder")).to_have_text(
        "Mão de ferro, 10 a 10: vale 2, sem truco, quem ganhar fecha o jogo. "
        "No escuro: ninguém vê as próprias cartas.")
    # A correction leaves the mão de ferro.
    page.locator("#fix-0").click()
    assert scores(page) == [8, 10]
    expect(page.locator("#badge-1")).to_have_text("Mão de dez")
    expect(page.locator("#badge-0")).to_be_hidden()

    # Paulista: mão de onze.
    choose_rules(page, preset="paulista")
    tap(page, 0, 9)
    tap(page, 0, 1)
    tap(page, 0, 1)
    expect(page.locator("#badge-0")).to_have_text("Mão de onze")
    expect(page.locator("#reminder")).to_contain_text("Mão de onze (Nós)")
    expect(page.locator("#reminder")).to_contain_text("joga valendo 3 ou corre e o outro lado ganha 1")


def test_reload_keeps_the_state(page, console_errors):
    open_marcador(page)
    choose_rules(page, preset="torneio", series=5)
    page.fill("#name-0", "  Zé   e Tonho ")
    page.keyboard.press("Enter")
    tap(page, 0, 4)
    tap(page, 1, 8)
    tap(page, 0, 2)
    env = saved(page)
    assert env["v"] == 1
    assert env["data"]["names"] == ["Zé e Tonho", ""]
    assert env["data"]["log"][-1] == {"t": "pts", "team": 0, "kind": "hand", "pts": 2}

    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    assert scores(page) == [6, 8]
    expect(page.locator("#name-0")).to_have_value("Zé e Tonho")
    expect(page.locator("#name-1")).to_have_value("")
    expect(page.locator("#name-1")).to_have_attribute("placeholder", "Eles")
    expect(page.locator("#tentos-0")).to_have_text("3 tentos")
    expect(page.locator("#tentos-1")).to_have_text("4 tentos")
    expect(page.locator("#status")).to_contain_text("Torneio")
    expect(page.locator("#status")).to_contain_text("Melhor de 5")
    expect(page.locator("#hands li")).to_have_count(3)
    expect(page.locator("#hands li").first).to_contain_text("Zé e Tonho +2")
    # Undo reaches back past the reload, down to the empty board and no further.
    for _ in range(3):
        page.locator("#undo").click()
    assert scores(page) == [0, 0]
    expect(page.locator("#undo-what")).to_have_text("o placar novo")
    page.locator("#undo").click()  # back to the mineiro board, 1 game
    expect(page.locator("#status")).to_contain_text("Truco Mineiro")
    expect(page.locator("#undo")).to_be_disabled()
    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    expect(page.locator("#status")).to_contain_text("Truco Mineiro")
    expect(page.locator("#name-0")).to_have_value("Zé e Tonho")  # names are not undone


def test_two_tabs_stay_in_step(page, console_errors):
    open_marcador(page)
    other = page.context.new_page()
    watch = ConsoleWatch()
    watch.watch(other)
    open_marcador(other)
    tap(page, 0, 4)
    expect(other.locator("#points-0")).to_have_text("4")
    tap(other, 1, 2)
    expect(page.locator("#points-1")).to_have_text("2")
    expect(page.locator("#undo-what")).to_have_text("Eles +2 (simples)")
    watch.check()


def test_winner_is_announced(page, console_errors):
    open_marcador(page)
    tap(page, 1, 12)
    expect(page.locator("#live")).to_have_text("Eles +12. 0 a 12. Fim do jogo 1! Eles 12 × 0 Nós.")


CORRUPT = {
    "not JSON": "{oops",
    "not an envelope": json.dumps([1, 2, 3]),
    "future version": json.dumps({"v": 99, "savedAt": 0, "data": {}}),
    "impossible score": json.dumps({"v": 1, "savedAt": 0, "data": {
        "names": ["", ""], "log": [{"t": "new", "preset": "mineiro", "series": 1},
                                   {"t": "pts", "team": 0, "kind": "hand", "pts": 3}]}}),
    "unknown preset": json.dumps({"v": 1, "savedAt": 0, "data": {
        "names": ["", ""], "log": [{"t": "new", "preset": "sueca", "series": 1}]}}),
    "bad names": json.dumps({"v": 1, "savedAt": 0, "data": {
        "names": [{"x": 1}, ""], "log": [{"t": "new", "preset": "mineiro", "series": 1}]}}),
    "next before the end": json.dumps({"v": 1, "savedAt": 0, "data": {
        "names": ["", ""], "log": [{"t": "new", "preset": "mineiro", "series": 3}, {"t": "next"}]}}),
}


@pytest.mark.parametrize("raw", list(CORRUPT.values()), ids=list(CORRUPT))
def test_corrupt_save_is_reported_and_set_aside(page, console_errors, raw):
    open_marcador(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, raw])
    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_contain_text("O placar salvo não pôde ser aberto (estava corrompido)")
    expect(page.locator("#notice-download")).to_have_text("Baixar o placar salvo")
    assert raw in backed_up(page)
    # A fresh board replaced it, and the page works.
    assert saved(page)["data"]["log"] == [{"t": "new", "preset": "mineiro", "series": 1}]
    assert scores(page) == [0, 0]
    tap(page, 0, 4)
    assert scores(page) == [4, 0]
    page.locator("#notice-close").click()
    expect(notice).to_be_hidden()
    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    expect(notice).to_be_hidden()
    assert scores(page) == [4, 0]


def test_a_second_corrupt_save_does_not_overwrite_the_first_backup(page, console_errors):
    open_marcador(page)
    first, second = CORRUPT["not JSON"], CORRUPT["unknown preset"]
    for raw in (first, second):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, raw])
        page.reload()
        page.wait_for_selector("#marcador[data-ready=true]")
        expect(page.locator("#notice")).to_be_visible()
    assert backed_up(page) == [first, second]


def test_an_earlier_versions_backup_joins_the_shared_list(page, console_errors):
    open_marcador(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [OLD_BACKUP_KEY, "old score"])
    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    assert backed_up(page) == ["old score"]
    assert page.evaluate(f"() => localStorage.getItem({json.dumps(OLD_BACKUP_KEY)})") is None




def test_a_corrupt_save_is_kept_when_storage_is_too_full_for_its_backup(page, console_errors):
    page.add_init_script(QUOTA_STORAGE)
    open_marcador(page)
    # Quotes: its copy in the backup list (JSON-escaped) needs more room than it frees.
    raw = CORRUPT["not JSON"] + " " + '"' * 2000
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, raw])
    # Room for what is stored now and a little more, not for a second copy of the score.
    used = page.evaluate("""() => { let n = 0; for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i); n += k.length + localStorage.getItem(k).length; } return n; }""")
    page.evaluate("(n) => sessionStorage.setItem('quota', String(n))", used + 200)
    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("ficou onde estava")
    # The page works in memory and never writes over the unreadable save.
    tap(page, 0, 4)
    assert scores(page) == [4, 0]
    assert page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})") == raw
    assert backed_up(page) == []
    # Once there is room, the next visit sets it aside as usual.
    page.evaluate("() => sessionStorage.removeItem('quota')")
    page.reload()
    page.wait_for_selector("#marcador[data-ready=true]")
    expect(notice).to_contain_text("guardado à parte")
    assert backed_up(page) == [raw]


def test_keyboard_only(page, console_errors):
    open_marcador(page)

    def tab_order(n):
        ids = []
        for _ in range(n):
            page.keyboard.press("Tab")
            ids.append(page.evaluate(
                "(() => { const e = document.activeElement;"
                " return e.dataset.pts ? `${e.parentElement.id}:${e.dataset.pts}`"
                "      : e.dataset.lang ? `lang:${e.dataset.lang}` : e.id; })()"))
        return ids

    team = lambda n: [f"name-{n}"] + [f"buttons-{n}:{v}" for v in (2, 4, 6, 10, 12)]
    # Header (back, the language switch, the rules), then each team (its name, its buttons);
    # the correction and undo are disabled.
    langs = ["lang:pt-BR", "lang:es", "lang:en"]
    assert tab_order(17) == ["back", *langs, "rules-button", *team(0), *team(1)]
    page.locator("#buttons-1 button").first.click()
    page.locator("#back").focus()
    assert tab_order(18) == [*langs, "rules-button", *team(0), *team(1), "fix-1", "undo"]
    page.keyboard.press("Control+z")
    assert scores(page) == [0, 0]

    # The focus ring is visible on every kind of control.
    page.locator("#buttons-0 button").first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    style = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); "
                          "return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()")
    assert style[0] != "none" and style[1] >= 2

    # Score with Enter and Space; the focus stays on the button.
    page.keyboard.press("Enter")  # +2
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # +4
    assert scores(page) == [6, 0]
    assert page.evaluate("document.activeElement.dataset.pts") == "4"
    # Ctrl+Z undoes.
    page.keyboard.press("Control+z")
    assert scores(page) == [2, 0]
    # Mão de dez changes the buttons: the focus moves to the new first button of that team.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")  # +2 -> 4
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")    # +6 -> 10
    page.keyboard.press("Enter")
    assert scores(page) == [10, 0]
    assert page.evaluate("document.activeElement.dataset.kind") == "dez"
    page.keyboard.press("Enter")  # +4 -> 14: the game ends, focus on "Próximo jogo"
    assert page.evaluate("document.activeElement.id") == "next"
    page.keyboard.press("Enter")
    assert scores(page) == [0, 0]
    assert page.evaluate("document.activeElement.closest('#buttons-0') !== null")

    # Rename by keyboard: Enter keeps, Escape goes back.
    page.locator("#name-1").focus()
    page.keyboard.type("Visitantes")
    page.keyboard.press("Enter")
    expect(page.locator("#team-1")).to_have_attribute("aria-label", "Visitantes")
    page.locator("#name-1").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("Outro nome")
    page.keyboard.press("Escape")
    expect(page.locator("#name-1")).to_have_value("Visitantes")
    assert saved(page)["data"]["names"] == ["", "Visitantes"]

    # The rules dialog: open, pick with arrows, apply; Escape closes without change.
    page.locator("#rules-button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#settings")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()
    page.keyboard.press("Enter")
    page.locator("#settings input[name=preset]:checked").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # paulista
    page.locator("#settings-start").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#status-rules")).to_have_text("Truco Paulista")
    assert offers(page, 0)[0] == ["hand", 1]
    assert page.evaluate("document.activeElement.id") == "rules-button"


def test_never_loads_pyodide_and_works_offline(page, console_errors, requests_seen, base_url):
    open_marcador(page)
    tap(page, 0, 2)
    page.context.set_offline(True)
    tap(page, 1, 4)
    tap(page, 0, 6)
    assert scores(page) == [8, 4]
    assert saved(page)["data"]["log"][-1]["pts"] == 6
    page.context.set_offline(False)
    assert requests_seen, "no request seen at all"
    for url in requests_seen:
        assert url.startswith(base_url), f"other origin: {url}"
        assert not re.search(r"pyodide|worker|engine|\.whl|\.wasm", url), f"engine file requested: {url}"
    assert page.evaluate("typeof window.loadPyodide") == "undefined"


WAKE_LOCK_FAKE = """
(() => {
  window.__wake = { requests: 0, released: 0, last: null };
  class Sentinel extends EventTarget {
    constructor() { super(); this.released = false; this.type = "screen"; }
    async release() {
      if (this.released) return;
      this.released = true;
      window.__wake.released += 1;
      this.dispatchEvent(new Event("release"));
    }
  }
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
    async request(type) {
      window.__wake.requests += 1;
      return (window.__wake.last = new Sentinel());
    },
  }});
})();
"""


def test_wake_lock_is_held_and_asked_again_when_visible(page, console_errors):
    page.context.add_init_script(WAKE_LOCK_FAKE)
    open_marcador(page)
    page.wait_for_function("() => window.__wake.requests === 1")
    expect(page.locator("#wake")).to_be_visible()
    # The browser drops the lock when the page is hidden; coming back asks for it again.
    page.evaluate("window.__wake.last.release()")
    expect(page.locator("#wake")).to_be_hidden()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => window.__wake.requests === 2")
    expect(page.locator("#wake")).to_be_visible()
    # A held lock is not asked for twice.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    tap(page, 0, 2)
    assert page.evaluate("window.__wake.requests") == 2


def test_no_wake_lock_api_no_error(page, console_errors):
    page.context.add_init_script("delete Navigator.prototype.wakeLock;")
    open_marcador(page)
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.locator("#wake")).to_be_hidden()
    tap(page, 0, 2)
    assert scores(page) == [2, 0]


def test_refused_wake_lock_no_error(page, console_errors):
    page.context.add_init_script("""Object.defineProperty(navigator, 'wakeLock', { value: {
        request: () => Promise.reject(new DOMException('no', 'NotAllowedError')) } });""")
    open_marcador(page)
    tap(page, 0, 2)
    expect(page.locator("#wake")).to_be_hidden()
    assert scores(page) == [2, 0]


def test_reducer_refuses_what_cannot_be_tapped(page, console_errors):
    """The pure reducer (marcador_state.js), driven from the page with the built presets."""
    open_marcador(page)
    result = page.evaluate("""async () => {
      const M = await import('./static/js/marcador/marcador_state.js');
      const P = M.presetIndex(JSON.parse(document.getElementById('presets').textContent));
      const s0 = M.initialState(P, 'mineiro', 3);
      const same = (a) => M.reduce(s0, a, P) === s0;
      const out = {
        offTable: same({type: 'score', team: 0, kind: 'hand', pts: 3}),
        dezNow: same({type: 'score', team: 0, kind: 'dez', pts: 4}),
        badTeam: same({type: 'score', team: 2, kind: 'hand', pts: 2}),
        fixAtZero: same({type: 'fix', team: 0}),
        nextTooSoon: same({type: 'next'}),
        undoAtStart: same({type: 'undo'}),
        badSeries: same({type: 'new', preset: 'mineiro', series: 2}),
        unknown: same({type: 'cheat'}),
      };
      let s = s0;
      s = M.reduce(s, {type: 'score', team: 1, kind: 'hand', pts: 12}, P);
      out.afterWin = M.reduce(s, {type: 'score', team: 0, kind: 'hand', pts: 2}, P) === s;
      s = M.reduce(s, {type: 'next'}, P);
      s = M.reduce(s, {type: 'new', preset: 'paulista', series: 1}, P);
      s = M.reduce(s, {type: 'new', preset: 'torneio', series: 5}, P);
      out.logAfterTwoNews = s.log;   // only the board before the last "new" is kept
      s = M.reduce(s, {type: 'rename', team: 0, name: '  Os   de casa  '}, P);
      out.name = s.names[0];
      s = M.reduce(s, {type: 'rename', team: 1, name: 'x'.repeat(40)}, P);
      out.longName = s.names[1].length;
      out.valid = M.validate(JSON.parse(JSON.stringify(s)), P).ok;
      out.input = s0.log.length;     // nothing changed the first state
      return out;
    }""")
    for key in ("offTable", "dezNow", "badTeam", "fixAtZero", "nextTooSoon", "undoAtStart",
                "badSeries", "unknown", "afterWin"):
        assert result[key] is True, key
    assert result["logAfterTwoNews"] == [{"t": "new", "preset": "paulista", "series": 1},
                                         {"t": "new", "preset": "torneio", "series": 5}]
    assert result["name"] == "Os de casa"
    assert result["longName"] == 24
    assert result["valid"] is True
    assert result["input"] == 1


def test_table_start_screen_links_to_the_marcador(dist_dir):
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="marcador\.html">[^<]*Marcador', html)
    page_html = (dist_dir / "marcador.html").read_text(encoding="utf-8")
    # The page loads no engine (its UI texts, shared by every page, may name Pyodide).
    code = re.sub(r'<script type="application/json" id="i18n">.*?</script>', "", page_html, flags=re.S)
    assert "pyodide" not in code.lower() and "worker" not in code.lower()
    presets = json.loads(re.search(r'<script type="application/json" id="presets">(.*?)</script>',
                                   page_html, re.S).group(1))
    assert [p["name"] for p in presets] == PRESETS
    for p in presets:
        r = truco.preset(p["name"])
        assert p["start_value"] == r.start_value
        assert [s["value"] for s in p["ladder"]] == [s.value for s in r.ladder]
        assert (p["mao_de_x"], p["mao_de_x_value"], p["mao_de_x_run_gives"], p["ferro_value"]) == (
            r.mao_de_x, r.mao_de_x_value, r.mao_de_x_run_gives, r.ferro_value)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_mao_de_dez_button_reads_as_a_label_in_spanish_and_english(page, console_errors, lang):
    """A point button names what it scores like the Portuguese one, "+4 mão de dez", not
    "+4 la mão de dez" / "+4 the mão de dez" (an article before a label reads as a
    sentence cut in half)."""
    open_marcador(page, f"/{lang}/marcador.html")
    tap(page, 1, 6)
    tap(page, 1, 4)
    expect(button(page, 0, 4, "dez")).to_have_text("+4 mão de dez")
    expect(button(page, 1, 4, "dez")).to_have_text("+4 mão de dez")


SHIFTS = """() => { window.__shift = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
    .observe({ type: "layout-shift", buffered: true }); }"""


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 844, "height": 390}])
def test_the_board_does_not_jump_when_its_buttons_come(browser, base_url, size):
    """A first visit on a slow phone: the page is drawn before its script has built the
    score buttons; when they come, nothing below them moves (CLS < 0.05; the empty box
    once grew by 300 px under the undo button and the history, a shift of 0.177)."""
    with watched_page(browser, base_url, **{**PHONE, "viewport": size}) as page:
        # Hold the page's script back until the markup has been painted.
        page.route("**/marcador/marcador.js*", lambda route: (time.sleep(0.7), route.continue_()))
        page.add_init_script(SHIFTS.join(["(", ")()"]))
        open_marcador(page)
        page.wait_for_timeout(300)  # layout-shift entries are reported after the next frame
        shift = page.evaluate("() => window.__shift")
        assert shift < 0.05, f"the board moved by {shift:.3f} when the buttons came"
        assert len(offers(page, 0)) == 5
