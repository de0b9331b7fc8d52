// "Ver a mão": the hand that just ended, told in words from the engine's `history` (the
// match's log as the human saw it: another seat's covered card has no card in it), with
// the rounds' results and why the hand was won. `eventLines` is shared with the replay.
// Each card the words name is drawn beside them too, with the table's card art (issue 41:
// a text log alone, it read like a transcript, not a hand of cards).

import { engineApi } from "../engine/engine_api.js";
import { backElement, cardElement, cardName } from "../shared/cards.js";
import { t } from "../shared/i18n.js";
import { callName, chosenName, maoDeXParams, seatName } from "../shared/table_words.js";
import { reasonText } from "./hint_view.js";

const $ = (id) => document.getElementById(id);

/** A bot's reason for a bet (the engine's `history` with `reasons_for`, issue 44: `{key,
 * params}`, a `bet.*` key): its parameters as the hint's (cards, signal), a `seat` named
 * as at the table ({name}), and the `.you` text when the seat or the team it names
 * (`team`: the pair that had folded) is the reader's. */
export function betReasonText(reason, { seat, players, obs = null }) {
  // Only a bet's reason, as the engine makes it (a friends' guest gets it from the host).
  if (typeof reason?.key !== "string" || !/^bet\.[a-z_.]{1,40}$/.test(reason.key)) return "";
  const p = reason.params && typeof reason.params === "object" && !Array.isArray(reason.params) ? reason.params : {};
  const mine = (p.seat !== undefined && p.seat === seat && !chosenName()) || (p.team !== undefined && p.team === seat % 2);
  const key = mine && t(`${reason.key}.you`) !== `${reason.key}.you` ? `${reason.key}.you` : reason.key;
  if (t(key) === key) return ""; // a key this page does not know: no line rather than a wrong one
  const params = { ...p };
  if (p.seat !== undefined) params.name = seatName(p.seat, seat, players);
  return reasonText({ reason: { key, params } }, obs);
}

/** The sentences for some events of the log: [{text, kind, seat, cards}]; `cards`: the
 * cards a line names (null: a card played face down, drawn by its back), for a picture.
 * `reasons`: event number -> a bot's reason for that bet, told on the line after it. */
export function eventLines(events, { seat, players, rules = null, reasons = null, obs = null }) {
  // "mão de dez" in Mineiro is "mão de onze" in Paulista: the rules name it.
  const x = rules ? maoDeXParams(rules) : { x: t("marcador.x.10") };
  const name = (s) => seatName(s, seat, players);
  // A sentence whose subject (or owner) is the human has its own text in each language
  // ("Você correu", "Te fuiste", "You folded"): "you" is not a third person everywhere. A
  // player who chose a name is told by it ("Ana correu"), like the others.
  const you = (s) => s === seat && !chosenName();
  const about = (key, s, params = {}) => t(you(s) ? `${key}.you` : key, { ...params, name: name(s) });
  const us = seat % 2;
  const out = [];
  const add = (kind, text, s = null, cards = []) => out.push({ kind, text: text.charAt(0).toUpperCase() + text.slice(1), seat: s, cards });
  const why = (e) => {
    const reason = reasons?.[String(e.n)];
    const text = reason ? betReasonText(reason, { seat, players, obs }) : "";
    if (text) add("reason", text, e.seat);
  };
  for (const e of events) {
    switch (e.type) {
      case "deal": {
        const key = you(e.dealer) ? "review.deal.you_dealt" : you(e.mao) ? "review.deal.you_lead" : "review.deal";
        add("deal", t(key, { n: e.hand_number, dealer: name(e.dealer), mao: name(e.mao) }));
        if (e.kind !== "normal") add("deal", t(`review.kind.${e.kind}`, x));
        break;
      }
      case "signal":
        add("signal", about("review.signal", e.seat, { signal: signalName(e.signal) }), e.seat);
        break;
      case "play":
        add("play", about("review.play", e.seat, { card: cardName(e.card) }), e.seat, [e.card]);
        break;
      case "cover":
        add("cover", e.card
          ? t("review.cover.you", { card: cardName(e.card) })
          : t("review.cover", { name: name(e.seat) }), e.seat, [null]);
        break;
      case "raise":
        add("raise", about("review.raise", e.seat, { call: callName(e.name), value: e.value }), e.seat);
        why(e);
        break;
      case "accept":
        add("answer", about(e.mao_de_dez ? "review.dez_play" : "review.accept", e.seat, { ...x, value: e.value }), e.seat);
        why(e);
        break;
      case "run":
        add("answer", about(e.mao_de_dez ? "review.dez_run" : "review.run", e.seat, x), e.seat);
        why(e);
        break;
      case "exchange":
        add("play", about("review.exchange", e.seat), e.seat);
        break;
      case "vira":
        add("deal", t("review.vira", { card: cardName(e.card) }), null, [e.card]);
        break;
      case "timeout":
        add("answer", about("review.timeout", e.seat), e.seat);
        break;
      case "round": {
        const ord = t(`ord.${e.round}`);
        add("round", e.result === "tie"
          ? t("review.round.tie", { ord })
          : about("review.round.won", e.seat, { ord }));
        break;
      }
      case "signals_caught":
        for (const c of e.caught || []) {
          for (const by of c.caught_by || []) {
            const key = by === seat ? "review.caught.you" : c.seat === seat ? "review.caught.yours" : "review.caught";
            add("signal", t(key, { by: name(by), name: name(c.seat), signal: signalName(c.signal) }));
          }
        }
        break;
      case "hand":
        add("hand", handWhy(e, us, x));
        break;
      case "game":
        add("hand", t(e.winner === us ? "review.game.us" : "review.game.them", { n: e.game_number }));
        break;
      case "abandon":
        add("hand", about("review.abandon", e.seat));
        break;
      default:
        break;
    }
  }
  return out;
}

