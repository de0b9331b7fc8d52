// A friends' table, the host's side (issue #31; docs/friends.md). This page runs the engine
// as in a bot match and is the referee: it owns the turn timer, asks the engine for each
// guest's own seat's observation (never anyone else's) and applies the actions a guest
// sends for its own seat only. Every guest message is untrusted (protocol.js checks it);
// a bad one is dropped and counted. A guest whose device drops is played by a bot
// (`set_humans`) until it rejoins with a new code exchange. Loaded only when the player
// opens "Jogar com amigos" or resumes such a match (not on the table's first visit).

import { engineApi } from "../engine/engine_api.js";
import { t } from "../shared/i18n.js";
import { cleanName } from "../table/seats.js";
import { hostAnswer, hostOffer, madeSDPs, opened } from "./codes.js";
import { checkRequest, emptyDelta, obsDelta } from "./protocol.js";
import { copyButton, el, friendsStyles, showQR, testLog } from "./ui.js";

const CONNECT_MS = 20000;
const TIMER_GRACE_MS = 2000; // the guest's clock and the channel's delay
// What one guest may ask of this page (issue 42: a guest's phone, buggy or hostile, must not
// stall the host's game). One request in flight per guest: another that comes meanwhile is
// refused at once ("busy"), so a guest never has more than one call in the engine, and the
// host's own calls never wait behind a guest's queue. The Dica and the partner's opinion
// (each a bot's search) and a name (each rename sends every guest its view again) are
// rate-limited, each kind on its own: a burst of RATE_BURST, then one a second. Replies are
// not sent while the channel's buffer is full (a guest that does not read them loses them).
const RATE_LIMITED = new Set(["hint", "opinion", "hello"]);
const RATE_BURST = 3;
const RATE_MS = 1000;
const BUFFER_MAX = 1 << 20;

/** A refusal of a guest's request: `code` (protocol.js, REFUSALS) is what the guest's page says. */
const refusal = (code, text) => Object.assign(new Error(text), { refusal: code });

/** Why a guest's request failed, as a refusal code: the host's own checks, the match, the engine. */
function refusalOf(err) {
  if (err?.refusal) return err.refusal;
  if (err?.name === "MatchChanged") return "changed";
  if (err?.valueError || err?.errorType === "IllegalAction") return "illegal";
  if (err?.name === "EngineError") return "engine";
  return "other";
}

/** Whether guest `g` may ask `type` now (a token bucket per kind), taking a token if so. */
function takeToken(g, type, now) {
  g.tokens ??= {};
  const b = (g.tokens[type] ??= { left: RATE_BURST, at: now });
  b.left = Math.min(RATE_BURST, b.left + (now - b.at) / RATE_MS);
  b.at = now;
  if (b.left < 1) return false;
  b.left -= 1;
  return true;
}

export class FriendsHost {
  /** @param {object} o  {manager (GameManager), client (the engine), onChange (the seats' state changed)} */
  constructor({ manager, client, onChange = () => {} }) {
    this.manager = manager;
    this.client = client; // the engine (the tests call it through window.__trucoFriendsHost)
    // What is asked for a guest's device (its view, its Dica, its partner's opinion) is tagged:
    // such a call that passes its time limit restarts the worker, but says nothing of this
    // match's save, so it never counts toward "stuck twice" (match_setup.js).
    this.forGuest = engineApi({ call: (method, params) => client.call(method, params, { tag: "guest" }) });
    this.onChange = onChange;
    this.guests = new Map(); // seat -> {pc, channel, open, name, epoch}
    this.dropped = 0; // guest messages refused unread (size, JSON, schema)
    this.chain = Promise.resolve(); // engine calls for the guests, one after another
    this.turnTimer = null;
    this.ready = new Set(); // guests' seats that pressed "Jogar de novo" at the match's end
    this.log = testLog();
    if (this.log) window.__trucoFriendsHost = this; // test mode: the tests read `dropped`
    manager.hostFriends(this); // the friends' seats' drivers ask plays() and turn()
    // Each reply the table applies: a new match's seats to the engine, each guest its view.
    manager.onApplied(({ kind }) => {
      if (kind === "new") this.newMatch();
      this.changed();
    });
    // The host's page closes or reloads: each guest is told at once (else a guest whose
    // browser keeps the connection up would wait for the network's own time-out).
    addEventListener("pagehide", () => this.leave());
  }

