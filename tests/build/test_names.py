"""Level and signal names have one source, truco/names.py (issue 30). The page's JS and
templates keep copies of the lists where they need them (a module of the page cannot
import Python); this keeps every copy equal to the source, and the translations naming
every one of them."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from truco import names

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"


def _js_lists(const: str) -> dict[str, list[str]]:
    """``const NAME = [...]`` (exported or not) in every page module, by file."""
    out = {}
    pattern = re.compile(r"\bconst\s+" + const + r"\s*=\s*(?:Object\.freeze\()?(\[[^\]]*\])")
    for path in sorted((SITE / "static" / "js").rglob("*.js")):
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            out[str(path.relative_to(ROOT))] = json.loads(m.group(1))
    return out


def test_no_page_module_writes_its_own_list_of_levels_or_signals():
    """The page's modules import them from static/js/shared/names.js, which the build
    writes from truco/names.py (a page module cannot import Python)."""
    assert _js_lists("LEVELS") == {} and _js_lists("SIGNALS") == {}
    users = [p.name for p in (SITE / "static" / "js").rglob("*.js")
             if re.search(r'from "[./]*(shared/)?names\.js"', p.read_text(encoding="utf-8"))]
    assert {"stats.js", "embed.js", "partner_talk.js"} <= set(users), users


def test_the_built_names_module_is_the_python_one(dist_dir):
    text = (dist_dir / "static" / "js" / "shared" / "names.js").read_text(encoding="utf-8")
    found = {m.group(1): json.loads(m.group(2)) for m in
             re.finditer(r"export const (\w+) = Object\.freeze\((\[[^\]]*\])\)", text)}
    assert found == {"LEVELS": list(names.LEVELS), "SIGNALS": list(names.SIGNALS)}


def test_no_template_writes_its_own_list_of_levels():
    for path in sorted((SITE / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bfor\s+\w+\s+in\s+\[[^\]]*'medio'", text), path.name


def test_the_start_screen_offers_the_engines_levels_in_order(dist_dir):
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    offered = re.findall(r'name="level" value="(\w+)"', html)
    assert tuple(offered) == names.LEVELS, offered


def test_the_bots_and_the_engine_use_the_names():
    from truco import api, bots, game, signals
    from truco.bots import explain, knowledge, player

    assert tuple(player.LEVEL_SETTINGS) == names.LEVELS
    assert bots.LEVELS is names.LEVELS and bots.ALL_LEVELS is names.ALL_LEVELS
    assert api.LEVELS is names.LEVELS
    assert game.SIGNALS is names.SIGNALS
    assert signals.MANILHA_SIGNALS is knowledge.SIGNAL_NAMES is names.MANILHA_SIGNALS
    assert explain._SIGNALS_MEANING_STRENGTH is names.STRENGTH_SIGNALS
    import random
    for level in names.ALL_LEVELS:
        assert bots.make(level, random.Random(0)).level == level


def test_every_level_and_signal_has_its_label_in_every_language():
    for lang in ("pt-BR", "es", "en"):
        strings = json.loads((SITE / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for level in names.LEVELS:
            assert f"level.{level}" in strings, (lang, level)
        for signal in names.SIGNALS:
            assert f"hint.signal_name.{signal}" in strings, (lang, signal)


def test_the_pages_hint_texts_are_generated_from_the_engines():
    """truco.hint_text.TEXTS is the one source of the Portuguese hint texts: the page's
    table holds exactly what ``python -m truco.hint_text`` writes into it."""
    from truco.hint_text import TEXTS, page_table_text

    path = SITE / "i18n" / "pt-BR.json"
    text = path.read_text(encoding="utf-8")
    assert page_table_text(text) == text, "run `python -m truco.hint_text` to write them"
    edited = text.replace(json.dumps(TEXTS["hint.play.last"], ensure_ascii=False)[1:-1], "Jogue {card}.")
    assert edited != text and page_table_text(edited) == text
