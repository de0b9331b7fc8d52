// The marcador page: a scoreboard for truco played with real cards. No engine, no worker:
// the preset values come from <script id="presets"> (rendered by the build from the
// engine's presets), the state lives in marcador_state.js, and every change is saved to
// localStorage at once.

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { StorageManager } from "../shared/storage.js";
import { keepScreenOn } from "./wake_lock.js";
import { KEY, MarcadorStore } from "./marcador_store.js";
import * as M from "./marcador_state.js";

const $ = (id) => document.getElementById(id);
const TEAMS = [0, 1];

function readJSON(id) {
  try {
    return JSON.parse($(id).textContent);
  } catch {
    return null;
  }
}

const presets = M.presetIndex(readJSON("presets") || []);
const storage = new StorageManager();
const app = $("marcador");

const store = new MarcadorStore(storage, presets);
store.moveOldBackup();
let state = store.load();
let view = M.derive(state, presets);

function save() {
  store.save(state);
}

// --- Words ----------------------------------------------------------------------------------

function nameOf(team) {
  return state.names[team] || (team === 0 ? t("team.us") : t("team.them"));
}

function xWord(rules) {
  const key = `marcador.x.${rules.mao_de_x}`;
  const word = t(key);
  return word === key ? String(rules.mao_de_x) : word;
}

function callName(call) {
  const text = t(`raise.${call}`);
  return (text === `raise.${call}` ? call : text).toLowerCase();
}

/** What an outcome is, in a few words ("truco", "mão de dez", "correram da mão de dez"). */
function whatOf(kind, call, rules) {
  switch (kind) {
    case "hand": return call ? callName(call) : t("marcador.what.start");
    case "dez": return t("marcador.what.dez", { x: xWord(rules) });
    case "dez_run": return t("marcador.what.dez_run", { x: xWord(rules) });
    case "ferro": return t("marcador.what.ferro");
    default: return t("marcador.what.fix");
  }
}

/** The log entry undo would remove, in words. */
function describe(ev) {
  if (!ev) return t("marcador.undo.none");
  switch (ev.t) {
    case "pts": {
      const hand = view.game.hands.at(-1);
      const call = hand && hand.kind === ev.kind && hand.pts === ev.pts ? hand.call : null;
      return t("marcador.what.pts", { name: nameOf(ev.team), pts: ev.pts, what: whatOf(ev.kind, call, view.rules) });
    }
    case "fix": return t("marcador.what.fixed", { name: nameOf(ev.team) });
    case "next": return t("marcador.what.next");
    default: return t("marcador.what.new");
  }
}

function tentos(points) {
  const n = Math.floor(points / 2);
  return n === 1 ? t("marcador.tento") : t("marcador.tentos", { n });
}

// --- Rendering ------------------------------------------------------------------------------

const built = ["", ""]; // signature of each team's buttons, rebuilt only when the offer changes

function renderButtons(team) {
  const box = $(`buttons-${team}`);
  const offers = view.offers[team];
  const sig = JSON.stringify([view.rules.name, offers]);
  if (built[team] === sig) {
    for (const b of box.children) {
      b.setAttribute("aria-label", t("marcador.button.label",
        { name: nameOf(team), pts: b.dataset.pts, what: b.dataset.what }));
    }
    return false;
  }
  const focused = box.contains(document.activeElement);
  built[team] = sig;
  box.replaceChildren(...offers.map((o, i) => {
    const what = whatOf(o.kind, o.call, view.rules);
    return el("button", {
      type: "button",
      class: `mc-pt kind-${o.kind}${o.pts >= view.rules.target ? " max" : ""}`,
      data: { team: String(team), kind: o.kind, pts: String(o.pts), what, index: String(i) },
      "aria-label": t("marcador.button.label", { name: nameOf(team), pts: o.pts, what }),
    }, el("span", { class: "mc-pt-value" }, `+${o.pts}`), " ",
    el("span", { class: "mc-pt-what" }, what));
  }));
  box.dataset.count = String(offers.length);
  return focused;
}