  leave() {
    for (const [seat, g] of this.guests) {
      if (g.open) this.send(g, { type: "bye" });
      this.close(seat);
    }
  }

  /** The seats people play from other devices (the match's settings). */
  get guestSeats() {
    return (this.manager.seats?.humans ?? []).filter((s) => s !== 0);
  }

  /** The human seats the engine has now: the host and every connected guest. */
  liveHumans() {
    return [0, ...this.guestSeats.filter((s) => this.guests.get(s)?.open)];
  }

  /** A friend plays `seat` now from their device (else its bot does). */
  plays(seat) {
    // Until the engine has the seat back as a bot's (set_humans, between moves), it waits.
    return seat !== 0 && this.guestSeats.includes(seat) && (this.engineHumans ?? []).includes(seat);
  }

  // ------------------------------------------------------------ the handshake
  /** A new offer for `seat` (any connection it had is closed): the code to give the guest. */
  async offer(seat) {
    this.close(seat);
    const { pc, channel, code } = await hostOffer();
    // `sent`: the last observation sent on this channel (the next goes as its changes).
    const g = { pc, channel, seat, open: false, name: null, sent: null, epoch: (this.guests.get(seat)?.epoch ?? 0) + 1 };
    this.guests.set(seat, g);
    channel.onmessage = (e) => this.receive(seat, g, e.data);
    channel.onclose = () => this.lost(seat, g);
    pc.onconnectionstatechange = () => {
      if (["failed", "closed", "disconnected"].includes(pc.connectionState)) this.lost(seat, g);
    };
    return code;
  }

