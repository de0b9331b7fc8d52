// Sentences that explain what the engine decided: who won a round and why (from the
// engine's `judge` strengths), who won a hand and how many points. The engine decides;
// these only put its answer into words.

import { engineApi } from "../engine/engine_api.js";
import { cardName } from "../shared/cards.js";
import { t } from "../shared/i18n.js";
import { seatName } from "../shared/table_words.js";

const DECK = [];
for (const r of "4567QJKA23") for (const s of "chsd") DECK.push(r + s);

/** "4 de paus (Zap)" — the manilha's name from the engine's answer. */
export function cardText(card, manilhas, names) {
  const i = (manilhas || []).indexOf(card);
  if (i < 0 || !names || !names[i]) return cardName(card);
  // Manilha nova names its manilhas by suit ("Ouros"): "4 de ouros (manilha)", not "(Ouros)".
  const name = names[i].toLowerCase() !== t(`suit.${card[1]}`) ? names[i] : t("card.manilha");
  return `${cardName(card)} (${name})`;
}

function joinAnd(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t("explain.and")} ${items.at(-1)}`;
}

/**
 * Ask the engine to judge a round of plays [{seat, card|null, covered}]; a covered card that
 * the learner may not see (card null) is worth nothing whatever it is, so any unused card
 * stands in for it. Resolves with the engine's {result, winner, manilhas, strengths} plus
 * `cards` (the cards sent, in play order).
 */
export async function judgeRound(client, plays, preset = "mineiro", vira = null) {
  const used = new Set(plays.map((p) => p.card).filter(Boolean));
  const spare = DECK.filter((c) => !used.has(c));
  const sent = plays.map((p) => ({ seat: p.seat, covered: Boolean(p.covered), card: p.card || spare.shift() }));
  const params = { preset, plays: sent };
  if (vira) params.vira = vira;
  const res = await engineApi(client).judge(params);
  return { ...res, sent };
}

/**
 * Why a round ended as it did: the strongest card(s) on the table, by the engine's
 * strengths. `judged` is judgeRound()'s answer; `players` the table size; `names` the
 * manilha names of the preset.
 */
export function explainRound(judged, players, names) {
  const { sent, strengths, manilhas, result } = judged;
  const strength = (p) => (p.covered ? -1 : strengths[p.card]);
  const best = Math.max(...sent.map(strength));
  const top = sent.filter((p) => strength(p) === best);
  const label = (p) => (p.covered ? t("explain.covered_card") : cardText(p.card, manilhas, names));
  const who = (seat) => seatName(seat, 0, players);
  const parts = [];
  if (result === "tie" && top.every((p) => p.covered)) {
    parts.push(t("explain.tie_covered"));
  } else if (result === "tie") {
    parts.push(t("explain.tie", { cards: joinAnd(top.map(label)) }));
  } else if (top.length > 1) {
    parts.push(t("explain.partners", { cards: joinAnd(top.map(label)), team: result === 0 ? t("explain.team.us") : t("explain.team.them") }));
  } else {
    const w = top[0];
    parts.push(t(w.seat === 0 ? "explain.best_you" : "explain.best", { card: label(w), name: who(w.seat) }));
  }
  if (sent.some((p) => p.covered) && best >= 0) parts.push(t("explain.covered"));
  return parts.join(" ");
}

/** "Você ganhou a mão: +4." — from a `hand` event of the log. */
export function explainHand(ev, players) {
  const team = ev.winner;
  const pts = ev.points;
  if (team === null || team === undefined || ev.reason === "void") return t("explain.hand.void");
  const us = team === 0;
  if (ev.reason === "run" || ev.reason === "dez_run") {
    return t(us ? "explain.hand.run_us" : "explain.hand.run_them", { points: pts, name: seatName(1, 0, players) });
  }
  return t(us ? "explain.hand.us" : "explain.hand.them", { points: pts, name: seatName(1, 0, players) });
}

/** "Fim do jogo: vocês ganharam, 12 a 6." (+ the games of a series) — from a `game` event. */
export function explainGame(ev, series = 1) {
  const us = ev.winner === 0;
  const [a, b] = ev.score;
  let text = t(us ? "explain.game.us" : "explain.game.them", { a, b });
  if (series > 1) text += ` ${t("explain.game.series", { a: ev.games[0], b: ev.games[1] })}`;
  return text;
}
