"""Translations: every text of the site exists in every language, and is translated.

The UI texts are keyed tables, site/i18n/<lang>.json; the lessons are
site/tutorial/<lang>/NN_slug.md next to the Portuguese site/tutorial/NN_slug.md (see
lessons.translate). Portuguese (pt-BR) is the reference: a key or a lesson added there must
be added in Spanish and English too, and a "translation" that is the Portuguese text copied
fails, unless it is one of the few truco words and names that stay in Portuguese in every
language (ALLOWED_SAME; the tutorial's glossary explains them).

How to fix a failure: add the key to site/i18n/es.json and site/i18n/en.json (same
{placeholders}; a list stays a list), or the lesson's texts to site/tutorial/es/ and
site/tutorial/en/ (same file name; only the texts, see lessons.translate).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from helpers import DIST, ROOT

from truco_tools import lessons, pages

REFERENCE = pages.DEFAULT_LANGUAGE
TRANSLATIONS = [lang for lang in pages.LANGUAGES if lang != REFERENCE]
I18N = ROOT / "site" / "i18n"

# Texts that are the same in every language: the game's name, truco's calls and words that
# players say in Portuguese (explained in the glossary), names, numbers and units.
ALLOWED_SAME = {
    "Truco Mineiro", "Truco", "Truco 473", "Truco Paulista", "Truco!",
    "Seis", "Dez", "Doze", "Nove", "truco", "seis", "nove", "dez", "doze", "onze",
    "Zap", "Copas", "Espadilha", "Pica-fumo", "zap", "copas", "espadilha", "pica-fumo", "manilha",
    "Mão de dez", "Mão de ferro", "Mão de {x}", "mão de dez", "mão de ferro", "mão de {x}",
    "1 × 1", "D", "Normal", "{rank} de {suit}", "espadas", "dama", "Idioma", "OK",
}
# Short texts that are spelt the same in Portuguese and in one other language (a correct
# translation, not a copy). Keep it to words a speaker of that language would write so.
COGNATES = {
    "es": {"Marcador", "Cancelar", "Exportar", "Importar", "nada", "Vale", "Difícil", "Fácil", "motor {version}",
           "Iniciando…", "Partida", "Partidas", "segunda", "Rápida", "Modo", "Mostrar", "derrota",
           "Mesa de truco", "Copiar", "Pensando…", "Aprender", "Nada", "Última partida:", "← Anterior",
           "+{pts} {what}, para {name}", "Manilha contra manilha"},
    "en": set(),
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def allowed_same(text, lang: str) -> bool:
    """A text that may be the same as the Portuguese: a truco word, a cognate, or a pure
    format with no words of its own ("{name}!", "{gesture} · {name}", "{s} s")."""
    if not isinstance(text, str):
        return False
    if text in ALLOWED_SAME or text in COGNATES[lang]:
        return True
    return not re.search(r"[^\W\d_]{2}", PLACEHOLDER.sub("", text))


def strings_of(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reference() -> dict:
    return strings_of(REFERENCE)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_key_is_in_every_language(reference, lang):
    strings = strings_of(lang)
    missing = sorted(set(reference) - set(strings))
    extra = sorted(set(strings) - set(reference))
    assert not missing, f"site/i18n/{lang}.json lacks {len(missing)} key(s) of {REFERENCE}.json: {missing}"
    assert not extra, f"site/i18n/{lang}.json has keys that {REFERENCE}.json does not: {extra}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translations_have_the_same_shape_and_placeholders(reference, lang):
    strings = strings_of(lang)
    bad = []
    for key, ref in reference.items():
        if key not in strings:
            continue  # reported by test_every_key_is_in_every_language
        value = strings[key]
        if isinstance(ref, list):
            if not (isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value)):
                bad.append(f"{key}: must be a non-empty list of texts, like {REFERENCE}'s")
                continue
            # Each phrasing may use fewer placeholders, never one the page does not fill.
            allowed = {p for r in ref for p in PLACEHOLDER.findall(r)}
            for v in value:
                if set(PLACEHOLDER.findall(v)) - allowed:
                    bad.append(f"{key}: {v!r} uses a placeholder that {REFERENCE} does not")
        elif not (isinstance(value, str) and value.strip()):
            bad.append(f"{key}: must be a non-empty text")
        elif set(PLACEHOLDER.findall(value)) != set(PLACEHOLDER.findall(ref)):
            bad.append(f"{key}: placeholders {sorted(set(PLACEHOLDER.findall(value)))}, "
                       f"{REFERENCE} has {sorted(set(PLACEHOLDER.findall(ref)))}")
    assert not bad, f"site/i18n/{lang}.json:\n  " + "\n  ".join(bad)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_translation_is_the_portuguese_copied(reference, lang):
    strings = strings_of(lang)
    copied = sorted(key for key, ref in reference.items()
                    if strings.get(key) == ref and not allowed_same(ref, lang))
    assert not copied, (f"site/i18n/{lang}.json: {len(copied)} text(s) are the Portuguese copied "
                        f"(translate them, or add a truco word to ALLOWED_SAME): "
                        + ", ".join(f"{k}={reference[k]!r}" for k in copied))


# Texts the table shows in a <span lang="pt-BR"> on a Spanish or English page
# (site/static/js/i18n.js portuguese()): they must be the Portuguese words in every language.
MARKED_PORTUGUESE = ["raise.truco", "raise.seis", "raise.nove", "raise.dez", "raise.doze",
                     "hud.kind.dez", "hud.kind.ferro", "prompt.kind.dez", "prompt.kind.ferro", "marcador.x.10", "marcador.x.11", "start.ferro"]


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_the_words_marked_as_portuguese_are_portuguese(reference, lang):
    strings = strings_of(lang)
    translated = {key: strings[key] for key in MARKED_PORTUGUESE if strings[key] != reference[key]}
    assert not translated, (f"site/i18n/{lang}.json translates words that its pages mark as Portuguese "
                            f"(lang=\"pt-BR\"): {translated}; translate them and stop marking them "
                            "(table_view.js, index.html), or keep the Portuguese")


# What the bots say as they raise ("Truco, ladrão!", "Then it's seis!"): in Spanish and English
# the call stays Portuguese, and the phrase marks it {pt:...} so the bubble holds it in a
# <span lang="pt-BR"> (site/static/js/i18n.js phraseNodes()).
SAY_CALLS = ["say.truco", "say.seis", "say.dez", "say.doze", "say.nove"]
MARK = re.compile(r"\{pt:([^{}]+)\}")
CALL_WORD = re.compile(r"\b(truco+|seis|dez|doze|nove)\b", re.IGNORECASE)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_the_bubbles_mark_the_truco_calls_they_keep_in_portuguese(reference, lang):
    strings = strings_of(lang)
    bad = []
    for key in SAY_CALLS:
        portuguese_words = {w.lower() for p in reference[key] for w in CALL_WORD.findall(p)}
        for phrasing in strings[key]:
            marked = MARK.findall(phrasing)
            unmarked = CALL_WORD.findall(MARK.sub("", phrasing))
            if not marked or unmarked:
                bad.append(f"{key}: {phrasing!r} leaves the call {unmarked or 'out'} unmarked")
            bad += [f"{key}: {phrasing!r} marks {w!r}, not a word of the Portuguese {reference[key]}"
                    for w in marked if w.lower() not in portuguese_words]
    # The marks are for the other languages: a Portuguese page has no word to set apart.
    bad += [f"{REFERENCE}.json {key}: {v!r}" for key, v in reference.items()
            if any(MARK.search(x) for x in (v if isinstance(v, list) else [v]))]
    assert not bad, (f"site/i18n/{lang}.json: write the call as {{pt:Truco}} in each phrasing "
                     "(the word as the phrase says it):\n  " + "\n  ".join(bad))


def test_the_allowed_words_are_few():
    # The allow-list is for truco words and names, not a way around the test.
    assert len(ALLOWED_SAME) <= 40
    assert all(len(w) <= 40 for w in ALLOWED_SAME)
    assert all(len(PLACEHOLDER.sub("", w).split()) <= 3 for words in COGNATES.values() for w in words)


def test_every_rules_preset_has_its_texts(reference):
    """The presets' titles and descriptions come from the tables. The Portuguese ones are
    written in the engine (py/truco/rules.py: the CLI and the observations say them), and
    pt-BR.json, the translators' reference, holds the same words, letter for letter."""
    from truco.rules import PRESETS
    missing = [f"preset.{n}.{f}" for n in PRESETS for f in ("title", "description")
               if f"preset.{n}.{f}" not in reference]
    assert not missing, f"site/i18n/{REFERENCE}.json lacks {missing} (then add them in every language)"
    differ = [f"preset.{n}.{f}: {reference[f'preset.{n}.{f}']!r} != {getattr(PRESETS[n], f)!r}"
              for n in PRESETS for f in ("title", "description")
              if reference[f"preset.{n}.{f}"] != getattr(PRESETS[n], f)]
    assert not differ, f"site/i18n/{REFERENCE}.json must say what py/truco/rules.py says:\n  " + "\n  ".join(differ)


