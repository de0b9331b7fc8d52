// Peer-to-peer connection between phones on one network (issue #31), with no server: a
// WebRTC data channel whose offer and answer travel as short codes a person copies (or, with
// the QR module, shows and scans). `iceServers: []` always: no STUN/TURN server, so only host
// candidates (this device's own addresses on the Wi-Fi or a phone's hotspot) are gathered.
//
// A code is the part of the SDP the other side needs (ICE user name and password, the DTLS
// fingerprint, the host candidates), packed in one line, compressed (deflate-raw) and written
// in base64url; the rest of the SDP is the same for every data channel Chromium, Firefox and
// Safari make, and is rebuilt from a template on the other side.

export const RTC_CONFIG = Object.freeze({ iceServers: [] });
const CODE_VERSION = "1";
const GATHER_LIMIT_MS = 5000; // host candidates come in well under a second

/** The peer connection every friend's table uses (never any ICE server). */
export function newPeer() {
  return new RTCPeerConnection({ ...RTC_CONFIG, iceServers: [] });
}

/** Resolves once ICE gathering is complete (or after a limit, with what was gathered). */
export function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (pc.iceGatheringState !== "complete") return;
      pc.removeEventListener("icegatheringstatechange", done);
      clearTimeout(limit);
      resolve();
    };
    const limit = setTimeout(resolve, GATHER_LIMIT_MS);
    pc.addEventListener("icegatheringstatechange", done);
  });
}

// ------------------------------------------------------------ SDP <-> the few fields that matter
/** {ufrag, pwd, fingerprint (hex bytes), setup, candidates: [[address, port]]} from an SDP. */
export function sdpFields(sdp) {
  const line = (prefix) => sdp.split(/\r?\n/).find((l) => l.startsWith(prefix))?.slice(prefix.length).trim();
  const candidates = [];
  for (const l of sdp.split(/\r?\n/)) {
    const m = /^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/i.exec(l);
    if (m && !candidates.some(([a, p]) => a === m[1] && p === Number(m[2]))) candidates.push([m[1], Number(m[2])]);
  }
  const fp = line("a=fingerprint:sha-256 ");
  if (!fp) throw new Error("no sha-256 fingerprint in the SDP");
  return { ufrag: line("a=ice-ufrag:"), pwd: line("a=ice-pwd:"), fingerprint: fp.replace(/:/g, "").toLowerCase(), setup: line("a=setup:"), candidates };
}

/** A complete data-channel SDP from its fields (the template every browser accepts). */
export function sdpOf({ ufrag, pwd, fingerprint, setup, candidates }) {
  const fp = fingerprint.match(/../g).join(":").toUpperCase();
  return [
    "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    ...candidates.map(([addr, port], i) => `a=candidate:${i + 1} 1 udp ${2113937151 - i} ${addr} ${port} typ host generation 0`),
    `a=ice-ufrag:${ufrag}`, `a=ice-pwd:${pwd}`, `a=fingerprint:sha-256 ${fp}`, `a=setup:${setup}`,
    "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
  ].join("\r\n");
}

// ------------------------------------------------------------ fields <-> a short code
const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

const CODE_MAX = 2000; // a pasted code longer than this is not one of ours

/** The code of a description: "o" (offer) or "a" (answer) and its fields, compressed. */
export async function encodeCode(kind, sdp) {
  const f = sdpFields(sdp);
  const fp = b64url(f.fingerprint.match(/../g).map((h) => parseInt(h, 16)));
  const text = [CODE_VERSION + kind, f.ufrag, f.pwd, fp, f.setup, ...f.candidates.map(([a, p]) => `${a} ${p}`)].join("|");
  return b64url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

/** {kind, sdp} from a code as pasted (spaces and line breaks dropped); throws if it is not one. */
export async function decodeCode(code, expectKind) {
  const clean = String(code).replace(/\s+/g, "");
  if (!clean || clean.length > CODE_MAX || !/^[A-Za-z0-9_-]+$/.test(clean)) throw new Error("not a table code");
  let text;
  try {
    text = new TextDecoder().decode(await pipe(unb64url(clean), new DecompressionStream("deflate-raw")));
  } catch {
    throw new Error("not a table code");
  }
  const [head, ufrag, pwd, fp, setup, ...cands] = text.split("|");
  const kind = head?.slice(1);
  if (head?.[0] !== CODE_VERSION || kind !== expectKind || !ufrag || !pwd || !fp || !/^(actpass|active|passive)$/.test(setup)) {
    throw new Error(`not an ${expectKind === "o" ? "offer" : "answer"} code`);
  }
  const fingerprint = [...unb64url(fp)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const candidates = cands.map((c) => c.split(" ")).filter(([a, p]) => /^[\w.:-]{1,80}$/.test(a) && /^\d{1,5}$/.test(p)).map(([a, p]) => [a, Number(p)]);
  return { kind, sdp: sdpOf({ ufrag, pwd, fingerprint, setup, candidates }) };
}

// ------------------------------------------------------------ the two sides of one exchange
/** Test hook: the SDPs this page made (their candidate types are checked). */
export const madeSDPs = [];

/** The host's side: a peer, its channel and the offer code to show. */
export async function hostOffer() {
  const pc = newPeer();
  const channel = pc.createDataChannel("truco", { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  madeSDPs.push(pc.localDescription.sdp);
  return { pc, channel, code: await encodeCode("o", pc.localDescription.sdp) };
}

/** The host pastes the guest's answer. */
export async function hostAnswer(pc, code) {
  const { sdp } = await decodeCode(code, "a");
  await pc.setRemoteDescription({ type: "answer", sdp });
}

/** The guest's side: from the host's offer code, a peer, its answer code and its channel (a promise). */
export async function guestAnswer(code) {
  const { sdp } = await decodeCode(code, "o");
  const pc = newPeer();
  const channel = new Promise((resolve) => { pc.ondatachannel = (e) => resolve(e.channel); });
  await pc.setRemoteDescription({ type: "offer", sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  madeSDPs.push(pc.localDescription.sdp);
  return { pc, channel, code: await encodeCode("a", pc.localDescription.sdp) };
}

/** Resolves with the channel once open; rejects after `ms` (the connection cannot be made). */
export function opened(channel, ms = 20000) {
  return new Promise((resolve, reject) => {
    if (channel.readyState === "open") return resolve(channel);
    const limit = setTimeout(() => reject(new Error("timeout")), ms);
    channel.addEventListener("open", () => { clearTimeout(limit); resolve(channel); }, { once: true });
  });
}
