"""Installable and offline: the web app manifest (one per language), the check of the
committed PNG icons, and the service worker with every file of the build in its precache
group."""

from __future__ import annotations

import json
import re

from . import icons
from .common import ROOT, SITE, BuildError, sha256
from .output import Output
from .pages import DEFAULT_LANGUAGE, LANGUAGES, ui_strings

# The web app manifest's fixed values (the texts come from site/i18n/). theme_color is also the
# pages' <meta name="theme-color">; background_color is the pages' own background (the splash
# screen of the installed app).
APP = {
    "theme_color": "#0f3d24",
    "background_color": "#0a1f12",
    "apple_touch_icon": "static/icons/apple-touch-icon.png",
}
ICONS_SPEC = SITE / "icons.json"
SW_SOURCE = SITE / "sw.js"
# The line of site/sw.js that build.py replaces with the build's file list.
_SW_PRECACHE = re.compile(r"^const PRECACHE = \{[^\n]*\}; // replaced by build\.py$", re.M)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG (from its IHDR chunk)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise BuildError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def checked_icons() -> list[dict]:
    """The app's PNG icons (site/icons.json), checked: rendered from the current SVG with the
    current parameters (scripts/make_icons.py records that as `key`), unchanged since, and
    of their declared size. Rasterizing here would need a renderer that Netlify's build
    image lacks, so the PNGs are committed and verified instead."""
    spec = json.loads(ICONS_SPEC.read_text())
    if spec.get("key") != icons.render_key(spec):
        raise BuildError(f"{spec['source']} or site/icons.json changed since the PNG icons were "
                         "made: run `.venv/bin/python scripts/make_icons.py` and commit the PNGs")
    for icon in spec["icons"]:
        path = SITE / icon["src"]
        if not path.is_file():
            raise BuildError(f"site/{icon['src']} is missing: run scripts/make_icons.py")
        data = path.read_bytes()
        if sha256(data) != icon.get("sha256"):
            raise BuildError(f"site/{icon['src']} is not the icon scripts/make_icons.py made: run it again")
        if png_size(data) != (icon["size"], icon["size"]):
            raise BuildError(f"site/{icon['src']} is {png_size(data)}, not {icon['size']} x {icon['size']}")
    return spec["icons"]


def web_manifest(icons: list[dict], lang: str = DEFAULT_LANGUAGE) -> bytes:
    """manifest.webmanifest: what Chromium needs to offer installation, one per language
    (in its folder). Every language is the same app: its `id` and `scope` are the site's
    root, and it starts on the pages of its own language."""
    strings = ui_strings(lang)
    up = "../" * LANGUAGES[lang].count("/")
    doc = {
        # Resolved against start_url: the root for every language (one app, not three).
        "id": up or "./",
        "name": strings["app.title"],
        "short_name": strings["app.short_name"],
        "description": strings["app.description"],
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",
        "scope": up or "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": APP["theme_color"],
        "background_color": APP["background_color"],
        "categories": ["games", "entertainment"],
        "icons": [
            {"src": up + "static/icons/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            *({"src": up + i["src"], "sizes": f"{i['size']}x{i['size']}", "type": "image/png", "purpose": i["purpose"]}
              for i in icons if i["purpose"] in ("any", "maskable")),
        ],
    }
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def deploy_headers_digest() -> str:
    """A hash of netlify.toml's [[headers]]: the service worker keeps each file's response
    headers (the pages' CSP), so new headers make a new build for it too."""
    import tomllib

    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    return sha256(json.dumps(config.get("headers", []), sort_keys=True).encode())


# The service worker's precache groups (site/sw.js), by the folder a file is in: "shell" is
# always precached, the other groups only once a page has started the engine. A file at the
# root of dist/ or in a language folder (the pages, the manifests) is "shell"; a folder named
# here gets its group; any other folder is "engine" (precached with the engine, never for the
# marcador alone), so a new folder of start-up files falls into place without an edit here.
PRECACHE_GROUPS = {
    "static": "shell",       # CSS, JS modules, icons: every page's
    "pyodide": "pyodide",    # Pyodide's stock files: the wheel path's wasm, Emscripten module and stdlib
    "snapshot": "snapshot",  # the memory snapshot path's own files
    "wheels": "fallback",    # the wheel path: micropip and the engine wheel
}
# Files whose group is not their folder's: Pyodide's loader module, which both paths import.
PRECACHE_FILE_GROUPS = {"pyodide/pyodide.mjs": "loader"}
SHELL_GROUP = "shell"
OTHER_FOLDER_GROUP = "engine"
# The engine's groups each start-up path needs (worker_start.js): a page whose engine is ready
# has the groups of the path its worker took precached, and only those. The snapshot path is
# 5.6 MB; the wheel path's stock Pyodide is 13.5 MB more, which a player whose browser starts
# from the snapshot would download for nothing (it was, up to issue 43).
PRECACHE_PATHS = {
    "snapshot": ["engine", "loader", "snapshot"],
    "wheel": ["engine", "fallback", "loader", "pyodide"],
}


def precache_group(rel: str) -> str:
    """The service worker's precache group of a file of dist/ (see PRECACHE_GROUPS)."""
    if rel in PRECACHE_FILE_GROUPS:
        return PRECACHE_FILE_GROUPS[rel]
    folder, _, rest = rel.partition("/")
    if not rest:
        return SHELL_GROUP
    if folder + "/" in LANGUAGES.values():
        return precache_group(rest)
    return PRECACHE_GROUPS.get(folder, OTHER_FOLDER_GROUP)


def service_worker(out: Output) -> bytes:
    """dist/sw.js: site/sw.js with every file of the build (but itself and manifest.json),
    its sha256 and its precache group; the build id names its cache."""
    source = SW_SOURCE.read_text(encoding="utf-8")
    files = {rel: sha256(out.data(rel)) for rel in sorted(out.files)}
    groups: dict[str, list[str]] = {}
    for rel in files:
        groups.setdefault(precache_group(rel), []).append(rel)
    headers = deploy_headers_digest()
    build_id = sha256(json.dumps({"files": files, "headers": headers, "sw": sha256(source.encode()),
                                 "paths": PRECACHE_PATHS},
                                 sort_keys=True).encode())[:16]
    precache = json.dumps({"build": build_id, "headers": headers[:16], "files": files, "groups": groups,
                           "paths": PRECACHE_PATHS},
                          indent=1, sort_keys=True, ensure_ascii=False)
    line = f"const PRECACHE = {precache}; // generated by build.py"
    text, count = _SW_PRECACHE.subn(lambda _m: line, source)
    if count != 1:
        raise BuildError("site/sw.js must have one `const PRECACHE = {...}; // replaced by build.py` line")
    return text.encode("utf-8")