function renderTeam(team) {
  const { game, rules } = view;
  const score = game.scores[team];
  const section = $(`team-${team}`);
  section.setAttribute("aria-label", nameOf(team));
  section.classList.toggle("winner", view.gameWinner === team);
  section.classList.toggle("at-x", view.phase === "dez" && view.dezTeam === team);

  const input = $(`name-${team}`);
  if (document.activeElement !== input) input.value = state.names[team];
  input.placeholder = team === 0 ? t("team.us") : t("team.them");

  const badge = $(`badge-${team}`);
  let badgeText = "";
  if (view.phase === "dez" && view.dezTeam === team) badgeText = t("marcador.badge.dez", { x: xWord(rules) });
  else if (view.phase === "ferro") badgeText = t("marcador.badge.ferro");
  else if (view.gameWinner === team) badgeText = t("marcador.badge.win");
  badge.replaceChildren(...(view.gameWinner === team ? [trophy(), " "] : []), badgeText);
  badge.hidden = !badgeText;

  $(`points-${team}`).textContent = String(score);
  const tt = $(`tentos-${team}`);
  tt.hidden = !rules.tentos;
  tt.textContent = rules.tentos ? tentos(score) : "";

  const pips = $(`pips-${team}`);
  pips.hidden = view.series === 1;
  pips.setAttribute("aria-label", t("marcador.games.label", { name: nameOf(team), n: view.wins[team], need: view.need }));
  const want = view.series === 1 ? 0 : view.need;
  if (pips.children.length !== want) {
    pips.replaceChildren(...Array.from({ length: want }, () => el("li", { class: "mc-pip" })));
  }
  [...pips.children].forEach((li, i) => li.classList.toggle("on", i < view.wins[team]));

  const fix = $(`fix-${team}`);
  fix.disabled = !view.canFix[team];
  fix.replaceChildren(el("span", { class: "mc-fix-value" }, `−${view.fixValue}`), " ",
    el("span", {}, t("marcador.fix")));
  fix.setAttribute("aria-label", t("marcador.fix.label", { pts: view.fixValue, name: nameOf(team) }));

  return renderButtons(team);
}

function trophy() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "mc-trophy");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", "#i-trophy");
  svg.append(use);
  return svg;
}

function teamSpan(team, text = nameOf(team)) {
  return el("span", { class: `team-name t${team}` }, text);
}

function renderOver() {
  const over = $("over");
  const wasHidden = over.hidden;
  over.hidden = view.phase !== "over";
  if (over.hidden) return false;
  const w = view.gameWinner;
  const l = 1 - w;
  const seriesOver = view.series > 1 && view.seriesWinner !== null;
  $("over-title").textContent = seriesOver ? t("marcador.over.series") : t("marcador.over.game", { n: view.gameNo });
  $("over-result").replaceChildren(trophy(), " ", teamSpan(w), ` ${view.game.scores[w]} × ${view.game.scores[l]} `, teamSpan(l));
  const line = $("over-series");
  line.hidden = view.series === 1;
  if (view.series > 1) {
    line.replaceChildren(`${t(`series.${view.series}`)}: `, teamSpan(0), ` ${view.wins[0]} × ${view.wins[1]} `, teamSpan(1));
  }
  $("next").textContent = seriesOver ? t("marcador.next_series") : t("marcador.next");
  return wasHidden;
}

function renderReminder() {
  const { rules } = view;
  const box = $("reminder");
  let text = "";
  if (view.phase === "normal") {
    const ladder = rules.ladder.map((s) => `${callName(s.name)} ${s.value}`).join(", ");
    text = t("marcador.reminder.normal", { start: rules.start_value, ladder, target: rules.target });
  } else if (view.phase === "dez") {
    text = t("marcador.reminder.dez", { x: xWord(rules), name: nameOf(view.dezTeam),
      value: rules.mao_de_x_value, run: rules.mao_de_x_run_gives });
  } else if (view.phase === "ferro") {
    text = t("marcador.reminder.ferro", { x: rules.mao_de_x, value: rules.ferro_value ?? rules.start_value,
      cards: t(rules.ferro_blind === false ? "marcador.ferro.claras" : "marcador.ferro.escuro") });
  }
  box.textContent = text;
  box.hidden = !text;
  box.dataset.phase = view.phase;
}

