"""The first visit's byte budget: what the table downloads up to the first deal on the
snapshot path, from a host that compresses nothing; the build fails past it."""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

from .common import BuildError, log
from .output import Output
from .snapshot import SNAPSHOT_FILE, SNAPSHOT_LOADER_FILE, SNAPSHOT_WASM_FILE, XZ_DECODER_FILE

# What a first visit of the table may download up to the first deal on the snapshot path,
# on a host that compresses nothing (check_first_visit_budget).
FIRST_VISIT_BUDGET = 7_000_000


class _PageRefs(HTMLParser):
    """The files a browser fetches for a page: scripts, style sheets, module preloads, the
    icon and the web app manifest (not the links to other pages)."""

    FETCHED_RELS = {"stylesheet", "modulepreload", "icon", "manifest"}

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "img") and attrs.get("src"):
            self.refs.append(attrs["src"])
        elif tag == "link" and attrs.get("href") and set((attrs.get("rel") or "").split()) & self.FETCHED_RELS:
            self.refs.append(attrs["href"])


_JS_IMPORTS = re.compile(r"""(?:\bimport\s*(?:[\w*{}\s,]+\s*from\s*)?|\bexport\s+[\w*{}\s,]+\s+from\s*|\bimport\(\s*|new URL\(\s*)["']([^"']+)["']""")
_CSS_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


def page_files(out: Output, page: str) -> list[str]:
    """A page of the build and every file of the build it refers to, transitively (HTML
    references, CSS url()s, JS imports, dynamic imports and `new URL(..., import.meta.url)`)."""
    seen: list[str] = []
    todo = [page]
    while todo:
        rel = todo.pop()
        if rel in seen or rel not in out.files:
            continue
        seen.append(rel)
        suffix = Path(rel).suffix
        if suffix == ".html":
            parser = _PageRefs()
            parser.feed(out.data(rel).decode("utf-8"))
            refs = parser.refs
        elif suffix in (".js", ".mjs"):
            refs = _JS_IMPORTS.findall(out.data(rel).decode("utf-8"))
        elif suffix == ".css":
            refs = _CSS_URLS.findall(out.data(rel).decode("utf-8"))
        else:
            continue
        for ref in refs:
            if re.match(r"[a-z]+:", ref) or ref.startswith(("#", "/")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), ref.split("?")[0].split("#")[0]))
            todo.append(target)
    return sorted(seen)


# The worker's files on the snapshot path, which it names by variables (Pyodide's folder), and
# the script of the worker that decodes the snapshot beside it (worker_xz.js, decodeBeside).
SNAPSHOT_PATH_FILES = ("pyodide/pyodide.mjs", SNAPSHOT_LOADER_FILE, SNAPSHOT_WASM_FILE, SNAPSHOT_FILE,
                       XZ_DECODER_FILE, "static/js/engine/xz_job.js")


def first_visit(out: Output, budget: int = FIRST_VISIT_BUDGET) -> dict:
    """The bytes of the table's first visit up to the first deal, on the snapshot path and a
    host that compresses nothing: index.html, what it refers to (style sheets, modules, the
    worker, the xz decoder, build_info.js), Pyodide's two loader modules and the xz'd
    WebAssembly and snapshot. Fails the build past `budget`."""
    files = sorted(set(page_files(out, "index.html")) | set(SNAPSHOT_PATH_FILES))
    missing = [rel for rel in files if rel not in out.files]
    if missing:
        raise BuildError(f"the snapshot path names files the build does not make: {missing}")
    sizes = {rel: len(out.data(rel)) for rel in files}
    total = sum(sizes.values())
    log(f"first visit of the table (snapshot path, no HTTP compression): {total:,} bytes in "
        f"{len(files)} files (budget {budget:,})")
    if total > budget:
        biggest = sorted(sizes.items(), key=lambda kv: -kv[1])[:6]
        raise BuildError(f"the table's first visit downloads {total:,} bytes, over the budget of "
                         f"{budget:,}: " + ", ".join(f"{rel} {size:,}" for rel, size in biggest))
    return {"budget": budget, "bytes": total, "files": files}
