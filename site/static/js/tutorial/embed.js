// embed.html: one scenario on a live mini-table, for an <iframe> on a rules page.
//
//   embed.html?scenario=manilhas-copas        a tutorial exercise, by its id
//   embed.html?hands=4c.7h.As-3c.2h.Kd        a deal of your own (seat 0 is the visitor),
//        &score=10,4&dealer=1&players=2&preset=mineiro&ferro=claras&vira=Kd
//        &level=medio&seed=7&caption=Quem+ganha%3F
//   …&engine=now                              start the engine with the page, not on a touch
//
// The address is checked here (clear Portuguese messages), then by the engine, which has the
// last word (a score the preset cannot reach, a vira without a vira preset…). The page
// reports its height to the parent with postMessage({type: "truco-embed:height", height}).
//
// Nothing of the engine is downloaded until the visitor touches the table (or the address
// says `engine=now`): a tutorial exercise is drawn from its first position in the page's
// data (computed by the build), a deal of the address from its cards (the visitor's face up,
// the others' backs; no rule is worked out here).

import { applyStoredDeckColours } from "../shared/cards.js";
import { connectEngine } from "../engine/engine_status.js";
import { Exercise } from "./exercise.js";
import { t } from "../shared/i18n.js";
import { LEVELS } from "../shared/names.js";

const $ = (id) => document.getElementById(id);
const CARD = /^[4567QJKA23][chsd]$/;
const KNOWN = new Set(["scenario", "hands", "score", "dealer", "players", "preset", "ferro", "vira", "level",
  "seed", "caption", "fast", "engine"]);

const scenarios = JSON.parse($("scenarios").textContent).exercises;
const presets = JSON.parse($("presets").textContent).map((p) => p.name);

/** {ex} for a valid address, or {errors: [messages]}. */
export function scenarioFromURL(search) {
  const q = new URLSearchParams(search);
  const errors = [];
  const name = q.get("scenario");
  if (name !== null) {
    const ex = Object.prototype.hasOwnProperty.call(scenarios, name) ? scenarios[name] : null;
    return ex ? { ex } : { errors: [t("embed.error.scenario", { name: name.slice(0, 60) })] };
  }
  if (!q.has("hands")) return { errors: [t("embed.error.missing")] };
  for (const key of q.keys()) {
    if (!KNOWN.has(key)) errors.push(t("embed.error.unknown", { name: key.slice(0, 30) }));
  }
  const handsText = q.get("hands").trim();
  const hands = handsText ? handsText.split("-").map((h) => h.split(".").map((c) => c.trim())) : [];
  let players = hands.length;
  if (q.has("players")) {
    players = Number(q.get("players"));
    if (![2, 4].includes(players)) errors.push(t("embed.error.players"));
  }
  if (![2, 4].includes(hands.length) || hands.length !== players || hands.some((h) => h.length !== 3)) {
    errors.push(t("embed.error.hands", { n: [2, 4].includes(players) ? players : 2 }));
  }
  const seen = new Set();
  for (const c of hands.flat()) {
    if (!CARD.test(c)) errors.push(t("embed.error.card", { card: c.slice(0, 12) }));
    else if (seen.has(c)) errors.push(t("embed.error.duplicate", { card: c }));
    seen.add(c);
  }
  let score = [0, 0];
  if (q.has("score")) {
    const parts = q.get("score").split(",");
    if (parts.length !== 2 || parts.some((p) => !/^\d{1,2}$/.test(p.trim()))) errors.push(t("embed.error.score"));
    else score = parts.map((p) => Number(p));
  }
  let dealer = Math.max(players, 2) - 1; // the visitor (seat 0) leads the first round
  if (q.has("dealer")) {
    dealer = Number(q.get("dealer"));
    if (!/^\d$/.test(q.get("dealer")) || dealer >= players) errors.push(t("embed.error.dealer", { max: players - 1 }));
  }
  const preset = q.get("preset") || "mineiro";
  if (!presets.includes(preset)) errors.push(t("embed.error.preset", { name: preset.slice(0, 30), names: presets.join(", ") }));
  const ferro = q.get("ferro");
  if (ferro !== null && !["escuro", "claras"].includes(ferro)) errors.push(t("embed.error.ferro"));
  const vira = q.get("vira");
  if (vira !== null && !CARD.test(vira)) errors.push(t("embed.error.card", { card: vira.slice(0, 12) }));
  if (vira !== null && seen.has(vira)) errors.push(t("embed.error.duplicate", { card: vira }));
  const level = q.get("level") || "medio";
  if (!LEVELS.includes(level)) errors.push(t("embed.error.level"));
  let seed = 1;
  if (q.has("seed")) {
    if (!/^\d{1,15}$/.test(q.get("seed"))) errors.push(t("embed.error.seed"));
    else seed = Number(q.get("seed"));
  }
  const caption = (q.get("caption") || "").trim().slice(0, 160);
  const start = q.get("engine");
  if (start !== null && start !== "now") errors.push(t("embed.error.start"));
  if (errors.length) return { errors: [...new Set(errors)] };
  // The caption is the title over the table; the prompt under it says what to do (not the caption twice).
  const ex = {
    id: "", title: caption, prompt: t("embed.free"), players, hands, score, dealer, preset, seed,
    level, partner_level: level, goal: "free", setup: [], offer: [],
  };
  if (ferro) ex.ferro = ferro;
  if (vira) ex.vira = vira;
  ex.first = firstFromAddress(ex);
  return { ex };
}

