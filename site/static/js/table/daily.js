// O desafio do dia (issue 45): one 2 x 2 match a day against the difícil bots, whose deals
// come from the date, the same for every player. Loaded only when it is used
// (start_screen.js: its button, `?desafio=1`, or a device that has played one), so a first
// visit downloads none of it.
//
// - The day is the date in Brasília (UTC-3; Brazil has no summer time since 2019): a new
//   challenge starts at midnight there for everyone. The page sends the date to the engine
//   (`new_game {daily}`); the seed is made from it in the engine (py/truco/daily.py), the
//   one place that decides it.
// - One try a day counts: the first dealt. Finished, it counts as won or lost; left (Sair,
//   another match started over it) it counts as played and unfinished. A reload continues it
//   (it is the saved match). Every later try that day is "treino" (practice).
// - The streak is the days played in a row up to today (or up to yesterday, until today's is
//   played), kept in `truco:daily` with the first try of each day.
// - At the end, a result to share: the date, the score and a row of hand results (🟩 won,
//   🟥 lost, ⬜ no points), never a card.

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { KEYS } from "../shared/storage.js";
import { matchHands } from "./match_end.js";
import { DicaReview } from "./replay_dica.js";
import { ReplayView } from "./replay_view.js";
import { DEFAULT_SETTINGS } from "./saved_data.js";

const $ = (id) => document.getElementById(id);

/** Brasília's offset from UTC, in hours: the day of the challenge is the date there. */
export const OFFSET_HOURS = -3;
const HOUR = 3_600_000;
/** The challenge's table: every setting that changes the game (the player's own look, speed
 * and sound stay theirs). No Dica: the same help for everyone, none. */
export const DAILY_SETTINGS = Object.freeze({
  mode: "2x2", preset: "mineiro", level: "dificil", partner_level: "dificil", series: 1, timer: 0, ferro: "escuro",
  baralho_limpo: false, familia_real: false, humano_decide: true, sinais: true, hint: false, humans: "0", player_names: [],
});
export const ADDRESS_PARAM = "desafio";
const DAYS_KEPT = 400; // a record per day played: the oldest go past this
const SAVE_MAX_CHARS = 2_000_000;
const VERSION = 1; // truco:daily's envelope
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ROW = /^[WLT]{0,200}$/;
const MARK = { W: "🟩", L: "🟥", T: "⬜" };

/** The challenge's day ("YYYY-MM-DD", Brasília's date) at time `now` (ms). */
export function dayOf(now = Date.now()) {
  return new Date(now + OFFSET_HOURS * HOUR).toISOString().slice(0, 10);
}

/** When the challenge after `now`'s starts (ms): the next midnight in Brasília. */
export function nextStart(now = Date.now()) {
  const [y, m, d] = dayOf(now).split("-").map(Number);
  return Date.UTC(y, m - 1, d + 1) - OFFSET_HOURS * HOUR;
}

