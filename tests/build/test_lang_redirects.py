"""netlify.toml's Language redirects (issue 43), as serve.py follows them the way Netlify does:
a browser whose first language is Spanish or English gets its page from the server, before
any HTML; Portuguese, no language at all (search engines) or a Portuguese choice (the
`nf_lang` cookie the language switch sets) keep the Portuguese page."""

from __future__ import annotations

import http.client

import pytest

from truco_tools.serve import serve_in_thread

# (Accept-Language, cookie, path) -> where the server sends the browser (None: the page itself)
CASES = [
    ("es-AR,es;q=0.9", "", "/", "/es/"),
    ("en-GB,en;q=0.8", "", "/tutorial.html?fast=1", "/en/tutorial.html?fast=1"),
    ("en-US", "", "/marcador", "/en/marcador"),
    ("es", "", "/index.html", "/es/index.html"),
    ("pt-BR,en;q=0.5", "", "/", None),
    ("", "", "/", None),  # a search engine
    ("fr-FR,es", "", "/", None),  # Netlify reads the first language only: the page's script decides
    ("en-US", "theme=x; nf_lang=pt", "/tutorial.html", None),  # chose Portuguese
    ("pt-BR", "nf_lang=es", "/marcador.html", "/es/marcador.html"),  # chose Spanish
    ("es-AR", "", "/embed.html?scenario=baralho-rei", None),  # its address names its language
    ("es-AR", "", "/es/", None),
    ("en-US", "", "/es/tutorial.html", None),  # a page in a language is never moved by the server
]


@pytest.fixture(scope="module")
def server(dist_dir):
    server, url = serve_in_thread(dist_dir)
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(("language", "cookie", "path", "target"), CASES)
def test_the_server_sends_a_first_language_to_its_page(server, language, cookie, path, target):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    headers = {k: v for k, v in {"Accept-Language": language, "Cookie": cookie}.items() if v}
    conn.request("GET", path, headers=headers)
    reply = conn.getresponse()
    reply.read()
    conn.close()
    if target is None:
        assert reply.status == 200, (path, language, cookie)
    else:
        assert (reply.status, reply.getheader("Location")) == (302, target)


def test_every_portuguese_page_has_its_redirects(dist_dir):
    """A new page at the root (but the embed) needs its Language rules in netlify.toml."""
    from truco_tools.serve import load_redirect_rules, redirect_for

    rules = load_redirect_rules()
    for page in sorted(p.name for p in dist_dir.glob("*.html") if p.name != "embed.html"):
        for path in ["/" + page, "/" + page.removesuffix(".html")]:
            for lang in ("es", "en"):
                moved = redirect_for(path, {"Accept-Language": lang}, rules, file_exists=True)
                assert moved == (302, f"/{lang}{path}"), f"netlify.toml: no Language = [\"{lang}\"] redirect for {path}"