function handItems(game, rules) {
  let handNo = 0;
  const items = game.hands.map((h) => {
    const isFix = h.kind === "fix";
    if (!isFix) handNo += 1;
    return el("li", { class: `mc-hand${isFix ? " fix" : ""}`, data: { team: String(h.team) } },
      el("span", { class: "mc-hand-n" }, isFix ? t("marcador.history.fix") : t("marcador.history.hand", { n: handNo })),
      el("span", { class: "mc-hand-pts" }, teamSpan(h.team), ` ${h.pts > 0 ? "+" : "−"}${Math.abs(h.pts)}`),
      el("span", { class: "mc-hand-what" }, whatOf(h.kind, h.call, rules)),
      el("span", { class: "mc-hand-score" }, `${h.scores[0]} × ${h.scores[1]}`));
  });
  return items.reverse(); // newest first
}

function renderHistory() {
  const { game, rules } = view;
  $("history-title").textContent = t("marcador.history", { n: view.gameNo });
  const items = handItems(game, rules);
  $("hands").replaceChildren(...items);
  $("hands-empty").hidden = items.length > 0;

  const showGames = view.series > 1 || view.gameNo > 1;
  $("games-box").hidden = !showGames;
  if (!showGames) return;
  // The games of this series; a finished one opens to show its hands.
  const list = $("games");
  const open = new Set([...list.querySelectorAll("details[open]")].map((d) => d.dataset.game));
  list.replaceChildren(...view.games.map((g, i) => {
    const row = [
      el("span", { class: "mc-hand-n" }, t("marcador.history.game", { n: i + 1 })),
      el("span", {}, teamSpan(0), ` ${g.scores[0]} × ${g.scores[1]} `, teamSpan(1)),
      el("span", { class: "mc-hand-what" }, ...(g.winner === null
        ? [t("marcador.history.playing")] : [trophy(), " ", teamSpan(g.winner)])),
    ];
    const cls = `mc-game${g.winner !== null ? ` won-${g.winner}` : ""}`;
    if (g === game) return el("li", { class: cls }, el("div", { class: "mc-game-row" }, ...row));
    const details = el("details", { data: { game: String(i) }, open: open.has(String(i)) },
      el("summary", { class: "mc-game-row" }, ...row),
      el("ol", { class: "mc-hands" }, ...handItems(g, rules)));
    return el("li", { class: cls }, details);
  }));
}

function render() {
  view = M.derive(state, presets);
  const { rules } = view;
  app.dataset.phase = view.phase;
  app.dataset.preset = rules.name;
  app.dataset.series = String(view.series);

  const seriesName = t(`series.${view.series}`);
  $("status-rules").textContent = rules.title;
  $("rules-button").setAttribute("aria-label", t("marcador.rules.label", { rules: rules.title, series: seriesName }));

  $("status-game").textContent = t("marcador.status.game", { n: view.gameNo })
    + (view.series > 1 ? ` · ${seriesName}` : "");
  const tally = $("status-tally");
  const showTally = view.seriesNo > 1 || view.tally[0] + view.tally[1] > 0;
  tally.hidden = !showTally;
  tally.replaceChildren(...(showTally
    ? [` · ${t(`marcador.tally.${view.series}`)}: `, teamSpan(0), ` ${view.tally[0]} × ${view.tally[1]} `, teamSpan(1)]
    : []));

  const lostFocus = TEAMS.map(renderTeam);
  const overShown = renderOver();
  renderReminder();
  renderHistory();

  const undo = $("undo");
  undo.disabled = !view.canUndo;
  const what = describe(view.last);
  $("undo-what").textContent = view.canUndo ? what : "";
  undo.setAttribute("aria-label", view.canUndo ? t("marcador.undo.what", { what }) : t("marcador.undo.none"));

  // Keep keyboard users somewhere sensible when the buttons under them change.
  if (overShown) $("next").focus();
  else lostFocus.forEach((lost, team) => { if (lost) focusTeam(team); });
}

function focusTeam(team) {
  const first = $(`buttons-${team}`).querySelector("button");
  (first || $("undo")).focus();
}