  /** The guest's answer for `seat`: resolves once the channel is open (rejects on a bad code or after 20 s). */
  async answer(seat, code) {
    const g = this.guests.get(seat);
    if (!g) throw new Error("no offer");
    // The 20 s run from the moment "Conectar" is pressed (the answer's checks included).
    let timer;
    const limit = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error("timeout")), CONNECT_MS); });
    limit.catch(() => {});
    try {
      await Promise.race([hostAnswer(g.pc, code), limit]);
      await Promise.race([opened(g.channel, CONNECT_MS), limit]);
    } finally {
      clearTimeout(timer);
    }
    if (this.guests.get(seat) !== g) throw new Error("replaced");
    g.open = true;
    this.onChange();
    await this.seatsToEngine();
    this.push(seat);
  }

  close(seat) {
    const g = this.guests.get(seat);
    if (!g) return;
    g.open = false;
    g.closed = true;
    try {
      g.pc.close();
    } catch {
      /* already closed */
    }
  }

  /** A guest's connection ended (a reload, the Wi-Fi): its bot plays until it rejoins. */
  lost(seat, g) {
    if (g.closed && !g.open) return;
    g.closed = true;
    const was = g.open;
    g.open = false;
    if (this.guests.get(seat) !== g) return;
    if (was) {
      this.onChange(seat);
      this.seatsToEngine();
    }
  }

  /**
   * The engine's human seats follow who is connected (`set_humans`), between moves: a
   * dropped guest's seat turns bot (and moves at once if it was waited for), a rejoined one
   * is given back.
   */
  seatsToEngine() {
    const m = this.manager;
    this.chain = this.chain.then(async () => {
      const obs = m.observation;
      if (!obs || obs.winner !== null || !m.seats?.people) return;
      const humans = this.liveHumans();
      if (humans.join() === (this.engineHumans ?? []).join()) return;
      // The table applies it once no move is in the engine; the seats count from then on.
      await m.setHumans(humans, () => {
        this.engineHumans = humans;
        clearTimeout(this.turnTimer);
      });
    }).catch((err) => err?.name === "MatchChanged" || console.warn("friends: set_humans failed", err));
    return this.chain;
  }

  /** The guests ready for the next match, named in the host's end screen ("Zé quer jogar de novo."). */
  showReady() {
    const end = document.getElementById("end-dialog");
    if (!end) return;
    let line = document.getElementById("friends-again");
    if (!line) {
      line = el("p", { id: "friends-again", role: "status" });
      end.querySelector(".dialog-buttons")?.before(line);
    }
    const seats = this.manager.seats;
    line.replaceChildren(...[...this.ready].sort().map((s) => el("span", {}, t("friends.again", { name: seats?.name(s) ?? "" }), " ")));
    line.hidden = this.ready.size === 0;
  }

  /** A new match was dealt with the settings' seats: those whose guest is away turn bot. */
  newMatch() {
    this.ready.clear();
    this.showReady();
    this.engineHumans = [...(this.manager.seats?.humans ?? [0])];
    this.seatsToEngine();
  }

  /** After a host reload: the save's guests are away; bots play their seats until they rejoin. */
  resumed() {
    this.engineHumans = [0]; // MatchSetup.resume gave the guests' seats to bots
    this.onChange();
  }

  // ------------------------------------------------------------ the match, to each guest
  /** The table applied a reply ("reply applied"): each connected guest gets its own seat's view. */
  changed() {
    this.onChange();
    for (const seat of this.guestSeats) if (this.guests.get(seat)?.open) this.push(seat);
  }

  push(seat) {
    // One push waiting per guest is enough: it sends the view as it is when it runs, so a
    // burst of changes (a guest renaming itself again and again) adds no engine calls.
    const waiting = (this.pushing ??= new Set());
    if (waiting.has(seat)) return;
    waiting.add(seat);
    this.chain = this.chain.then(async () => {
      waiting.delete(seat);
      const g = this.guests.get(seat);
      if (!g?.open || !this.manager.observation || !(this.engineHumans ?? []).includes(seat)) return;
      const reply = await this.forGuest.observation({ seat });
      this.send(g, { type: "obs", observation: reply.observation, table: this.tableInfo(seat) });
    }).catch((err) => console.warn("friends: push failed", err));
  }

  /** What a guest needs beyond its observation: its seat, the names, the table's settings. */
  tableInfo(seat) {
    const m = this.manager;
    const { mode, humans, hint, timer } = m.settings;
    // The names people typed; an unnamed seat goes blank, so that the guest's page names it
    // in its own language ("Player 1"), not in the host's ("Jogador 1"). The host is seat 0.
    const typed = m.settings.player_names ?? [];
    const names = [0, 1, 2, 3].map((s) => (!m.seats.isHuman(s) ? "" : cleanName((s === 0 ? m.settings.player_name : typed[s]) ?? "")));
    return { seat, mode, humans, names, hint: hint === true, timer: timer ?? null };
  }

  send(g, msg) {
    if (g.channel.readyState !== "open") return;
    if (msg.id !== undefined && (g.channel.bufferedAmount ?? 0) > BUFFER_MAX) return; // a reply the guest is not reading
    // An observation goes as what changed since the last one this guest got (protocol.js),
    // the table's settings only when they changed; an event that changes nothing, not at all.
    if (msg.type === "obs") {
      const { observation, table, ...rest } = msg;
      const payload = this.pack(g, observation);
      const tableText = JSON.stringify(table);
      const newTable = tableText !== g.tableSent;
      if (emptyDelta(payload) && !newTable) return;
      g.tableSent = tableText;
      msg = { ...rest, ...payload, ...(newTable ? { table } : {}) };
    } else if (msg.result?.observation) {
      const { observation, ...rest } = msg.result;
      msg = { ...msg, result: { ...rest, ...this.pack(g, observation) } };
    }
    const text = JSON.stringify(msg);
    this.log?.push({ dir: "out", seat: g.seat, text });
    g.channel.send(text);
  }

  pack(g, observation) {
    const payload = obsDelta(g.sent, observation);
    g.sent = structuredClone(observation); // as sent, whatever the page does with its own
    return payload;
  }

  /** A friend's turn (its seat's driver, FriendSeat): the host's clock for it; at time up, "timeout" for that seat. */
  turn(obs) {
    clearTimeout(this.turnTimer);
    const seconds = Number(obs.options?.timer || 0);
    if (seconds <= 0) return;
    const seat = obs.to_move;
    const n = obs.log.length;
    this.turnTimer = setTimeout(() => {
      const now = this.manager.observation;
      if (now && now.to_move === seat && now.log.length === n && this.guests.get(seat)?.open) this.act(seat, "timeout").catch(() => {});
    }, seconds * 1000 + TIMER_GRACE_MS);
  }

  act(seat, action) {
    clearTimeout(this.turnTimer);
    return this.manager.friendAction(seat, action);
  }

  // ------------------------------------------------------------ what a guest sends
  async receive(seat, g, raw) {
    this.log?.push({ dir: "in", text: typeof raw === "string" ? raw.slice(0, 5000) : "(binary)" });
    const msg = checkRequest(raw);
    if (!msg || this.guests.get(seat) !== g || !g.open) {
      this.dropped++;
      return;
    }
    const reply = (result) => this.send(g, { id: msg.id, ok: true, result });
    // `error` in English for the guest's console, `code` for its page to say in its language.
    const refuse = (err) => this.send(g, { id: msg.id, ok: false, error: String(err?.message ?? err).slice(0, 200), code: refusalOf(err) });
    // The guest's limits (ASK_GAP_MS above): refused here, before anything costs the table.
    if (g.busy || (RATE_LIMITED.has(msg.type) && !takeToken(g, msg.type, performance.now()))) {
      this.refused = (this.refused ?? 0) + 1;
      refuse(g.busy ? refusal("busy", "busy: one request at a time") : refusal("rate", "too many requests: wait a second"));
      return;
    }
    g.busy = msg.type !== "hello" && msg.type !== "again"; // those two never wait
    try {
      if (msg.type === "hello") {
        g.name = cleanName(msg.name ?? "");
        if (g.name) this.setName(seat, g.name);
        reply({ seat });
      } else if (msg.type === "apply") {
        const obs = this.manager.observation;
        // Only the guest's own seat, on its turn (a sinal: whenever the engine allows it).
        if (!this.plays(seat) || !g.open || !obs || (obs.to_move !== seat && !msg.action.startsWith("signal "))) throw refusal("turn", "not your turn");
        const result = await this.act(seat, msg.action);
        reply({ observation: result.observation });
      } else if (msg.type === "hint") {
        // Only on the guest's own turn (the engine would refuse it anyway, after a wait).
        if (!this.plays(seat) || this.manager.observation?.to_move !== seat) throw refusal("turn", "not your turn");
        reply(await this.forGuest.hint({ seat }));
      } else if (msg.type === "opinion") {
        // Humano decide: this seat's partner bot's opinion (the engine answers only while
        // this seat decides for its team; else {seat: null, action: null}).
        reply(await this.forGuest.partnerOpinion({ seat }));
      } else if (msg.type === "again") {
        // "Jogar de novo" on the guest's device: ready for the next match, which the host deals.
        if (this.manager.observation?.winner == null) throw refusal("not_over", "the match is not over");
        this.ready.add(seat);
        this.showReady();
        reply({});
      }
    } catch (err) {
      refuse(err);
    } finally {
      g.busy = false;
    }
  }

  setName(seat, name) {
    if (!this.manager.renamePerson(seat, name)) return;
    this.onChange();
    this.changed();
  }
}

