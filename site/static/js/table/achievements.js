// Achievements (issue 45), the page's part: at each match's end the engine says which were
// earned (`achievements`, from what the player's seat saw: truco.achievements), the daily
// challenge's record adds its two (achievements_data.js), each is kept with its date in
// `truco:achievements`, told in the end dialog and listed on the statistics page.
//
// Loaded when first needed (a match's end, the statistics opened: main.js), so a first visit
// downloads none of it, nor its stylesheet.

import { engineApi } from "../engine/engine_api.js";
import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { KEYS, PREFIX } from "../shared/storage.js";
import { IDS, addDaily, addMatch, checkAchievements, dailyFound, emptyAchievements, localDay } from "./achievements_data.js";
import { checkRecord as checkDaily, dateLabel } from "./daily.js";

export const KEY = `${PREFIX}achievements`;
const $ = (id) => document.getElementById(id);
let cssLoaded = false;

function loadCss() {
  if (cssLoaded) return;
  cssLoaded = true;
  const href = new URL("../../css/achievements.css", import.meta.url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return; // replay_dica.js's
  document.head.append(el("link", { rel: "stylesheet", href }));
}

export class Achievements {
  /** @param {object} o  {client (the engine), storage (StorageManager), dialogs (Dialogs)} */
  constructor({ client, storage, dialogs }) {
    this.engine = engineApi(client);
    this.storage = storage;
    this.dialogs = dialogs;
    this.box = null; // the end dialog's part
    loadCss();
  }

  /** The stored record, checked; bad data set aside (with a copy to download) and said. */
  read() {
    const r = this.storage.readEnvelope(KEY);
    if (r.status === "missing") return emptyAchievements();
    try {
      if (r.status === "bad") throw new Error(r.error);
      if (r.v !== 1) throw new Error(`unknown version ${r.v}`);
      return checkAchievements(r.data);
    } catch (err) {
      const raw = r.raw ?? this.storage.getRaw(KEY);
      console.warn(`saved achievements set aside: ${err.message}`);
      this.storage.setAside(KEY, raw, err.message);
      this.dialogs.notice(t("saved.bad.achievements"), this.storage.backupURL());
      return emptyAchievements();
    }
  }

  /** The daily challenge's days (its counted tries), or none while its record is unreadable
   * (daily.js sets that one aside when it reads it). */
  dailyDays() {
    const r = this.storage.readEnvelope(KEYS.daily);
    if (r.status !== "ok" || r.v !== 1) return {};
    try {
      return checkDaily(r.data).days;
    } catch {
      return {};
    }
  }

  /** The daily record's achievements brought in (a try won, seven days in a row). */
  withDaily(record) {
    return addDaily(record, dailyFound(this.dailyDays()));
  }

  /** A match is over (`save`, its id): what it earned, kept and told in the end dialog. */
  async matchOver({ save, id }) {
    this.showGot([]);
    const { earned } = await this.engine.achievements({ save });
    const before = this.read();
    const match = addMatch(before, earned.map((a) => a.id), localDay(), id);
    const daily = this.withDaily(match.record);
    const got = [...match.got, ...daily.got];
    if (got.length) this.storage.write(KEY, daily.record);
    this.showGot(got);
    return got;
  }

  /** The end dialog's part: each achievement this match earned, new or once more. */
  showGot(got) {
    const end = $("end-dialog");
    if (!end) return;
    if (!this.box) {
      // A live region from the start, so what is added to it is announced.
      this.box = el("section", { class: "end-achievements", id: "end-achievements", role: "status", "aria-labelledby": "end-achievements-title", hidden: true },
        el("h3", { id: "end-achievements-title" }), el("ul", { class: "achievement-list" }));
      end.querySelector(".end-review")?.before(this.box);
    }
    this.box.hidden = got.length === 0;
    this.box.querySelector("h3").textContent = t(got.some((g) => g.first) ? "achievements.toast.new" : "achievements.toast.again", { n: got.length });
    this.box.querySelector("ul").replaceChildren(...got.map((g) => el("li", { class: "achievement earned", data: { id: g.id } },
      el("span", { class: "medal", "aria-hidden": "true" }, "★"),
      el("span", { class: "achievement-text" },
        el("strong", {}, t(`achievement.${g.id}.name`)), " ",
        el("span", {}, t(`achievement.${g.id}.desc`)), " ",
        el("span", { class: "when" }, g.first ? t("achievements.first") : t("achievements.times", { n: g.count }))))));
  }

  /** The statistics page's list: every achievement, with the day it was first earned. */
  list() {
    const dialog = $("stats-dialog");
    if (!dialog) return;
    const stored = this.read();
    const { record, got } = this.withDaily(stored); // a challenge played since the last match's end
    if (got.length) this.storage.write(KEY, record);
    let section = $("stats-achievements");
    if (!section) {
      section = el("section", { class: "stats-achievements", id: "stats-achievements", "aria-labelledby": "stats-achievements-title" },
        el("h3", { id: "stats-achievements-title" }, t("achievements.title")),
        el("p", { class: "achievements-count" }), el("ul", { class: "achievement-list" }));
      dialog.querySelector(".data-tools")?.before(section);
      // "Zerar estatísticas" clears the stored record, an import replaces it: drawn again.
      dialog.addEventListener("stats-changed", () => this.list());
    }
    const earned = IDS.filter((id) => record.earned[id]);
    section.querySelector(".achievements-count").textContent = earned.length ? t("achievements.count", { n: earned.length, total: IDS.length }) : t("achievements.none");
    section.querySelector("ul").replaceChildren(...IDS.map((id) => {
      const e = record.earned[id];
      const when = e ? `${t("achievements.earned_on", { date: dateLabel(e.date) })}${e.count > 1 ? ` · ${t("achievements.times", { n: e.count })}` : ""}` : t("achievements.locked");
      return el("li", { class: `achievement ${e ? "earned" : "locked"}`, data: { id } },
        el("span", { class: "medal", "aria-hidden": "true" }, e ? "★" : "☆"),
        el("span", { class: "achievement-text" },
          el("strong", {}, t(`achievement.${id}.name`)), " ",
          el("span", {}, t(`achievement.${id}.desc`)), " ",
          el("span", { class: "when" }, when)));
    }));
  }
}
