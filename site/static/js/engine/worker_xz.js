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

/** Returns to the event loop if BREATHE_MS have passed since it last did (xz_job.js too). */
export async function breathe() {
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
  const followers = new Set(); // decodeBeside's: told of each chunk, the end or the failure
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
      for (const f of followers) f.chunk(value);
    }
    ended = true;
    wake();
    for (const f of followers) f.end();
    timings[`${label}Downloaded`] = now();
  })();
  packedDone.catch((err) => {
    failure = err;
    wake();
    for (const f of followers) f.fail(err);
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
  // (Made on first use: a download decoded beside, by decodeBeside, may never need it here.)
  let source = null;
  let decodedStream = null;
  let busyMs = 0;
  const makeDecoded = () => new ReadableStream({
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
  const cancelled = [];
  const cancel = () => {
    reader?.cancel().catch(() => {});
    source?.cancel().catch(() => {});
    cancelled.splice(0).forEach((f) => f());
  };
  /** Told of every chunk so far and from now on, then of the end or the failure. */
  const follow = (f) => {
    chunks.forEach((c) => f.chunk(c));
    if (failure) f.fail(failure);
    else if (ended) f.end();
    else followers.add(f);
  };
  return {
    get decoded() {
      if (!decodedStream) {
        source = new XzReadableStream(input).getReader();
        decodedStream = makeDecoded();
      }
      return decodedStream;
    },
    verified, packed, cancel, follow, onCancel: (f) => cancelled.push(f),
    failed: () => failure,
  };
}

// How long a decoding worker may take once its download is in before it is given up (and the
// download decoded here instead): the snapshot takes under a second on a laptop.
const BESIDE_LIMIT_MS = 30_000;
// How long its script may take to start once the download is in.
const START_LIMIT_MS = 2_000;

/**
 * An xzDownload's `size` decoded bytes, decoded by a worker of its own (xz_job.js) beside this
 * one: the snapshot (31 MB) is decoded while this worker decodes and compiles the WebAssembly,
 * on another core. Where a worker cannot start one (no nested workers), or it fails to start or
 * to answer, the download is decoded here as before; a download that fails, or does not decode,
 * rejects as it would here.
 */
export function decodeBeside(shared, download, { name, size, label }) {
  const { timings, log } = shared;
  const here = (why) => {
    log("info", `${name}: decoded in the engine worker (${why})`);
    return readExactly(download.decoded, size, name);
  };
  if (typeof Worker !== "function") return here("no nested workers");
  let job;
  try {
    const script = { "xz-job": "xz_job_missing.js", "xz-job-hang": "xz_job.js?hang=1" }[shared.xzJobFault] || "xz_job.js";
    job = new Worker(new URL(script, import.meta.url), { type: "module", name: `xz ${label}` });
  } catch (err) {
    return here(err.message || err);
  }
  let timer = null;
  const stop = () => {
    clearTimeout(timer);
    job.terminate();
  };
  download.onCancel(stop);
  let started = false;
  let giveUp = null;
  const answer = new Promise((resolve, reject) => {
    giveUp = (why) => reject(new Error(`its decoding worker ${why}`));
    job.onmessage = ({ data }) => {
      if (data.started) started = true;
      else resolve(data);
    };
    job.onerror = (ev) => {
      ev.preventDefault?.();
      giveUp(`failed: ${ev.message || "its script did not load"}`);
    };
  });
  job.postMessage({ size, name });
  download.follow({
    chunk: (value) => {
      const copy = value.slice(); // the download keeps its own (its sha256 is checked here)
      job.postMessage({ chunk: copy.buffer }, [copy.buffer]);
    },
    end: () => {
      job.postMessage({ end: true });
      // A script that has not started soon after the download is in (stalled: a worker's
      // script that never comes fires no error) is not waited for: it is decoded here.
      timer = setTimeout(() => {
        if (!started) giveUp(`had not started ${START_LIMIT_MS / 1000} s after the download`);
        else timer = setTimeout(() => giveUp(`did not answer within ${BESIDE_LIMIT_MS / 1000} s`), BESIDE_LIMIT_MS);
      }, START_LIMIT_MS);
    },
    fail: (err) => job.postMessage({ fail: String(err.message || err) }),
  });
  return answer.then(
    (data) => {
      stop();
      // The download's own failure, as it was (a stall, an HTTP status), else the decoder's.
      if (!data.ok) throw download.failed() || new Error(data.error);
      timings[`${label}DecodeMs`] = data.decodeMs;
      return new Uint8Array(data.raw);
    },
    (err) => {
      stop();
      if (download.failed()) throw download.failed();
      return here(err.message);
    },
  );
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

