// The table's surface as the game loop drives it: the view (TableView), the player's input
// (InputManager), the partner's opinion and sinais (PartnerTalk), the Dica (HintView), the
// hand review (HandReview) and the narrator. The controller (GameManager) says what
// happened (an observation, its new events, a hand's end); this module has each part show
// it, in the order the player must see it.

import { engineWords } from "../shared/engine_words.js";
import { listText, t } from "../shared/i18n.js";

// Moves that put something new on the felt: the last hand's summary must not hide them.
const TABLE_MOVES = new Set(["play", "cover", "raise", "accept", "run"]);

export class TableScreen {
  /**
   * @param {object} o  {view (TableView), input (InputManager), narrator (Narrator), talk
   *   (PartnerTalk), hints (HintView), review (HandReview)}; the last three may be null.
   */
  constructor({ view, input, narrator, talk = null, hints = null, review = null }) {
    Object.assign(this, { view, input, narrator, talk, hints, review });
    this.app = document.getElementById("app");
  }

  /** The page's phase (data-phase): start, loading, human, bots, over, elsewhere. */
  setPhase(phase) {
    this.app.dataset.phase = phase;
  }

  get phase() {
    return this.app.dataset.phase;
  }

  setPaused(paused) {
    this.app.dataset.paused = String(paused);
  }

  /** A new match is asked for: no banner or bubble from the last one stays. */
  clear() {
    this.view.clearBanner();
    this.view.clearBubbles();
    this.view.motion.newMatch(); // its first hand is dealt, whatever the last match's log said
  }

  /** A new match is dealt: no review of the last one; the Dica as chosen. */
  newMatch({ hint }) {
    this.review?.reset();
    this.setHints(hint);
  }

  setHints(on) {
    this.hints?.setEnabled(on);
  }

  /** The observation the player now has (the hand review follows the match). */
  see(obs) {
    this.review?.see(obs);
  }

  /**
   * A hand just ended (`handEnd`, among the `fresh` events): its last cards stay on the felt
   * while its result is told; the next deal is neither shown nor told yet (nextHand), so a
   * bubble said as the hand ended ("Corro…") stays up; nothing may be played meanwhile.
   * `before` is the observation the hand was last shown with.
   */
  handEnded(obs, fresh, handEnd, rounds, { quiet = false, before = null } = {}) {
    const ended = endedHand(obs, before);
    this.view.render(ended, { rounds });
    this.talk?.show(ended, { busy: true });
    this.narrate(fresh.filter((e) => e.n <= handEnd.n), obs, quiet);
    this.narrator.handSummary(handEnd, obs);
    this.hints?.update(obs, { frozen: true });
    this.input.update({ coverAllowed: false, coverMode: false });
  }

  /**
   * The hand's summary waits for the player: its "Próxima mão" (focused and announced); a tap
   * on the table, Enter or Space calls `goOn`. `goOn` null: no longer waiting.
   */
  waitForPlayer(obs, goOn = null) {
    const label = obs && t(obs.winner !== null ? "summary.end" : "summary.next");
    this.view.offerNext(label, goOn);
    if (goOn) this.view.announce(t("announce.summary_wait", { button: label }));
  }

  /**
   * On to the next hand once its summary was read (`dismissed`: the player went on, so the
   * summary goes; else it stays until the new hand is under way): the deal is shown and its
   * `events` (the deal, the vira, the sinais made as it was dealt) told.
   */
  nextHand(obs, events, { dismissed = false } = {}) {
    this.waitForPlayer(null);
    if (dismissed) this.view.hideSummary();
    this.view.render(obs);
    this.narrate(events, obs, false);
  }

  /** Moves were made: draw the table, then tell them (the bubbles need their seats drawn). */
  moved(obs, fresh, { quiet = false } = {}) {
    // The last hand's summary sits over the middle of the table: once the new hand is
    // under way (a card or a call) it would hide what was just played.
    if (fresh.some((e) => TABLE_MOVES.has(e.type))) this.view.hideSummary();
    this.view.render(obs);
    this.narrate(fresh, obs, quiet);
  }

  narrate(events, obs, quiet) {
    if (!quiet) for (const e of events) this.narrator.narrate(e, obs);
  }

  /** The table as it stands, ready for whoever moves next. */
  ready(obs, { rendered = false } = {}) {
    if (!rendered) this.view.render(obs);
    const coverAllowed = obs.legal_actions.some((a) => a.startsWith("cover "));
    this.view.coverMode = this.view.coverMode && coverAllowed;
    this.input.update({ coverAllowed, coverMode: this.view.coverMode });
    this.hints?.update(obs);
  }

  /**
   * Under the pass screen (pass-and-play): what anyone at the table sees (`pub`, no hand,
   * no covered card, no sinal), no bubble left up, nothing left in the live region.
   */
  showPublic(pub) {
    this.view.clearBubbles();
    this.view.liveEl.textContent = "";
    this.ready(pub);
    this.showTalk(pub, { busy: true });
  }