// ------------------------------------------------------------ the host's panel
let panel = null;

/**
 * "Jogar com amigos": the panel where the host picks the table and the friends' seats,
 * gives each an offer code and pastes back its answer; reopened during the match ("Amigos")
 * to give a dropped friend's seat back. `startMatch(settings)` deals with the chosen seats.
 */
export async function openHostPanel({ manager, client, startMatch, settings }) {
  await friendsStyles();
  if (!panel) panel = new HostPanel({ manager, client, startMatch });
  panel.open(settings);
  return panel;
}

class HostPanel {
  constructor({ manager, client, startMatch }) {
    this.manager = manager;
    this.host = manager.friends ?? new FriendsHost({ manager, client });
    this.host.onChange = (droppedSeat) => this.refresh(droppedSeat);
    this.startMatch = startMatch;
    this.dialog = this.build();
    document.body.append(this.dialog);
    this.tableButton();
  }

  build() {
    const d = el("dialog", { class: "panel wide friends", id: "friends-dialog", "aria-labelledby": "friends-title" });
    const modes = el("fieldset", { class: "form-row", id: "friends-mode" }, el("legend", {}, t("friends.mode")),
      ...["2x2", "1x1"].map((m) => el("label", {}, el("input", { type: "radio", name: "friends-mode", value: m }), ` ${t("start.mode." + m)}`)));
    const seats = el("fieldset", { class: "form-row", id: "friends-seat-choice" }, el("legend", {}, t("friends.seats")),
      ...[1, 2, 3].map((s) => el("label", { "data-seat-row": String(s) },
        el("input", { type: "checkbox", name: "friends-seat", value: String(s) }),
        ` ${t("friends.seat", { n: s + 1, team: t(s % 2 ? "friends.opponent" : "friends.partner") })}`)));
    this.setup = el("div", { id: "friends-setup" }, modes, seats,
      el("button", { type: "button", class: "button", id: "friends-make" }, t("friends.make")));
    this.list = el("div", { id: "friends-seats" });
    this.startButton = el("button", { type: "button", class: "button big", id: "friends-start", disabled: "" }, t("friends.start"));
    const close = el("button", { type: "button", class: "button secondary", id: "friends-close" }, t("friends.close"));
    d.append(
      el("h2", { id: "friends-title" }, t("friends.title")),
      el("ul", { class: "friends-notes" }, el("li", {}, t("friends.note.once")), el("li", {}, t("friends.note.dealer")), el("li", {}, t("friends.note.wifi"))),
      this.setup, this.list, el("div", { class: "dialog-buttons" }, close, this.startButton));
    modes.addEventListener("change", () => this.syncSeats());
    this.setup.querySelector("#friends-make").onclick = () => this.make();
    close.onclick = () => d.close();
    this.startButton.onclick = () => this.start();
    return d;
  }

