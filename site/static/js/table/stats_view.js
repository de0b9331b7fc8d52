// The statistics dialog: counts per mode and level, two small SVG charts, and the
// player's data; with pass-and-play (issue #31) a chooser of whose figures are shown (this
// device's player, or another person who played here, by name): export to a file, import from one (checked first, the game state by the
// engine), and a reset of the statistics that asks first.

import { engineApi } from "../engine/engine_api.js";
import { t } from "../shared/i18n.js";
import { KEYS, PREFIX, StorageManager } from "../shared/storage.js";
import { VERSION, exportText, parseImport } from "./saved_data.js";
import { emptyStats, recentFor, summary } from "./stats.js";
import { cleanName } from "./seats.js";
import { scoreChart, winRateChart } from "./stats_charts.js";

const $ = (id) => document.getElementById(id);
// The rating and the history of matches (issue 45): drawn by a module loaded when the dialog
// first opens, named by a constant (a literal import() would count in the first visit).
const RATING_VIEW = "./rating_view.js";

export class StatsView {
  /**
   * @param {object} o  {store (MatchStore: the saved data, and the engine that checks an
   *   imported game), dialogs (Dialogs), restoreEngine() (puts this tab's game back into the
   *   engine after a check), onImported(what)}
   */
  constructor({ store, dialogs, restoreEngine, onImported }) {
    this.store = store;
    this.restoreEngine = restoreEngine;
    this.dialogs = dialogs;
    this.onImported = onImported;
    this.dialog = $("stats-dialog");
    this.filter = $("stats-filter");
    this.player = $("stats-player"); // "" = this device's player, else a personKey
    this.playerRow = $("stats-player-row");
    this.body = $("stats-body");
    this.message = $("data-message");
    this.busy = false;
    this.filter.addEventListener("change", () => this.render());
    this.player.addEventListener("change", () => this.render());
    $("stats-close").addEventListener("click", () => this.dialog.close());
    $("export-data").addEventListener("click", () => this.exportData());
    $("import-file").addEventListener("change", (e) => this.importFile(e.target));
    $("reset-stats").addEventListener("click", () => this.reset());
  }

  open() {
    this.say("");
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
    (this.playerRow.hidden ? this.filter : this.player).focus();
  }

  stats() {
    const { value, bad } = this.store.loadChecked("stats");
    if (bad) this.say(t("saved.bad.stats"), "bad");
    return value ?? emptyStats();
  }

  /** The chooser's options: this device's player first, then the others by name. */
  fillPlayers(stats) {
    const chosen = this.player.value;
    const own = cleanName(this.store.storedSettings()?.player_name ?? "");
    const people = Object.entries(stats.people ?? {}).sort(([, a], [, b]) => a.name.localeCompare(b.name));
    const option = (value, text) => {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = text;
      return o;
    };
    this.player.replaceChildren(
      option("", own ? t("stats.player.own", { name: own }) : t("stats.player.you")),
      ...people.map(([key, p]) => option(key, p.name)),
    );
    this.player.value = people.some(([key]) => key === chosen) ? chosen : "";
    this.playerRow.hidden = people.length === 0;
  }