/** The day before `day`. */
function dayBefore(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

/** "03/12/2026" in the page's language (the date, not a moment: read in UTC). */
export function dateLabel(day) {
  const [y, m, d] = day.split("-").map(Number);
  const lang = document.documentElement.lang || "pt-BR";
  return new Intl.DateTimeFormat(lang, { timeZone: "UTC", day: "2-digit", month: "2-digit", year: "numeric" }).format(Date.UTC(y, m - 1, d));
}

/** Days played in a row up to `today` (or up to the day before, while today's is not played). */
export function streak(days, today) {
  let day = days[today] ? today : dayBefore(today);
  let n = 0;
  while (days[day]) {
    n += 1;
    day = dayBefore(day);
  }
  return n;
}

/** The match's hands as a row of results for seat `team`'s side: "WLT…". */
export function handRow(obs) {
  return matchHands(obs).map((h) => (h.winner === null || h.winner === undefined || !h.points ? "T" : h.winner === obs.team ? "W" : "L")).join("");
}

/** The text to share: the date, how it went, the hands as coloured squares, the streak. No card. */
export function shareText({ day, won, us, them, row, practice, streakDays, url }) {
  const result = t(won ? "daily.won" : "daily.lost", { us, them });
  const head = t("daily.share.line", { date: dateLabel(day), result }) + (practice ? ` ${t("daily.share.practice")}` : "");
  const lines = [head, [...row].map((c) => MARK[c]).join("")];
  if (!practice && streakDays > 1) lines.push(t("daily.share.streak", { n: streakDays }));
  if (url) lines.push(url);
  return lines.join("\n");
}

/** The challenge's address: the table at the site's root (the friend's own language), `?desafio=1`. */
function challengeURL() {
  const base = document.querySelector('link[rel="alternate"][hreflang="pt-BR"]')?.href || location.href;
  const url = new URL(base);
  url.pathname = url.pathname.replace(/index\.html$/, "");
  url.search = `?${ADDRESS_PARAM}=1`;
  url.hash = "";
  return url.href;
}

// ------------------------------------------------------------------ the record (truco:daily)
// {v: 1, data: {days: {"YYYY-MM-DD": {id, result: null | "won" | "lost", us, them, row}},
//   current: {id, day, practice} | null (the challenge's match in play), review: {day, save} |
//   null (the last counted try's save, kept for its review)}}. Checked whole on reading:
// anything else is set aside under truco:backup (never thrown away) and said once.

function emptyRecord() {
  return { days: {}, current: null, review: null };
}

const isId = (x) => typeof x === "string" && /^[\w-]{1,40}$/.test(x);
/** A real date "YYYY-MM-DD" from 1970 on (the pattern alone let "2026-02-31" through, shown as
 * 03/03/2026, and "0000-01-01", shown as 1900: found writing tests/build/test_daily_store.py). */
function isDay(x) {
  if (typeof x !== "string" || !DAY.test(x) || x < "1970") return false;
  const at = Date.parse(`${x}T00:00:00Z`);
  return Number.isFinite(at) && new Date(at).toISOString().slice(0, 10) === x;
}
const isScore = (x) => Number.isSafeInteger(x) && x >= 0 && x <= 99;

/** The record checked: a value, or throws saying what is wrong. */
export function checkRecord(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("not an object");
  const days = data.days;
  if (!days || typeof days !== "object" || Array.isArray(days)) throw new Error("days is not an object");
  const out = emptyRecord();
  for (const [day, rec] of Object.entries(days)) {
    if (!isDay(day)) throw new Error(`bad day ${day.slice(0, 20)}`);
    if (!rec || typeof rec !== "object" || !isId(rec.id)) throw new Error(`bad try on ${day}`);
    if (rec.result === null || rec.result === undefined) {
      out.days[day] = { id: rec.id, result: null };
    } else {
      if (!["won", "lost"].includes(rec.result) || !isScore(rec.us) || !isScore(rec.them) || typeof rec.row !== "string" || !ROW.test(rec.row)) {
        throw new Error(`bad result on ${day}`);
      }
      out.days[day] = { id: rec.id, result: rec.result, us: rec.us, them: rec.them, row: rec.row };
    }
  }
  const c = data.current;
  if (c !== null && c !== undefined) {
    if (typeof c !== "object" || !isId(c.id) || !isDay(c.day) || typeof c.practice !== "boolean") throw new Error("bad current");
    out.current = { id: c.id, day: c.day, practice: c.practice };
  }
  const r = data.review;
  if (r !== null && r !== undefined) {
    if (typeof r !== "object" || !isDay(r.day) || typeof r.save !== "string" || r.save.length > SAVE_MAX_CHARS) throw new Error("bad review");
    out.review = { day: r.day, save: r.save };
  }
  return out;
}

/**
 * The stored record (`storage`: a StorageManager), read whole or not at all: missing, an empty
 * one; of version 1 and passing `checkRecord`, that; anything else (not JSON, not an
 * envelope, a version this game does not know, a newer one included, or failing the check)
 * is set aside under truco:backup (never thrown away), `notify()` is called, and an empty
 * record is used: the streak starts again, the page plays on. Version 1 is the record's first
 * (issue 45): there is nothing older to migrate, so a version other than 1 is not one of ours.
 */
export function readRecord(storage, notify = () => {}) {
  const r = storage.readEnvelope(KEYS.daily);
  if (r.status === "missing") return emptyRecord();
  try {
    if (r.status === "bad") throw new Error(r.error);
    if (r.v > VERSION) throw new Error(`version ${r.v} is newer than this game knows (${VERSION})`);
    if (r.v !== VERSION) throw new Error(`unknown version ${r.v}`);
    return checkRecord(r.data);
  } catch (err) {
    const raw = r.raw ?? storage.getRaw(KEYS.daily);
    console.warn(`saved daily set aside: ${err.message}`);
    storage.setAside(KEYS.daily, raw, err.message);
    notify(err);
    return emptyRecord();
  }
}

export class DailyChallenge {
  /**
   * @param {object} o  {manager (GameManager), setup (MatchSetup), start (StartScreen), store
   *   (MatchStore), storage (StorageManager), dialogs (Dialogs)}
   */
  constructor({ manager, setup, start, store, storage, dialogs }) {
    Object.assign(this, { manager, setup, start, store, storage, dialogs });
    this.pending = null; // {day, practice}: the challenge asked for, until its deal
    this.ended = null; // the challenge's match just over: {day, practice, ...}, for its end dialog
    this.badge = null;
    this.onTable = false; // the table's settings are the challenge's (since its deal)
    manager.onApplied((applied) => this.applied(applied));
    $("daily-share").addEventListener("click", () => this.share());
    // An earlier day's counted try, step by step (the day is over: its deals are no secret).
    $("daily-review").addEventListener("click", () => {
      const review = this.read().review;
      // With the Dica's view of each of the player's decisions (replay_dica.js).
      if (review) ReplayView.current?.open(review.save, new DicaReview());
    });
    // "Treinar o desafio" at the end: today's challenge again (practice, unless a new day began).
    $("daily-again").addEventListener("click", () => {
      this.dialogs.close(this.dialogs.end);
      this.play();
    });
    // A challenge already on the table when this loaded (a reload of one): its badge.
    if (manager.observation && setup.record.id) this.applied({ kind: "resumed", obs: manager.observation, reply: { save: manager.lastSave } });
    this.showStatus();
    // The start screen's line is brought up to date each time it opens (a try since, a new day).
    const startDialog = $("start-dialog");
    // Left mid-challenge ("Sair da mesa"), the table still has the challenge's settings: the
    // start screen gets the player's own back.
    new MutationObserver(() => {
      if (!startDialog.open) return;
      if (this.onTable) this.ownSettingsBack();
      this.showStatus();
    }).observe(startDialog, { attributes: true, attributeFilter: ["open"] });
  }

  /** The record, checked; bad data set aside (with a copy to download) and said. */
  read() {
    return readRecord(this.storage, () => this.dialogs.notice(t("saved.bad.daily"), this.storage.backupURL()));
  }

  write(record) {
    const days = Object.keys(record.days).sort();
    for (const day of days.slice(0, Math.max(0, days.length - DAYS_KEPT))) delete record.days[day];
    this.storage.write(KEYS.daily, record);
  }

  /** "Jogar o desafio": today's challenge (its saved match continued if it is in play). */
  async play() {
    const day = dayOf(Date.now());
    const record = this.read();
    const saved = this.store.savedSession();
    if (saved && record.current?.id === saved.id && record.current.day === day) return this.start.continueSaved();
    if (saved) {
      // Given up for the challenge, as for "Começar": asked first.
      const go = await this.dialogs.confirm({
        title: t("start.confirm_new"), detail: t("start.confirm_new.detail"), yes: t("start.confirm_new.yes"), no: t("start.confirm_new.no"),
      });
      if (!go) return;
    }
    this.pending = { day, practice: Boolean(record.days[day]) };
    const settings = { ...DEFAULT_SETTINGS, ...this.manager.settings, ...DAILY_SETTINGS };
    return this.start.play(() => this.setup.newGame(settings, { daily: day }));
  }

  /** The page opened at `?desafio=1`: the address is cleaned (a reload continues the match), then the challenge. */
  fromAddress() {
    const url = new URL(location.href);
    url.searchParams.delete(ADDRESS_PARAM);
    history.replaceState(history.state, "", url);
    return this.play();
  }

  /** Each reply applied: a challenge's deal is recorded, its end filed. */
  applied({ kind, obs, reply }) {
    const id = this.setup.record.id;
    if (kind === "new" || kind === "resumed") {
      this.ended = null;
      $("end-daily").hidden = true;
      $("end-share").hidden = false;
      const record = this.read();
      if (kind === "new") {
        if (this.pending && id) {
          const { day, practice } = this.pending;
          record.current = { id, day, practice };
          if (!practice) record.days[day] = { id, result: null };
          this.write(record);
        } else if (record.current) {
          record.current = null; // another match: the challenge's (if unfinished) was given up
          this.write(record);
        }
        this.pending = null;
      }
      const current = record.current?.id === id ? record.current : null;
      this.onTable = Boolean(current);
      this.showBadge(current);
    }
    if (obs.winner !== null && obs.winner !== undefined && id) this.finished(obs, reply?.save ?? null, id);
  }

  /** The challenge's match is over: its result filed (the day's first try) and the end dialog's part filled. */
  finished(obs, save, id) {
    const record = this.read();
    const current = record.current;
    if (!current || current.id !== id) return;
    const won = obs.winner === obs.team;
    const us = obs.score[obs.team];
    const them = obs.score[1 - obs.team];
    const row = handRow(obs);
    const counted = !current.practice && record.days[current.day]?.id === id;
    if (counted) {
      record.days[current.day] = { id, result: won ? "won" : "lost", us, them, row };
      if (typeof save === "string" && save.length <= SAVE_MAX_CHARS) record.review = { day: current.day, save };
    }
    record.current = null;
    this.write(record);
    this.ended = { day: current.day, practice: !counted, won, us, them, row, streakDays: streak(record.days, dayOf(Date.now())) };
    this.ownSettingsBack();
    this.showBadge(null);
    this.showEnd();
    this.showStatus();
  }

  /** The player's own settings again for the start screen and the next match (the
   * challenge's were never stored as theirs: match_setup.js). */
  ownSettingsBack() {
    this.onTable = false;
    const own = { ...DEFAULT_SETTINGS, ...(this.store.storedSettings() ?? {}) };
    this.manager.updateSettings(own);
    if (this.dialogs.start.open) this.dialogs.fillForm(own);
  }

  /** On the table while a challenge is played: which day, and whether it is practice. */
  showBadge(current) {
    if (!this.badge) {
      this.badge = el("p", { class: "daily-badge", id: "daily-badge", hidden: "" });
      $("storage-note").before(this.badge);
    }
    this.badge.hidden = !current;
    if (current) this.badge.textContent = t(current.practice ? "daily.badge.practice" : "daily.badge", { date: dateLabel(current.day) });
    document.getElementById("app").dataset.daily = current ? (current.practice ? "practice" : "counted") : "";
  }

  /** The end dialog's part: counted or practice, the row of hands, the next challenge, "Compartilhar resultado". */
  showEnd() {
    const e = this.ended;
    const box = $("end-daily");
    box.hidden = false;
    // The match's link ("Compartilhar") would deal a friend today's cards before they try the
    // challenge: after one, only the result is shared.
    $("end-share").hidden = true;
    box.dataset.practice = String(e.practice);
    $("end-daily-title").textContent = t("daily.badge", { date: dateLabel(e.day) });
    $("end-daily-text").textContent = e.practice ? t("daily.end.practice") : `${t("daily.end.counted")} ${t("daily.streak", { n: e.streakDays })}`;
    const count = (c) => [...e.row].filter((x) => x === c).length;
    const row = $("end-daily-row");
    // Drawn as squares of the page's own colours (the shared text's emoji need an emoji font).
    row.replaceChildren(...[...e.row].map((c) => el("span", { class: `daily-mark ${c}`, "aria-hidden": "true" })));
    row.setAttribute("aria-label", t("daily.row", { won: count("W"), lost: count("L"), none: count("T") }));
    $("end-daily-next").textContent = nextText();
    $("daily-share-message").textContent = "";
    $("daily-share-text").hidden = true;
  }

  /** The start screen's line: the streak, today's result, and its button's words. */
  showStatus() {
    const status = $("daily-status");
    if (!status) return;
    const today = dayOf(Date.now());
    const record = this.read();
    const rec = record.days[today];
    const n = streak(record.days, today);
    // Today's challenge saved in play (a reload, "Voltar ao início"): the button continues it.
    const saved = this.store.savedSession();
    const inPlay = Boolean(saved) && record.current?.id === saved.id && record.current.day === today;
    const parts = [];
    const said = rec?.result ? t(rec.result === "won" ? "daily.won" : "daily.lost", { us: rec.us, them: rec.them }) : t(inPlay ? "daily.in_play" : "daily.unfinished");
    if (rec) parts.push(t("daily.today", { result: said }));
    if (n) parts.push(t("daily.streak", { n }));
    if (rec) parts.push(nextText());
    status.textContent = parts.join(" ");
    status.hidden = parts.length === 0;
    const review = record.review && record.review.day < today ? record.review : null;
    const reviewButton = $("daily-review");
    reviewButton.hidden = !review;
    if (review) reviewButton.textContent = t("daily.review", { date: dateLabel(review.day) });
    $("open-daily").textContent = t(inPlay ? "daily.continue" : rec ? "daily.practice_again" : "daily.play");
  }

  /** "Compartilhar resultado": the share sheet where there is one, else the clipboard, else the text to copy. */
  async share() {
    const e = this.ended;
    if (!e) return;
    const url = challengeURL();
    const text = shareText({ ...e, url });
    const field = $("daily-share-text");
    const message = $("daily-share-message");
    field.value = text;
    if (typeof navigator.share === "function") {
      const data = { title: t("daily.title"), text: shareText({ ...e, url: null }), url };
      try {
        if (!navigator.canShare || navigator.canShare(data)) {
          await navigator.share(data);
          return;
        }
      } catch (err) {
        if (err?.name === "AbortError") return; // the player closed the sheet
      }
    }
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      message.textContent = t("daily.share.copied");
      field.hidden = false;
    } catch {
      message.textContent = t("daily.share.by_hand");
      field.hidden = false;
      field.focus();
      field.select();
    }
  }
}

/** "O próximo desafio começa em 4 h 12 min (meia-noite de Brasília)." */
function nextText(now = Date.now()) {
  const left = Math.max(0, nextStart(now) - now);
  const minutes = Math.ceil(left / 60_000);
  return t("daily.next", { h: Math.floor(minutes / 60), m: minutes % 60 });
}
