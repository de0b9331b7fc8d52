// The engine worker's xz downloads (worker_snapshot.js uses them): each decoded as it arrives
// with the vendored decoder (worker.js loads it), and checked: the sha256 of the compressed
// bytes (where WebCrypto exists), the decoder's own checks (CRC32 of each block), and the
// decoded size (readExactly). `shared` is what worker.js hands its start-up modules.

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

// Decoding never holds the worker's event loop for long (issue 42). Once the download is in,
// the decoder's input, its output and their readers (the compile, readExactly) are promises
// settled by promises: a chain of microtasks that never returns to the event loop, 1.5-1.8 s
// at a stretch measured on a 2-core machine. A page that goes away (a reload, a link back to
// the table) asks the worker to stop with a task; Chromium gives it 2 s to take it, then stops
// the worker's script by force, and a forced stop in the middle of that chain crashed the whole
// tab ("Target crashed": 8 crashes in 20 reloads at 0.2-3 s; 0 in 20 with this yield).
// So every BREATHE_MS of decoding, the next chunk waits for a task (a MessageChannel message:
// no timer clamp), where the stop request gets its turn.
const BREATHE_MS = 50;
let lastBreath = performance.now();
const breaths = new MessageChannel();
const breathWaiters = [];
breaths.port1.onmessage = () => breathWaiters.shift()?.();

/** Returns to the event loop if BREATHE_MS have passed since it last did. */
async function breathe() {
  if (performance.now() - lastBreath < BREATHE_MS) return;
  await new Promise((resolve) => {
    breathWaiters.push(resolve);
    breaths.port2.postMessage(0);
  });
  lastBreath = performance.now();
}

/**
 * An xz download, decoded as it arrives. Returns {decoded: a ReadableStream of the decoded
 * bytes (errors if the download fails or does not decode), verified: a promise that resolves
 * once the compressed bytes are all in and match `sha256`, packed(): the compressed bytes}.
 * Adds the decoder's working time to timings[`${label}DecodeMs`].
 */
export function xzDownload(shared, responsePromise, { name, sha256, label, XzReadableStream }) {
  const { timings, now, log } = shared;
  const chunks = [];
  let packedLength = 0;
  let waiting = null; // the decoder's pull, waiting for the next chunk
  let ended = false;
  let failure = null;
  let waitMs = 0;
  const wake = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  let nextChunk = 0;
  const input = new ReadableStream({
    async pull(sink) {
      if (nextChunk >= chunks.length && !ended && !failure) {
        const t = performance.now();
        await new Promise((resolve) => {
          waiting = resolve;
        });
        waitMs += performance.now() - t;
      }
      if (nextChunk < chunks.length) sink.enqueue(chunks[nextChunk++]);
      else if (failure) sink.error(failure);
      else sink.close();
    },
  }, { highWaterMark: 0 });
  // Read the whole download as it comes (whatever the decoder's pace).
  let reader = null;
  const packedDone = (async () => {
    const response = await responsePromise;
    if (!response.ok) throw new Error(`${name} answered HTTP ${response.status}`);
    reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      packedLength += value.byteLength;
      wake();
    }
    ended = true;
    wake();
    timings[`${label}Downloaded`] = now();
  })();
  packedDone.catch((err) => {
    failure = err;
    wake();
  });
  const verified = packedDone.then(async () => {
    if (!self.crypto?.subtle) {
      // Plain http on another host than localhost: no WebCrypto. The xz checks (CRC32 of
      // each block), the decoded size and Pyodide's build id still apply.
      log("info", `${name}: sha256 not checked (not a secure context)`);
      return;
    }
    const digest = hex(await crypto.subtle.digest("SHA-256", packed()));
    if (digest !== sha256) {
      throw new Error(`${name} is not this build's (${packedLength} bytes, sha256 ${digest.slice(0, 12)}…)`);
    }
  });
  verified.catch(() => {});
  function packed() {
    const all = new Uint8Array(packedLength);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.byteLength;
    }
    return all;
  }
  // The decoder's own time: reading its output, less the time it waited for the network.
  const source = new XzReadableStream(input).getReader();
  let busyMs = 0;
  const decoded = new ReadableStream({
    async pull(sink) {
      await breathe();
      const t = performance.now();
      const before = waitMs;
      let result;
      try {
        result = await source.read();
      } catch (err) {
        throw failure || new Error(`${name} does not decode: ${err.message || err}`);
      } finally {
        busyMs += performance.now() - t - (waitMs - before);
        timings[`${label}DecodeMs`] = Math.round(busyMs);
      }
      if (result.done) sink.close();
      else sink.enqueue(result.value);
    },
  }, { highWaterMark: 0 });
  const cancel = () => {
    reader?.cancel().catch(() => {});
    source.cancel().catch(() => {});
  };
  return { decoded, verified, packed, cancel };
}

/** Read a stream into one buffer of exactly `size` bytes (rejects otherwise). */
export async function readExactly(stream, size, name) {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > size) throw new Error(`${name} decodes to more than ${size} bytes`);
    out.set(value, at);
    at += value.byteLength;
  }
  if (at !== size) throw new Error(`${name} decodes to ${at} bytes, not ${size}`);
  return out;
}

