"""The tutorial's lessons as data (site/tutorial/*.md, rendered by py/truco_tools/lessons.py at build time):
every file renders, every exercise's fixed deal is legal for the engine, its setup replays
with its seed, its `solution` is judged right and its `mistake` wrong; quizzes are valid
rounds for the engine's judge; the built pages carry no answers."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser

import pytest

from helpers import ROOT

import truco
from truco import api
from truco_tools import lessons

STRINGS = json.loads((ROOT / "site" / "i18n" / "pt-BR.json").read_text(encoding="utf-8"))
LESSONS = lessons.load(STRINGS)
EXERCISES = [ex for lesson in LESSONS for ex in lesson["exercises"]]

# RULES.md order: deck and card order; manilhas; rounds; ties; covered card; truco and the
# ladder; mão de dez; mão de ferro; games and series; the timer; then the variants of §9
# (manilha nova).
RULES_ORDER = ["baralho", "manilhas", "rodadas", "empates", "coberta", "truco", "mao-de-dez",
               "mao-de-ferro", "jogo-e-partida", "tempo", "manilha-nova", "sinais"]


def test_lessons_follow_the_rules_in_order():
    slugs = [lesson["slug"] for lesson in LESSONS]
    assert [s for s in slugs if s in RULES_ORDER] == RULES_ORDER
    for lesson in LESSONS:
        assert lesson["exercises"], lesson["file"]
        assert lesson["quiz"], lesson["file"]


@pytest.mark.parametrize("ex", EXERCISES, ids=[e["id"] for e in EXERCISES])
def test_every_exercise_deal_is_legal(ex):
    game = truco.new_game(preset=ex["preset"], players=ex["players"], seed=ex["seed"], hands=ex["hands"],
                          score=tuple(ex["score"]), dealer=ex["dealer"], series=ex["series"],
                          timer=ex["timer"], vira=ex.get("vira"),
                          **({"ferro": ex["ferro"]} if ex.get("ferro") else {}))
    assert game.observation(0)["hand"] == ex["hands"][0] or game.observation(0)["blind"]


@pytest.mark.parametrize("ex", EXERCISES, ids=[e["id"] for e in EXERCISES])
def test_every_exercise_replays_and_judges_its_paths(ex):
    """The setup replays with the exercise's seed; the solution is right, the mistake wrong."""
    assert lessons.Replay(ex).play(ex["solution"]) == "right"
    assert lessons.Replay(ex).play(ex["mistake"]) == "wrong"
    # After the setup it is the learner's turn.
    rep = lessons.Replay(ex)
    rep.run_bots([])
    assert rep.obs["to_move"] == 0


def test_a_scripted_bot_move_that_no_longer_holds_fails_the_build_clearly():
    ex = next(e for e in EXERCISES if any(m[0] != "0" for m in e["setup"]))

    def holds(seed):
        try:
            lessons.verify_exercise(dict(ex, seed=seed), "test")
        except lessons.LessonError:
            return False
        return True

    bad = next(s for s in range(1000) if not holds(s))
    with pytest.raises(lessons.LessonError, match="the bot chose"):
        lessons.verify_exercise(dict(ex, seed=bad), "test")
    assert holds(lessons.find_seed(dict(ex, seed=bad)))


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["slug"] for lesson in LESSONS])
def test_quiz_rounds_are_rounds_the_engine_judges(lesson):
    for q in lesson["quiz"]:
        params = {"preset": q["preset"], "plays": q["plays"], **({"vira": q["vira"]} if "vira" in q else {})}
        reply = json.loads(api.handle(json.dumps({"method": "judge", "params": params})))
        assert reply["result"] in (0, 1, "tie")
        assert 2 <= len(q["plays"]) <= 4
        assert q["players"] == (2 if max(p["seat"] for p in q["plays"]) < 2 else 4)


def test_every_lesson_has_pictures_of_cards_and_short_text():
    for lesson in LESSONS:
        prose = re.sub(r"<figure.*?</figure>|<table.*?</table>", " ", lesson["html"], flags=re.S)
        text = re.sub(r"<[^>]+>", " ", prose)
        words = len(text.split())
        assert words < 200, f"{lesson['file']}: {words} words, keep it short"
    assert any('class="card-row"' in lesson["html"] for lesson in LESSONS)
    order = next(lesson for lesson in LESSONS if lesson["slug"] == "manilhas")["html"]
    assert order.count("<li>") >= 14  # the whole deck, strongest first (the engine's order)


