// One live exercise (or embedded scenario): a fixed deal on a mini-table, the setup moves
// replayed, then the learner moves, the engine applies (or refuses) it, the bots answer, and
// the goal is judged from the engine's events — the same rules as judge() in py/truco_tools/lessons.py,
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
//
// Replies that come too late are dropped by the exercise's MatchEpoch (shared/match_epoch.js,
// as at the table): every engine call and pause goes through it, and a restart or a suspend
// begins a new epoch, so what the abandoned game asked never settles and its moves never mix
// into the new one's (a "Recomeçar" pressed during the setup or the bots' turn).

import { engineApi } from "../engine/engine_api.js";
import { EngineError } from "../engine/engine_client.js";
import { t } from "../shared/i18n.js";
import { MatchEpoch } from "../shared/match_epoch.js";
import { raiseLabel, speech } from "../shared/table_words.js";
import { TurnTimer } from "../shared/turn_timer.js";
import { ExerciseFrame, announceText, button } from "./exercise_frame.js";
import { engineFacts, eventAction, handOnScreen, judge, matches, newGameParams } from "./exercise_rules.js";
import { MiniTable } from "./mini_table.js";

export { judge, newGameParams }; // an exercise's rules (exercise_rules.js)

export class Exercise {
  /**
   * @param {HTMLElement} host  where the table, the feedback and the buttons go
   * @param {object} ex  the exercise (from the page's JSON: py/truco_tools/lessons.py page_data)
   * @param {object} engine  {client, ready: Promise, state}
   * @param {object} opts  {fast, onResult(verdict, ex), onEmbed(ex), label}
   */
  constructor(host, ex, engine, opts = {}) {
    this.host = host;
    this.ex = ex;
    this.engine = engine;
    this.opts = opts;
    this.epoch = new MatchEpoch({ call: (method, params) => this.engine.client.call(method, params) });
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
    // The feedback, the buttons, the loading progress and the screen readers' lines around it.
    this.frame = new ExerciseFrame(host, tableEl, {
      onAgain: () => this.start({ focus: true }),
      onNext: opts.onNext && (() => opts.onNext(ex)),
      onEmbed: opts.onEmbed && (() => opts.onEmbed(ex)),
    });
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
    this.frame.showLoading(show, this.engine.fraction ?? 0.02, Boolean(this.queued));
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
    this.newEpoch();
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

  /** Drop whatever the game so far asked (its replies, its pauses): a restart or a suspend. */
  newEpoch() {
    this.epoch.next();
    this.busy = false; // the move on its way, if any, is dropped with its epoch
  }

  /** A pause of this game (none when `fast`), dropped if another begins meanwhile. */
  pause(ms) {
    return new Promise((resolve) => this.epoch.later(resolve, this.fast ? 0 : ms));
  }

  /** The engine's methods (engine_api.js) through this game's epoch. */
  get engineCalls() {
    return engineApi(this.epoch);
  }

  /**
   * (Re)start: a new game with the fixed deal, the setup replayed, the learner to move.
   * `quiet` (from the first position on screen): the setup and the bots' moves are replayed
   * without pauses or drawing, since the table already shows where they lead.
   */
  async start({ focus = false, quiet = false } = {}) {
    if (Exercise.active && Exercise.active !== this) Exercise.active.suspend();
    Exercise.active = this;
    this.newEpoch();
    this.stopTimer();
    quiet = quiet && this.state === "preview";
    this.stateName = "starting";
    if (quiet) {
      this.draw({ busy: true }); // the first position stays, its controls wait
      this.markQueued();
    } else {
      this.queued = null;
    }
    this.frame.clear();
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
      await this.epoch.keep(this.engine.ready);
    } catch {
      /* reported below */
    }
    this.waiting = false;
    this.showLoading();
    if (this.engine.state !== "ready") {
      this.queued = null;
      this.fail(t("engine.failed"));
      return;
    }
    let reply;
    try {
      reply = await this.engineCalls.newGame(newGameParams(this.ex));
    } catch (err) {
      this.fail(t("exercise.bad_deal"), err.message);
      return;
    }
    this.table.setOverlay(null);
    if (!quiet) this.table.coverMode = false;
    this.startHand = reply.observation.hand_number;
    this.handObs = reply.observation;
    this.lastN = reply.observation.log.at(-1).n;
    this.take(reply.observation, false);
    if (!quiet) this.draw({ busy: true });
    for (const step of this.ex.setup || []) {
      if (!quiet) await this.pause(450);
      const seat = Number(step[0]);
      const action = step.slice(2);
      try {
        if (seat === 0) {
          const reply = await this.engineCalls.apply({ action });
          this.take(reply.observation, !quiet);
        } else {
          const before = this.lastN;
          const reply = await this.engineCalls.botStep();
          this.take(reply.observation, !quiet);
          const ev = this.events.find((e) => e.n > before);
          const got = ev ? eventAction(ev) : null;
          if (!got || (!matches(got, action) && !(got.startsWith("cover ") && action.startsWith("cover ")))) {
            throw new Error(`setup ${step}: the bot played ${got}`);
          }
        }
      } catch (err) {
        console.error(`exercise ${this.ex.id}: ${err.message}`);
        this.fail(t("exercise.bad_setup"), err.message);
        return;
      }
      if (!quiet) this.draw({ busy: true });
    }
    this.events = []; // judged from here on
    this.stateName = "playing";
    await this.epoch.keep(this.runBots({ quiet }));
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
    this.afterMove();
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
    this.frame.againButton.hidden = false;
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
    return handOnScreen(this.obs, this.handObs, this.startHand, this.events);
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
    const text = announceText(e, this.obs.players);
    if (text) this.frame.say(text);
  }