  /** "Amigos" at the table's corner: the panel again, to give a dropped friend's seat back. */
  tableButton() {
    if (document.getElementById("friends-table")) return;
    const b = el("button", { type: "button", class: "icon-button friends-table", id: "friends-table", hidden: "" }, t("friends.table_button"));
    b.onclick = () => this.open();
    // In the table's menu, before "Pausar".
    const pause = document.getElementById("pause");
    if (pause) pause.before(b);
    else document.getElementById("app")?.append(b);
    this.tableBtn = b;
  }

  get inMatch() {
    const m = this.manager;
    return Boolean(m.settings.friends === "host" && m.observation && m.observation.winner === null);
  }

  open(settings = null) {
    if (!this.inMatch && settings) {
      const mode = settings.mode === "1x1" ? "1x1" : "2x2";
      for (const r of this.dialog.querySelectorAll("input[name=friends-mode]")) r.checked = r.value === mode;
      this.syncSeats();
    }
    this.setup.hidden = this.inMatch;
    this.startButton.hidden = this.inMatch;
    if (this.inMatch) this.showSeats(this.host.guestSeats);
    if (!this.dialog.open) this.dialog.showModal();
  }

  syncSeats() {
    const mode = this.dialog.querySelector("input[name=friends-mode]:checked")?.value ?? "2x2";
    for (const row of this.dialog.querySelectorAll("[data-seat-row]")) {
      const seat = Number(row.dataset.seatRow);
      row.hidden = mode === "1x1" && seat !== 1;
      const box = row.querySelector("input");
      if (row.hidden) box.checked = false;
    }
    if (![...this.dialog.querySelectorAll("input[name=friends-seat]")].some((b) => b.checked)) {
      this.dialog.querySelector("input[name=friends-seat][value='1']").checked = true;
    }
  }

  chosen() {
    const mode = this.dialog.querySelector("input[name=friends-mode]:checked")?.value ?? "2x2";
    const seats = [...this.dialog.querySelectorAll("input[name=friends-seat]:checked")].map((b) => Number(b.value))
      .filter((s) => mode === "2x2" || s === 1);
    return { mode, seats };
  }

  make() {
    this.showSeats(this.chosen().seats);
  }

