// One live exercise (or embedded scenario): a fixed deal on a mini-table, the setup moves
// replayed, then the learner moves, the engine applies (or refuses) it, the bots answer, and
// the goal is judged from the engine's events — the same rules as judge() in lessons.py,
// which checks every exercise's solution and mistake at build time.
//
// The engine runs one session at a time, so only one exercise of a page is live: starting
// one suspends the other (it keeps its last picture and offers "Começar" again).
//
// Before the engine has started, an exercise shows its first position (`ex.first`: what the
// table shows when the learner's first move is due, computed by the build with the engine, or
// the cards of an embed's address) in the "preview" state: the learner's first move there
// starts the engine (a touch or focus on the table already does), waits with the loading
// progress under the table, and is made once the engine has dealt the same position.

import { cardName } from "../shared/cards.js";
import { EngineError } from "../engine/engine_client.js";
import { explainGame, explainHand, explainRound, judgeRound } from "./explain.js";
import { t } from "../shared/i18n.js";
import { MiniTable } from "./mini_table.js";
import { TurnTimer } from "../shared/turn_timer.js";
import { callName, raiseLabel, seatName, speech } from "../shared/table_words.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function matches(action, pattern) {
  return action === pattern || (pattern.endsWith(" *") && action.startsWith(pattern.slice(0, -1)));
}

/** The action a log event records ("play 4c", "raise"…); a hidden covered card gives "cover null". */
function eventAction(ev) {
  if (ev.type === "play" || ev.type === "cover") return `${ev.type} ${ev.card}`;
  if (["raise", "accept", "run"].includes(ev.type)) return ev.type;
  return null;
}

/**
 * Right / wrong / undecided (null) — keep in step with judge() in lessons.py.
 * `free` (the embed's own deals) is "done" once the hand is over.
 */
export function judge(ex, actions, roundNo, events) {
  const hand = events.find((e) => e.type === "hand");
  switch (ex.goal) {
    case "free":
      return hand ? "done" : null;
    case "action":
      if (!actions.length) return null;
      return ex.actions.some((p) => matches(actions[0], p)) ? "right" : "wrong";
    case "round": {
      const rnd = roundNo === null ? null : events.find((e) => e.type === "round" && e.round === roundNo);
      if (!rnd) return hand ? "wrong" : null;
      const got = rnd.result === "tie" ? "tie" : rnd.result === 0 ? "win" : "lose";
      return got === (ex.want || "win") ? "right" : "wrong";
    }
    default: {
      if (!hand) return null;
      const pts = hand.points || 0;
      const ours = hand.winner === 0 ? pts : 0;
      const theirs = hand.winner === 1 ? pts : 0;
      const min = ex.min ?? 1;
      return (ex.goal === "hand" ? ours : ours - theirs) >= min ? "right" : "wrong";
    }
  }
}

/** The new_game parameters of an exercise (the learner is seat 0). */
export function newGameParams(ex) {
  const p = {
    preset: ex.preset || "mineiro", players: ex.players || 2, seed: ex.seed ?? 1, hands: ex.hands,
    score: ex.score || [0, 0], dealer: ex.dealer, series: ex.series || 1, timer: ex.timer || 0,
    level: ex.level || "passive", partner_level: ex.partner_level || ex.level || "passive", human_seat: 0,
  };
  if (ex.ferro) p.ferro = ex.ferro;
  if (ex.vira) p.vira = ex.vira;
  return p;
}

/** Replay events on a copy of a hand's rounds (the finished hand stays on screen). */
function roundsAfter(rounds, events) {
  const out = rounds.map((r) => ({ ...r, plays: r.plays.map((p) => ({ ...p })) }));
  for (const e of events) {
    if (e.type === "hand") break;
    if (e.type === "play" || e.type === "cover") {
      let last = out.at(-1);
      if (!last || (last.result !== null && last.result !== undefined)) {
        last = { leader: e.seat, plays: [], result: null, winner: null };
        out.push(last);
      }
      last.plays.push({ seat: e.seat, card: e.card, covered: e.type === "cover" });
    } else if (e.type === "round") {
      const r = out[e.round - 1];
      if (r) {
        r.result = e.result;
        r.winner = e.seat ?? null;
      }
    }
  }
  return out;
}

