// The statistics dialog's rating and history of matches (issue 45): the chosen player's
// rating with its chart, match by match, and the last matches, each with one tap to its
// replay. Loaded when the dialog is first opened (stats_view.js, by a constant's address),
// with its style sheet (css/rating.css).

import { svgEl } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { BOT_RATINGS, INITIAL, PROVISIONAL, provisional } from "./rating.js";
import { readLog } from "./match_log.js";
import { ReplayView } from "./replay_view.js";
import { bucketKey, matches as inFilter } from "./stats.js";
import { chartFrame } from "./stats_charts.js";

const SHOWN = 8; // matches listed before "Mostrar todas"
let cssLoaded = false;

function loadCss() {
  if (cssLoaded) return;
  cssLoaded = true;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../../css/rating.css", import.meta.url).href;
  document.head.append(link);
}

const make = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...kids);
  return node;
};

/**
 * Fill the dialog's two places: `figure` (the rating and its chart) and `section` (the
 * history), for `who` ("" this device's player, else a person's key) and the mode/level
 * `filter` of the statistics (the history only: the rating is one number across them).
 */
export function renderRating({ store, figure, section, who, filter }) {
  loadCss();
  const { ratings, history } = readLog(store);
  const person = who ? ratings.people[who] : ratings.own;
  drawRating(figure, person);
  drawHistory(section, history.matches.filter((m) => m.people.includes(who) && inFilter(bucketKey(m.mode, m.level), filter)));
}

function drawRating(figure, person) {
  const rating = person?.rating ?? INITIAL;
  const games = person?.games ?? 0;
  const caption = make("figcaption", { "data-testid": "rating-value" });
  caption.append(t("rating.title"), " ", make("strong", { class: "rating-number" }, String(rating)));
  if (provisional(games)) caption.append(" ", make("span", { class: "rating-provisional" }, t("rating.provisional", { n: games, total: PROVISIONAL })));
  const note = make("p", { class: "rating-bots" }, t("rating.bots", BOT_RATINGS));
  figure.replaceChildren(caption, ratingChart(person?.points ?? [], games === (person?.points.length ?? 0)), note);
  figure.dataset.rating = String(rating);
}

/** The rating after each match (the last POINTS_MAX), a line with one dot per match and a
 * dashed line at the start (INITIAL); the axis spans what was reached, at least 100 points. */
export function ratingChart(points, fromStart = true) {
  const pad = { l: 38, r: 12, t: 12, b: 22 };
  const title = t("rating.chart");
  const frame = chartFrame("rating", title, pad);
  const { svg, iw, ih } = frame;
  const values = points.map((p) => p.r);
  let lo = Math.min(INITIAL, ...values);
  let hi = Math.max(INITIAL, ...values);
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  lo = Math.floor(lo / 10) * 10;
  hi = Math.ceil(hi / 10) * 10;
  const y = (r) => pad.t + ih * (1 - (r - lo) / (hi - lo));
  frame.rule(y(hi), String(hi), "grid");
  frame.rule(y(lo), String(lo), "grid");
  if (INITIAL > lo && INITIAL < hi) frame.rule(y(INITIAL), String(INITIAL), "grid target");
  if (!points.length) return frame.empty(t("rating.chart.empty"));
  // From the start (INITIAL) when every match rated is still shown, else from the oldest kept.
  const series = (fromStart ? [INITIAL] : []).concat(values);
  const n = series.length;
  const x = (i) => pad.l + (n === 1 ? iw / 2 : (iw * i) / (n - 1));
  const pts = series.map((r, i) => [x(i), y(r)]);
  svg.append(svgEl("polyline", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), class: "line us" }));
  const skip = fromStart ? 1 : 0;
  points.forEach((p, i) => {
    const before = i + skip > 0 ? series[i + skip - 1] : p.r;
    const [cx, cy] = pts[i + skip];
    const dot = svgEl("circle", { cx: cx.toFixed(1), cy: cy.toFixed(1), r: 3.5, class: p.r >= before ? "dot won" : "dot lost" });
    dot.append(svgEl("title", {}, t("rating.point", { n: i + 1, r: p.r, date: dateText(p.at) })));
    svg.append(dot);
  });
  return svg;
}

function dateText(at) {
  const lang = document.documentElement.lang || "pt-BR";
  return new Intl.DateTimeFormat(lang, { day: "2-digit", month: "2-digit", year: "2-digit", hour: "2-digit", minute: "2-digit" }).format(at);
}

function levelText(level) {
  return level === "pessoas" ? t("stats.filter.people") : t(`level.${level}`);
}

function drawHistory(section, list, all = false) {
  const newest = [...list].reverse();
  const shown = all ? newest : newest.slice(0, SHOWN);
  const head = make("h3", { id: "history-title", tabindex: "-1" }, t("history.title"));
  const body = shown.length ? make("ol", { class: "history-list", "data-testid": "history" }) : make("p", { class: "stats-note" }, t("history.empty"));
  for (const m of shown) body.append(row(m));
  section.replaceChildren(head, body);
  section.setAttribute("aria-labelledby", "history-title");
  if (newest.length > shown.length) {
    const more = make("button", { type: "button", class: "button secondary history-more" }, t("history.more", { n: newest.length }));
    more.addEventListener("click", () => {
      drawHistory(section, list, true);
      // The focus stays in the list: on the first match it adds (its button, else the heading).
      const next = section.querySelectorAll(".history-list li")[SHOWN]?.querySelector("button");
      (next ?? section.querySelector("h3")).focus();
    });
    section.append(more);
  }
}

function row(m) {
  const result = m.abandoned ? "left" : m.won ? "won" : "lost";
  const li = make("li", { class: `history-row ${result}`, "data-id": m.id });
  const what = make("span", { class: "history-what" },
    make("strong", { class: "history-result" }, t(`history.${result}`)), " ",
    make("span", { class: "history-score" }, `${m.score[0]} × ${m.score[1]}`));
  const detail = [t(`start.mode.${m.mode}`).replace(/\s*\(.*\)$/, ""), levelText(m.level)];
  if (m.series > 1) detail.push(t("history.series", { won: m.games[0], lost: m.games[1] }));
  // Each part kept on one line (at 390 px "1 vs 1" broke after "vs"): the line breaks between them.
  const keep = (x) => String(x).replace(/ /g, "\u00a0");
  const when = make("span", { class: "history-detail" }, [dateText(m.at), ...detail].map(keep).join(" · "));
  const text = make("span", { class: "history-text" }, what, when);
  li.append(text);
  if (m.rating) {
    const d = m.rating.after - m.rating.before;
    li.append(make("span", { class: `history-delta ${d >= 0 ? "up" : "down"}`, title: t("history.delta", { before: m.rating.before, after: m.rating.after }) },
      `${d >= 0 ? "+" : "−"}${Math.abs(d)}`));
  }
  if (m.save) {
    const b = make("button", { type: "button", class: "button secondary history-replay", "aria-label": t("history.replay.label", { date: dateText(m.at) }) }, t("history.replay"));
    b.addEventListener("click", () => ReplayView.current?.open(m.save));
    li.append(b);
  } else {
    li.append(make("span", { class: "history-noreplay" }, t("history.no_replay")));
  }
  return li;
}
