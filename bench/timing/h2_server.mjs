// The start-up bench's HTTP/2 host (bench/timing/startup.py --servers h2): what Netlify,
// Cloudflare Pages or GitHub Pages do that Python's file server does not. One TLS connection
// carries every request at once (HTTP/1.1 opens six, so the table's ~70 modules queue behind
// each other, and so does the engine's worker script behind them), and text and WebAssembly
// are compressed on the fly (gzip here; those hosts send Brotli, a little smaller).
//
//   node bench/timing/h2_server.mjs CONFIG.json
//
// CONFIG: {dist, extra (a folder served at /__bench__/), cert, key, headers: {"/path": {name:
// value}}, types: {".ext": "type"}} (startup.py writes it: the headers are serve.py's rules
// from netlify.toml, per file). Prints the port on stdout. Counts the bytes it sends per
// path (after compression): GET /__bench__/stats takes them (and starts again),
// /__bench__/peek looks.
import { readFileSync, statSync } from "node:fs";
import http2 from "node:http2";
import { extname, join, normalize } from "node:path";
import zlib from "node:zlib";

const config = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const COMPRESSED = ["text/", "application/javascript", "application/json", "application/manifest+json",
  "image/svg+xml", "application/wasm"];

let byPath = new Map();
let last = performance.now();
const count = (path, n) => {
  byPath.set(path, (byPath.get(path) || 0) + n);
  last = performance.now();
};

const gzipped = new Map();
function gzipOf(file, mtime) {
  const key = `${file}:${mtime}`;
  if (!gzipped.has(key)) gzipped.set(key, zlib.gzipSync(readFileSync(file), { level: 6 }));
  return gzipped.get(key);
}

function fileFor(path) {
  const root = path.startsWith("/__bench__/") ? config.extra : config.dist;
  const rel = path.startsWith("/__bench__/") ? path.slice("/__bench__/".length) : path.slice(1);
  let file = normalize(join(root, decodeURIComponent(rel)));
  if (!file.startsWith(root)) return null;
  for (const candidate of [file, join(file, "index.html"), file + ".html"]) {
    try {
      const st = statSync(candidate);
      if (st.isFile()) return { file: candidate, st };
    } catch {
      // not this one
    }
  }
  return null;
}

// allowHTTP1: the bench's own requests (urllib) speak HTTP/1.1; the browser speaks HTTP/2.
const server = http2.createSecureServer({ cert: readFileSync(config.cert), key: readFileSync(config.key), allowHTTP1: true });
server.on("request", (req, res) => {
  const path = (req.url || "/").split("?")[0];
  res.on("error", () => {});
  if (path === "/__bench__/stats" || path === "/__bench__/peek") {
    const files = Object.fromEntries(byPath);
    const bytes = [...byPath.values()].reduce((a, b) => a + b, 0);
    const body = JSON.stringify(path.endsWith("stats") ? { bytes, files } : { bytes, idle: (performance.now() - last) / 1000 });
    if (path.endsWith("stats")) {
      byPath = new Map();
      last = performance.now();
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
    return;
  }
  const found = fileFor(path);
  if (!found) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
    return;
  }
  const root = path.startsWith("/__bench__/") ? config.extra : config.dist;
  const rel = (root === config.extra ? "/__bench__/" : "/") + found.file.slice(root.length + 1);
  const out = { "cache-control": "public, max-age=0, must-revalidate" };
  for (const [name, value] of Object.entries(config.headers[rel] || {})) out[name.toLowerCase()] = value;
  out["content-type"] ||= config.types[extname(found.file)] || "application/octet-stream";
  const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] || "") &&
    COMPRESSED.some((t) => out["content-type"].startsWith(t));
  const body = gzip ? gzipOf(found.file, found.st.mtimeMs) : readFileSync(found.file);
  if (gzip) {
    out["content-encoding"] = "gzip";
    out.vary = "Accept-Encoding";
  }
  out["content-length"] = body.length;
  res.writeHead(200, out);
  // In chunks, counted as they are handed over (a load cut short counts what it got).
  let at = 0;
  const more = () => {
    while (at < body.length) {
      const chunk = body.subarray(at, at + 64 * 1024);
      at += chunk.length;
      count(path, chunk.length);
      if (!res.write(chunk)) {
        res.once("drain", more);
        return;
      }
    }
    res.end();
  };
  more();
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${server.address().port}\n`);
});
