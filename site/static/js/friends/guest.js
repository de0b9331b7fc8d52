// A friends' table, a guest's side (issue #31; docs/friends.md). The page runs no engine:
// `?join=1` keeps the worker from starting (engine_boot.js), and the table's own game loop
// (GameManager) is fed by `GuestLink.client`, which answers its engine calls from what the
// host sends: the guest's own seat's observations. "apply" and "hint" go to the host as
// requests; every other seat's turn is the host's to move, and the table's driver of those
// seats (seat_drivers.js) waits for the host's next observation (nextObservation()).

import { METHOD } from "../engine/engine_api.js";
import { t } from "../shared/i18n.js";
import { DEFAULT_SETTINGS } from "../table/saved_data.js";
import { guestAnswer, madeSDPs } from "./codes.js";
import { applyDelta, checkHint, checkObservation, checkOpinion, checkTable, hostError, HOST_MESSAGE_MAX, refusalCode } from "./protocol.js";
import { copyButton, el, friendsStyles, offerScan, showQR, testLog } from "./ui.js";

// How long a request waits for the host's answer (GuestLink.requestMs; tests set it). Past it
// the host or the link between the two is slow: said as such (errorType "HostTimeout"), never
// as an engine stuck (this page runs none; the host's own engine has its own limits).
const REQUEST_MS = 15000;

/**
 * What the host said no to, or never answered: an error the table says in its own words
 * (shared/engine_words.js) by its `errorType`, `HostRefused` (with the `refusal` code,
 * protocol.js) or `HostTimeout`; its message, the host's English, goes to the console.
 */
export function hostFailure(errorType, message, refusal = null) {
  return Object.assign(new Error(message), { name: "HostError", errorType, refusal });
}

/** The key of an observation's moment: its last event (a later one is news). */
const momentOf = (obs) => (obs.log.length ? obs.log[obs.log.length - 1].n : -1) + (obs.winner !== null ? 0.5 : 0);

export class GuestLink {
  constructor() {
    this.channel = null;
    this.pending = new Map(); // id -> {resolve, reject}
    this.nextId = 1;
    this.queue = []; // the host's observations not yet shown
    this.waiter = null;
    this.latest = null;
    this.delivered = -Infinity;
    this.table = null; // {seat, mode, humans, names, hint}
    this.dropped = 0; // the host's messages refused on arrival (size, JSON, schema)
    this.base = null; // the last observation the host sent on this channel (deltas apply to it)
    this.manager = null;
    this.requestMs = REQUEST_MS;
    this.log = testLog();
    if (this.log) window.__trucoFriendsGuest = this; // test mode: the tests send from here
    this.client = { call: (method, params) => this.call(method, params) };
  }

  /** The connection ended: the next host's first observation deals this page in again. */
  reset() {
    for (const p of this.pending.values()) p.reject(new Error(t("join.no_answer")));
    this.pending.clear();
    this.channel = null;
    this.queue = [];
    this.waiter = null;
    this.latest = null;
    this.delivered = -Infinity;
    this.base = null;
  }

  // ------------------------------------------------------------ the engine, as the game loop sees it
  async call(method, params = {}) {
    switch (method) {
      case METHOD.new_game:
      case METHOD.load:
      case METHOD.observation:
        return this.deliver(this.latest);
      case METHOD.apply: {
        const result = await this.request({ type: "apply", action: String(params.action ?? "") });
        return this.deliver(this.checked(result?.observation, checkObservation));
      }
      case METHOD.hint:
        return this.checked(await this.request({ type: "hint" }), checkHint);
      case METHOD.partner_opinion: // humano decide: the partner bot's opinion, from the host's engine
        return this.checked(await this.request({ type: "opinion" }), checkOpinion);
      default:
        throw new Error(t("join.not_here"));
    }
  }

  /**
   * "Jogar de novo" at the end of a match, on a guest's device: the next match is dealt by
   * the host (its engine, its save), so this tells the host that this seat is ready (its
   * end screen names who is) and says here that the match starts when the host's does. The
   * host's next match deals this page in by itself (receive()), pressed or not.
   */
  async again() {
    const m = this.manager;
    m?.tell(t("join.again.ready"), t("join.again.wait"));
    try {
      await this.request({ type: "again" });
    } catch {
      // The host left: its channel's close says so (beginGuest's lost()).
    }
  }

