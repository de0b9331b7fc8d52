// A worker of the engine worker's own (worker_xz.js, decodeBeside): decodes one xz download
// beside it, on another core, so the snapshot's 31 MB are decoded while the engine worker
// decodes and compiles Pyodide's WebAssembly (one thread did both, one after the other: about
// 1 s of a fast link's start on a 2-core machine, more on a phone).
//
// Messages in: {size, name} first, then {chunk} (an ArrayBuffer, transferred) as the download
// arrives, then {end: true} or {fail: message}. Out: {started: true} once its script runs, then
// {ok: true, raw (an ArrayBuffer of exactly `size` bytes, transferred), decodeMs} or {ok: false,
// error}. It never checks the download's
// sha256: the engine worker does, on the bytes it sent.

import { makeXzReadableStream } from "../vendor/xz-decompress.js";
// As in the engine worker: never a long chain of microtasks without a turn of the event loop,
// where a stop of the worker (its parent's) is taken (issue 42's crash of the whole tab).
import { breathe } from "./worker_xz.js";

const chunks = [];
let ended = false;
let failure = null;
let waiting = null;
let job = null;
const wake = () => {
  const w = waiting;
  waiting = null;
  w?.();
};

async function decode({ size, name }) {
  let waitMs = 0;
  let next = 0;
  const input = new ReadableStream({
    async pull(sink) {
      if (next >= chunks.length && !ended && !failure) {
        const t = performance.now();
        await new Promise((resolve) => {
          waiting = resolve;
        });
        waitMs += performance.now() - t;
      }
      if (next < chunks.length) {
        sink.enqueue(chunks[next]);
        chunks[next++] = null; // decoded: let it go
      } else if (failure) {
        sink.error(new Error(failure));
      } else {
        sink.close();
      }
    },
  }, { highWaterMark: 0 });
  const XzReadableStream = makeXzReadableStream();
  const reader = new XzReadableStream(input).getReader();
  const out = new Uint8Array(size);
  let at = 0;
  const started = performance.now();
  for (;;) {
    await breathe();
    let result;
    try {
      result = await reader.read();
    } catch (err) {
      throw new Error(failure || `${name} does not decode: ${err.message || err}`);
    }
    if (result.done) break;
    if (at + result.value.byteLength > size) throw new Error(`${name} decodes to more than ${size} bytes`);
    out.set(result.value, at);
    at += result.value.byteLength;
  }
  if (at !== size) throw new Error(`${name} decodes to ${at} bytes, not ${size}`);
  return { out, decodeMs: Math.round(performance.now() - started - waitMs) };
}

// Running: the engine worker waits for this worker only once told so (a script that never
// comes fires no error). `?hang=1` (the test hook `?fail=xz-job-hang`) plays that script.
const HANG = new URL(self.location.href).searchParams.has("hang");
if (!HANG) self.postMessage({ started: true });

self.onmessage = HANG ? null : ({ data }) => {
  if (data.chunk) {
    chunks.push(new Uint8Array(data.chunk));
    wake();
  } else if (data.end) {
    ended = true;
    wake();
  } else if (data.fail) {
    failure = String(data.fail);
    wake();
  } else if (data.size && !job) {
    job = decode(data).then(
      ({ out, decodeMs }) => self.postMessage({ ok: true, raw: out.buffer, decodeMs }, [out.buffer]),
      (err) => self.postMessage({ ok: false, error: String(err.message || err) }),
    );
  }
};