  render() {
    const all = this.stats();
    this.fillPlayers(all);
    const stats = this.player.value ? all.people[this.player.value] : all;
    const filter = this.filter.value || "all";
    const b = summary(stats, filter);
    const recent = recentFor(stats, filter).slice(-30);
    const frag = document.createDocumentFragment();
    const played = b.games.won + b.games.lost;
    const head = document.createElement("p");
    head.className = "stats-headline";
    head.dataset.testid = "stats-headline";
    head.textContent = played ? t("stats.pct", { pct: Math.round((100 * b.games.won) / played), won: b.games.won, n: played }) : t("stats.empty");
    frag.append(head);

    const rows = [
      ["games", [b.games.won, b.games.lost]],
      ["series", [b.series.won, b.series.lost]],
      ["hands", [b.hands.won, b.hands.played]],
      ["trucos", [b.trucos.asked]],
      ["trucos_answer", [b.trucos.accepted, b.trucos.ran, b.trucos.raised]],
      ["trucos_end", [b.trucos.won, b.trucos.lost]],
      ["faced", [b.faced.accepted, b.faced.ran, b.faced.raised]],
      ["runs", [b.runs]],
      ["dez", [b.dez.played, b.dez.won, b.dez.ran]],
      ["ferro", [b.ferro.played, b.ferro.won]],
      ["points", [b.points.for, b.points.against]],
      ["abandoned", [b.abandoned]],
    ];
    const table = document.createElement("table");
    table.className = "stats-table";
    const tbody = document.createElement("tbody");
    for (const [key, values] of rows) {
      const tr = document.createElement("tr");
      tr.dataset.row = key;
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = t(`stats.row.${key}`);
      const td = document.createElement("td");
      td.textContent = values.join(" / ");
      tr.append(th, td);
      tbody.append(tr);
    }
    table.append(tbody);

    const charts = document.createElement("div");
    charts.className = "charts";
    const ratingFigure = document.createElement("figure");
    ratingFigure.className = "rating-figure";
    ratingFigure.dataset.testid = "rating";
    charts.append(ratingFigure);
    const fig = (svg, caption) => {
      const f = document.createElement("figure");
      const c = document.createElement("figcaption");
      c.textContent = caption;
      f.append(c, svg);
      return f;
    };
    charts.append(fig(winRateChart(recent, {
      title: t("stats.winrate"), empty: t("stats.winrate.empty"), won: t("stats.won"), lost: t("stats.lost"),
    }), t("stats.winrate")));
    const last = stats.last && recentFor({ recent: [stats.last] }, filter).length ? stats.last : null;
    charts.append(fig(scoreChart(last, {
      title: t("stats.last"), empty: t("stats.last.empty"), us: t("team.us"), them: t("team.them"),
    }), t("stats.last")));
    const history = document.createElement("section");
    history.className = "match-history";
    frag.append(charts, table);
    if (!this.playerRow.hidden) frag.append(this.peopleTable(all, filter));
    frag.append(history);
    const note = document.createElement("p");
    note.className = "stats-note";
    note.textContent = t("stats.note");
    if (!this.playerRow.hidden) note.textContent += ` ${t("stats.note.people")}`;
    frag.append(note);
    this.body.replaceChildren(frag);
    this.ratingView ??= import(RATING_VIEW);
    const who = this.player.value;
    this.ratingView.then((m) => m.renderRating({ store: this.store, figure: ratingFigure, section: history, who, filter })).catch((err) => {
      this.ratingView = null;
      console.warn(`the rating could not be drawn: ${err?.message ?? err}`);
    });
  }