  /** A host's reply that its check passes, or an error (the host sent what no engine makes). */
  checked(value, check) {
    if (check(value)) return value;
    this.dropped++;
    throw new Error(t("join.no_answer"));
  }

  deliver(obs) {
    this.delivered = Math.max(this.delivered, momentOf(obs));
    this.queue = this.queue.filter((o) => momentOf(o) > this.delivered);
    return { observation: obs, save: null };
  }

  /** The host's next observation (another seat moved), as the reply to a move (the table's driver of the host's seats). */
  nextObservation() {
    const next = this.queue.find((o) => momentOf(o) > this.delivered);
    if (next) return Promise.resolve(this.deliver(next));
    return new Promise((resolve) => { this.waiter = resolve; });
  }

  request(body) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const limit = setTimeout(() => {
        this.pending.delete(id);
        reject(hostFailure("HostTimeout", `the host did not answer ${body.type} within ${this.requestMs / 1000} s`));
      }, this.requestMs);
      this.pending.set(id, { resolve: (v) => { clearTimeout(limit); resolve(v); }, reject: (e) => { clearTimeout(limit); reject(e); } });
      this.send({ id, ...body });
    });
  }

  send(msg) {
    const text = JSON.stringify(msg);
    this.log?.push({ dir: "out", text });
    if (this.channel?.readyState === "open") this.channel.send(text);
  }

  // ------------------------------------------------------------ what the host sends
  attach(channel, { name, onFirst, onLost }) {
    this.channel = channel;
    this.base = null; // a new channel starts with a whole observation
    channel.onmessage = (e) => (e.data === '{"type":"bye"}' ? onLost() : this.receive(e.data, onFirst));
    channel.onclose = () => onLost();
    this.send({ id: 0, type: "hello", ...(name ? { name } : {}) });
  }

  receive(raw, onFirst) {
    this.log?.push({ dir: "in", text: typeof raw === "string" ? raw.slice(0, 5000) : "(binary)" });
    // The host is trusted no more than a guest is (issue 42): size, JSON, then each field
    // by the engine's schema (protocol.js); what fails is dropped unread and counted.
    let msg;
    try {
      msg = typeof raw === "string" && raw.length <= HOST_MESSAGE_MAX ? JSON.parse(raw) : null;
    } catch {
      msg = null;
    }
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) {
      this.dropped++;
      return;
    }
    // An observation comes whole or as its changes since the last one (protocol.js): rebuilt
    // here first, in the channel's order, whatever becomes of the message.
    const carrier = msg?.type === "obs" ? msg : msg?.result;
    if (carrier && (carrier.observation || carrier.delta)) {
      let obs;
      try {
        obs = applyDelta(this.base, carrier);
      } catch {
        obs = null; // a delta of the wrong shape
      }
      if (!obs) {
        this.dropped++;
        return;
      }
      // The chain follows what the host sent, good or not (the host's copy does), but a
      // page sees only an observation that passes.
      this.base = obs;
      delete carrier.delta;
      if (!checkObservation(obs)) {
        this.dropped++;
        delete carrier.observation;
        if (msg.type === "obs") return;
      } else {
        carrier.observation = structuredClone(obs); // the page's own copy: the base stays as sent
      }
    }
    if (typeof msg.id === "number") {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok === true) p.resolve(msg.result);
      else p.reject(hostFailure("HostRefused", hostError(msg.error), refusalCode(msg.code)));
      return;
    }
    if (msg.type !== "obs" || !msg.observation) return;
    if (msg.table !== undefined && !checkTable(msg.table)) {
      this.dropped++;
      return;
    }
    // A first observation, or the host's next match ("Jogar de novo"): dealt in afresh.
    // (The table's settings come when they change: the first message, a name, a new match.)
    const was = this.latest;
    const table = msg.table ?? this.table;
    if (!table) return;
    const first = was === null || table.seat !== this.table?.seat || momentOf(msg.observation) < momentOf(was)
      || (was.winner !== null && msg.observation.winner === null);
    this.latest = msg.observation;
    this.table = table;
    if (first) {
      this.queue = [];
      this.waiter = null;
      this.delivered = -Infinity;
      onFirst(this.settings());
      return;
    }
    if (momentOf(msg.observation) <= this.delivered) return;
    this.queue.push(msg.observation);
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = null;
      resolve(this.deliver(this.queue.shift()));
      return;
    }
    // The host's clock took the turn away while this page waited for its player: go on.
    const m = this.manager;
    if (m?.awaitsPlayer && msg.observation.to_move !== msg.observation.seat) m.accept(this.deliver(msg.observation));
  }

  /** The guest's settings: the host's table, this seat, the names as the host has them. */
  settings() {
    const { seat, mode, humans, names, hint } = this.table;
    return { ...DEFAULT_SETTINGS, mode, humans, player_names: names, player_name: "", friends: "guest", own_seat: seat, hint: hint === true };
  }
}