/** Why the hand was won, in one sentence (RULES.md §3 for rounds, §5 for running). */
export function handWhy(e, us, x = {}) {
  if (e.winner === null) return t("review.why.void");
  const side = e.winner === us ? "us" : "them";
  if (e.reason === "run" || e.reason === "dez_run") return t(`review.why.${e.reason}.${side}`, { ...x, points: e.points });
  const rounds = e.rounds || [];
  const won = rounds.map((r, i) => (r === e.winner ? t(`ord.${i + 1}`) : null)).filter(Boolean);
  const ties = rounds.filter((r) => r === "tie").length;
  let how;
  if (won.length >= 2) how = t("review.how.two", { a: won[0], b: won[1] });
  else if (ties && won.length === 1) how = t("review.how.tie", { a: won[0] });
  else how = t("review.how.one", { a: won[0] ?? "" });
  return t(`review.why.rounds.${side}`, { points: e.points, how });
}

/** The cards of a line, drawn as at the table; hidden from screen readers, which hear the
 * line's words (they name every card). */
function cardPictures(cards, obs) {
  const box = document.createElement("span");
  box.className = "review-cards";
  box.setAttribute("aria-hidden", "true");
  for (const c of cards) box.append(c === null ? backElement() : cardElement(c, obs));
  for (const el of box.querySelectorAll("[role], [aria-label], [title]")) {
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
    el.removeAttribute("title");
  }
  return box;
}

function signalName(s) {
  for (const key of [`signal.${s}`, `hint.signal_name.${s}`]) {
    const text = t(key);
    if (text !== key) return text;
  }
  return s;
}

/** The events of one hand: from its deal to the `hand` event numbered `handN` (and what follows it). */
export function handEvents(log, handN) {
  let start = -1;
  for (const e of log) {
    if (e.n > handN) break;
    if (e.type === "deal") start = e.n;
  }
  let end = log.findIndex((e) => e.n > handN && e.type === "deal");
  if (end < 0) end = log.length;
  return log.slice(0, end).filter((e) => e.n >= start);
}

export class HandReview {
  /** `onPause(bool)` pauses the table while the dialog is open. */
  constructor({ client, onPause }) {
    this.engine = engineApi(client);
    this.onPause = onPause;
    this.dialog = $("review-dialog");
    this.list = $("review-list");
    this.dealt = new Map(); // hand number -> the human's cards as dealt (the human saw them)
    $("review-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => this.onPause(false));
  }

  /** Remember the human's own cards of each hand, from the observations the table got. */
  see(obs) {
    if (!obs || obs.blind || this.dealt.has(obs.hand_number)) return;
    const played = obs.rounds.some((r) => r.plays.some((p) => p.seat === obs.seat));
    if (!played && obs.hand.length === 3) this.dealt.set(obs.hand_number, [...obs.hand]);
  }

  reset() {
    this.dealt.clear();
  }

  /** Open the review of the hand whose `hand` event is numbered `handN`. */
  async open(handN, obs) {
    this.onPause(true);
    let log;
    let reasons = null;
    try {
      // The bots' reasons for their bets in this hand (issue 44), as this seat may read them.
      ({ log, reasons = null } = await this.engine.history({ reasons_for: handN }));
    } catch (err) {
      this.onPause(false);
      throw err;
    }
    const events = handEvents(log, handN);
    const deal = events.find((e) => e.type === "deal");
    $("review-title").textContent = t("review.title", { n: deal?.hand_number ?? "" });
    this.list.replaceChildren();
    const mine = deal ? this.dealt.get(deal.hand_number) : null;
    const lines = eventLines(events, { seat: obs.seat, players: obs.players, rules: obs.rules, reasons, obs });
    if (mine) lines.splice(1, 0, { kind: "deal", text: t("review.your_cards", { cards: mine.map(cardName).join(", ") }), seat: obs.seat, cards: mine });
    // The manilhas as the table marked them; a hand with a vira (manilha nova) had its own,
    // which the observation of a later hand no longer gives: plain faces then.
    const cardObs = events.some((e) => e.type === "vira") ? { manilhas: [], rules: {} } : obs;
    for (const line of lines) {
      const li = document.createElement("li");
      li.className = `review-line ${line.kind}`;
      if (line.seat !== null) li.dataset.seat = String(line.seat);
      if (line.cards?.length) li.append(cardPictures(line.cards, cardObs));
      li.append(line.text);
      this.list.append(li);
    }
    if (!this.dialog.open) this.dialog.showModal();
    $("review-close").focus();
  }
}