  /** One row per friend's seat: its offer code (and QR, when the module is there), the answer field. */
  showSeats(seats) {
    const rows = seats.map((seat) => this.row(seat));
    this.list.replaceChildren(...rows);
    this.refresh();
    rows[0]?.querySelector("textarea")?.focus();
  }

  row(seat) {
    const host = this.host;
    const id = (x) => `friends-${x}-${seat}`;
    const offer = el("textarea", { id: id("offer"), readonly: "", rows: "3", class: "friends-code", spellcheck: "false" });
    const answer = el("textarea", { id: id("answer"), rows: "3", class: "friends-code", spellcheck: "false", autocomplete: "off" });
    const status = el("p", { class: "friends-status", id: id("status"), role: "status" });
    const connect = el("button", { type: "button", class: "button", id: id("connect") }, t("friends.connect"));
    const retry = el("button", { type: "button", class: "button secondary", id: id("retry") }, t("friends.retry"));
    const qr = el("div", { class: "friends-qr", id: id("qr") });
    const row = el("section", { class: "friends-seat", "data-seat": String(seat), "aria-labelledby": id("title") },
      el("h3", { id: id("title") }, t("friends.seat", { n: seat + 1, team: t(seat % 2 ? "friends.opponent" : "friends.partner") })),
      el("label", { for: id("offer") }, t("friends.offer_label")), offer,
      el("p", { class: "friends-buttons" }, copyButton(offer), retry), qr,
      el("label", { for: id("answer") }, t("friends.answer_label")), answer,
      el("p", { class: "friends-buttons" }, connect), status);
    const fresh = async () => {
      status.textContent = "";
      answer.value = "";
      offer.value = "…";
      delete offer.dataset.ready;
      const code = await host.offer(seat);
      offer.value = code;
      offer.dataset.ready = "";
      status.textContent = t("friends.status.waiting");
      showQR(qr, code, t("friends.offer_label"));
      this.refresh();
    };
    retry.onclick = () => fresh();
    connect.onclick = async () => {
      status.textContent = t("friends.status.connecting");
      connect.disabled = true;
      try {
        await host.answer(seat, answer.value);
        status.textContent = t("friends.status.connected", { name: this.manager.seats?.name(seat) ?? t("pass.default_name", { n: seat + 1 }) });
      } catch (err) {
        status.textContent = t(/code/.test(err.message) ? "friends.status.bad_code" : "friends.status.failed");
      } finally {
        connect.disabled = false;
      }
      this.refresh();
    };
    const g = host.guests.get(seat);
    if (g?.open) status.textContent = t("friends.status.connected", { name: this.manager.seats?.name(seat) ?? "" });
    else fresh();
    return row;
  }

  refresh(droppedSeat) {
    const host = this.host;
    const open = [...host.guests.entries()].filter(([, g]) => g.open).map(([s]) => s);
    this.startButton.disabled = open.length === 0;
    if (this.tableBtn) this.tableBtn.hidden = !this.inMatch;
    if (droppedSeat !== undefined) {
      const name = this.manager.seats?.name(droppedSeat) ?? "";
      this.manager.tell(t("friends.status.dropped", { name }), "", "error");
      const status = document.getElementById(`friends-status-${droppedSeat}`);
      if (status) status.textContent = t("friends.status.dropped", { name });
    }
    for (const row of this.list.querySelectorAll(".friends-seat")) {
      const seat = Number(row.dataset.seat);
      row.dataset.connected = String(Boolean(host.guests.get(seat)?.open));
    }
  }

  /** "Começar a partida": the connected friends' seats are people, the rest bots. */
  start() {
    const { mode } = this.chosen();
    const seats = [...this.host.guests.entries()].filter(([, g]) => g.open).map(([s]) => s).sort();
    const humans = ["0", ...seats.map(String)].join("");
    this.host.engineHumans = [0, ...seats];
    this.dialog.close();
    this.startMatch({ mode, humans, friends: "host", own_seat: 0 });
    this.refresh();
  }
}

// Test hook: the SDPs made here (their candidate types), the messages sent and received.
if (typeof window !== "undefined" && new URLSearchParams(location.search).has("friends_log")) {
  window.__trucoFriendsSDPs = madeSDPs;
}