export class Exercise {
  /**
   * @param {HTMLElement} host  where the table, the feedback and the buttons go
   * @param {object} ex  the exercise (from the page's JSON: lessons.py page_data)
   * @param {object} engine  {client, ready: Promise, state}
   * @param {object} opts  {fast, onResult(verdict, ex), onEmbed(ex), label}
   */
  constructor(host, ex, engine, opts = {}) {
    this.host = host;
    this.ex = ex;
    this.engine = engine;
    this.opts = opts;
    this.generation = 0;
    this.state = "idle"; // idle | preview | starting | playing | over | error
    this.queued = null; // the learner's move made on the first position, until the engine is up
    this.waiting = false; // waiting for the engine to load
    this.view = null;
    host.classList.add("exercise-live");
    host.dataset.state = "idle";
    const tableEl = document.createElement("div");
    this.table = new MiniTable(tableEl, { onAction: (a) => this.act(a), label: opts.label || ex.title || "" });
    // The turn's clock (§8), shared with the table: its time up is the learner's "timeout".
    this.timer = new TurnTimer({ show: (left, total) => this.table.setTimer(left, total), onExpire: () => this.act("timeout") });
    this.feedback = document.createElement("div");
    this.feedback.className = "ex-feedback";
    this.feedback.setAttribute("role", "status");
    this.feedback.setAttribute("aria-live", "polite");
    this.feedback.setAttribute("aria-atomic", "true");
    this.feedback.hidden = true;
    this.live = document.createElement("div");
    this.live.className = "visually-hidden mt-live";
    this.live.setAttribute("aria-live", "polite");
    const buttons = document.createElement("div");
    buttons.className = "ex-buttons";
    this.againButton = button(t("tutorial.again"), "button secondary ex-again", () => this.start({ focus: true }));
    this.againButton.hidden = true;
    buttons.append(this.againButton);
    if (opts.onNext) {
      this.nextButton = button(t("tutorial.next"), "button ex-next", () => opts.onNext(ex));
      this.nextButton.hidden = true;
      buttons.append(this.nextButton);
    }
    if (opts.onEmbed) buttons.append(button(t("tutorial.embed"), "button secondary ex-embed", () => opts.onEmbed(ex)));
    // The engine's loading progress, while this exercise waits for it.
    this.loading = document.createElement("div");
    this.loading.className = "ex-loading";
    this.loading.hidden = true;
    this.loadingText = Object.assign(document.createElement("p"), { className: "ex-loading-text" });
    this.loadingBar = document.createElement("div");
    this.loadingBar.className = "progress ex-loading-bar";
    this.loadingBar.setAttribute("role", "progressbar");
    this.loadingBar.setAttribute("aria-label", t("engine.progress"));
    this.loadingBar.setAttribute("aria-valuemin", "0");
    this.loadingBar.setAttribute("aria-valuemax", "100");
    this.loadingBar.append(Object.assign(document.createElement("div"), { className: "progress-fill" }));
    this.loading.append(this.loadingText, this.loadingBar);
    host.append(tableEl, this.loading, this.feedback, buttons, this.live);
    // The reader's first touch of the table (or the keyboard's focus on it) starts the engine
    // (a failed one is started again by a move, "De novo" or "Tentar de novo", not by a touch).
    const warm = () => {
      if (this.engine.started === false) this.engine.start();
    };
    for (const type of ["pointerdown", "focusin", "keydown"]) tableEl.addEventListener(type, warm, { passive: true });
    this.engine.subscribe?.(() => this.showLoading());
    if (ex.first) this.showFirst();
    else this.showStart();
  }

  /** The first position, drawn from the page's data (no engine): the learner may move at once. */
  showFirst() {
    const { obs, events = [] } = this.ex.first;
    this.stateName = "preview";
    this.obs = obs;
    this.handObs = obs;
    this.startHand = obs.hand_number;
    this.events = [...events];
    this.table.setOverlay(null);
    this.draw();
  }

  /** The loading progress under the table while this exercise waits for the engine. */
  showLoading() {
    const show = this.waiting && this.engine.state !== "ready" && this.engine.state !== "failed";
    this.loading.hidden = !show;
    if (!show) return;
    const f = this.engine.fraction ?? 0.02;
    const pct = Math.round(f * 100);
    this.loadingText.textContent = this.queued
      ? `${t("engine.loading")} ${t("exercise.queued")}` : t("engine.loading");
    this.loadingBar.setAttribute("aria-valuenow", String(pct));
    this.loadingBar.firstElementChild.style.transform = `scaleX(${f.toFixed(3)})`;
  }

