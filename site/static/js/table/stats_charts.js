// The statistics dialog's two small SVG charts: the win rate of the recent matches and the
// last game's score line (the data: stats.js).

import { svgEl as el } from "../shared/dom.js";

const W = 320;
const H = 140;

/**
 * What both charts share: the <svg> with its title, the plot's width and height inside
 * `pad`, `rule(y, label, cls)` drawing a grid line with its label on the axis, and
 * `empty(text)` writing `text` in the middle of the plot (no data yet).
 */
export function chartFrame(kind, title, pad) {
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title, "data-chart": kind });
  svg.append(el("title", {}, title));
  const iw = W - pad.l - pad.r;
  const ih = H - pad.t - pad.b;
  const rule = (y, label, cls) => {
    svg.append(el("line", { x1: pad.l, x2: W - pad.r, y1: y, y2: y, class: cls }));
    svg.append(el("text", { x: pad.l - 4, y: y + 4, "text-anchor": "end", class: "axis" }, label));
  };
  const empty = (text) => {
    svg.append(el("text", { x: pad.l + iw / 2, y: pad.t + ih / 2, "text-anchor": "middle", class: "empty" }, text));
    return svg;
  };
  return { svg, iw, ih, rule, empty };
}

/**
 * The share of matches won, cumulated over the last matches (a line from 0 to 100 %),
 * with one dot per match: filled when won, hollow when lost.
 */
export function winRateChart(recent, { title, empty, won, lost }) {
  const pad = { l: 34, r: 10, t: 12, b: 22 };
  const frame = chartFrame("winrate", title, pad);
  const { svg, iw, ih } = frame;
  const y = (share) => pad.t + ih * (1 - share);
  for (const share of [0, 0.5, 1]) frame.rule(y(share), `${share * 100}%`, "grid");
  if (!recent.length) return frame.empty(empty);
  const n = recent.length;
  const x = (i) => pad.l + (n === 1 ? iw / 2 : (iw * i) / (n - 1));
  let wins = 0;
  const pts = recent.map((r, i) => {
    if (r.won) wins += 1;
    return [x(i), y(wins / (i + 1))];
  });
  svg.append(el("polyline", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), class: "line us" }));
  recent.forEach((r, i) => {
    const dot = el("circle", { cx: pts[i][0].toFixed(1), cy: pts[i][1].toFixed(1), r: 3.5, class: r.won ? "dot won" : "dot lost" });
    dot.append(el("title", {}, `${i + 1}: ${r.won ? won : lost} ${r.score[0]} × ${r.score[1]}`));
    svg.append(dot);
  });
  svg.append(el("text", { x: W - pad.r, y: H - 6, "text-anchor": "end", class: "axis" }, `${Math.round((100 * wins) / n)}%`));
  return svg;
}

/** The score of the last game, hand by hand: two lines, ours and theirs, up to the target. */
export function scoreChart(last, { title, empty, us, them }) {
  const pad = { l: 26, r: 10, t: 12, b: 22 };
  const frame = chartFrame("score", title, pad);
  const { svg, iw, ih } = frame;
  const target = last?.target || 12;
  const top = Math.max(target, ...(last?.progress || []).flat());
  const y = (v) => pad.t + ih * (1 - v / top);
  for (const v of [0, target]) frame.rule(y(v), String(v), v ? "grid target" : "grid");
  if (!last || last.progress.length < 2) return frame.empty(empty);
  const n = last.progress.length;
  const x = (i) => pad.l + (iw * i) / (n - 1);
  for (const [side, cls, label] of [[0, "us", us], [1, "them", them]]) {
    const pts = last.progress.map((p, i) => `${x(i).toFixed(1)},${y(p[side]).toFixed(1)}`).join(" ");
    const line = el("polyline", { points: pts, class: `line ${cls}` });
    line.append(el("title", {}, label));
    svg.append(line);
    const end = last.progress[n - 1];
    svg.append(el("text", { x: pad.l + side * 90, y: H - 5, class: `axis legend ${cls}` }, `— ${label} ${end[side]}`));
  }
  return svg;
}