def test_markdown_subset():
    cards = lessons.Cards(STRINGS)
    html = lessons.render_markdown(
        "Um **negrito** e um *itálico* <b>não</b>.\n\n- um\n- dois\n\n1. primeiro\n2. segundo\n\n"
        "{cartas 4c 7d xx | Legenda}\n\n## Título", cards, "test")
    assert "<strong>negrito</strong>" in html and "<em>itálico</em>" in html
    assert "&lt;b&gt;não&lt;/b&gt;" in html
    assert "<ul><li>um</li><li>dois</li></ul>" in html
    assert "<ol><li>primeiro</li><li>segundo</li></ol>" in html
    assert "<h3>Título</h3>" in html
    assert "4 de paus<b>Zap</b>" in html and "7 de ouros<b>Pica-fumo</b>" in html
    assert "carta virada para baixo" in html and "<figcaption>Legenda</figcaption>" in html
    with pytest.raises(lessons.LessonError, match="not a card"):
        lessons.render_markdown("{cartas 9c}", cards, "test")


def test_adding_a_lesson_is_adding_a_file(tmp_path):
    for path in lessons.lesson_files():
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "99_extra.md").write_text(
        '+++\ntitle = "Extra"\n\n[[exercise]]\nid = "extra-um"\nprompt = "Ganhe."\n'
        'hands = ["3c 4h 5h", "Kd 6c 4s"]\ndealer = 0\nsetup = ["1 play Kd"]\nseed = 0\ngoal = "round"\n'
        'right = "Sim."\nwrong = "Não."\nsolution = ["0 play 3c"]\nmistake = ["0 play 4h"]\n\n'
        '[[quiz]]\nplays = ["0 3c", "1 2c"]\n+++\nTexto.\n', encoding="utf-8")
    seed = lessons.find_seed(lessons.check_exercise(lessons.parse_file(tmp_path / "99_extra.md")[0]["exercise"][0], "x"))
    text = (tmp_path / "99_extra.md").read_text().replace("seed = 0", f"seed = {seed}")
    (tmp_path / "99_extra.md").write_text(text)
    got = lessons.load(STRINGS, tmp_path)
    assert [lesson["slug"] for lesson in got][-1] == "extra"
    assert len(got) == len(LESSONS) + 1


@pytest.mark.parametrize("text, message", [
    ("title = 'x'\n", "must start with"),
    ("+++\ntitle = \n+++\n", "front matter"),
    ("+++\ntitle = \"x\"\n+++\n", "at least one"),
    ('+++\ntitle = "x"\n[[exercise]]\nid = "a"\n+++\n', "missing"),
])
def test_a_broken_lesson_file_says_what_is_wrong(tmp_path, text, message):
    (tmp_path / "01_x.md").write_text(text, encoding="utf-8")
    with pytest.raises(lessons.LessonError, match=message):
        lessons.load(STRINGS, tmp_path)


class _Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.current = None
        self.scripts = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("type") == "application/json":
            self.current = a.get("id")
            self.scripts[self.current] = ""

    def handle_endtag(self, tag):
        self.current = None

    def handle_data(self, data):
        if self.current:
            self.scripts[self.current] += data


def _json_blocks(path):
    parser = _Scripts()
    parser.feed(path.read_text(encoding="utf-8"))
    return {k: json.loads(v) for k, v in parser.scripts.items()}