  /** One row per person who played here (this device's player first): games won / lost
   * with the filter as chosen; the row shown above is marked. */
  peopleTable(all, filter) {
    const table = document.createElement("table");
    table.className = "stats-table stats-people";
    table.dataset.testid = "stats-people";
    const caption = document.createElement("caption");
    caption.textContent = t("stats.people");
    const head = document.createElement("tr");
    for (const key of ["stats.player", "stats.row.games"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = t(key);
      head.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    const tbody = document.createElement("tbody");
    for (const option of this.player.options) {
      const record = option.value ? all.people[option.value] : all;
      const b = summary(record, filter);
      const tr = document.createElement("tr");
      if (option.selected) tr.dataset.chosen = "true";
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = option.textContent;
      const td = document.createElement("td");
      td.textContent = `${b.games.won} / ${b.games.lost}`;
      tr.append(th, td);
      tbody.append(tr);
    }
    table.append(caption, thead, tbody);
    return table;
  }

  say(text, tone = "") {
    this.message.textContent = text;
    this.message.dataset.tone = tone;
  }

  async reset() {
    const yes = await this.dialogs.confirm({
      title: t("stats.reset.confirm"), detail: t("stats.reset.detail"), yes: t("stats.reset.yes"),
    });
    if (!yes) return;
    this.store.storage.remove(KEYS.stats);
    // The rating, the history of matches (match_log.js's keys) and the achievements
    // (achievements.js's) go with them, as the question says. The daily challenge's record
    // (truco:daily) stays: its days played are its streak and today's counted try, and the
    // challenge's two achievements are made again from it (achievements.js, silently).
    for (const key of [`${PREFIX}rating`, `${PREFIX}history`, `${PREFIX}achievements`]) this.store.storage.remove(key);
    this.render();
    this.dialog.dispatchEvent(new Event("stats-changed")); // the achievements' list, drawn by achievements.js
    this.say(t("stats.reset.done"), "good");
  }

  exportData() {
    const text = exportText(this.store.storage);
    const day = new Date().toISOString().slice(0, 10);
    const file = `truco-mineiro-dados-${day}.json`;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    a.download = file;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
    this.say(t("data.exported", { file }), "good");
  }

  async importFile(input) {
    const file = input.files?.[0];
    input.value = ""; // the same file may be chosen again
    if (!file || this.busy) return;
    this.busy = true;
    try {
      let text;
      try {
        text = await file.text();
      } catch {
        this.say(t("data.error.read"), "bad");
        return;
      }
      await this.importText(text);
    } finally {
      this.busy = false;
    }
  }

  /** Check an export file's text, ask, and replace this browser's data with it. */
  async importText(text) {
    const r = parseImport(text, { presets: this.store.presets });
    if (!r.ok) {
      this.say(t(`data.error.${r.reason}`, { detail: r.detail ?? "" }), "bad");
      return false;
    }
    if (r.session) {
      let ok = true;
      if (this.store.client.ready === false) this.say(t("engine.loading")); // the check waits for it
      try {
        await engineApi(this.store.client).load({ save: r.session.save }); // the engine checks the game
      } catch {
        ok = false;
      }
      await this.restoreEngine().catch(() => {}); // a game open here goes on with its own state
      if (!ok) {
        this.say(t("data.error.game"), "bad");
        return false;
      }
    }
    const what = describe(r.entries);
    const yes = await this.dialogs.confirm({
      title: t("data.import.confirm"), detail: t("data.import.detail", { what }), yes: t("data.import.yes"),
    });
    if (!yes) return false;
    const storage = this.store.storage;
    // What was here is kept aside first: an import never loses anything.
    const current = storage.keys().filter((k) => k !== KEYS.backup);
    if (current.length) {
      const raw = exportText({ keys: () => current, getRaw: (k) => storage.getRaw(k) });
      storage.addBackupItems([{ from: "import", reason: `data before an import (v${VERSION})`, at: Date.now(), raw }]);
    }
    for (const key of current) if (!(key in r.entries)) storage.remove(key);
    for (const [key, raw] of Object.entries(r.entries)) {
      if (key === KEYS.backup) continue; // merged below: it must not replace this one
      storage.setRaw(key, raw);
    }
    if (KEYS.backup in r.entries) {
      storage.addBackupItems(new StorageView(KEYS.backup, r.entries[KEYS.backup]).backupItems());
    }
    this.render();
    this.dialog.dispatchEvent(new Event("stats-changed"));
    this.say(t("data.imported", { what }), "good");
    await this.onImported?.();
    return true;
  }
}

/** A read-only storage holding one raw value, to read an imported backup's items. */
class StorageView extends StorageManager {
  constructor(key, raw) {
    super();
    this.store = null;
    this.memory = new Map([[key, raw]]);
  }
}

function describe(entries) {
  const parts = [];
  if (KEYS.session in entries) parts.push(t("data.what.session"));
  if (KEYS.settings in entries) parts.push(t("data.what.settings"));
  if (KEYS.stats in entries) parts.push(t("data.what.stats"));
  if (Object.keys(entries).some((k) => !Object.values(KEYS).includes(k))) parts.push(t("data.what.other"));
  return parts.length ? parts.join(", ") : t("data.what.none");
}