  set stateName(s) {
    this.state = s;
    this.host.dataset.state = s;
  }

  showStart(text = "") {
    const box = document.createElement("div");
    box.className = "mt-start";
    if (text) box.append(Object.assign(document.createElement("p"), { textContent: text }));
    box.append(button(t("tutorial.start"), "button big ex-start", () => this.start({ focus: true })));
    this.table.setOverlay(box);
  }

  showOverlayText(text, cls = "") {
    const p = document.createElement("p");
    p.className = `mt-overlay-text ${cls}`.trim();
    p.textContent = text;
    this.table.setOverlay(p);
  }

  /** Another exercise took the engine: stop here and offer to start again. */
  suspend() {
    this.generation++;
    this.stopTimer();
    this.queued = null;
    this.waiting = false;
    this.showLoading();
    if (this.state === "playing" || this.state === "starting") {
      this.stateName = "idle";
      if (this.view) this.table.render({ ...this.view, interactive: false });
      this.showStart();
    }
  }

  get fast() {
    return Boolean(this.opts.fast);
  }

  pause(ms) {
    return this.fast ? Promise.resolve() : sleep(ms);
  }

  async call(method, params) {
    return this.engine.client.call(method, params);
  }

  /**
   * (Re)start: a new game with the fixed deal, the setup replayed, the learner to move.
   * `quiet` (from the first position on screen): the setup and the bots' moves are replayed
   * without pauses or drawing, since the table already shows where they lead.
   */
  async start({ focus = false, quiet = false } = {}) {
    if (Exercise.active && Exercise.active !== this) Exercise.active.suspend();
    Exercise.active = this;
    const gen = ++this.generation;
    this.stopTimer();
    quiet = quiet && this.state === "preview";
    this.stateName = "starting";
    if (quiet) {
      this.draw({ busy: true }); // the first position stays, its controls wait
      this.markQueued();
    } else {
      this.queued = null;
    }
    this.feedback.hidden = true;
    this.feedback.replaceChildren();
    this.againButton.hidden = true;
    if (this.nextButton) this.nextButton.hidden = true;
    this.events = [];
    this.actions = [];
    this.roundNo = null;
    this.verdict = null;
    this.refusals = 0;
    delete this.host.dataset.refused;
    this.focusWanted = focus;
    this.engine.start?.();
    if (this.engine.state !== "ready") {
      if (!quiet) this.showOverlayText(t("engine.loading"));
      this.waiting = true;
      this.showLoading();
    }
    try {
      await this.engine.ready;
    } catch {
      /* reported below */
    }
    if (gen !== this.generation) return;
    this.waiting = false;
    this.showLoading();
    if (this.engine.state !== "ready") {
      this.queued = null;
      this.fail(t("engine.failed"));
      return;
    }
    let reply;
    try {
      reply = await this.call("new_game", newGameParams(this.ex));
    } catch (err) {
      if (gen !== this.generation) return;
      this.fail(t("exercise.bad_deal"), err.message);
      return;
    }
    if (gen !== this.generation) return;
    this.table.setOverlay(null);
    if (!quiet) this.table.coverMode = false;
    this.startHand = reply.observation.hand_number;
    this.handObs = reply.observation;
    this.lastN = reply.observation.log.at(-1).n;
    this.take(reply.observation, false);
    if (!quiet) this.draw({ busy: true });
    for (const step of this.ex.setup || []) {
      if (!quiet) await this.pause(450);
      if (gen !== this.generation) return;
      const seat = Number(step[0]);
      const action = step.slice(2);
      try {
        if (seat === 0) {
          this.take((await this.call("apply", { action })).observation, !quiet);
        } else {
          const before = this.lastN;
          this.take((await this.call("bot_step")).observation, !quiet);
          const ev = this.events.find((e) => e.n > before);
          const got = ev ? eventAction(ev) : null;
          if (!got || (!matches(got, action) && !(got.startsWith("cover ") && action.startsWith("cover ")))) {
            throw new Error(`setup ${step}: the bot played ${got}`);
          }
        }
      } catch (err) {
        if (gen !== this.generation) return;
        console.error(`exercise ${this.ex.id}: ${err.message}`);
        this.fail(t("exercise.bad_setup"), err.message);
        return;
      }
      if (gen !== this.generation) return;
      if (!quiet) this.draw({ busy: true });
    }
    this.events = []; // judged from here on
    this.stateName = "playing";
    await this.runBots(gen, { quiet });
    if (gen !== this.generation) return;
    const queued = this.queued;
    this.queued = null;
    // The move made on the first position: a lesson's first position is the engine's own (the
    // engine judges the move, as if made now); an address's cards are only cards, so the move
    // is made if the engine allows it when the learner's turn comes.
    const o = this.obs;
    if (queued && this.verdict === null && o.to_move === 0 && (!this.ex.first?.url || o.legal_actions.includes(queued))) {
      this.act(queued);
      return;
    }
    this.afterMove(gen);
  }