def test_built_pages_carry_lessons_but_no_answers(dist_dir):
    html = (dist_dir / "tutorial.html").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert lesson["title"] in html
        for ex in lesson["exercises"]:
            assert f'id="ex-{ex["id"]}"' in html
    data = _json_blocks(dist_dir / "tutorial.html")["tutorial-data"]
    text = json.dumps(data)
    assert "solution" not in text and "mistake" not in text
    for lesson in data["lessons"]:
        for q in lesson["quiz"]:
            assert {"plays", "players", "preset"} <= set(q) <= {"plays", "players", "preset", "vira"}
            assert all(set(p) == {"seat", "card", "covered"} for p in q["plays"])
    embed = _json_blocks(dist_dir / "embed.html")["scenarios"]
    assert set(embed["exercises"]) == {ex["id"] for ex in EXERCISES}
    # The table's start screen links the tutorial.
    assert 'href="tutorial.html"' in (dist_dir / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_translated_lessons_draw_the_same_cards(lang):
    """A translation draws its card pictures with its lesson's rules: under the vira 3 of the
    manilha-nova lesson the 4s are the manilhas in every language (RULES.md §9)."""
    from truco_tools import pages

    translated = lessons.translate(LESSONS, lang, pages.ui_strings(lang))
    pictures = re.compile(r'<span class="order-cards">(.*?)</span><span')
    for pt, tr in zip(LESSONS, translated):
        assert pictures.findall(tr["html"]) == pictures.findall(pt["html"]), pt["file"]
    nova = next(tr for tr in translated if tr["slug"] == "manilha-nova")
    first = pictures.findall(nova["html"])[0]
    assert "<b>4</b><i>♣</i>" in first and "manilha" in first


# ------------------------------------------------------------------ the first position

CARD = re.compile(r"^[4567QJKA23][chsd]$")


def _cards_in(value, skip=("manilhas", "rules")):
    """Every card named anywhere in a JSON value (a card string, or a card in an action such
    as "play 4c"), except under the keys in `skip` (the preset's manilhas are no one's hand)."""
    if isinstance(value, dict):
        return {c for k, v in value.items() if k not in skip for c in _cards_in(v, skip)}
    if isinstance(value, list):
        return {c for v in value for c in _cards_in(v, skip)}
    if isinstance(value, str):
        return {w for w in value.split() if CARD.match(w)}
    return set()


def hidden_cards_in(ex, first):
    """Cards of the other seats that seat 0 has not seen but `first` names."""
    rep = lessons.Replay(ex)
    rep.run_bots([])
    obs = api._session.game.observation(0)  # the engine's own view for seat 0, untrimmed
    seen = {p["card"] for r in obs["rounds"] for p in r["plays"] if p["card"]}
    seen |= {c for v in obs["visible_hands"] for c in v["cards"]}
    hidden = {c for h in ex["hands"][1:] for c in h} - seen
    return sorted(_cards_in(first) & hidden)


@pytest.mark.parametrize("ex", EXERCISES, ids=[e["id"] for e in EXERCISES])
def test_each_exercise_carries_its_first_position_as_seat_0_sees_it(ex):
    """The page draws the table from `first` before the engine starts: it is the learner's
    observation when the first move is due (after the setup and the bots), trimmed to what
    the mini-table draws, and it names no card the learner has not seen."""
    first = ex["first"]
    assert first is not None
    rep = lessons.Replay(ex)
    rep.run_bots([])
    assert first["obs"] == {**{k: rep.obs[k] for k in lessons.FIRST_KEYS},
                            "rules": {k: rep.obs["rules"][k] for k in lessons.FIRST_RULES}}
    assert first["obs"]["to_move"] == 0 and first["obs"]["legal_actions"]
    assert first["events"] == rep.events
    assert not {"log", "history"} & set(first["obs"])
    assert hidden_cards_in(ex, first) == []


def test_the_hidden_card_check_finds_a_leak():
    ex = next(e for e in EXERCISES if e["id"] == "coberta-vale-nada")  # Tonho's covered 6c
    leaked = json.loads(json.dumps(ex["first"]))
    leaked["obs"]["rounds"][-1]["plays"][0]["card"] = "6c"
    assert hidden_cards_in(ex, leaked) == ["6c"]
    opponent = json.loads(json.dumps(ex["first"]))
    opponent["obs"]["visible_hands"] = [{"seat": 1, "cards": ex["hands"][1]}]
    assert hidden_cards_in(ex, opponent)


@pytest.mark.parametrize("lang", ["", "es/", "en/"])
def test_built_pages_carry_the_first_positions(dist_dir, lang):
    """tutorial.html and embed.html hold each exercise's first position, the same in every
    language, and no more of the deal than before (the fixed hands the engine is given)."""
    tutorial = _json_blocks(dist_dir / lang / "tutorial.html")["tutorial-data"]["exercises"]
    embed = _json_blocks(dist_dir / lang / "embed.html")["scenarios"]["exercises"]
    for ex in EXERCISES:
        for page in (tutorial, embed):
            assert page[ex["id"]]["first"] == json.loads(json.dumps(ex["first"]))
            assert set(page[ex["id"]]) <= set(lessons.EXERCISE_KEYS) - lessons.PRIVATE_KEYS | {"lesson", "lesson_title", "first"}
