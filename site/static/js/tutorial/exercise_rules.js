// What an exercise is, without a page: the engine's new_game parameters of its fixed deal,
// the action a log event records, the hand on screen rebuilt from the events, and the
// verdict on the learner's moves (the same rules as judge() in py/truco_tools/lessons.py, which checks
// every exercise's solution and mistake at build time), and what the engine decided, in words.

import { cardName } from "../shared/cards.js";
import { t } from "../shared/i18n.js";
import { explainGame, explainHand, explainRound, judgeRound } from "./explain.js";

export function matches(action, pattern) {
  return action === pattern || (pattern.endsWith(" *") && action.startsWith(pattern.slice(0, -1)));
}

/** The action a log event records ("play 4c", "raise"…); a hidden covered card gives "cover null". */
export function eventAction(ev) {
  if (ev.type === "play" || ev.type === "cover") return `${ev.type} ${ev.card}`;
  if (["raise", "accept", "run"].includes(ev.type)) return ev.type;
  return null;
}

/**
 * Right / wrong / undecided (null) — keep in step with judge() in py/truco_tools/lessons.py.
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
export function roundsAfter(rounds, events) {
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

/**
 * The hand on screen ({rounds, hand, handSizes, value, score, vira}): the live one (`obs`),
 * or, once the engine has dealt the next, the finished one rebuilt from the hand's last
 * observation (`handObs`) and the events since.
 */
export function handOnScreen(obs, handObs, startHand, events) {
  if (obs.hand_number === startHand) {
    const sizes = obs.hand_sizes;
    return { rounds: obs.rounds, hand: obs.hand, handSizes: sizes, value: obs.hand_value, score: obs.score, vira: obs.vira };
  }
  const base = handObs;
  const after = events.filter((e) => e.n > base.log.at(-1).n);
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
  const handEv = events.find((e) => e.type === "hand");
  // The vira of a dark mão de ferro turns up with the first round's last card (§9).
  const viraEv = after.find((e) => e.type === "vira");
  return { rounds, hand: base.blind ? [] : hand, handSizes: sizes, value: base.hand_value,
    score: handEv ? handEv.score : obs.score, vira: viraEv ? viraEv.card : base.vira };
}

/**
 * What the engine decided, in words: the timeout, the round (`roundNo`, else the last one
 * played out), the hand, the game. The round's judgement is asked of the engine (`client`).
 */
export async function engineFacts(client, obs, events, rounds, roundNo) {
  const out = [];
  const n = obs.players;
  const timeout = events.findIndex((e) => e.type === "timeout" && e.seat === 0);
  if (timeout >= 0) {
    const played = events.slice(timeout).find((e) => (e.type === "play" || e.type === "cover") && e.seat === 0);
    const ran = events.slice(timeout).find((e) => e.type === "run" && e.seat === 0);
    if (played) out.push(t("explain.timeout_play", { card: cardName(played.card) }));
    else if (ran) out.push(t("explain.timeout_run"));
  }
  if (roundNo === null) {
    // otherwise the last round that was played out
    const done = events.filter((e) => e.type === "round");
    if (done.length && !events.some((e) => e.type === "hand" && (e.reason === "run" || e.reason === "dez_run"))) roundNo = done.at(-1).round;
  }
  const r = roundNo ? rounds[roundNo - 1] : null;
  if (r && r.plays.length === n && r.result !== null && r.result !== undefined) {
    const judged = await judgeRound(client, r.plays, obs.preset, obs.vira);
    out.push(explainRound(judged, n, obs.rules.manilha_names));
  }
  const hand = events.find((e) => e.type === "hand");
  if (hand) out.push(explainHand(hand, n));
  const game = events.find((e) => e.type === "game");
  if (game) out.push(explainGame(game, obs.options?.series || 1));
  return out;
}
