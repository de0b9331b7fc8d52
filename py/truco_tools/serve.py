"""Serve dist/ on http://127.0.0.1:8000 (local play and tests) with the response headers that
netlify.toml gives the deployed site, read from it, so what is tested is what is deployed.

Usage: python -m truco_tools.serve [--port 8000] [--host 127.0.0.1] [--dir dist]
(./play builds dist/ and runs it.)

Headers follow Netlify's rules: each ``[[headers]]`` rule whose ``for`` pattern matches the
request path adds its values (the pattern syntax is Netlify's: ``*`` matches anything, a
standalone ``/*`` part also matches nothing; case-insensitive; a trailing slash is optional).
Where two matching rules set the same header, the later one wins (as in ``netlify dev``);
tests/browser/test_pwa.py checks that no path of dist/ is given one header by two rules, so the
order never matters. A ``Content-Type`` from the rules replaces the guessed one. When no
rule sets ``Cache-Control``, Netlify's default (revalidate every time) is sent. As on
Netlify, ``/name`` serves ``name.html`` (pretty URLs), and revalidation goes by ``ETag``
(``If-None-Match``), never by ``Last-Modified``: that is to the second, and would call a file
of a deploy made within the same second as the previous one "not modified" (the browser's
service-worker update check would then keep the old sw.js). The ``[[redirects]]`` with a
``Language`` condition are followed as Netlify does (load_redirect_rules).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import stat
import sys
import threading
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[2]  # the checkout (this file: py/truco_tools/)
NETLIFY_TOML = ROOT / "netlify.toml"

# Netlify's own default when no rule sets Cache-Control.
DEFAULT_CACHE_CONTROL = "public, max-age=0, must-revalidate"

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".webmanifest": "application/manifest+json",
}


# --- netlify.toml's [[headers]] ----------------------------------------------------------

def for_regexp(pattern: str) -> re.Pattern:
    """Netlify's matcher for a rule's `for` path (as @netlify/headers-parser builds it)."""
    parts = [p.rstrip() for p in pattern.strip().split("/")]
    out = []
    for part in filter(None, parts):
        if part.startswith(":"):
            out.append("([^/]+)")
        elif part == "*":
            out.append("?(.*)")
        elif "*" in part:
            out.append(part.replace("*", "(.*)"))  # (Netlify does not escape the rest)
        else:
            out.append(re.escape(part))
    return re.compile("^/" + "/".join(out) + "/?$", re.I)


def _normalize_value(value) -> str:
    """A header value as Netlify normalizes it: trimmed, comma lists joined with ", "."""
    if isinstance(value, list):
        return ", ".join(str(v).strip() for v in value)
    return re.sub(r"\s*,\s*", ", ", str(value).strip())


def load_header_rules(path: Path = NETLIFY_TOML) -> list[tuple[str, re.Pattern, dict[str, str]]]:
    """The [[headers]] rules of netlify.toml: (for, matcher, {name: value}) in file order."""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    rules = []
    for rule in config.get("headers", []):
        values = {str(k).strip(): _normalize_value(v) for k, v in (rule.get("values") or {}).items()}
        if values:
            rules.append((rule["for"], for_regexp(rule["for"]), values))
    return rules


def headers_for(path: str, rules) -> dict[str, str]:
    """The custom headers Netlify sends for a request path (later rules win on a clash)."""
    merged: dict[str, tuple[str, str]] = {}  # lower-case name -> (name, value)
    for _for, matcher, values in rules:
        if matcher.match(path):
            for name, value in values.items():
                merged[name.lower()] = (name, value)
    return dict(merged.values())


# --- netlify.toml's [[redirects]] --------------------------------------------------------

def load_redirect_rules(path: Path = NETLIFY_TOML) -> list[dict]:
    """The [[redirects]] rules of netlify.toml that this server follows: a `from` path
    matched exactly (case-insensitive, a trailing slash optional), a `Language` condition or
    none, in file order (Netlify takes the first rule that matches). A rule with any other
    condition (Country, Role...) is never taken here."""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    rules = []
    for rule in config.get("redirects", []):
        conditions = rule.get("conditions") or {}
        if set(conditions) - {"Language"}:
            continue
        rules.append({"from": for_regexp(rule["from"]), "to": rule["to"], "status": int(rule.get("status", 301)),
                      "force": bool(rule.get("force", False)),
                      "languages": [str(x).lower() for x in conditions.get("Language", [])]})
    return rules


def request_language(headers) -> str:
    """The language Netlify's Language condition sees: the `nf_lang` cookie when there is
    one, else the first language of Accept-Language (its first two letters)."""
    for part in headers.get("Cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == "nf_lang" and value:
            return value.strip().lower()
    return headers.get("Accept-Language", "").split(",")[0].strip()[:2].lower()


def redirect_for(path: str, headers, rules, file_exists: bool) -> tuple[int, str] | None:
    """(status, target path) of the first redirect rule a request takes, or None."""
    for rule in rules:
        if not rule["from"].match(path) or (file_exists and not rule["force"]):
            continue
        if rule["languages"] and request_language(headers) not in rule["languages"]:
            continue
        return rule["status"], rule["to"]
    return None


# --- the server ----------------------------------------------------------------------------

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet = False
    rules: list = []
    redirects: list = []

    def _request_path(self) -> str:
        return unquote(urlsplit(self.path).path) or "/"

    def translate_path(self, path: str) -> str:
        fs_path = super().translate_path(path)
        # Pretty URLs: /tutorial is tutorial.html.
        p = Path(fs_path)
        if not p.exists() and not p.suffix and Path(fs_path + ".html").is_file():
            return fs_path + ".html"
        return fs_path

    def guess_type(self, path) -> str:
        custom = {k.lower(): v for k, v in headers_for(self._request_path(), self.rules).items()}
        if "content-type" in custom:
            return custom["content-type"]
        guessed = super().guess_type(path)
        # Netlify names the charset of text files; every text file of dist/ is UTF-8.
        if guessed.startswith("text/") or guessed in ("application/json", "application/manifest+json"):
            guessed += "; charset=utf-8"
        return guessed

    _etag: str | None = None
    _status: int | None = None

    def _file_for(self, fs_path: str) -> os.stat_result | None:
        """The stat of the file a request path is served from (a folder's index.html)."""
        if os.path.isdir(fs_path):
            fs_path = os.path.join(fs_path, "index.html")
        try:
            st = os.stat(fs_path)
        except OSError:
            return None
        return st if stat.S_ISREG(st.st_mode) else None

    def send_head(self):
        # A validator that changes with the file itself: inode (a deploy that swaps the
        # folder), mtime in nanoseconds and size.
        self._etag = None
        st = self._file_for(self.translate_path(self.path))
        moved = redirect_for(self._request_path(), self.headers, self.redirects, st is not None)
        if moved:
            status, target = moved
            query = urlsplit(self.path).query  # as on Netlify, the query goes along
            self.send_response(status)
            self.send_header("Location", target + ("?" + query if query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if "If-Modified-Since" in self.headers:
            del self.headers["If-Modified-Since"]
        if st is not None:
            self._etag = f'"{st.st_ino:x}-{st.st_mtime_ns:x}-{st.st_size:x}"'
            asked = [tag.strip() for tag in self.headers.get("If-None-Match", "").split(",")]
            if self._etag in asked or "*" in asked:
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
        return super().send_head()

    def send_response(self, code, message=None) -> None:
        self._status = code
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() != "last-modified":
            super().send_header(keyword, value)

    def end_headers(self) -> None:
        if self._etag and self._status in (200, 304):
            self.send_header("ETag", self._etag)
        # An error page is a page: it gets the pages' headers (CSP, no framing), whatever the path.
        path = "/index.html" if (self._status or 200) >= 400 else self._request_path()
        custom = headers_for(path, self.rules)
        for name, value in custom.items():
            if name.lower() != "content-type":  # sent by send_head, from guess_type
                self.send_header(name, value)
        if "cache-control" not in {n.lower() for n in custom}:
            self.send_header("Cache-Control", DEFAULT_CACHE_CONTROL)
        super().end_headers()

    def list_directory(self, path):
        # Netlify lists no folder: a folder without index.html is a 404 (with the usual
        # headers), never a page of links without the CSP or the framing rules.
        self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
        return None

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (stdlib's name)
        if not self.quiet:
            super().log_message(format, *args)


class QuietHandler(Handler):
    quiet = True


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 0, quiet: bool = True,
                config: Path = NETLIFY_TOML):
    """A threading HTTP server for `directory` with netlify.toml's headers; port 0 picks a
    free port."""
    base = QuietHandler if quiet else Handler
    handler_class = type(base.__name__, (base,), {"rules": load_header_rules(config),
                                                  "redirects": load_redirect_rules(config)})
    handler = functools.partial(handler_class, directory=str(directory))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(directory: Path, host: str = "127.0.0.1", port: int = 0):
    """Start a quiet server in a daemon thread; returns (server, base_url). Call
    server.shutdown() to stop it."""
    server = make_server(directory, host, port)
    thread = threading.Thread(target=server.serve_forever, name="static-server", daemon=True)
    thread.start()
    return server, f"http://{host}:{server.server_address[1]}/"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").is_file():
        print(f"serve: {args.dir} has no index.html: run `python3 build.py` first", file=sys.stderr)
        return 1
    server = make_server(args.dir, args.host, args.port, quiet=False)
    print(f"Truco Mineiro: http://{args.host}:{server.server_address[1]}/  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