// --- Actions --------------------------------------------------------------------------------

function announce(text) {
  $("live").textContent = text;
}

function dispatch(action) {
  const next = M.reduce(state, action, presets);
  if (next === state) return false;
  state = next;
  save();
  render();
  return true;
}

function score(team, kind, pts) {
  if (!dispatch({ type: "score", team, kind, pts })) return;
  const [a, b] = view.game.scores;
  let text = t("marcador.announce.pts", { name: nameOf(team), pts, a, b });
  if (view.phase === "over") {
    text += ` ${$("over-title").textContent} ${$("over-result").textContent.trim()}.`;
  }
  announce(text);
}

function undo() {
  if (!dispatch({ type: "undo" })) return;
  const [a, b] = view.game.scores;
  announce(t("marcador.announce.undo", { a, b }));
}

$("board").addEventListener("click", (e) => {
  const pt = e.target.closest("button.mc-pt");
  if (pt) {
    score(Number(pt.dataset.team), pt.dataset.kind, Number(pt.dataset.pts));
    return;
  }
  const fix = e.target.closest("button.mc-fix");
  if (fix) {
    const team = Number(fix.dataset.team);
    if (!dispatch({ type: "fix", team })) return;
    const [a, b] = view.game.scores;
    announce(t("marcador.announce.fix", { name: nameOf(team), pts: view.fixValue, a, b }));
    if (fix.disabled) focusTeam(team);
  }
});

$("undo").addEventListener("click", undo);

$("next").addEventListener("click", () => {
  if (!dispatch({ type: "next" })) return;
  announce(t("marcador.announce.next", { n: view.gameNo }));
  focusTeam(0);
});

for (const team of TEAMS) {
  const input = $(`name-${team}`);
  let before = "";
  input.addEventListener("focus", () => { before = state.names[team]; });
  input.addEventListener("input", () => dispatch({ type: "rename", team, name: input.value }));
  input.addEventListener("change", () => { input.value = state.names[team]; });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      input.blur();
    } else if (e.key === "Escape") {
      dispatch({ type: "rename", team, name: before }); // back to the name it had
      input.value = state.names[team];
      input.blur();
    }
  });
  input.addEventListener("blur", () => { input.value = state.names[team]; });
}

document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z") {
    if (e.target instanceof HTMLInputElement && e.target.type === "text") return; // text undo
    if ($("settings").open) return;
    e.preventDefault();
    undo();
  }
});

// Settings: rules and series; applying them starts a fresh scoreboard (undoable).
const settings = $("settings");
const form = $("settings-form");
$("rules-button").addEventListener("click", () => {
  for (const r of form.elements.namedItem("preset")) r.checked = r.value === view.rules.name;
  for (const r of form.elements.namedItem("series")) r.checked = r.value === String(view.series);
  settings.showModal();
});
$("settings-cancel").addEventListener("click", () => settings.close());
form.addEventListener("submit", (e) => {
  e.preventDefault();
  const data = new FormData(form);
  settings.close();
  if (dispatch({ type: "new", preset: String(data.get("preset")), series: Number(data.get("series")) })) {
    announce(t("marcador.announce.next", { n: 1 }));
  }
  $("rules-button").focus();
});

$("notice-close").addEventListener("click", () => {
  $("notice").hidden = true;
  $("rules-button").focus();
});

// Another tab with the marcador open saved a change: show it here too.
window.addEventListener("storage", (e) => {
  if (e.key !== KEY || e.newValue === null) return;
  const r = storage.read(KEY);
  const checked = r.ok ? M.validate(r.data, presets) : { ok: false };
  if (!checked.ok) return; // that tab reports its own trouble; keep ours
  state = checked.state;
  render();
});

$("memory").hidden = storage.persistent;
keepScreenOn((on) => { $("wake").hidden = !on; });

render();
save(); // a set-aside or fresh state is stored at once, so a reload finds it
app.dataset.ready = "true";

// For the tests: the live state (read-only use).
window.__marcador = { get state() { return state; }, get view() { return view; } };

// The page has started: boot_watch.js stands down (from here the page says what goes wrong).
document.documentElement.dataset.pageStarted = "";
