"""Render the app's PNG icons from its one SVG (site/static/icons/favicon.svg), as
site/icons.json describes them, and record in site/icons.json what they were made from.

Usage: .venv/bin/python scripts/make_icons.py (which runs this module's main)   (needs the `e2e` extra and Debian's Chromium)

Run it after changing the SVG or an icon's line in site/icons.json, and commit the PNGs with
it. The build does not rasterize (Netlify's build image has no SVG renderer and cannot
install one, and Chromium would make every build slow and heavy): it checks that the
committed PNGs were rendered from the current SVG and spec (the `key` below) and that each
PNG is the file that was rendered (its sha256) at its declared size, and fails otherwise.

Each icon is the SVG scaled by `scale` and centred on a `size` x `size` square, on a
transparent background (purpose `any`) or a full-bleed `background` colour: `maskable`
icons keep the card inside the 80 % safe circle; the Apple touch icon is square because iOS
rounds the corners itself (transparent corners would turn black).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout (this file: py/truco_tools/)
SITE = ROOT / "site"
SPEC = SITE / "icons.json"
CHROMIUM = os.environ.get("TRUCO_CHROMIUM", "/usr/bin/chromium")
RENDER_FIELDS = ("src", "size", "purpose", "background", "scale")


def render_key(spec: dict) -> str:
    """What the PNGs depend on: the SVG's bytes and each icon's render parameters."""
    svg = (SITE / spec["source"]).read_bytes()
    params = [{k: icon.get(k) for k in RENDER_FIELDS} for icon in spec["icons"]]
    return hashlib.sha256(svg + json.dumps(params, sort_keys=True).encode()).hexdigest()


def page_html(svg: bytes, size: int, scale: float, background: str | None) -> str:
    inner = round(size * scale)
    data = base64.b64encode(svg).decode()
    bg = background or "transparent"
    return (
        "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
        f"div{{width:{size}px;height:{size}px;background:{bg};display:flex;"
        "align-items:center;justify-content:center}</style></head><body>"
        f'<div><img src="data:image/svg+xml;base64,{data}" width="{inner}" height="{inner}"></div>'
        "</body></html>"
    )


def main() -> int:
    from playwright.sync_api import sync_playwright

    spec = json.loads(SPEC.read_text())
    svg = (SITE / spec["source"]).read_bytes()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for icon in spec["icons"]:
            size = icon["size"]
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(page_html(svg, size, icon["scale"], icon["background"]))
            page.wait_for_function("document.images[0].complete")
            png = page.screenshot(omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
            (SITE / icon["src"]).write_bytes(png)
            icon["sha256"] = hashlib.sha256(png).hexdigest()
            print(f"make_icons: {icon['src']} ({size} x {size}, {len(png)} bytes)")
        browser.close()
    spec["key"] = render_key(spec)
    text = json.dumps(spec, indent=1, ensure_ascii=False)
    SPEC.write_text(text + "\n")
    print(f"make_icons: {SPEC.relative_to(ROOT)} records key {spec['key'][:16]}…")
    return 0


if __name__ == "__main__":
    sys.exit(main())
