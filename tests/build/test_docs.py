"""docs/rules.md is the rule book the code cites ("RULES.md §5", "§2–§4"...).

Every § cited anywhere in the repository (engine, bots, tests, page scripts, templates,
lessons, bench, tooling, the other docs) must exist in docs/rules.md, as a "## N." heading
or, for "§N.M", as a "### N.M" heading or the numbered item "M." of section N. The rule
book must also name every preset the engine has and every table option a game accepts.

docs/engine.md documents every method of ``truco.api.METHODS``, every event type the engine
writes to a match's log and every field of the observation. The third-party notices
(site/static/THIRD-PARTY-NOTICES.txt, shipped as is, and docs/third-party.md) name every
third-party file dist/ ships (those two checks read dist/ and skip when it is not built).
README.md stays under 8 KB, and every relative link of it and of docs/ exists.
File reading only: no build, no browser.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
from pathlib import Path

import pytest

import truco
from truco.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"

# Generated, vendored or third-party trees, and files whose "§" is not ours.
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "dist", "build", "__pycache__",
             ".pytest_cache", ".hypothesis", "test-results", ".cache"}
SKIP_FILES = {RULES.resolve(), Path(__file__).resolve()}
SKIP_NAME_PREFIXES = ("LICENSE", "NOTICE", "THIRD", "third_party", "third-party")
TEXT_SUFFIXES = {".py", ".js", ".mjs", ".md", ".html", ".json", ".toml", ".txt", ".css",
                 ".h", ".c", ".cpp", ".sh", ".yml", ".yaml", ".cfg", ".ini", ".j2", ""}

NUM = r"\d+(?:\.\d+)*"
# "§5", "§ 5", "§6.2", and ranges "§2–§4", "§5-7" (every section in between is cited too;
# no space around the dash, so "§9 - 12 points" is not a range).
CITE = re.compile(rf"§\s?({NUM})(?:[–-]§?({NUM}))?")
# A seed's own sections ("`002` §4a", "002 §7") are not this book's.
SEED_BEFORE = re.compile(r"\b00[0-9]`?\s*$")


def _source_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames
                       if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in filenames:
            path = Path(dirpath, name)
            if (path.suffix not in TEXT_SUFFIXES or name.startswith(SKIP_NAME_PREFIXES)
                    or path.resolve() in SKIP_FILES):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            if "§" in text:
                yield path, text


def cited_sections() -> dict[str, list[str]]:
    """Section number -> the places ("file:line") that cite it."""
    cites: dict[str, list[str]] = {}
    for path, text in _source_files():
        rel = path.relative_to(ROOT).as_posix()
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in CITE.finditer(line):
                if SEED_BEFORE.search(line[:m.start()]):
                    continue
                first, last = m.group(1), m.group(2)
                numbers = [first]
                if last and "." not in first and "." not in last and int(first) < int(last):
                    numbers = [str(n) for n in range(int(first), int(last) + 1)]
                elif last:
                    numbers.append(last)
                for n in numbers:
                    cites.setdefault(n, []).append(f"{rel}:{lineno}")
    return cites


def book_sections(text: str) -> dict[str, str]:
    """Section number -> its text: "## N." headings, and "### N.M" headings or numbered
    items "M." inside section N for sub-sections."""
    sections: dict[str, list[str]] = {}
    current = None
    in_fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        top = re.match(r"##\s+(\d+)\.?\s", line)
        if top:
            current = top.group(1)
            sections[current] = []
        elif line.startswith("## "):
            current = None  # an unnumbered part (an appendix) ends the numbered section
        elif current is not None:
            sub = re.match(rf"###\s+({current}\.\d+)\.?\s", line)
            item = re.match(r"(\d+)\.\s", line)
            if sub:
                sections[sub.group(1)] = []
            elif item:
                sections[f"{current}.{item.group(1)}"] = []
        if current is not None:
            sections[current].append(line)
    return {k: "\n".join(v) for k, v in sections.items()}


def _book() -> str:
    assert RULES.is_file(), f"{RULES.relative_to(ROOT)} is missing: the rule book the code cites"
    return RULES.read_text(encoding="utf-8")


def test_the_scan_finds_the_citations():
    # The engine's own citations: if the scan finds none of these it is broken, not green.
    cites = cited_sections()
    for n in ("2", "3", "4", "5", "6", "9"):
        assert n in cites, f"no citation of §{n} found: the scan of the repository is broken"


def test_every_cited_section_exists_in_the_rule_book():
    sections = book_sections(_book())
    missing = {n: places for n, places in cited_sections().items() if n not in sections}
    report = "\n".join(
        f"  §{n}: cited in {', '.join(places[:5])}{' …' if len(places) > 5 else ''}"
        for n, places in sorted(missing.items(), key=lambda kv: [int(x) for x in kv[0].split(".")])
    )
    assert not missing, (
        f"docs/rules.md lacks {len(missing)} cited section(s) "
        f"(has {', '.join('§' + k for k in sorted(sections, key=lambda k: [int(x) for x in k.split('.')]))}):\n{report}"
    )


def test_the_rule_book_names_every_preset():
    presets_section = book_sections(_book()).get("9", "")
    missing = [name for name in PRESETS if f"`{name}`" not in presets_section]
    assert not missing, (
        f"docs/rules.md §9 does not name the preset(s) {', '.join(missing)} "
        f"(truco.rules.PRESETS has {', '.join(PRESETS)}); write each as `name`"
    )


def test_the_rule_book_names_every_table_option():
    # The options a game accepts are in every observation (the engine's public contract).
    options = truco.new_game(seed=1).observation(0)["options"]
    book = _book()
    missing = [name for name in options if f"`{name}`" not in book]
    assert not missing, (
        f"docs/rules.md does not name the table option(s) {', '.join(missing)} "
        f"(a game's options are {', '.join(options)}); write each as `name`"
    )


# ---------------------------------------------------------------- docs/engine.md: the contract

ENGINE_DOC = ROOT / "docs" / "engine.md"
ENGINE_SRC = ROOT / "py" / "truco"


def _doc(path: Path) -> str:
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    """The body of the "## <title>" section (up to the next "## " heading)."""
    m = re.search(rf"^##\s+{re.escape(title)}\s*$(.*?)(?=^##\s|\Z)", text, re.M | re.S)
    assert m, f"docs/engine.md has no '## {title}' section"
    return m.group(1)


def _table_names(section: str) -> set[str]:
    """The `name`s that open the rows of the tables in a section ("| `name` | ...")."""
    return set(re.findall(r"^\|\s*`([^`]+)`\s*\|", section, re.M))


def emitted_event_types() -> set[str]:
    """The ``type`` of every event the engine writes to a match's log, read from its source:
    each ``<something>log.append({"type": ..., ...})`` (a constant, or ``"a" if x else "b"``)."""
    types: set[str] = set()
    for path in sorted(ENGINE_SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "append" and node.args and isinstance(node.args[0], ast.Dict)):
                continue
            receiver = node.func.value
            name = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
            if not name.endswith("log"):
                continue
            for key, value in zip(node.args[0].keys, node.args[0].values):
                if isinstance(key, ast.Constant) and key.value == "type":
                    branches = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
                    types.update(b.value for b in branches if isinstance(b, ast.Constant) and isinstance(b.value, str))
    return types


def _schema() -> dict:
    return json.loads((ENGINE_SRC / "observation.schema.json").read_text(encoding="utf-8"))


def test_every_api_method_is_documented():
    from truco.api import METHODS

    documented = set(re.findall(r"^###\s+`([A-Za-z_]+)`", _doc(ENGINE_DOC), re.M))
    missing = [m for m in METHODS if m not in documented]
    stale = sorted(documented - set(METHODS))
    assert not missing, (f"docs/engine.md does not document the truco.api method(s) {', '.join(missing)}: "
                         "give each a '### `name`' heading with its params and reply")
    assert not stale, f"docs/engine.md documents method(s) {', '.join(stale)} that truco.api.METHODS lacks"


def test_the_event_scan_finds_the_engine_events():
    # If the scan of the source finds none of these it is broken, not green.
    found = emitted_event_types()
    for kind in ("deal", "play", "cover", "round", "hand", "match"):
        assert kind in found, f"no {kind!r} event found in py/truco: the scan of log.append calls is broken"


def test_every_event_type_is_documented():
    schema_types = set(_schema()["properties"]["log"]["items"]["properties"]["type"]["enum"])
    emitted = emitted_event_types() | schema_types
    documented = _table_names(_section(_doc(ENGINE_DOC), "Events"))
    missing = sorted(emitted - documented)
    stale = sorted(documented - emitted)
    assert not missing, (f"docs/engine.md, 'Events', lacks the event type(s) {', '.join(missing)} "
                         "(a row '| `type` | fields | when |' each)")
    assert not stale, f"docs/engine.md, 'Events', documents type(s) {', '.join(stale)} the engine never emits"


def test_every_observation_field_is_documented():
    import truco

    fields = set(_schema()["properties"]) | set(truco.new_game(seed=1).observation(0))
    documented = _table_names(_section(_doc(ENGINE_DOC), "The observation"))
    missing = sorted(fields - documented)
    stale = sorted(documented - fields)
    assert not missing, f"docs/engine.md, 'The observation', lacks the field(s) {', '.join(missing)}"
    assert not stale, f"docs/engine.md, 'The observation', documents field(s) {', '.join(stale)} no observation has"


# ------------------------------------------------- third-party notices, README and the docs' links

NOTICES = ROOT / "site" / "static" / "THIRD-PARTY-NOTICES.txt"
THIRD_PARTY_DOC = ROOT / "docs" / "third-party.md"
DIST = Path(os.environ.get("TRUCO_DIST_DIR") or ROOT / "dist")
# The folders of dist/ that hold other people's software (or what the build makes from it).
THIRD_PARTY_DIRS = ("pyodide", "snapshot", "wheels", "static/js/vendor")
README = ROOT / "README.md"
README_LIMIT = 8 * 1024


def shipped_third_party_files(dist: Path) -> list[str]:
    """dist/'s files under THIRD_PARTY_DIRS, but the engine's own wheel."""
    out = []
    for folder in THIRD_PARTY_DIRS:
        for path in sorted((dist / folder).rglob("*")):
            if path.is_file() and not (folder == "wheels" and path.name.startswith("truco-")):
                out.append(path.relative_to(dist).as_posix())
    return out


def names_file(text: str, rel: str) -> bool:
    """Whether a notice names a file: its path, its file name as a word, or a pattern with
    a `*` that matches its path (`wheels/micropip-*.whl`)."""
    name = rel.rsplit("/", 1)[-1]
    if rel in text or re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text):
        return True
    patterns = re.findall(r"[\w.-]+(?:/[\w.-]+)*/[\w.-]*\*[\w.-]*", text)  # a path, a `*` in its file name
    return any(fnmatch.fnmatch(rel, pattern) for pattern in patterns)


def test_every_shipped_third_party_file_is_in_the_notices():
    if not (DIST / "pyodide").is_dir():
        pytest.skip(f"{DIST} is not built (run the build first)")
    shipped = shipped_third_party_files(DIST)
    assert "pyodide/pyodide.asm.wasm" in shipped and any(r.startswith("wheels/micropip") for r in shipped), (
        f"the scan of {DIST} found no Pyodide or micropip file: it is broken")
    for source in (NOTICES, THIRD_PARTY_DOC):
        text = _doc(source)
        missing = [rel for rel in shipped if not names_file(text, rel)]
        assert not missing, (f"{source.relative_to(ROOT)} does not name {', '.join(missing)}, shipped in dist/: "
                             "say what it is and its licence")


def test_the_notices_ship_with_the_site():
    if not (DIST / "static").is_dir():
        pytest.skip(f"{DIST} is not built (run the build first)")
    shipped = DIST / "static" / NOTICES.name
    assert shipped.is_file(), f"dist/static/{NOTICES.name} is missing: the build must copy site/static as is"
    assert shipped.read_bytes() == NOTICES.read_bytes(), f"dist/static/{NOTICES.name} is not the source's copy"


def test_the_notices_name_each_licence():
    text = _doc(NOTICES)
    for needle in ("Pyodide", "Mozilla Public License", "CPython", "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2",
                   "micropip", "xz-decompress", "xz-embedded", "public domain", "MIT License",
                   "qrcode-generator", "jsQR", "Apache License", "TERMS AND CONDITIONS FOR USE"):
        assert needle in text, f"{NOTICES.relative_to(ROOT)} does not mention {needle!r}"


def test_the_readme_is_short():
    size = len(README.read_bytes())
    assert size <= README_LIMIT, (f"README.md is {size:,} bytes, over {README_LIMIT:,}: move the detail into docs/ "
                                  "and link it")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*$", text, re.M)}


def _local_links(path: Path) -> list[str]:
    """The relative links and image sources of a Markdown file (not web addresses)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r"""\bsrc=["']([^"']+)["']""", text)
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t, re.I)]


def test_every_link_of_the_readme_and_the_docs_exists():
    files = [README, *sorted((ROOT / "docs").glob("*.md"))]
    readme_docs = [t for t in _local_links(README) if t.split("#")[0].startswith("docs/")]
    assert len(readme_docs) >= 5, "README.md links into docs/ fewer than 5 times: the scan of its links is broken"
    broken = []
    for source in files:
        for target in _local_links(source):
            file_part, _, anchor = target.partition("#")
            dest = (source.parent / file_part).resolve() if file_part else source
            if not dest.exists():
                broken.append(f"{source.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{source.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "broken links:\n  " + "\n  ".join(broken)
