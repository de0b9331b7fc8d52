"""The pages: site/static/ as is, and every Jinja template (site/templates/) rendered once per
language with its UI strings (site/i18n/<lang>.json), the tutorial's lessons and the
engine's presets."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re

from . import lessons
from .common import ROOT, SITE, BuildError
from .output import Output

# Scripts the pages carry inline (inline_script), never fetched: not copied to dist/.
INLINED = {"js/shared/lang_redirect.js"}


def add_static(out: Output) -> None:
    static = SITE / "static"
    for path in sorted(static.rglob("*")):
        rel = path.relative_to(static).as_posix()
        if path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts and rel not in INLINED:
            out.add_file("static/" + rel, path)


def render_pages(out: Output, context: dict) -> None:
    """Every template once per language: Portuguese at the root, the others in their folder
    (LANGUAGES); the pages of one language link to each other with plain relative URLs."""
    try:
        import jinja2
    except ImportError:
        raise BuildError("jinja2 is missing: install the build tools (see README)") from None
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(SITE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    markup = jinja2.utils.markupsafe.Markup
    templates = [tpl for tpl in sorted((SITE / "templates").glob("*.html")) if not tpl.name.startswith("_")]
    # The Portuguese lessons are replayed with the engine once; the others only swap texts.
    lessons_pt = load_lessons(ui_strings(DEFAULT_LANGUAGE))
    names = {lang: ui_strings(lang)["lang.name"] for lang in LANGUAGES}
    origin = site_url()
    for lang, folder in LANGUAGES.items():
        strings = ui_strings(lang)
        up = "../" * folder.count("/")

        def asset(rel: str, up=up) -> str:
            """A URL of a file of the build, relative to this language's pages (checked)."""
            if rel not in out.files:
                raise BuildError(f"template refers to {rel}, which the build does not produce")
            return up + rel

        def t(key: str, strings=strings, lang=lang, **params) -> str:
            """A UI text from the translation table (a missing key fails the build);
            {name} placeholders are filled from the keyword arguments."""
            if key not in strings:
                raise BuildError(f"site/i18n/{lang}.json has no key {key!r}")
            value = strings[key]
            value = value[0] if isinstance(value, list) else value
            for name, arg in params.items():
                value = value.replace("{" + name + "}", str(arg))
            return value

        env.globals.update(asset=asset, t=t, inline_script=inline_script)
        page_context = dict(
            context,
            lang=lang,
            lang_dir=folder,
            # Raw JSON for <script type="application/json">: not HTML-escaped, but "</" can't close it.
            strings_json=markup(json.dumps(strings, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")),
            presets=preset_summaries(strings),
        )
        page_context.update(tutorial_context(lessons_for(lessons_pt, lang, strings), markup))
        for tpl in templates:
            # The same page in every language, for the language switch and <link rel=alternate>.
            # `url`: absolute where the site's address is configured (search engines want
            # absolute hreflang links), else the relative `href` (any host, offline).
            languages = [{"code": other, "name": names[other], "current": other == lang,
                          "href": up + LANGUAGES[other] + tpl.name,
                          "url": origin + LANGUAGES[other] + tpl.name if origin else up + LANGUAGES[other] + tpl.name}
                         for other in LANGUAGES]
            html = env.get_template(tpl.name).render(**page_context, page=tpl.stem, languages=languages)
            check_inline_scripts(html, folder + tpl.name)
            out.add_bytes(folder + tpl.name, html.encode("utf-8"))


def inline_script(rel: str):
    """A script of site/static/js/ written into the page (`<script>{{ inline_script(...) }}</script>`):
    code that must run before the page asks for anything (lang_redirect.js). The CSP allows
    it by its sha256, which netlify.toml lists (check_inline_scripts)."""
    from jinja2.utils import markupsafe

    if "js/" + rel not in INLINED:
        raise BuildError(f"inline_script({rel!r}): list it in pages.INLINED (it is then left out of dist/)")
    text = (SITE / "static" / "js" / rel).read_text(encoding="utf-8")
    if "</script" in text.lower() or "<!--" in text:
        raise BuildError(f"{rel} cannot be inlined: it holds '</script' or '<!--'")
    return markupsafe.Markup(text)


INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def csp_hash(source: str) -> str:
    """The CSP source that allows an inline script: 'sha256-<base64 of its text's digest>'."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


def check_inline_scripts(html: str, name: str) -> None:
    """Every inline script of a page is allowed by that page's Content-Security-Policy in
    netlify.toml (serve.py sends the same): a script changed without its hash there would be
    refused by the browser, silently, on the deployed site and in the tests alike."""
    sources = INLINE_SCRIPT.findall(html)
    if not sources:
        return
    from .serve import headers_for, load_header_rules

    rules = load_header_rules()
    # The page's own address, its address without .html (Netlify's pretty URLs), and a
    # folder's address for its index.html.
    paths = ["/" + name, "/" + name.removesuffix(".html")]
    if name.endswith("index.html"):
        paths.append("/" + name.removesuffix("index.html"))
    for path in paths:
        csp = headers_for(path, rules).get("Content-Security-Policy", "")
        script_src = next((d.split()[1:] for d in csp.split(";") if d.split()[:1] == ["script-src"]), [])
        for source in sources:
            needed = csp_hash(source)
            if needed not in script_src:
                raise BuildError(f"{name}: its inline script is not allowed by netlify.toml's Content-Security-Policy "
                                 f"for {path}: add {needed} to the script-src of every page rule (the old hash goes)")


def site_url() -> str:
    """The deployed site's address, for absolute <link rel=alternate hreflang> URLs:
    TRUCO_SITE_URL, or on Netlify its `URL` (the site's main address, which Netlify sets in
    every build). Empty when neither is set: the links stay relative (correct for people and
    any host, but search engines ask for absolute ones). See README, "Deploy"."""
    url = os.environ.get("TRUCO_SITE_URL", "").strip()
    if not url and os.environ.get("NETLIFY") == "true":
        url = os.environ.get("URL", "").strip()
    if not url:
        return ""
    if not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~/-]*)?", url):
        raise BuildError(f"TRUCO_SITE_URL must be an http(s) address like https://truco.example/, not {url[:80]!r}")
    return url.rstrip("/") + "/"


# The languages of the site and the folder of dist/ their pages go to. Portuguese, the
# default, keeps the root (saved links and bookmarks name /index.html, /tutorial.html...).
LANGUAGES = {"pt-BR": "", "es": "es/", "en": "en/"}
DEFAULT_LANGUAGE = "pt-BR"


def ui_strings(lang: str = DEFAULT_LANGUAGE) -> dict:
    """The translation table of the UI (one JSON file per language in site/i18n/). A key
    missing from a translation falls back to the Portuguese text, so a key added in
    Portuguese never breaks the build; tests/build/test_i18n.py fails until it is translated."""
    path = SITE / "i18n" / f"{lang}.json"
    try:
        strings = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BuildError(f"cannot read {path.relative_to(ROOT)}: {exc}") from None
    if lang != DEFAULT_LANGUAGE:
        strings = {**ui_strings(DEFAULT_LANGUAGE), **strings}
    return strings


def load_lessons(strings: dict) -> list[dict]:
    """The Portuguese lessons (site/tutorial/NN_slug.md), every exercise replayed."""
    try:
        return lessons.load(strings)
    except lessons.LessonError as exc:
        raise BuildError(f"site/tutorial/{exc}") from None


def lessons_for(items: list[dict], lang: str, strings: dict) -> list[dict]:
    """The lessons in `lang`: texts from site/tutorial/<lang>/, deals and exercises shared."""
    if lang == DEFAULT_LANGUAGE:
        return items
    try:
        return lessons.translate(items, lang, strings)
    except lessons.LessonError as exc:
        raise BuildError(f"site/tutorial/{lang}/{exc}") from None


def tutorial_context(items: list[dict], markup) -> dict:
    """The tutorial's lessons (see lessons.py) for one language; ``tutorial_json`` /
    ``scenarios_json`` feed tutorial.html and embed.html (no solutions, no quiz answers:
    the page asks the engine)."""
    data = lessons.page_data(items)
    items = [dict(lesson, html=markup(lesson["html"])) for lesson in items]
    return {
        "lessons": items,
        "tutorial_json": markup(lessons.json_for_script(data)),
        "scenarios_json": markup(lessons.json_for_script({"exercises": data["exercises"]})),
    }


def preset_summaries(strings: dict) -> list[dict]:
    """The engine's presets (names, point values), read from py/ at build time; their title
    and description in the page's language (``preset.<name>.title`` / ``.description``,
    the engine's Portuguese texts when a preset has no keys yet)."""
    from truco.rules import PRESETS

    order = ["mineiro", "truco473", "torneio", "paulista"]
    names = sorted(PRESETS, key=lambda n: (order.index(n) if n in order else len(order), n))
    out = []
    for n in names:
        summary = PRESETS[n].summary()
        for field in ("title", "description"):
            summary[field] = strings.get(f"preset.{n}.{field}", summary[field])
        # Two rule facts the summary leaves out, for the marcador's mão de ferro reminder.
        out.append(dict(summary, ferro_value=PRESETS[n].ferro_value, ferro_blind=PRESETS[n].ferro_blind))
    return out