  /** The control of the move made on the first position shows it is on its way. */
  markQueued() {
    if (!this.queued) return;
    for (const b of this.table.root.querySelectorAll("button[data-action]")) {
      if (b.dataset.action === this.queued) b.classList.add("queued");
    }
  }

  fail(text, detail = "") {
    this.queued = null;
    this.stateName = "error";
    this.stopTimer();
    this.showOverlayText(text, "error");
    if (detail) this.table.overlay.title = detail;
    this.againButton.hidden = false;
  }

  /** Take an observation: collect the new events (announced to screen readers). */
  take(obs, announce = true) {
    this.obs = obs;
    if (obs.hand_number === this.startHand) this.handObs = obs;
    const fresh = obs.log.filter((e) => e.n > this.lastN);
    if (fresh.length) this.lastN = fresh.at(-1).n;
    this.events.push(...fresh);
    if (announce) for (const e of fresh) this.announce(e);
  }

  /** The hand on screen: the live one, or the finished one once the engine dealt the next. */
  handView() {
    const obs = this.obs;
    if (obs.hand_number === this.startHand) {
      const sizes = obs.hand_sizes;
      return { rounds: obs.rounds, hand: obs.hand, handSizes: sizes, value: obs.hand_value, score: obs.score, vira: obs.vira };
    }
    const base = this.handObs;
    const after = this.events.filter((e) => e.n > base.log.at(-1).n);
    const rounds = roundsAfter(base.rounds, after);
    const sizes = [...base.hand_sizes];
    let hand = [...base.hand];
    for (const e of after) {
      if (e.type === "hand") break;
      if (e.type === "play" || e.type === "cover") {
        sizes[e.seat] = Math.max(0, sizes[e.seat] - 1);
        if (e.seat === 0) hand = hand.filter((c) => c !== e.card);
      }
    }
    const handEv = this.events.find((e) => e.type === "hand");
    // The vira of a dark mão de ferro turns up with the first round's last card (§9).
    const viraEv = after.find((e) => e.type === "vira");
    return { rounds, hand: base.blind ? [] : hand, handSizes: sizes, value: base.hand_value,
      score: handEv ? handEv.score : obs.score, vira: viraEv ? viraEv.card : base.vira };
  }

  draw({ busy = false, over = false, overText = "" } = {}) {
    const hv = this.handView();
    // Once judged, the last round played stays in front (not the empty next one).
    if (over && hv.rounds.length > 1 && hv.rounds.at(-1).plays.length === 0) hv.rounds = hv.rounds.slice(0, -1);
    const obs = over && this.obs.hand_number !== this.startHand ? { ...this.handObs, score: hv.score, to_move: null, legal_actions: [] } : this.obs;
    const preview = this.state === "preview";
    this.view = { obs, ...hv, says: this.says(), interactive: this.state === "playing" || preview, busy, over, overText,
      // An address's own cards, before the engine: say what a touch does, not whose turn it is.
      prompt: preview && this.ex.first?.url ? t("embed.touch") : "",
      offer: this.ex.offer || [], free: this.ex.goal === "free",
      // Lessons test what the learner knows: no manilha marks unless the exercise asks.
      marks: this.ex.goal === "free" || Boolean(this.ex.marks) };
    this.table.render(this.view);
  }