def test_every_kind_of_saved_data_has_its_set_aside_notice(reference):
    """MatchStore.setAside (table/match_store.js) says t(`saved.bad.${kind}`) for any kind of
    storage.js's KEYS that it reads and checks; a missing text would show the raw key."""
    source = (ROOT / "site" / "static" / "js" / "shared" / "storage.js").read_text(encoding="utf-8")
    keys = re.search(r"export const KEYS = \{(.*?)\};", source, re.S).group(1)
    kinds = [k for k in re.findall(r"^\s*(\w+):", keys, re.M) if k != "backup"]
    assert {"session", "settings", "stats", "last"} <= set(kinds)
    missing = [f"saved.bad.{k}" for k in kinds if f"saved.bad.{k}" not in reference]
    assert not missing, f"site/i18n/{REFERENCE}.json lacks {missing}"


# --- lessons ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def portuguese_lessons(reference):
    return lessons.load(reference, verify=False)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_lesson_is_translated(portuguese_lessons, lang):
    # A file per lesson, with every text the Portuguese lesson has (the build refuses too).
    lessons.translate(portuguese_lessons, lang, pages.ui_strings(lang))


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_lesson_text_is_the_portuguese_copied(portuguese_lessons, lang):
    translated = lessons.translate(portuguese_lessons, lang, pages.ui_strings(lang))
    copied = []
    for pt, tr in zip(portuguese_lessons, translated):
        if tr["title"] == pt["title"] and not allowed_same(pt["title"], lang):
            copied.append(f"{pt['file']}: title")
        if pt["summary"] and tr["summary"] == pt["summary"]:
            copied.append(f"{pt['file']}: summary")
        pt_body = lessons.parse_file(lessons.LESSONS_DIR / pt["file"])[1]
        tr_body = lessons.parse_file(lessons.translation_file(pt, lang))[1]
        paragraphs = {p.strip() for p in pt_body.split("\n\n") if len(p.strip()) > 40 and not p.strip().startswith("{")}
        copied += [f"{pt['file']}: paragraph {p[:50]!r}…" for p in tr_body.split("\n\n") if p.strip() in paragraphs]
        for pe, te in zip(pt["exercises"], tr["exercises"]):
            for key in ("title", "prompt", "right", "wrong", "refused"):
                if pe.get(key) and te.get(key) == pe[key] and not allowed_same(pe[key], lang):
                    copied.append(f"{pt['file']} {pe['id']}: {key}")
            copied += [f"{pt['file']} {pe['id']}: why {a!r}" for a, text in pe["why"].items() if te["why"][a] == text]
    assert not copied, f"site/tutorial/{lang}/: Portuguese texts copied:\n  " + "\n  ".join(copied)


