// The end of a match (issue 41): the score hand by hand as a small chart, the hands that
// decided it, and the raises that a run or a lost hand settled. Read only from what every
// seat saw: the observation's `history` (earlier hands, cut short) and `log` (the last two
// hands), never a hidden card. The dialog itself (title, score line, buttons) is dialogs.js.

import { el, svgEl } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

/**
 * The hands of the match's last game, in order: [{hand, winner, points, reason, before,
 * after, raiser, accepted, ran}] (scores as [team 0, team 1]; `raiser` the team whose raise
 * was the last accepted or run from, `accepted`/`ran` how it was answered).
 *
 * The log's hands carry their score; the history's carry only winner and points, so the
 * scores are worked out backwards from the first hand the log holds.
 */
export function matchHands(obs) {
  const events = [...(obs.history || []), ...(obs.log || [])];
  const hands = [];
  let current = null;
  let lastRaiser = null;
  for (const e of events) {
    if (e.type === "deal") {
      current = { hand: e.hand_number, game: e.game_number, raiser: null, accepted: false, ran: false };
      lastRaiser = null;
    } else if (!current) {
      continue;
    } else if (e.type === "raise") {
      lastRaiser = e.seat % 2;
    } else if (e.type === "accept" && !e.mao_de_dez && lastRaiser !== null) {
      Object.assign(current, { raiser: lastRaiser, accepted: true });
    } else if (e.type === "run" && !e.mao_de_dez && lastRaiser !== null) {
      Object.assign(current, { raiser: lastRaiser, ran: true });
    } else if (e.type === "hand") {
      hands.push({ ...current, winner: e.winner, points: e.points ?? 0, reason: e.reason, after: e.score ?? null });
      current = null;
    }
  }
  const lastGame = hands.length ? hands.at(-1).game : null;
  const game = hands.filter((h) => h.game === lastGame);
  // Backwards from the last known score: before = after minus the hand's points.
  let next = null;
  for (let i = game.length - 1; i >= 0; i--) {
    const h = game[i];
    if (!h.after) h.after = next;
    if (!h.after) return game.slice(i + 1); // nothing to count back from (cannot happen with a log)
    h.before = h.after.slice();
    if (h.winner !== null && h.winner !== undefined) h.before[h.winner] -= h.points;
    next = h.before;
  }
  return game;
}

/** Raises settled in the open: runs from a raise and raises accepted then lost, per team. */
export function raiseStats(hands) {
  const ran = [0, 0]; // ran[team]: times that team ran from a raise
  const caught = [0, 0]; // caught[team]: that team's raise accepted, and the hand lost
  for (const h of hands) {
    if (h.raiser === null) continue;
    if (h.ran) ran[1 - h.raiser] += 1;
    else if (h.accepted && h.winner === 1 - h.raiser) caught[h.raiser] += 1;
  }
  return { ran, caught };
}

const W = 300;
const H = 120;
const PAD = { left: 22, right: 10, top: 8, bottom: 18 };

/** The chart: one line per team, a dot per hand played, the goal marked. */
function chart(hands, us, summary) {
  const top = Math.max(12, ...hands.map((h) => Math.max(...h.after)));
  const steps = hands.length;
  const x = (i) => PAD.left + (steps ? (i * (W - PAD.left - PAD.right)) / steps : 0);
  const y = (v) => H - PAD.bottom - (Math.max(0, v) * (H - PAD.top - PAD.bottom)) / top;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": summary, class: "end-chart-svg" });
  const goal = svgEl("g", { class: "end-axis", "aria-hidden": "true" },
    svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }),
    svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(top), y2: y(top), class: "end-goal" }),
    svgEl("text", { x: PAD.left - 4, y: y(0) + 4, "text-anchor": "end" }, "0"),
    svgEl("text", { x: PAD.left - 4, y: y(top) + 4, "text-anchor": "end" }, String(top)));
  svg.append(goal);
  for (const team of [1 - us, us]) {
    const side = team === us ? "us" : "them";
    const values = [hands[0].before[team], ...hands.map((h) => h.after[team])];
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const g = svgEl("g", { class: `end-line ${side}`, data: { team: side } },
      svgEl("polyline", { points, pathLength: 1 }));
    hands.forEach((h, i) => g.append(svgEl("circle", { cx: x(i + 1).toFixed(1), cy: y(h.after[team]).toFixed(1), r: 3.2,
      data: { hand: h.hand, score: h.after[team] } })));
    svg.append(g);
  }
  return svg;
}

/** Fills the end dialog's chart and notes (`figure`, `notes`: its elements) for `obs`. */
export function showMatchEnd(obs, figure, notes) {
  figure.replaceChildren();
  notes.replaceChildren();
  const hands = matchHands(obs);
  const us = obs.team;
  figure.hidden = hands.length === 0;
  notes.hidden = hands.length === 0;
  if (!hands.length) return;
  const pair = (s) => `${s[us]} × ${s[1 - us]}`;
  const summary = t("end.chart.summary", { steps: [pair(hands[0].before), ...hands.map((h) => pair(h.after))].join(", ") });
  figure.append(
    chart(hands, us, summary),
    el("figcaption", { class: "end-legend" },
      el("span", { class: "us" }, t("team.us")),
      el("span", { class: "them" }, t("team.them")),
      el("span", {}, t("end.chart.hands", { n: hands.length }))));
  const team = (w) => t(w === us ? "end.team.us" : "end.team.them");
  const last = hands.at(-1);
  const won = hands.filter((h) => h.winner !== null && h.points > 0);
  const biggest = won.reduce((a, h) => (h.points > a.points ? h : a), won[0] ?? last);
  const lines = [];
  if (biggest && biggest !== last && biggest.points > last.points) {
    lines.push(t("end.biggest", { points: biggest.points, team: team(biggest.winner), hand: biggest.hand }));
  }
  if (last.winner !== null) {
    lines.push(t(last.ran ? "end.last.run" : "end.last", { points: last.points, team: team(last.winner) }));
  }
  const { ran, caught } = raiseStats(hands);
  if (ran[0] + ran[1]) lines.push(t("end.runs", { us: ran[us], them: ran[1 - us] }));
  if (caught[0] + caught[1]) lines.push(t("end.caught", { us: caught[us], them: caught[1 - us] }));
  for (const line of lines) notes.append(el("li", {}, line));
  notes.hidden = lines.length === 0;
}