  /** What the bots said since the learner's last move ("Truco!", "Aceito!"): speech bubbles. */
  says() {
    const out = {};
    const p = this.obs && this.obs.hand_number === this.startHand ? this.obs.pending : null;
    if (p && p.asker !== 0) out[p.asker] = raiseLabel(p.name);
    const list = this.events || [];
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i];
      if (e.seat === 0 || e.type === "deal") break;
      if (out[e.seat] !== undefined) continue;
      const said = e.type === "raise" ? raiseLabel(e.name) : speech(e); // a lesson's raise reads as its button
      if (said) out[e.seat] = said;
    }
    return out;
  }

  announce(e) {
    const n = this.obs.players;
    const name = seatName(e.seat ?? 0, 0, n);
    let text = "";
    switch (e.type) {
      case "play":
        text = t("announce.play", { name, card: cardName(e.card) });
        break;
      case "cover":
        text = t("announce.cover", { name });
        break;
      case "raise":
        text = t("announce.raise", { name, call: callName(e.name), value: e.value });
        break;
      case "accept":
        text = t("announce.accept", { name, value: e.value });
        break;
      case "run":
        text = t("announce.run", { name });
        break;
      case "round": {
        const ord = t(`ord.${e.round}`);
        const state = e.result === "tie" ? "tie" : e.result === 0 ? "won" : "lost";
        text = t("announce.round", { n: e.round, result: t(`round.${state}`, { ord }) });
        break;
      }
      case "timeout":
        text = e.seat === 0 ? t("timer.auto") : "";
        break;
      default:
        return;
    }
    if (!text) return;
    const p = document.createElement("p");
    p.textContent = text;
    this.live.append(p);
    while (this.live.childElementCount > 6) this.live.firstElementChild.remove();
  }

  /** The bots move (one at a time, with a short pause) until the learner's turn or a verdict. */
  async runBots(gen, { quiet = false } = {}) {
    while (gen === this.generation && this.verdict === null) {
      const o = this.obs;
      if (o.hand_number !== this.startHand || o.winner !== null || o.to_move === null || o.to_move === 0) return;
      if (!quiet) {
        this.draw({ busy: true });
        await this.pause(650);
      }
      if (gen !== this.generation) return;
      this.take((await this.call("bot_step")).observation, !quiet);
      this.judgeNow();
    }
  }

  judgeNow() {
    if (this.verdict === null) this.verdict = judge(this.ex, this.actions, this.roundNo, this.events);
  }

  /** The learner's move: the engine applies it, or refuses it and says why. */
  async act(action) {
    if (this.state === "preview") {
      // The first move, made before the engine: kept until the engine has dealt this position.
      this.queued = action;
      this.start({ focus: true, quiet: true });
      return;
    }
    if (this.state !== "playing" || this.busy) return;
    const gen = this.generation;
    this.busy = true;
    this.stopTimer();
    // A move made from the table (keyboard or pointer) keeps the focus there across re-renders.
    if (this.table.root.contains(document.activeElement)) this.focusWanted = true;
    this.draw({ busy: true }); // at once: the move is on its way, nothing else may be pressed
    const o = this.obs;
    let tentativeRound = null;
    const cardMove = action.startsWith("play ") || action.startsWith("cover ") || (action === "timeout" && !o.pending && !o.decision);
    if (cardMove && this.roundNo === null) tentativeRound = o.rounds.length;
    let reply;
    try {
      reply = await this.call("apply", { action });
    } catch (err) {
      this.busy = false;
      if (gen !== this.generation) return;
      if (err instanceof EngineError && err.errorType !== "LoadError" && err.errorType !== "Terminated") {
        this.refused(action, err.message);
        return;
      }
      this.fail(t("engine.failed"), err.message);
      return;
    }
    if (gen !== this.generation) {
      this.busy = false;
      return;
    }
    if (tentativeRound !== null) this.roundNo = tentativeRound;
    this.actions.push(action);
    this.take(reply.observation);
    this.judgeNow();
    await this.runBots(gen);
    this.busy = false;
    if (gen !== this.generation) return;
    this.afterMove(gen);
  }

  /** The engine said no: the game is unchanged; explain, and let the learner try again. */
  refused(action, message) {
    this.refusals++;
    const text = this.ex.refused || t("exercise.refused");
    this.showFeedback("wrong", [text], message);
    this.host.dataset.refused = String(this.refusals);
    this.opts.onResult?.("wrong", this.ex);
    this.draw();
    this.table.focusFirst();
    this.startTimer();
  }

  afterMove(gen) {
    if (gen !== this.generation) return;
    if (this.verdict !== null) {
      this.finish();
      return;
    }
    this.draw();
    if (this.focusWanted || this.table.root.contains(document.activeElement)) this.table.focusFirst();
    this.startTimer();
  }

  async finish() {
    const gen = this.generation;
    this.stateName = "over";
    this.stopTimer();
    const verdict = this.verdict;
    const hadFocus = this.focusWanted || this.table.root.contains(document.activeElement);
    this.draw({ over: true });
    const lines = [];
    if (verdict === "right") lines.push(this.ex.right);
    else if (verdict === "wrong") lines.push((this.ex.why || {})[this.actions[0]] || this.ex.wrong);
    const facts = await this.facts().catch((err) => {
      console.warn(`explain: ${err.message}`);
      return [];
    });
    if (gen !== this.generation) return;
    this.showFeedback(verdict, lines, "", facts);
    this.againButton.hidden = false;
    if (this.nextButton) this.nextButton.hidden = verdict !== "right";
    this.draw({ over: true, overText: verdict === "done" ? facts.at(-1) || "" : "" });
    if (hadFocus) (verdict === "right" && this.nextButton ? this.nextButton : this.againButton).focus({ preventScroll: true });
    this.opts.onResult?.(verdict, this.ex);
  }

  /** What the engine decided, in words: the timeout, the round, the hand, the game. */
  async facts() {
    const out = [];
    const n = this.obs.players;
    const timeout = this.events.findIndex((e) => e.type === "timeout" && e.seat === 0);
    if (timeout >= 0) {
      const played = this.events.slice(timeout).find((e) => (e.type === "play" || e.type === "cover") && e.seat === 0);
      const ran = this.events.slice(timeout).find((e) => e.type === "run" && e.seat === 0);
      if (played) out.push(t("explain.timeout_play", { card: cardName(played.card) }));
      else if (ran) out.push(t("explain.timeout_run"));
    }
    const rounds = this.handView().rounds;
    let roundNo = this.ex.goal === "round" ? this.roundNo : null;
    if (roundNo === null) {
      // otherwise the last round that was played out
      const done = this.events.filter((e) => e.type === "round");
      if (done.length && !this.events.some((e) => e.type === "hand" && (e.reason === "run" || e.reason === "dez_run"))) roundNo = done.at(-1).round;
    }
    const r = roundNo ? rounds[roundNo - 1] : null;
    if (r && r.plays.length === n && r.result !== null && r.result !== undefined) {
      const judged = await judgeRound(this.engine.client, r.plays, this.obs.preset, this.obs.vira);
      out.push(explainRound(judged, n, this.obs.rules.manilha_names));
    }
    const hand = this.events.find((e) => e.type === "hand");
    if (hand) out.push(explainHand(hand, n));
    const game = this.events.find((e) => e.type === "game");
    if (game) out.push(explainGame(game, this.obs.options?.series || 1));
    return out;
  }

  showFeedback(verdict, lines, detail = "", facts = []) {
    const box = this.feedback;
    box.replaceChildren();
    box.hidden = false;
    box.dataset.verdict = verdict;
    if (verdict === "right" || verdict === "wrong") {
      const title = document.createElement("p");
      title.className = "ex-verdict";
      title.textContent = verdict === "right" ? t("tutorial.right") : t("tutorial.wrong");
      box.append(title);
    }
    for (const line of lines.filter(Boolean)) {
      const p = document.createElement("p");
      p.className = "ex-why";
      p.textContent = line;
      box.append(p);
    }
    if (facts.length) {
      const p = document.createElement("p");
      p.className = "ex-engine";
      p.textContent = facts.join(" ");
      box.append(p);
    }
    if (detail) box.title = detail;
  }

  // ------------------------------------------------------------ the turn timer (§8)
  startTimer() {
    const total = Number(this.ex.timer || 0);
    if (!total || this.state !== "playing" || this.obs.to_move !== 0) this.timer.stop();
    else this.timer.start(total);
  }

  stopTimer() {
    this.timer.stop();
  }
}

Exercise.active = null;

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}