  /** The bots move (one at a time, with a short pause) until the learner's turn or a verdict. */
  async runBots({ quiet = false } = {}) {
    while (this.verdict === null) {
      const o = this.obs;
      if (o.hand_number !== this.startHand || o.winner !== null || o.to_move === null || o.to_move === 0) return;
      if (!quiet) {
        this.draw({ busy: true });
        await this.pause(650);
      }
      const reply = await this.engineCalls.botStep();
      this.take(reply.observation, !quiet);
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
      reply = await this.engineCalls.apply({ action });
    } catch (err) {
      this.busy = false;
      if (err instanceof EngineError && err.errorType !== "LoadError" && err.errorType !== "Terminated") {
        this.refused(action, err.message);
        return;
      }
      this.fail(t("engine.failed"), err.message);
      return;
    }
    if (tentativeRound !== null) this.roundNo = tentativeRound;
    this.actions.push(action);
    this.take(reply.observation);
    this.judgeNow();
    await this.epoch.keep(this.runBots());
    this.busy = false;
    this.afterMove();
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

  afterMove() {
    if (this.verdict !== null) {
      this.finish();
      return;
    }
    this.draw();
    if (this.focusWanted || this.table.root.contains(document.activeElement)) this.table.focusFirst();
    this.startTimer();
  }

  async finish() {
    this.stateName = "over";
    this.stopTimer();
    const verdict = this.verdict;
    const hadFocus = this.focusWanted || this.table.root.contains(document.activeElement);
    this.draw({ over: true });
    const lines = [];
    if (verdict === "right") lines.push(this.ex.right);
    else if (verdict === "wrong") lines.push((this.ex.why || {})[this.actions[0]] || this.ex.wrong);
    const facts = await this.epoch.keep(
      this.facts().catch((err) => {
        console.warn(`explain: ${err.message}`);
        return [];
      }),
    );
    this.showFeedback(verdict, lines, "", facts);
    this.frame.againButton.hidden = false;
    if (this.frame.nextButton) this.frame.nextButton.hidden = verdict !== "right";
    this.draw({ over: true, overText: verdict === "done" ? facts.at(-1) || "" : "" });
    if (hadFocus) (verdict === "right" && this.frame.nextButton ? this.frame.nextButton : this.frame.againButton).focus({ preventScroll: true });
    this.opts.onResult?.(verdict, this.ex);
  }

  /** What the engine decided, in words: the timeout, the round, the hand, the game. */
  async facts() {
    const roundNo = this.ex.goal === "round" ? this.roundNo : null;
    return engineFacts(this.engine.client, this.obs, this.events, this.handView().rounds, roundNo);
  }

  showFeedback(verdict, lines, detail = "", facts = []) {
    this.frame.showFeedback(verdict, lines, detail, facts);
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