/**
 * The table before the engine has started, from the address alone: the visitor's cards (face
 * down in a dark mão de ferro), the backs of the others' cards, the score, the dealer and the
 * vira. Nothing here is a rule (whose turn, the hand's value, the manilhas): the engine says
 * those when it starts, and a card touched meanwhile is played if the engine then allows it.
 */
export function firstFromAddress(ex) {
  const blind = ex.ferro === "escuro";
  const obs = {
    players: ex.players, team: 0, preset: ex.preset, hand_number: 1, hand_kind: "normal", dealer: ex.dealer,
    mao: null, blind, vira: ex.vira || null, manilhas: [], hand: blind ? [] : [...ex.hands[0]],
    hand_sizes: ex.hands.map((h) => h.length), visible_hands: [], decision: null, rounds: [], hand_value: null,
    next_raise: null, pending: null, to_move: 0, score: [...ex.score], winner: null,
    legal_actions: blind ? ex.hands[0].map((_, i) => `play #${i + 1}`) : ex.hands[0].map((c) => `play ${c}`),
    rules: { ladder: [], manilha_names: [], vira: Boolean(ex.vira) },
  };
  return { obs, events: [], url: true };
}

// ------------------------------------------------------------------ height for the parent
const root = $("embed");
let lastHeight = 0;

/** Tell the framing page how tall the content is (it may size the <iframe> to fit). */
function reportHeight() {
  const height = Math.ceil(root.getBoundingClientRect().height);
  root.dataset.height = String(height);
  if (window.parent === window || height === lastHeight) return;
  lastHeight = height;
  window.parent.postMessage({ type: "truco-embed:height", height, scenario: new URLSearchParams(location.search).get("scenario") }, "*");
}
new ResizeObserver(reportHeight).observe(root);

// ------------------------------------------------------------------ start
applyStoredDeckColours();
const engine = connectEngine($("engine-status"));
const parsed = scenarioFromURL(location.search);
const fast = new URLSearchParams(location.search).get("fast") === "1";
// `engine=now`: the embedding page wants the engine at once (the table is live without a wait).
const now = new URLSearchParams(location.search).get("engine") === "now";
let exercise = null;

function showErrors(errors, detail = "") {
  root.dataset.state = "error";
  $("embed-error").hidden = false;
  $("embed-error-list").replaceChildren(...errors.map((e) => Object.assign(document.createElement("li"), { textContent: e })));
  if (detail) {
    // The engine's own words (they name the rule), for whoever wrote the address.
    const more = document.createElement("details");
    more.className = "embed-error-detail";
    more.append(Object.assign(document.createElement("summary"), { textContent: t("embed.error.detail") }),
      Object.assign(document.createElement("code"), { textContent: detail }));
    $("embed-error-list").after(more);
  }
  $("embed-host").hidden = true;
  $("embed-prompt").hidden = true;
  $("embed-heading").textContent = t("embed.title");
}

if (parsed.errors) {
  showErrors(parsed.errors);
} else {
  const ex = parsed.ex;
  $("embed-heading").textContent = ex.title || t("embed.title");
  $("embed-prompt").textContent = ex.prompt;
  document.title = `${ex.title || ex.prompt} · Truco Mineiro`;
  exercise = new Exercise($("embed-host"), ex, engine, {
    fast,
    label: ex.title || t("embed.title"),
    onResult: (verdict) => {
      root.dataset.verdict = verdict;
    },
  });
  root.dataset.state = "ready";
  // A deal of the address that the engine refuses is an error of the address, said plainly.
  const failed = exercise.fail.bind(exercise);
  exercise.fail = (text, detail = "") => {
    if (text === t("exercise.bad_deal")) showErrors([t("embed.error.engine")], detail);
    else failed(text, detail);
  };
  if (now) {
    engine.start();
    exercise.start({ quiet: true });
  }
}

window.__embed = Object.freeze({
  get exercise() {
    return exercise ? { state: exercise.state, verdict: exercise.verdict, obs: exercise.obs || null } : null;
  },
  engine,
});

// The page has started: boot_watch.js stands down (from here the page says what goes wrong).
document.documentElement.dataset.pageStarted = "";
