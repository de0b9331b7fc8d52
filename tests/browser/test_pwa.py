"""Installable, offline, updated cleanly, and served with the deploy's headers.

- netlify.toml's headers, value by value (the CSP directive by directive), for every file and
  page of dist/; serve.py sends exactly those (so every end-to-end test runs under them);
- the web app manifest and its icons; no inline script or handler in any page;
- in Chromium: the service worker precaches every file of the build; offline, the table plays
  a hand and the tutorial and the marcador open; no CSP violation on any page; no request
  leaves the origin;
- when and what: the table registers it only after its first deal, the tutorial only once its
  engine is ready (never while it is not started), the embed never; the precache takes from
  the HTTP cache what the page downloaded (counted at the server, on a profile with a disk
  cache), a repeat visit moves nothing but sw.js, the wheel fallback plays offline; the
  marcador precaches the shell only, and the table later fills in the engine's groups;
  window.__pwa reports what the precache moved;
- an update: a second build is downloaded in the background, the page offers "Nova versão
  disponível", every file the open pages get until then is from the first build (a tab open
  during the update stays on it), and accepting reloads into the new build with the game in
  progress intact.

The browser tests allow service workers (conftest blocks them elsewhere).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from helpers import DIST, ROOT
from helpers.browser import ENGINE_TIMEOUT_MS, READY, ConsoleWatch
from helpers.table import act, obs, start, wait_turn

from truco_tools import serve
from truco_tools.pages import csp_hash

SW_TIMEOUT_MS = 180_000

# ------------------------------------------------------------------ netlify.toml's headers

# The pages' one inline script, the language choice written into <head> (issue 43), is
# allowed by its hash (the build checks netlify.toml lists it; the embed has no such script).
LANG_SCRIPT = csp_hash((ROOT / "site" / "static" / "js" / "shared" / "lang_redirect.js").read_text(encoding="utf-8"))
PAGE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'", LANG_SCRIPT],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "media-src": ["'none'"],
    "frame-src": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
}
EMBED_CSP = {**PAGE_CSP, "script-src": ["'self'", "'wasm-unsafe-eval'"], "frame-ancestors": ["*"]}
# The engine worker imports Pyodide's Emscripten module from the bytes it decoded and checked
# (snapshot/pyodide.asm.mjs.xz) through a blob: URL: blob: for the workers' scripts only.
WORKER_CSP = {
    "default-src": ["'none'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'", "blob:"],
    "connect-src": ["'self'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
}
SW_CSP = {**WORKER_CSP, "script-src": ["'self'"]}
# Permissions-Policy: what the pages use, for this origin only; every other feature is off.
# The camera reads the friends' handshake QR code (issue 31), this origin only.
ALLOWED_FEATURES = {"camera": "(self)", "clipboard-write": "(self)", "fullscreen": "(self)",
                    "screen-wake-lock": "(self)"}
FORBIDDEN_SOURCES = {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "data:", "blob:", "http:", "https:",
                     "'strict-dynamic'", "filesystem:"}


def rules():
    return serve.load_header_rules()


def parse_csp(value: str) -> dict[str, list[str]]:
    out = {}
    for directive in value.split(";"):
        parts = directive.split()
        if parts:
            assert parts[0] not in out, f"directive {parts[0]} twice"
            out[parts[0]] = parts[1:]
    return out


def dist_paths() -> list[str]:
    """Every URL path of dist/: its files, `/`, and each page without .html (Netlify's pretty URLs)."""
    files = sorted(p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file())
    paths = ["/" + f for f in files] + ["/"]
    pages = [f for f in files if f.endswith(".html") and "/" not in in_language_dir(f)]
    paths += ["/" + f[:-5] for f in pages] + ["/" + d for d in LANGUAGE_DIRS if d]
    return paths


# The folders the pages are in: Portuguese at the root, Spanish and English in their own.
LANGUAGE_DIRS = ["", "es/", "en/"]


def in_language_dir(rel: str) -> str:
    """A path inside a language folder, without the folder ("es/tutorial.html" -> "tutorial.html")."""
    for d in LANGUAGE_DIRS:
        if d and (rel + "/").startswith(d):
            return rel[len(d):]
    return rel


def page_paths(name: str) -> list[str]:
    """The URL paths of a page in every language (with and without .html)."""
    return [p for d in LANGUAGE_DIRS
            for p in [f"/{d}{name}", f"/{d}{name[:-5]}"] + ([f"/{d}"] if name == "index.html" else [])]


def expected_csp(path: str) -> dict | None:
    name = in_language_dir(path.strip("/")) or "index"
    if path == "/sw.js":
        return SW_CSP
    if path.startswith("/static/"):
        return WORKER_CSP
    if "/" not in name and (name.endswith(".html") or "." not in name):
        return EMBED_CSP if name.startswith("embed") else PAGE_CSP
    return None


def test_the_header_matcher_is_netlifys(dist_dir):
    match = lambda pattern, path: bool(serve.for_regexp(pattern).match(path))  # noqa: E731
    assert match("/*", "/") and match("/*", "/pyodide/pyodide.asm.wasm")
    assert match("/", "/") and not match("/", "/index.html")
    assert match("/index*", "/index.html") and match("/INDEX.html", "/index.html")
    assert not match("/index*", "/embed.html") and not match("/tutorial*", "/static/js/tutorial/tutorial.js")
    assert match("/*.wasm", "/pyodide/pyodide.asm.wasm") and not match("/*.wasm", "/pyodide/pyodide.mjs")
    assert match("/static/*", "/static/js/engine/worker.js") and match("/sw.js", "/sw.js/")
    # Netlify normalizes multi-line and list values to "a, b".
    assert serve._normalize_value("a,\n  b ,c") == "a, b, c" and serve._normalize_value(["a", "b"]) == "a, b"


def test_no_header_is_set_by_two_rules_for_one_path(dist_dir):
    """Netlify merges matching rules; a clash would make the result depend on its merge order."""
    for path in dist_paths():
        seen: dict[str, str] = {}
        for pattern, matcher, values in rules():
            if matcher.match(path):
                for name in values:
                    assert name.lower() not in seen, \
                        f"{path}: {name} set by both {seen[name.lower()]!r} and {pattern!r}"
                    seen[name.lower()] = pattern


def test_every_page_has_the_strict_csp_directive_by_directive(dist_dir):
    pages = sorted(p.name for p in DIST.glob("*.html"))
    assert {"index.html", "tutorial.html", "embed.html", "marcador.html"} <= set(pages)
    for name in pages:
        for path in page_paths(name):
            headers = serve.headers_for(path, rules())
            csp = parse_csp(headers.get("Content-Security-Policy", ""))
            want = EMBED_CSP if name == "embed.html" else PAGE_CSP
            for directive, sources in want.items():
                assert sorted(csp.get(directive, [])) == sorted(sources), f"{path}: {directive} {csp.get(directive)}"
            assert set(csp) == set(want), f"{path}: unexpected directives {set(csp) ^ set(want)}"
            if name == "embed.html":
                assert "X-Frame-Options" not in headers and "Cross-Origin-Opener-Policy" not in headers
            else:
                assert headers["X-Frame-Options"] == "DENY"
                assert headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_workers_and_every_file_get_the_expected_policy(dist_dir):
    for path in dist_paths():
        headers = serve.headers_for(path, rules())
        want = expected_csp(path)
        got = headers.get("Content-Security-Policy")
        if want is None:
            assert got is None, f"{path}: a CSP on a file that is not a page or a worker: {got}"
            continue
        csp = parse_csp(got or "")
        assert csp == want, f"{path}: {csp}"
        for directive, sources in csp.items():
            bad = set(sources) & FORBIDDEN_SOURCES
            if want is WORKER_CSP and directive == "script-src":
                bad -= {"blob:"}
            assert not bad, f"{path}: {directive} allows {bad}"
            assert "*" not in sources or directive == "frame-ancestors", f"{path}: {directive} *"


def test_every_file_has_the_common_headers_and_its_cache_policy(dist_dir):
    manifest = json.loads((DIST / "manifest.json").read_text())["files"]
    for path in dist_paths():
        headers = serve.headers_for(path, rules())
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["Referrer-Policy"] == "no-referrer", path
        features = dict(f.strip().split("=", 1) for f in headers["Permissions-Policy"].split(","))
        for feature, allow in features.items():
            assert allow == ALLOWED_FEATURES.get(feature, "()"), f"{path}: {feature}={allow}"
        assert set(ALLOWED_FEATURES) <= set(features)
        assert {"camera", "microphone", "geolocation", "payment", "usb"} <= set(features)
        cache = [d.strip() for d in headers["Cache-Control"].split(",")]
        rel = path.lstrip("/")
        if "immutable" in cache:
            # Only a name that carries the file's own content hash may be cached for good.
            digest = manifest.get(rel, {}).get("sha256", "")
            hashes = re.findall(r"[0-9a-f]{8,}", rel)
            assert digest and any(digest.startswith(h) for h in hashes), f"{path} is immutable without a hash"
        else:
            assert "no-cache" in cache or ("max-age=0" in cache and "must-revalidate" in cache), f"{path}: {cache}"
        if path == "/sw.js" or path.endswith((".html", ".webmanifest")) or "." not in rel:
            assert "no-cache" in cache, f"{path} must be revalidated every time: {cache}"


def test_mime_types(dist_dir):
    types = {path: serve.headers_for(path, rules()).get("Content-Type") for path in dist_paths()}
    assert types["/pyodide/pyodide.asm.wasm"] == "application/wasm"
    assert types["/pyodide/pyodide.mjs"].startswith("text/javascript")
    assert types["/manifest.webmanifest"].startswith("application/manifest+json")


def test_serve_sends_exactly_the_headers_of_netlify_toml(static_server):
    """What the end-to-end tests get is what Netlify sends."""
    samples = ["/", "/index.html", "/tutorial", "/tutorial.html", "/embed.html", "/marcador.html", "/sw.js",
               "/manifest.webmanifest", "/manifest.json", "/static/js/engine/worker.js", "/static/css/app.css",
               "/static/icons/icon-192.png", "/pyodide/pyodide.asm.wasm", "/pyodide/pyodide.mjs"]
    samples += [f"/{p.name}" for p in DIST.glob("*.html")]
    for path in samples:
        request = urllib.request.Request(static_server.rstrip("/") + path, method="HEAD")
        with urllib.request.urlopen(request) as response:
            assert response.status == 200, path
            got = response.headers
            for name, value in serve.headers_for(path, rules()).items():
                assert got.get_all(name) == [value], f"{path}: {name} is {got.get_all(name)}, netlify.toml says {value}"
            assert len(got.get_all("Cache-Control")) == 1
            assert len(got.get_all("Content-Security-Policy") or []) <= 1


def test_serve_lists_no_folder_and_its_404_has_the_pages_headers(static_server):
    """/pyodide/ and /wheels/ were pages of links without the CSP or the framing rules."""
    for path in ["/pyodide/", "/wheels/", "/static/js/", "/snapshot/"]:
        try:
            urllib.request.urlopen(static_server.rstrip("/") + path)
        except urllib.error.HTTPError as err:
            assert err.code == 404, path
            assert err.headers["Content-Security-Policy"] == serve.headers_for("/index.html", rules())["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in err.headers["Content-Security-Policy"]
            assert "<a href" not in err.read().decode(), path
        else:
            raise AssertionError(f"{path} answered 200")


def test_serve_revalidates_by_etag_so_a_file_changed_within_the_second_is_sent_again(tmp_path):
    """Two deploys within one second: Last-Modified (to the second) would answer the second
    one's sw.js with a 304, and the browser would keep the old service worker."""
    site = tmp_path / "site"
    site.mkdir()
    sw = site / "sw.js"
    sw.write_text("// build 1\n")
    server, base = serve.serve_in_thread(site)
    try:
        def get(headers=None):
            request = urllib.request.Request(base + "sw.js", headers=headers or {})
            try:
                with urllib.request.urlopen(request) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as err:
                return err.code, err.headers, b""
        status, headers, body = get()
        assert status == 200 and body == b"// build 1\n"
        assert headers["ETag"] and not headers["Last-Modified"]
        validators = {"If-None-Match": headers["ETag"],
                      "If-Modified-Since": "Fri, 31 Dec 2100 23:59:59 GMT"}  # the future: "not modified"
        assert get(validators)[0] == 304
        mtime = sw.stat().st_mtime
        sw.write_text("// build 2\n")  # same size
        os.utime(sw, (mtime, mtime))  # same second, to the nanosecond if the filesystem allows
        replacement = site / "sw.js.new"
        replacement.write_text("// build 3\n")
        os.utime(replacement, (mtime, mtime))
        os.replace(replacement, sw)  # an atomic deploy: a new file (inode) in its place
        status, headers, body = get(validators)
        assert (status, body) == (200, b"// build 3\n")
        assert get({"If-None-Match": headers["ETag"]})[0] == 304
    finally:
        server.shutdown()
        server.server_close()


# ------------------------------------------------------------------ pages, manifest, icons

class PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.links: list[dict] = []
        self.metas: list[dict] = []
        self._script_type = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name, _ in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…> (inline handler)")
            if name == "style":
                self.problems.append(f"<{tag} style=…> (inline style)")
        for name in ("href", "src", "action", "formaction"):
            if (a.get(name) or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:…>")
        if tag == "style":
            self.problems.append("<style> element")
        if tag == "script":
            self._script_type = a.get("type") or ""
            if "src" not in a and self._script_type != "application/json":
                self._inline = []  # judged at its end: only the language choice may be inline
        if tag == "link":
            self.links.append(a)
        if tag == "meta":
            self.metas.append(a)

    _inline: list[str] | None = None

    def handle_data(self, data):
        if self._inline is not None:
            self._inline.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._inline is not None:
            if csp_hash("".join(self._inline)) != LANG_SCRIPT:
                self.problems.append(f"inline <script type={self._script_type!r}>")
            self._inline = None


def test_no_page_has_inline_script_style_or_handlers(dist_dir):
    for page in sorted(DIST.glob("*.html")):
        parser = PageParser()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not parser.problems, f"{page.name}: {parser.problems}"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_web_manifest_is_valid_and_its_icons_exist_at_their_sizes(dist_dir):
    doc = json.loads((DIST / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert doc["name"] == "Truco Mineiro" and doc["short_name"] and len(doc["short_name"]) <= 12
    assert doc["lang"] == "pt-BR" and "navegador" in doc["description"]
    assert doc["display"] == "standalone" and doc["start_url"] == "./" and doc["scope"] == "./"
    assert re.fullmatch(r"#[0-9a-f]{6}", doc["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", doc["background_color"])
    sizes = {}
    for icon in doc["icons"]:
        data = (DIST / icon["src"]).read_bytes()
        if icon["type"] == "image/svg+xml":
            assert icon["sizes"] == "any"
            continue
        assert icon["type"] == "image/png"
        w, h = png_size(data)
        assert icon["sizes"] == f"{w}x{h}", icon
        sizes.setdefault(icon["purpose"], set()).add(w)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]
    # Every page but the embed links the manifest, the Apple touch icon (180 x 180) and the
    # manifest's theme colour.
    for page in sorted(DIST.glob("*.html")):
        parser = PageParser()
        parser.feed(page.read_text(encoding="utf-8"))
        rels = {link.get("rel"): link.get("href") for link in parser.links}
        theme = [m.get("content") for m in parser.metas if m.get("name") == "theme-color"]
        assert theme == [doc["theme_color"]], page.name
        if page.name == "embed.html":
            assert "manifest" not in rels, "the embed lives in other sites' frames"
            continue
        assert rels.get("manifest") == "manifest.webmanifest", page.name
        assert png_size((DIST / rels["apple-touch-icon"]).read_bytes()) == (180, 180)


def load_build_module():
    """A fresh copy of the build's PWA module (the test changes its globals)."""
    spec = importlib.util.find_spec("truco_tools.pwa")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_icons_are_checked_against_the_svg(dist_dir, tmp_path, monkeypatch):
    """The PNGs are committed; the build refuses them once the SVG (or their spec) changed."""
    build = load_build_module()
    assert [i["size"] for i in build.checked_icons()] == [192, 512, 512, 180]
    spec = json.loads((ROOT / "site/icons.json").read_text())
    svg = ROOT / "site" / spec["source"]
    changed = tmp_path / "site"
    shutil.copytree(ROOT / "site" / "static" / "icons", changed / "static" / "icons")
    (changed / "icons.json").write_text(json.dumps(spec))
    monkeypatch.setattr(build, "SITE", changed)
    monkeypatch.setattr(build, "ICONS_SPEC", changed / "icons.json")
    # make_icons.render_key reads from its own SITE: point it at the copy too.
    from truco_tools import icons as make_icons
    monkeypatch.setattr(make_icons, "SITE", changed)
    assert build.checked_icons()
    (changed / spec["source"]).write_bytes(svg.read_bytes().replace(b"#14532d", b"#14532e"))
    with pytest.raises(build.BuildError, match="make_icons"):
        build.checked_icons()


def sw_precache(dist: Path) -> dict:
    return sw_precache_text((dist / "sw.js").read_text(encoding="utf-8"))


def sw_precache_text(text: str) -> dict:
    match = re.search(r"^const PRECACHE = (\{.*?\}); // generated by build\.py$", text, re.M | re.S)
    assert match, "sw.js has no generated PRECACHE"
    return json.loads(match.group(1))


def test_service_worker_lists_every_file_of_the_build(dist_dir):
    precache = sw_precache(DIST)
    files = json.loads((DIST / "manifest.json").read_text())["files"]
    assert set(precache["files"]) == set(files) - {"sw.js"}
    for rel, sha in precache["files"].items():
        assert sha == files[rel]["sha256"], rel
    assert re.fullmatch(r"[0-9a-f]{16}", precache["build"])
    for needed in ("index.html", "tutorial.html", "marcador.html", "manifest.webmanifest",
                   "pyodide/pyodide.asm.wasm", "static/js/engine/worker.js", "static/icons/icon-512.png"):
        assert needed in precache["files"]
    assert any(rel.startswith("wheels/") for rel in precache["files"])


# ------------------------------------------------------------------ in Chromium

# Reports CSP violations (the event carries what the console line may not) as console errors.
CSP_LISTENER = """
addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch_all(context, base_url: str):
    """A ConsoleWatch over every page and worker of `context`, and every request's origin."""
    watch = ConsoleWatch()
    origin = urlsplit(base_url)
    foreign: list[str] = []

    def on_request(request):
        url = urlsplit(request.url)
        if url.scheme in ("data", "blob"):
            return
        if (url.scheme, url.netloc) != (origin.scheme, origin.netloc):
            foreign.append(request.url)

    def on_page(page):
        watch.watch(page)
        page.on("worker", lambda worker: worker.on(
            "console", lambda msg: watch._on_console(msg)))

    context.add_init_script(CSP_LISTENER)
    context.on("page", on_page)
    context.on("request", on_request)
    watch.foreign = foreign
    return watch


def new_context(browser, base_url):
    context = browser.new_context(base_url=base_url, service_workers="allow")
    return context, watch_all(context, base_url)


def sha_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wait_sw_ready(page):
    """An active service worker that has cached the whole build (install does that first)."""
    page.wait_for_function("() => window.__pwa && window.__pwa.registration && window.__pwa.registration.active",
                           timeout=SW_TIMEOUT_MS)
    assert page.evaluate("window.__pwa.ready()") is True


def cached_files(page) -> dict[str, list[str]]:
    """Cache name -> the files it holds (paths relative to the site)."""
    return page.evaluate("""async () => {
        const out = {};
        for (const name of await caches.keys()) {
          const keys = await (await caches.open(name)).keys();
          out[name] = keys.map((r) => new URL(r.url).pathname.slice(1));
        }
        return out; }""")


def path_files(precache: dict, *paths: str) -> set[str]:
    """The files the service worker precaches for a page whose engine took these start-up paths."""
    groups = {"shell"} | {g for path in paths for g in precache["paths"][path]}
    return {rel for g in groups for rel in precache["groups"].get(g, [])}


def test_installs_precaches_the_path_it_took_and_plays_offline(browser, static_server):
    context, watch = new_context(browser, static_server)
    page = context.new_page()
    page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    wait_sw_ready(page)

    # The pages and the snapshot path's files are in the cache of this build, and nothing
    # else of ours: not the wheel path's stock Pyodide (13.5 MB this browser did not need).
    precache = sw_precache(DIST)
    caches = cached_files(page)
    build_cache = f"truco-build-{precache['build']}"
    assert set(caches) == {build_cache, "truco-sw-state"}, caches
    assert page.evaluate("document.documentElement.dataset.enginePath") == "snapshot"
    assert set(caches[build_cache]) == path_files(precache, "snapshot") | {"__truco_sw/listing.json"}
    assert "snapshot/engine.snapshot.xz" in caches[build_cache] and "pyodide/pyodide.mjs" in caches[build_cache]
    assert "pyodide/pyodide.asm.wasm" not in caches[build_cache]

    # No network at all: the reload comes from the service worker, and a hand is played.
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    assert page.evaluate("!!navigator.serviceWorker.controller")

    # Chromium reads the manifest without errors and finds nothing to prevent installation
    # (but the private window Playwright's context is).
    cdp = context.new_cdp_session(page)
    app_manifest = cdp.send("Page.getAppManifest")
    assert app_manifest["url"].endswith("/manifest.webmanifest")
    assert app_manifest["errors"] == [], app_manifest["errors"]
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert {e["errorId"] for e in installability} <= {"in-incognito"}, installability
    cdp.detach()

    start(page, {"mode": "1x1"}, {"seed": 11})
    first = obs(page)["hand_number"]
    for _ in range(40):
        o = obs(page)
        if o["hand_number"] > first or page.locator("#app").get_attribute("data-phase") == "over":
            break
        act(page)
    else:
        pytest.fail("the hand did not end offline")

    # The tutorial and the marcador open offline, and every other page too: no CSP
    # violation anywhere (CSP_LISTENER turns them into console errors).
    page.goto("/tutorial.html?engine=now")
    page.wait_for_selector("html[data-engine=ready]", timeout=ENGINE_TIMEOUT_MS)
    assert page.locator("h1, h2").first.is_visible()
    page.goto("/marcador")
    page.locator("#buttons-0 button").first.click()
    assert page.locator("#points-0").inner_text() != "0"
    page.goto("/embed.html?scenario=manilhas-copas&fast=1&engine=now")
    page.wait_for_selector(".exercise-live[data-state=playing] .mt.my-turn", timeout=ENGINE_TIMEOUT_MS)
    for other in sorted(p.name for p in DIST.glob("*.html")):
        if other not in ("index.html", "tutorial.html", "marcador.html", "embed.html"):
            page.goto(f"/{other}")
            page.wait_for_load_state("load")
    context.close()
    watch.check()
    assert not watch.foreign, f"requests left the origin: {watch.foreign}"


# ------------------------------------------------------------------ an update

def two_builds(tmp_path: Path) -> tuple[Path, Path]:
    """Two deploys, as build.py makes them from one copy of the sources: the first as they
    are, the second with one change (a line of pwa.css). (A copy, so that edits made to the
    working tree meanwhile do not come between them; wheel and snapshot come from the cache.)"""
    src = tmp_path / "src"
    src.mkdir()
    for path in ROOT.iterdir():
        if path.is_file() and (path.suffix in {".py", ".toml", ".json", ".md"} or path.name.startswith("LICENSE")):
            shutil.copy2(path, src / path.name)
    for folder in ("site", "py", "scripts"):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (src / "node_modules").symlink_to(ROOT / "node_modules")
    outs = []
    for n in (1, 2):
        if n == 2:
            css = src / "site" / "static" / "css" / "pwa.css"
            # A rule, not a comment: the build ships style sheets without their comments.
            css.write_text(css.read_text() + "\n.update-bar { --deploy: \"build 2\"; }\n")
        out = tmp_path / f"dist{n}"
        env = dict(os.environ, TRUCO_DIST_DIR=str(out), TRUCO_CACHE_DIR=str(ROOT / ".cache"),
                   PYTHONPATH=str(src / "py"))  # the copy's tooling, not the checkout's
        proc = subprocess.run([sys.executable, str(src / "build.py")], cwd=src, env=env,
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        outs.append(out)
    return outs[0], outs[1]


def switch_deploy(live: Path, target: Path) -> None:
    """Point the served folder at another build at once (an atomic deploy)."""
    new = live.with_name(live.name + ".new")
    new.symlink_to(target)
    os.replace(new, live)


class Recorder:
    """What the pages (and their workers) receive: (url, sha256 of the body)."""

    def __init__(self, context, base_url):
        self.base = base_url.rstrip("/")
        self.got: list[tuple[str, set[str], bool, str]] = []
        self.sw_downloads: list[str] = []  # what the service worker fetched from the network
        context.on("response", self._on_response)

    def _on_response(self, response):
        request = response.request
        if request.service_worker is not None:
            # The service worker's own downloads are not something a page received.
            self.sw_downloads.append(urlsplit(response.url).path.lstrip("/"))
            return
        if not response.url.startswith(self.base):
            return
        if response.status != 200 or request.method != "GET":
            return
        if int(response.headers.get("content-length") or 0) > 1_000_000:
            return  # Pyodide's big files: the same in both builds, and slow to pass around
        try:
            body = response.body()
        except Exception:  # noqa: BLE001 (a page that went away meanwhile)
            return
        path = urlsplit(response.url).path.lstrip("/") or "index.html"
        if "." not in path.rsplit("/", 1)[-1]:
            path += ".html"
        shas = {sha_hex(body)}
        try:
            # CDP hands back the body of a fetch() of a text file served without a charset
            # decoded as windows-1252 (then UTF-8 encoded): undo that to compare bytes.
            shas.add(sha_hex(bytes(b for ch in body.decode("utf-8") for b in
                                   (ch.encode("cp1252") if ord(ch) > 255 else bytes([ord(ch)])))))
        except (UnicodeDecodeError, UnicodeEncodeError):
            pass
        try:
            who = request.frame.url
        except Exception:  # noqa: BLE001 (a worker's request has no frame)
            who = "worker"
        self.got.append((path, shas, response.from_service_worker, who))

    def take(self):
        got, self.got = self.got, []
        return got


def assert_from(build_files: dict, got, label: str):
    assert got, f"no file received ({label})"
    for path, shas, _from_sw, who in got:
        if path in build_files:
            assert build_files[path]["sha256"] in shas, f"{path} (for {who}) is not from the {label}: {got}"


def test_an_update_is_offered_never_mixed_and_keeps_the_game(browser, tmp_path):
    dist1, dist2 = two_builds(tmp_path)
    files1 = json.loads((dist1 / "manifest.json").read_text())["files"]
    files2 = json.loads((dist2 / "manifest.json").read_text())["files"]
    # The change, and the service worker that lists it: nothing else differs.
    assert {rel for rel in files2 if files1.get(rel) != files2[rel]} == {"static/css/pwa.css", "sw.js"}
    assert sw_precache(dist1)["build"] != sw_precache(dist2)["build"]

    live = tmp_path / "live"
    live.symlink_to(dist1)
    server, base_url = serve.serve_in_thread(live)
    context, watch = new_context(browser, base_url)
    recorder = Recorder(context, base_url)
    sw_log: list[str] = []
    context.on("serviceworker", lambda sw: sw.on("console", lambda msg: sw_log.append(msg.text)))
    try:
        page = context.new_page()
        page.goto("/?fast=1")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        wait_sw_ready(page)
        page.reload()  # now the service worker serves the page
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("!!navigator.serviceWorker.controller")
        start(page, {"mode": "1x1"}, {"seed": 5})
        act(page)
        act(page)
        before = obs(page)
        assert page.evaluate("localStorage.getItem('truco:session')")
        # A second tab, open during the whole update.
        other = context.new_page()
        other.goto("/marcador.html")
        other.wait_for_function("() => !!navigator.serviceWorker.controller")
        # The player opens a modal dialog (it makes the rest of the page inert).
        page.get_by_role("button", name="Sair da mesa").click()
        assert page.locator("#leave-dialog").is_visible()
        assert_from(files1, recorder.take(), "first build")

        # The new deploy: found in the background, offered, not used yet.
        recorder.sw_downloads.clear()
        page.evaluate("""() => { window.__upd = [];  // what the browser did, for a failure's message
            const r = window.__pwa.registration;
            r.addEventListener('updatefound', () => { const w = r.installing; window.__upd.push('found');
              w.addEventListener('statechange', () => window.__upd.push(w.state)); }); }""")
        switch_deploy(live, dist2)
        bar = page.locator("#update-bar")
        try:
            # An update check joins one already in flight (the spec's job queue coalesces
            # equivalent update jobs): a check the browser started before the switch then
            # sees the old sw.js. The page checks again later on its own; here, a few times.
            for _ in range(6):
                page.evaluate("window.__pwa.checkForUpdate()")
                try:
                    bar.wait_for(state="visible", timeout=SW_TIMEOUT_MS // 6)
                    break
                except Exception:  # noqa: BLE001
                    continue
            bar.wait_for(state="visible", timeout=1_000)
        except Exception:
            state = page.evaluate("""() => { const r = window.__pwa.registration;
                return r && {installing: r.installing?.state, waiting: r.waiting?.state, active: r.active?.state,
                             controller: !!navigator.serviceWorker.controller}; }""")
            served = page.evaluate("""() => fetch('sw.js', {cache: 'no-store'}).then((r) => r.text())""")
            pytest.fail(f"no update offered; registration: {state}; update events: {page.evaluate('window.__upd')}; "
                        f"sw.js served now is build {sw_precache_text(served)['build']} "
                        f"(builds {sw_precache(dist1)['build']} -> {sw_precache(dist2)['build']}); "
                        f"service worker console: {sw_log}")
        assert "Nova versão disponível" in bar.inner_text()
        # Only the new service worker and the changed file were downloaded: the other files
        # were copied from the first build's cache.
        assert set(recorder.sw_downloads) == {"sw.js", "static/css/pwa.css"}, recorder.sw_downloads
        assert page.locator("#leave-dialog #update-bar").count() == 1, "the bar must be usable over the dialog"
        assert other.locator("#update-bar").is_visible()
        # Until accepted, both pages get the first build only, and the table still plays.
        assert "build 2" not in page.evaluate("fetch('static/css/pwa.css').then((r) => r.text())")
        assert page.evaluate("window.__engine.call('echo', {still: 1})") == {"still": 1}
        other.reload()
        other.wait_for_load_state("load")
        assert_from(files1, recorder.take(), "first build")
        names = set(cached_files(page))
        assert {f"truco-build-{sw_precache(d)['build']}" for d in (dist1, dist2)} <= names

        # Accepting reloads into the new build, with the saved game.
        with page.expect_navigation():
            bar.get_by_role("button", name="Atualizar").click()
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        assert "build 2" in page.evaluate("fetch('static/css/pwa.css').then((r) => r.text())")
        assert_from(files2, [g for g in recorder.take() if "marcador" not in g[3]], "second build")
        cont = page.get_by_role("button", name="Continuar partida")
        cont.wait_for(state="visible")
        cont.click()
        wait_turn(page, None)
        after = obs(page)
        for key in ("hand", "rounds", "score", "hand_value", "to_move", "hand_number"):
            assert after[key] == before[key], key

        # The tab that stayed open keeps its build until it reloads, and is told to.
        other.locator("#update-bar").wait_for(state="visible")
        assert "build 2" not in other.evaluate("fetch('static/css/pwa.css').then((r) => r.text())")
        other.reload()
        assert "build 2" in other.evaluate("fetch('static/css/pwa.css').then((r) => r.text())")
        # No page uses the first build any more: its cache goes.
        build1 = f"truco-build-{sw_precache(dist1)['build']}"
        other.wait_for_function("(name) => caches.keys().then((k) => !k.includes(name))", arg=build1,
                                timeout=30_000)
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    watch.check()
    assert not watch.foreign, f"requests left the origin: {watch.foreign}"


# ------------------------------------------------------------------ when and what the precache fetches

def test_precache_groups_classify_files_by_folder(dist_dir):
    """The shell (pages, static/, manifests) is precached on any visit; the engine's groups
    only for a page that started the engine. New start-up files fall into place by folder."""
    build = load_build_module()
    assert build.precache_group("index.html") == "shell"
    assert build.precache_group("es/tutorial.html") == "shell"
    assert build.precache_group("en/manifest.webmanifest") == "shell"
    assert build.precache_group("static/js/vendor/xz.js") == "shell"
    assert build.precache_group("snapshot/engine.snapshot.xz") == "snapshot"
    assert build.precache_group("pyodide/pyodide.asm.wasm") == "pyodide"
    assert build.precache_group("pyodide/pyodide.mjs") == "loader", "the loader both paths import"
    assert build.precache_group("wheels/truco-0.1.0-py3-none-any.whl") == "fallback"
    assert build.precache_group("xz/decoder.wasm") == "engine", "an unknown folder goes with the engine"
    precache = sw_precache(DIST)
    listed = [rel for rels in precache["groups"].values() for rel in rels]
    assert sorted(listed) == sorted(precache["files"]), "every file in exactly one group"
    for rel in precache["files"]:
        assert rel in precache["groups"][build.precache_group(rel)], rel
    shell = set(precache["groups"]["shell"])
    assert {"index.html", "es/marcador.html", "en/tutorial.html", "static/js/engine/worker.js"} <= shell
    assert not any(rel.startswith(("pyodide/", "snapshot/", "wheels/")) for rel in shell)
    # What a marcador visit precaches stays small.
    assert sum((DIST / rel).stat().st_size for rel in shell) < 2_500_000
    # Each start-up path's groups: what the worker imports on that path (worker_start.js).
    paths = precache["paths"]
    assert set(paths["snapshot"]) & set(precache["groups"]) == {"loader", "snapshot"}
    assert set(paths["wheel"]) & set(precache["groups"]) == {"loader", "pyodide", "fallback"}


class LoggedServer:
    """dist/ with netlify.toml's headers, like serve.py, and a log of what it sent: (path, status)."""

    def __init__(self, directory: Path) -> None:
        import functools
        import http.server
        import threading

        log = self.log = []  # (path, status, Sec-Fetch-Dest)

        class Handler(serve.QuietHandler):
            rules = serve.load_header_rules()

            def send_response(self, code, message=None):
                log.append((self.path, int(code), self.headers.get("Sec-Fetch-Dest")))
                super().send_response(code, message)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(directory)))
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def take(self) -> list[tuple[str, int]]:
        return [(path, status) for path, status, _ in self.take_with_dest()]

    def take_with_dest(self) -> list[tuple[str, int, str | None]]:
        got, self.log[:] = list(self.log), []
        return got

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# When the table's first deal is on screen (the page's clock) and the caches at that moment.
MARK_THE_DEAL = """
(() => {
  if (location.pathname.endsWith('.html') && !location.pathname.endsWith('index.html')) return;
  const seen = () => {
    const app = document.getElementById('app');
    // A deal on screen with the engine ready: a first visit's opening is dealt before it, and
    // the service worker waits for both (pwa.js).
    if (!app || !['human', 'bots', 'over'].includes(app.dataset.phase) || app.dataset.engineState !== 'ready' || window.__dealt) return;
    window.__dealt = performance.now();
    caches.keys().then((names) => { window.__cachesAtDeal = names; });
  };
  new MutationObserver(seen).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-phase', 'data-engine-state'] });
})();
"""


def path_of(request_path: str) -> str:
    """A logged request path as the file it names ("/" and "/?q" are index.html)."""
    path = urlsplit(request_path).path
    return (path.lstrip("/") or "index.html") if not path.endswith("/") else path.lstrip("/") + "index.html"


def precache_report(page) -> dict:
    return page.evaluate("window.__pwa.precached()")


def test_first_visit_precache_after_the_deal_reuses_the_pages_downloads_and_repeat_visits_fetch_only_sw_js(
        browser_type, browser_type_launch_args, dist_dir, tmp_path):
    """A real profile (an HTTP cache on disk, as a player's browser has; Playwright's other
    contexts keep theirs in memory, where no entry over ~6 MB is kept): the table's first
    visit starts the service worker only after the first deal; its precache moves over the
    network only what the page did not download (the fallback's files, the other pages), and
    window.__pwa reports it; a repeat visit moves nothing but the sw.js check; offline, the
    table plays from the wheel fallback, and the pages open in every language."""
    server = LoggedServer(dist_dir)
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **browser_type_launch_args, base_url=server.url,
        service_workers="allow", locale="pt-BR")
    watch = watch_all(context, server.url)
    context.add_init_script(MARK_THE_DEAL)
    precache = sw_precache(DIST)
    files = path_files(precache, "snapshot")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        watch.watch(page)
        page.goto("/?fast=1&autostart=1")
        page.wait_for_function("() => window.__dealt", timeout=ENGINE_TIMEOUT_MS)
        wait_sw_ready(page)  # installed: the precache is complete
        # The page's clock says whether the registration followed the deal (a request made at
        # the deal could reach the server after sw.js, made in the same task); the server's log
        # splits at sw.js: what the page downloaded before the service worker existed, and after.
        log_dest = server.take_with_dest()
        log = [(p, status) for p, status, _ in log_dest]
        split = log.index(("/sw.js", 200))
        before = log[:split]

        # Nothing of the service worker before the deal.
        assert page.evaluate("window.__cachesAtDeal") == []
        assert page.evaluate("window.__pwa.signal") == "deal"
        assert page.evaluate("window.__pwa.registeredAt >= window.__dealt")

        # The precache: every file of the pages and of the path the engine took (the snapshot),
        # none the page already had moved again.
        had = {path_of(p) for p, status in before if status == 200}
        # The page may load its own images again after the deal (no-cache: the browser's tab
        # icon revalidates, and a plain server answers 200), and modules it needs once a match
        # is under way (match_store.js): what counts is the precache's moves, which are
        # fetch()es (Sec-Fetch-Dest "empty"), never a script, style or image load.
        after_deal = [(path_of(p), dest) for p, status, dest in log_dest[split + 1:]
                      if status == 200 and not p.startswith("/sw.js")]
        moved = [rel for rel, dest in after_deal if dest == "empty"]
        late = {rel for rel, dest in after_deal if dest not in ("empty", "image")}
        assert not set(moved) & had, f"downloaded again: {sorted(set(moved) & had)}"
        assert len(moved) == len(set(moved)), f"downloaded twice: {moved}"
        assert set(moved) <= set(files), f"not of the pages or the path taken: {sorted(set(moved) - set(files))}"
        assert set(files) - had <= set(moved) | late, "the precache fetches each missing file once"
        # window.__pwa's report (for the bench): what went over the network is what the
        # server sent.
        report = precache_report(page)
        assert report["complete"] and not report["all"], report
        assert set(report["files"]) == set(files)
        assert set(report["groups"]) == {"shell", "loader", "snapshot"}
        reported = {rel for rel, f in report["files"].items() if f["transferred"]}
        assert reported == set(moved), (sorted(reported ^ set(moved)))
        assert all(report["files"][rel]["from"] == "http-cache" for rel in had & set(files))
        sizes = {rel: (DIST / rel).stat().st_size for rel in files}
        assert report["bytes"] == sum(sizes.values())
        assert report["transferred"] >= sum(sizes[rel] for rel in moved)

        # A repeat visit: served by the service worker; only the update check reaches the server.
        page.goto("/?fast=1&autostart=1&seed=3")
        page.wait_for_function("() => window.__dealt", timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("!!navigator.serviceWorker.controller")
        precache_report(page)
        # (The browser checks sw.js for an update after navigations, when it sees fit.)
        repeat = server.take()
        assert {p for p, _ in repeat} <= {"/sw.js"}, repeat

        # Offline: the pages in every language (the table from the snapshot path).
        context.set_offline(True)
        page.goto("/?fast=1&autostart=1&seed=4")
        page.wait_for_function("() => window.__dealt", timeout=ENGINE_TIMEOUT_MS)
        assert page.evaluate("window.__engine.start") == "snapshot"
        for path in ("/es/", "/en/marcador.html", "/es/tutorial.html", "/en/embed.html?scenario=manilhas-copas"):
            page.goto(path)
            page.wait_for_load_state("load")
            assert page.evaluate("!!navigator.serviceWorker.controller"), path
            if path == "/es/":
                # The table starts its engine at once, and it starts offline too. Leaving
                # before it is ready would end a starting worker, which Chromium 156 under
                # load sometimes answers by crashing the renderer the next page then shares
                # (a CHECK in the worker thread, "Target crashed": 3 of 8 runs beside a
                # second browser; none when the worker was left ready).
                page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        page.wait_for_selector(".mt", timeout=ENGINE_TIMEOUT_MS)
        # (Playwright's offline mode covers pages and their workers, not the browser's own
        # update check of sw.js.)
        assert {p for p, _ in server.take()} <= {"/sw.js"}, "offline: only the update check reached the server"
    finally:
        context.close()
        server.close()
    watch.check()
    assert not watch.foreign, f"requests left the origin: {watch.foreign}"


def test_a_page_whose_engine_never_starts_registers_nothing(browser, static_server):
    """A tutorial whose engine never gets going (it waits for a touch; and if it started, its worker
    never answers) registers no service worker and fetches nothing for it, however long it
    stays open (the page's clock runs two minutes ahead); the embed never registers one."""
    context, watch = new_context(browser, static_server)
    sw_requests: list[str] = []
    context.on("request", lambda r: sw_requests.append(r.url) if ("/sw.js" in r.url or r.service_worker) else None)
    try:
        page = context.new_page()
        page.clock.install()
        page.route("**/static/js/engine/worker.js*", lambda route: None)  # never answered
        page.goto("/tutorial.html")
        page.wait_for_load_state("load")
        page.wait_for_function("() => !!window.__pwa")
        page.clock.run_for(150_000)

        # Meanwhile (an embed's engine loads: seconds), on another page: the embed never registers.
        embed = context.new_page()
        embed.goto("/embed.html?scenario=manilhas-copas&fast=1")
        embed.wait_for_selector(".mt.my-turn", timeout=ENGINE_TIMEOUT_MS)
        assert embed.evaluate("typeof window.__pwa") == "undefined"

        # Untouched, the tutorial never starts its engine (and if it did, its worker never answers).
        assert page.evaluate("document.documentElement.dataset.engine") in ("idle", "loading")
        assert sw_requests == []
        assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => !r)")
        assert page.evaluate("caches.keys()") == []
        assert page.evaluate("[window.__pwa.kind, window.__pwa.precacheState]") == ["engine", "not started"]
    finally:
        context.close()
    watch.check()


def test_the_marcador_precaches_the_shell_only_and_the_table_fills_in_the_engine(browser, static_server):
    """A marcador visit registers at once but never downloads the engine; the table, once it
    has dealt, has the same build's cache filled with the engine's groups: those of the path its
    worker took (here the wheel path, as in a browser the snapshot fails in), not the other's."""
    context, watch = new_context(browser, static_server)
    groups = sw_precache(DIST)["groups"]
    build_cache = f"truco-build-{sw_precache(DIST)['build']}"
    try:
        page = context.new_page()
        page.goto("/marcador.html")
        wait_sw_ready(page)
        cached = set(cached_files(page)[build_cache]) - {"__truco_sw/listing.json"}
        assert cached == set(groups["shell"])
        report = precache_report(page)
        assert page.evaluate("window.__pwa.signal") == "load"
        assert report["groups"] == ["shell"] and report["complete"] and not report["all"]
        assert page.evaluate("window.__pwa.precacheState") == "complete"

        page.goto("/?fast=1&autostart=1&snapshot=0")
        page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
        wait_turn(page, None)
        assert page.evaluate("window.__engine.start") == "wheel"
        report = precache_report(page)
        assert page.evaluate("window.__pwa.signal") == "deal"
        assert report["complete"] and not report["all"], report
        cached = set(cached_files(page)[build_cache])
        assert cached == path_files(sw_precache(DIST), "wheel") | {"__truco_sw/listing.json"}
        assert "pyodide/pyodide.asm.wasm" in cached and "snapshot/engine.snapshot.xz" not in cached
    finally:
        context.close()
    watch.check()
