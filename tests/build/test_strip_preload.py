"""The build's two start-up steps of issue 43: the page's scripts and styles shipped without
comments or indentation (truco_tools/strip.py), and each page's module scripts followed by
a modulepreload of their whole static import graph (truco_tools/preload.py)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from truco_tools.common import BuildError
from truco_tools.strip import strip_css, strip_js

TRICKY = r"""// a line comment
import { t } from "./i18n.js"; /* a block comment */
const re = /"\/\/'[/]/g; // a regex with quotes, slashes and a class
const half = total / 2 / count; // two divisions, not a regex
const text = `first line
    // kept: inside a template literal
  ${cond ? `inner ${t("x")} /* kept */` : "b"} tail`;
let a = 1 /* a comment
over lines */
let b = "it's // not a comment";
if (x) return typeof y === "string" ? /^\d+$/.test(y) : false;
"""


def test_strip_js_keeps_every_string_template_and_regex_and_drops_the_comments():
    out = strip_js(TRICKY)
    assert "a line comment" not in out and "a block comment" not in out and "over lines" not in out
    assert 'const re = /"\\/\\/\'[/]/g;' in out
    assert "const half = total / 2 / count;" in out
    # The template literal is copied as it is: its lines, their indentation, its `${...}`.
    assert "`first line\n    // kept: inside a template literal\n  ${cond ? `inner ${t(\"x\")} /* kept */` : \"b\"} tail`;" in out
    # A comment over lines leaves a line break (automatic semicolon insertion reads the same).
    assert "let a = 1\nlet b" in out
    assert "let b = \"it's // not a comment\";" in out
    assert "/^\\d+$/.test(y)" in out
    assert out.startswith('import { t } from "./i18n.js";\nconst re')


@pytest.mark.parametrize("src", ['const s = "open;\n', "const t = `open;", "/* open", "const r = /open;\n"])
def test_strip_js_refuses_what_it_cannot_read(src):
    with pytest.raises(BuildError):
        strip_js(src)


def test_strip_css_drops_comments_not_strings():
    assert strip_css('/* c */\n.a {\n  content: "/* kept */";\n}\n') == '.a {\ncontent: "/* kept */";\n}\n'


def test_every_shipped_module_of_ours_still_parses(dist_dir):
    """Node parses each stripped module (without running it)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    files = sorted(str(p) for p in (dist_dir / "static" / "js").rglob("*.js") if "vendor" not in p.parts)
    script = """
const vm = require("vm"), fs = require("fs");
const bad = [];
for (const f of JSON.parse(process.argv[1])) {
  try { new vm.SourceTextModule(fs.readFileSync(f, "utf8"), { identifier: f }); }
  catch (err) { bad.push(f + ": " + err.message); }
}
console.log(JSON.stringify(bad));
"""
    proc = subprocess.run([node, "--experimental-vm-modules", "--no-warnings", "-e", script, json.dumps(files)],
                          capture_output=True, text=True, timeout=60, check=True)
    assert len(files) > 50
    assert json.loads(proc.stdout) == []


def test_the_table_asks_for_its_whole_module_graph_from_its_head(dist_dir):
    for page, up in (("index.html", ""), ("en/index.html", "../")):
        html = (dist_dir / page).read_text()
        head = html.split("</head>")[0]
        preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', head))
        # main.js's imports, down to the deepest (card_art.js: main -> table_view -> cards -> card_art).
        for module in ("table/main.js", "table/table_view.js", "shared/cards.js", "shared/card_art.js",
                       "table/openings.js", "engine/engine_client.js"):
            assert f"{up}static/js/{module}" in preloaded or f'src="{up}static/js/{module}"' in head, (page, module)
        # Not what the page loads later, on purpose (dynamic imports), nor the worker's modules.
        assert not any("/friends/" in p or p.endswith(("daily.js", "worker.js")) for p in preloaded), preloaded
