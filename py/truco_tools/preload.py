"""Module preloads: each module script of a page (`<script type="module" src=...>`) is
followed by a `<link rel="modulepreload">` for every module of its static import graph,
computed here from the built files (issue 43). Without them the browser finds the graph one
level at a time (a round trip per level: main.js, then what it imports, then what those
import...: six levels on the table); with them it asks for the whole graph at once, from
the page's head. Dynamic imports (`import(...)`) are left out: they are what the page loads
later, on purpose."""

from __future__ import annotations

import posixpath
import re

from .common import BuildError
from .output import Output

# A static import or re-export: `import x from "y"`, `import {a} from "y"`, `import "y"`,
# `export {a} from "y"`, `export * from "y"`; not `import("y")` (a dynamic import).
_STATIC_IMPORT = re.compile(
    r"""(?:^|[;}\s])(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*[\w$*{}\s,]+?\s*from\s*)["']([^"']+)["']""", re.M)
_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_MODULE_SCRIPT = re.compile(r"""<script type="module"(?: async)? src="([^"]+)"></script>""")
_NAMED = re.compile(r'(?:src|href)="([^"]+)"')


def static_imports(out: Output, entry: str) -> list[str]:
    """The modules `entry` (a path in dist/) imports statically, transitively, breadth first
    (the entry itself not included)."""
    order: list[str] = []
    seen = {entry}
    todo = [entry]
    while todo:
        rel = todo.pop(0)
        if rel not in out.files:
            raise BuildError(f"module preloads: {rel} is imported but not built")
        text = out.data(rel).decode("utf-8")
        text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", text))
        for ref in _STATIC_IMPORT.findall(text):
            if not ref.startswith("."):
                raise BuildError(f"module preloads: {rel} imports {ref!r}, not a relative path")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), ref))
            if target not in seen:
                seen.add(target)
                order.append(target)
                todo.append(target)
    return order


def add_module_preloads(out: Output) -> None:
    """After each module script of each page, a modulepreload link for each module of its
    static import graph that the page does not name yet (relative to the page)."""
    for rel in sorted(out.files):
        if not rel.endswith(".html"):
            continue
        html = out.data(rel).decode("utf-8")
        if not _MODULE_SCRIPT.search(html):
            continue
        folder = posixpath.dirname(rel)
        named = set(_NAMED.findall(html))

        def links(match: re.Match) -> str:
            tags = [match.group(0)]
            entry = posixpath.normpath(posixpath.join(folder, match.group(1)))
            for module in static_imports(out, entry):
                href = posixpath.relpath(module, folder or ".")
                if href not in named:
                    named.add(href)
                    tags.append(f'<link rel="modulepreload" href="{href}">')
            return "\n".join(tags)

        out.files[rel] = _MODULE_SCRIPT.sub(links, html).encode("utf-8")