/** Nothing of a guest's match is stored on its device (the host's save keeps it). */
export const guestStore = {
  storage: { persistent: false },
  saveSettings() {}, saveProgress() {}, matchOver() {}, abandonStored() {}, refusedSave() {},
  setAsideSession() {}, abandonSaved() {}, removeSession() {}, savedSession: () => null, lastMatch: () => null,
  storedSettings: () => null, checkedSession: async () => null,
};

// The offer pasted on this tab, kept through a reload in another language (the host's offer
// stays good until an answer is pasted there; the answer made from it does not survive).
const OFFER_KEY = "truco:join-offer";
const kept = {
  get: () => {
    try {
      return sessionStorage.getItem(OFFER_KEY) ?? "";
    } catch {
      return "";
    }
  },
  set: (code) => {
    try {
      if (code) sessionStorage.setItem(OFFER_KEY, code);
      else sessionStorage.removeItem(OFFER_KEY);
    } catch {
      /* storage blocked: nothing is kept */
    }
  },
};

/** The guest's screen: paste the host's offer, show the answer, wait for the deal (`deal(settings)`, MatchSetup.newGame). */
export async function beginGuest({ link, manager, deal, name }) {
  await friendsStyles();
  link.manager = manager;
  // The table is ready at once: the engine that answers is the host's.
  document.getElementById("app").dataset.engineState = "ready";
  const badge = document.getElementById("engine-badge");
  if (badge) badge.hidden = true;
  // The footer's "Python via Pyodide" is the host's: this page runs no engine.
  const footer = document.querySelector("footer.footer p");
  if (footer) footer.textContent = t("footer.guest");
  manager.setPhase("start");
  // The replay and the share link of the match's end need the engine (the host's): not here.
  for (const id of ["end-replay", "end-share"]) {
    const b = document.getElementById(id);
    if (b) b.hidden = true;
  }
  const offer = el("textarea", { id: "join-offer", rows: "4", class: "friends-code", spellcheck: "false", autocomplete: "off" });
  const make = el("button", { type: "button", class: "button big", id: "join-make" }, t("join.make"));
  const answer = el("textarea", { id: "join-answer", readonly: "", rows: "3", class: "friends-code", spellcheck: "false" });
  const status = el("p", { class: "friends-status", id: "join-status", role: "status" });
  const qr = el("div", { class: "friends-qr", id: "join-qr" });
  const scan = el("p", { class: "friends-buttons" });
  const answerBox = el("div", { id: "join-answer-box", hidden: "" },
    el("label", { for: "join-answer" }, t("join.answer_label")), answer, el("p", { class: "friends-buttons" }, copyButton(answer)), qr);
  // The modal dialog makes the header inert: its language switch is here too (the address,
  // ?join=1 included, goes along: lang_switch.js).
  const langs = document.querySelector("header .lang-switch")?.cloneNode(true);
  const title = el("h2", { id: "join-title" }, t("join.title"));
  const form = el("div", { id: "join-form" },
    el("ul", { class: "friends-notes" }, el("li", {}, t("friends.note.once")), el("li", {}, t("join.note.dealer")), el("li", {}, t("friends.note.wifi"))),
    el("label", { for: "join-offer" }, t("join.offer_label")), offer, scan,
    el("div", { class: "dialog-buttons" }, el("a", { class: "button secondary", href: "./" }, t("join.back")), make),
    answerBox, status);
  // The host left (or the network dropped): said plainly, with the way back.
  const rejoin = el("button", { type: "button", class: "button big", id: "join-rejoin" }, t("join.lost.again"));
  const lostBox = el("div", { id: "join-lost", role: "alert", hidden: "" },
    el("p", { class: "join-lost-text" }, t("join.lost.text")),
    el("p", {}, t("join.lost.how", { continue: t("start.continue"), again: t("join.lost.again") })),
    el("div", { class: "dialog-buttons" }, el("a", { class: "button secondary", href: "./" }, t("join.back")), rejoin));
  const d = el("dialog", { class: "panel wide friends", id: "join-dialog", "aria-labelledby": "join-title" },
    ...(langs ? [el("div", { class: "join-lang" }, langs)] : []), title, lostBox, form);
  d.addEventListener("cancel", (e) => e.preventDefault()); // Esc: the guest leaves by "Voltar"
  document.body.append(d);
  d.showModal();
  offer.value = kept.get();
  if (offer.value) {
    status.textContent = t("join.kept");
    make.focus();
  } else {
    offer.focus();
  }
  offer.addEventListener("input", () => kept.set(offer.value.trim()));
  offerScan(scan, offer, () => make.click());

  let attempt = 0;
  let lostAt = 0; // the attempt whose connection was lost (said once)
  make.onclick = async () => {
    const mine = ++attempt;
    status.textContent = "";
    let reply;
    try {
      reply = await guestAnswer(offer.value);
    } catch {
      status.textContent = t("join.status.bad_code");
      return;
    }
    if (mine !== attempt) return;
    kept.set(offer.value.trim());
    answer.value = reply.code;
    answer.dataset.ready = "";
    answerBox.hidden = false;
    showQR(qr, reply.code, t("join.answer_label"));
    answer.focus();
    answer.select();
    status.textContent = t("join.status.waiting");
    let connected = false;
    reply.pc.onconnectionstatechange = () => {
      if (mine !== attempt) return;
      const state = reply.pc.connectionState;
      if (state === "failed" && !connected) status.textContent = t("friends.status.failed");
      // Connected once, then gone (the host's device off the network): as a closed channel.
      else if ((state === "failed" || state === "closed") && connected) lost(mine);
    };
    const channel = await reply.channel;
    const ready = () => {
      if (mine !== attempt) return;
      connected = true;
      kept.set(""); // the offer is used up
      status.textContent = t("join.status.connected");
      link.attach(channel, {
        name,
        onFirst: (settings) => {
          if (d.open) d.close();
          deal(settings);
        },
        onLost: () => lost(mine),
      });
    };
    if (channel.readyState === "open") ready();
    else channel.addEventListener("open", ready, { once: true });
  };

  // The table stops where it was (nothing waits for the host any more) and the dialog says
  // what happened and how to come back; "Entrar de novo" opens the paste field again.
  const lost = (which) => {
    if (which !== attempt || lostAt === which) return;
    lostAt = which;
    link.reset();
    manager.stopWithNotice(t("join.lost.title"), t("join.lost.text"));
    title.textContent = t("join.lost.title");
    lostBox.hidden = false;
    form.hidden = true;
    status.textContent = "";
    answerBox.hidden = true;
    offer.value = "";
    delete answer.dataset.ready;
    if (!d.open) d.showModal();
    rejoin.focus();
  };
  rejoin.onclick = () => {
    title.textContent = t("join.title");
    lostBox.hidden = true;
    form.hidden = false;
    offer.focus();
  };
}

if (typeof window !== "undefined" && new URLSearchParams(location.search).has("friends_log")) {
  window.__trucoFriendsSDPs = madeSDPs;
}