LIST_ITEM = re.compile(r"^(- |\d+\. )")


def body_shape(body: str) -> list[str]:
    """A lesson body's outline: each block's kind (paragraph, heading, list with its number of
    items) and each card block with its cards; captions and words left out."""
    shape = []
    for block in (b.strip() for b in body.split("\n\n")):
        if not block:
            continue
        first = block.splitlines()[0]
        card_block = lessons.BLOCK.match(first)
        if card_block:
            shape.append(f"{{{card_block.group(1)} {(card_block.group(2) or '').strip()}}}")
        elif first.startswith("## "):
            shape.append("heading")
        elif LIST_ITEM.match(first):
            items = sum(1 for line in block.splitlines() if LIST_ITEM.match(line))
            shape.append(f"list of {items}")
        else:
            shape.append("paragraph")
    return shape


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_lesson_translations_follow_the_portuguese_text(portuguese_lessons, lang):
    """The same paragraphs, lists and headings in the same order, and the same card pictures:
    a paragraph added in Portuguese must be added in every language."""
    for lesson in portuguese_lessons:
        pt = body_shape(lessons.parse_file(lessons.LESSONS_DIR / lesson["file"])[1])
        tr = body_shape(lessons.parse_file(lessons.translation_file(lesson, lang))[1])
        assert tr == pt, f"site/tutorial/{lang}/{lesson['file']}: {tr} but the Portuguese lesson has {pt}"