  /** The table drawn again as it stands (a name changed). */
  redraw(obs) {
    this.view.render(obs);
  }

  /** A line over the table (`tone` "error": a problem), until the next move. */
  tell(title, detail = "", tone = "") {
    this.view.banner(title, detail, tone);
  }

  /** The partner's opinion and the sinais, for the turn in play. */
  showTalk(obs, { busy }) {
    this.talk?.show(obs, { busy });
  }

  /**
   * The end screen's words. With people at the table (`seats`, seats.js) its title names the
   * winners: "Ana e Bia venceram a partida!" / "Ana venceu a partida!" (the verb agrees).
   */
  endText(obs, seats = null) {
    const end = this.narrator.endText(obs);
    if (!seats?.people) return end;
    const names = seats.humans.filter((s) => s % 2 === obs.winner).map((s) => seats.name(s));
    if (!names.length) return { ...end, title: t("pass.bots_won") };
    return { ...end, title: names.length === 1 ? t("pass.won_one", { name: names[0] }) : t("pass.won", { names: listText(names) }) };
  }

  /** The player's turn: said, and the focus on the first thing to do (unless it is on the table). */
  yourTurn() {
    this.view.announce(t("announce.your_turn"));
    const first = document.querySelector("#actions button, #hand .card.in-hand:not(:disabled)");
    if (first && !this.app.contains(document.activeElement)) first.focus({ preventScroll: true });
  }

  /**
   * The action an intent of the input names ("play 4c", "cover 4c", "play #2", "raise"...),
   * or null (no such card). A card goes on the felt at once: the engine's reply confirms it
   * (or, for a refused move, the next render puts it back in the hand).
   */
  actionOf(intent, obs) {
    if (intent.type !== "card") return intent.action;
    let action;
    if (obs.blind) action = `play #${intent.index + 1}`;
    else {
      const card = obs.hand[intent.index];
      if (!card) return null;
      action = `${intent.cover ? "cover" : "play"} ${card}`;
    }
    this.view.previewPlay(intent.index, Boolean(intent.cover) && !obs.blind);
    return action;
  }

  toggleCover() {
    this.view.coverMode = !this.view.coverMode;
  }

  /** An action is on its way to the engine: the partner's opinion waits, covering ends. */
  sending() {
    this.talk?.hold();
    this.view.coverMode = false;
  }

  /** The engine took the action. */
  sent() {
    this.view.hideBanner();
  }

  /** The engine refused an action (or failed): said in a banner. */
  refused(err) {
    // A friends' guest whose host did not answer: not a refused move, a slow host or link.
    if (err?.errorType === "HostTimeout") return this.view.banner(t("join.slow"), "", "error");
    this.view.banner(t("error.action", { message: engineWords(err) }), "", "error");
  }

  /** The match was put back after the engine got stuck. */
  resumedAfterStuck() {
    this.view.banner(t("engine.stuck.resumed"), "", "error");
  }

  setTimer(secondsLeft, total) {
    this.view.setTimer(secondsLeft, total);
  }

  /** A bot at `seat` is thinking over its move (null: no longer): a cue by its face (motion.js). */
  thinking(seat) {
    this.view.motion.thinking(seat);
  }
}

/**
 * The table as the hand that just ended left it (`before`: that hand's last observation):
 * the score of `obs`, but no card of the next deal in anyone's hand, and the ended hand's
 * value, kind and vira, not the next one's.
 */
function endedHand(obs, before) {
  const was = before ?? obs;
  return {
    ...obs, hand: [], hand_sizes: obs.hand_sizes.map(() => 0), visible_hands: [], signals: [], exchanged: [], blind: false,
    hand_value: was.hand_value, hand_kind: was.hand_kind, vira: was.vira, manilhas: was.manilhas,
    pending: null, decision: null, to_move: null, legal_actions: [], may_signal: false,
  };
}

/** The rounds of the hand that just ended, rebuilt from the public log (cards as seen). */
export function finishedRounds(log, handEventN) {
  let start = 0;
  for (const e of log) {
    if (e.n > handEventN) break;
    if (e.type === "deal") start = e.n;
  }
  const rounds = [{ plays: [], result: null, winner: null }];
  for (const e of log) {
    if (e.n <= start || e.n > handEventN) continue;
    const cur = rounds[rounds.length - 1];
    if (e.type === "play" || e.type === "cover") {
      cur.plays.push({ seat: e.seat, card: e.card, covered: e.type === "cover" });
    } else if (e.type === "round") {
      cur.result = e.result;
      cur.winner = e.seat;
      rounds.push({ plays: [], result: null, winner: null });
    }
  }
  if (rounds.length > 1 && rounds[rounds.length - 1].plays.length === 0) rounds.pop();
  return rounds;
}
