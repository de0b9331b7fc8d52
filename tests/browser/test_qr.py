"""The QR module of the friends' table handshake (issue 31), site/static/js/friends/qr.js:

- in the table's page (its CSP): codes of several lengths, every base64url character, are
  rendered by renderCode, photographed by the browser (an element screenshot), and read back by
  decodeImageData (jsQR: headless Chromium on Linux has no BarcodeDetector), crisp, smaller and
  slightly blurred; decodeFile reads a picked image; the code stays dark on white in dark mode;
- lazy: the table's first visit (up to a ready engine) requests none of it, and the build's
  first-visit budget does not count it; no request leaves the origin;
- the camera, with Chromium's fake camera playing a rendered code (a second browser: the flags
  are the browser's, not a context's): scanCode reads it and stops the camera; abort, page hide
  and a refused permission end it with an error the caller can show;
- the vendored libraries: pinned, as the build wrote them.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string

import pytest

from helpers import DIST, ROOT
from helpers.browser import CHROMIUM_ARGS, ENGINE_TIMEOUT_MS, READY, new_page

QR_FILES = re.compile(r"/static/js/(friends/|vendor/(jsqr|qrcode-generator)\.js)")
BASE64URL = string.ascii_letters + string.digits + "-_"


def code_text(length: int, seed: int) -> str:
    """A base64url code of `length` characters that holds every base64url character."""
    rnd = random.Random(seed)
    chars = list(BASE64URL * (length // len(BASE64URL))) + [rnd.choice(BASE64URL) for _ in range(length % 64)]
    rnd.shuffle(chars)
    return "".join(chars)


IMPORT = "async () => { window.__qr = await import('/static/js/friends/qr.js'); return Object.keys(window.__qr).sort(); }"

# Shows renderCode(text) on top of the page, `ppm` CSS pixels per module, blurred by `blur` px.
SHOW = """([text, ppm, blur]) => {
  const svg = window.__qr.renderCode(text, { label: "Código de convite" });
  svg.id = "qr-under-test";
  svg.style.display = "block";
  svg.style.width = Number(svg.dataset.modules) * ppm + "px";
  if (blur) svg.style.filter = `blur(${blur}px)`;
  // In a modal dialog of its own, on a dark backdrop: above the table's start dialog (the
  // top layer), as the friends' screen will show it.
  const old = document.getElementById("qr-box");
  if (old) { old.close(); old.remove(); }
  const box = document.createElement("dialog");
  box.id = "qr-box";
  box.style.cssText = "padding:0;border:0;margin:0;background:#123";
  box.append(svg);
  document.body.append(box);
  box.showModal();
  return { modules: Number(svg.dataset.modules), role: svg.getAttribute("role"),
           label: svg.getAttribute("aria-label"), text: svg.textContent, html: svg.outerHTML.length };
}"""

# A PNG (base64) -> ImageData -> decodeImageData.
DECODE_PNG = """async (b64) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
  const canvas = document.createElement("canvas");
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(bitmap, 0, 0);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const corner = Array.from(data.data.slice(0, 3));
  return { text: window.__qr.decodeImageData(data), corner, width: canvas.width };
}"""


@pytest.fixture(scope="module")
def qr_page(browser, base_url):
    """The table's page after its first visit (engine ready), with every request of its
    context recorded; then the QR module imported into it."""
    context, page = new_page(browser, base_url)
    urls: list[str] = []
    context.on("request", lambda r: urls.append(r.url))
    response = page.goto("/?fast=1")
    page.wait_for_selector(READY, timeout=ENGINE_TIMEOUT_MS)
    page.first_visit = list(urls)
    page.headers = response.headers
    page.all_requests = urls
    page.exports = page.evaluate(IMPORT)
    yield page
    context.close()
    page.console_watch.check()


def shot_and_decode(page, text, ppm, blur=0.0):
    info = page.evaluate(SHOW, [text, ppm, blur])
    png = page.locator("#qr-under-test").screenshot()
    return info, page.evaluate(DECODE_PNG, base64.b64encode(png).decode())


def test_the_module_loads_only_when_asked_and_nothing_leaves_the_origin(qr_page, base_url, dist_dir):
    assert qr_page.exports == ["ScanError", "decodeFile", "decodeImageData", "hasCamera", "renderCode", "scanCode"]
    assert any("/static/js/table/" in u for u in qr_page.first_visit)
    assert not [u for u in qr_page.first_visit if QR_FILES.search(u)]
    # The import fetched the three files (the pattern above does match them).
    assert {QR_FILES.search(u).group(0) for u in qr_page.all_requests if QR_FILES.search(u)} == {
        "/static/js/friends/", "/static/js/vendor/jsqr.js", "/static/js/vendor/qrcode-generator.js"}
    # The build's first-visit budget does not count them either.
    visit = json.loads((dist_dir / "manifest.json").read_text())["firstVisit"]["files"]
    assert not [rel for rel in visit if QR_FILES.search("/" + rel)]
    # (A blob: URL names its origin: the engine worker imports Pyodide's module it decoded.)
    own = (base_url, "blob:" + base_url)
    assert all(u.startswith(own) for u in qr_page.all_requests), [u for u in qr_page.all_requests
                                                                  if not u.startswith(own)]


def test_the_page_may_use_the_camera(qr_page):
    assert "camera=(self)" in qr_page.headers["permissions-policy"]
    assert qr_page.evaluate("() => document.featurePolicy.allowsFeature('camera')") is True


@pytest.mark.parametrize("length, ppm, blur", [
    (43, 3, 0),      # a short code
    (700, 3, 0),     # an offer of today's size
    (1200, 3, 0),    # the largest the module is designed for
    (700, 3.3, 0.4),  # not a whole number of pixels per module, and blurred
    (1200, 3, 0.5),
], ids=["short", "700", "1200", "700-blurred", "1200-blurred"])
def test_a_rendered_code_reads_back(qr_page, length, ppm, blur):
    text = code_text(length, seed=length)
    info, got = shot_and_decode(qr_page, text, ppm, blur)
    assert got["text"] == text
    assert got["corner"] == [255, 255, 255]  # the quiet zone is white, on the page's dark box
    assert info["role"] == "img" and info["label"] == "Código de convite"
    assert info["text"] == ""  # the code's text is nowhere in the SVG, only its modules
    assert info["modules"] <= 125  # 1,200 characters: version 27 at L, 4 modules of quiet zone


def test_dark_mode_keeps_dark_on_white_and_bad_input_is_refused(qr_page):
    text = code_text(600, seed=6)
    qr_page.emulate_media(color_scheme="dark")
    try:
        _info, got = shot_and_decode(qr_page, text, 3)
    finally:
        qr_page.emulate_media(color_scheme="light")
    assert got["text"] == text and got["corner"] == [255, 255, 255]
    errors = qr_page.evaluate("""() => ["", "ação", "<svg onload=x>\\u0000"].map((t) => {
      try { window.__qr.renderCode(t, { label: "x" }); return "rendered"; } catch (e) { return e.name; }
    })""")
    assert errors == ["TypeError", "TypeError", "TypeError"]


def test_decode_file_and_nothing_to_read(qr_page):
    text = code_text(700, seed=7)
    qr_page.evaluate(SHOW, [text, 4, 0])
    png = base64.b64encode(qr_page.locator("#qr-under-test").screenshot()).decode()
    got = qr_page.evaluate("""async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const photo = new File([bytes], "codigo.png", { type: "image/png" });
      const notImage = new File(["hello"], "x.png", { type: "image/png" });
      const blank = new ImageData(200, 200);
      blank.data.fill(255);
      return [await window.__qr.decodeFile(photo), await window.__qr.decodeFile(notImage),
              window.__qr.decodeImageData(blank)];
    }""", png)
    assert got == [text, None, None]


# --- the camera: Chromium's fake camera plays a rendered code --------------------------------

# A PNG (base64) centred on a white W x H frame, as the Y plane of a YUV 4:2:0 frame (grey
# chroma), base64.
TO_I420 = """async ([b64, W, H]) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, W, H);
  ctx.drawImage(bitmap, (W - bitmap.width) >> 1, (H - bitmap.height) >> 1);
  const px = ctx.getImageData(0, 0, W, H).data;
  const out = new Uint8Array(W * H * 3 / 2).fill(128);
  for (let i = 0; i < W * H; i++) out[i] = Math.round(0.299 * px[4 * i] + 0.587 * px[4 * i + 1] + 0.114 * px[4 * i + 2]);
  let s = "";
  for (let i = 0; i < out.length; i += 8192) s += String.fromCharCode(...out.subarray(i, i + 8192));
  return btoa(s);
}"""

SCAN = """async () => {
  const qr = await import("/static/js/friends/qr.js");
  const has = await qr.hasCamera();
  const box = document.createElement("div");
  document.body.append(box);
  const text = await qr.scanCode(box);
  return { has, text, left: box.childElementCount };
}"""

# Starts a scan, waits for its <video>, then ends it by `how` ("abort" or "pagehide").
INTERRUPT = """async (how) => {
  const qr = await import("/static/js/friends/qr.js");
  const box = document.createElement("div");
  document.body.append(box);
  const ac = new AbortController();
  const scan = qr.scanCode(box, { signal: ac.signal }).then(() => "resolved", (e) => e instanceof qr.ScanError ? `ScanError ${e.code}` : e.name);
  const video = await new Promise((resolve) => {
    const look = () => box.querySelector("video.qr-video") ? resolve(box.querySelector("video")) : setTimeout(look, 10);
    look();
  });
  const tracks = video.srcObject.getTracks();
  const live = tracks.map((t) => t.readyState);
  if (how === "abort") ac.abort();
  else window.dispatchEvent(new PageTransitionEvent("pagehide"));
  const result = await scan;
  return { result, live, after: tracks.map((t) => t.readyState), left: box.childElementCount };
}"""


def test_scan_code_with_a_fake_camera(qr_page, browser_type, browser_type_launch_args, base_url, tmp_path):
    """The fake camera needs launch flags, so this scan runs in a second Chromium; the
    session's browser is left as the other tests have it."""
    text = code_text(700, seed=9)
    qr_page.evaluate(SHOW, [text, 4, 0])
    png = base64.b64encode(qr_page.locator("#qr-under-test").screenshot()).decode()
    width, height = 640, 480
    frame = base64.b64decode(qr_page.evaluate(TO_I420, [png, width, height]))
    video = tmp_path / "code.y4m"
    video.write_bytes(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\nFRAME\n".encode() + frame)
    args = [*CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"]
    camera_browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    try:
        context, page = new_page(camera_browser, base_url, permissions=["camera"])
        page.goto("/marcador.html")
        got = page.evaluate(SCAN)
        assert got == {"has": True, "text": text, "left": 0}  # read, and its <video> gone
        for how, error in (("abort", "AbortError"), ("pagehide", "ScanError interrupted")):
            got = page.evaluate(INTERRUPT, how)
            assert got == {"result": error, "live": ["live"], "after": ["ended"], "left": 0}, how
        context.close()
        page.console_watch.check()
        # No permission (the player said no): an error the page can put in words.
        context, page = new_page(camera_browser, base_url)
        page.goto("/marcador.html")
        got = page.evaluate("""async () => {
          const qr = await import("/static/js/friends/qr.js");
          return qr.scanCode(document.body).then(() => "resolved", (e) => `${e.name} ${e.code}`);
        }""")
        assert got == "ScanError denied"
        assert page.evaluate("() => document.querySelectorAll('video').length") == 0
        context.close()
    finally:
        camera_browser.close()


# --- the vendored libraries ---------------------------------------------------------------------

@pytest.mark.parametrize("name, rel, header", [
    ("qrcode-generator", "static/js/vendor/qrcode-generator.js", "// qrcode-generator {v} (npm; MIT;"),
    ("jsqr", "static/js/vendor/jsqr.js", "// jsQR {v} (npm; Apache-2.0;"),
])
def test_the_qr_libraries_are_pinned_and_vendored(dist_dir, name, rel, header):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"][name]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned)
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"][f"node_modules/{name}"]["version"] == pinned
    text = (dist_dir / rel).read_text()
    assert text.startswith(header.format(v=pinned))
    assert "export default" in text
    assert "eval(" not in text and "new Function" not in text and "sourceMappingURL" not in text
    qr = (DIST / "static/js/friends/qr.js").read_text()
    assert "innerHTML" not in qr and "insertAdjacentHTML" not in qr