# --- the built pages ----------------------------------------------------------------------

class PageTexts(HTMLParser):
    """The texts a visitor meets in a page: text nodes and the attributes that are read out
    or shown; not scripts' JSON, nor the lessons' text (the lesson tests above cover both)."""

    ATTRS = {"aria-label", "title", "alt", "placeholder", "content"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    SKIP_CLASSES = {"lesson-text"}

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.skip = 0
        self.depth = 0
        self.skip_from: int | None = None  # depth of the lesson text being skipped
        self.lang: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag not in self.VOID:
            self.depth += 1
            if self.skip_from is None and self.SKIP_CLASSES & set((attrs.get("class") or "").split()):
                self.skip_from = self.depth
        if tag in ("script", "style"):
            self.skip += 1
        if self.skip_from is not None or (tag == "meta" and attrs.get("name") != "description"):
            return
        self.texts += [v.strip() for k, v in attrs.items() if k in self.ATTRS and v and v.strip()]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        if tag not in self.VOID:
            if self.skip_from == self.depth:
                self.skip_from = None
            self.depth -= 1

    def handle_data(self, data):
        if not self.skip and self.skip_from is None and data.strip():
            self.texts.append(" ".join(data.split()))


def page_texts(path) -> PageTexts:
    parser = PageTexts()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


PAGES = ["index.html", "tutorial.html", "embed.html", "marcador.html"]
# The same in every language: names and symbols.
SAME_IN_PAGES = {"Truco Mineiro", "PT", "ES", "EN", "Português", "Español", "English", "·", "—", "‹", "←", "→", "0",
                 "☀", "✓"}


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_built_pages_have_no_portuguese_left(dist_dir, lang):
    """A text that a template writes without t() stays Portuguese in every language: compare
    each page with its Portuguese twin."""
    assert sorted(p.name for p in dist_dir.glob("*.html")) == sorted(p.name for p in (dist_dir / pages.LANGUAGES[lang]).glob("*.html"))
    left = []
    for path in sorted(dist_dir.glob("*.html")):
        pt = set(page_texts(path).texts)
        other = page_texts(dist_dir / pages.LANGUAGES[lang] / path.name)
        assert other.lang == lang, f"{lang}/{path.name}: <html lang={other.lang!r}>"
        for text in other.texts:
            # "1 × 1 · Fácil": a text made of allowed parts is allowed.
            if text in pt and not all(part.strip("()") in SAME_IN_PAGES or allowed_same(part.strip("()"), lang) for part in text.split(" · ")) and re.search(r"[^\W\d_]{3}", text):
                left.append(f"{path.name}: {text[:80]!r}")
    assert not left, f"{lang} pages still show Portuguese text:\n  " + "\n  ".join(sorted(set(left)))


def test_every_page_names_its_language(dist_dir):
    for lang, folder in pages.LANGUAGES.items():
        for name in PAGES:
            assert page_texts(dist_dir / folder / name).lang == lang, f"{folder}{name}"
