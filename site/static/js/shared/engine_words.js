// What an engine error means, in the page's own words (issue 42: "Não deu para rever a
// partida: the save is not JSON…" put the engine's English into a Portuguese page). The
// engine's message is for the console and the backups; a player reads why in their
// language: the engine was not there, took too long, was restarted, refused a save, a
// link or a move, or failed. The kinds come from the worker protocol (docs/engine.md):
// the error's class (`errorType`) and whether it is bad input (`valueError`).

import { t } from "./i18n.js";

// Methods whose bad input is a save the page stored.
const SAVE_METHODS = new Set(["load", "replay", "share", "history"]);

/** `err` (an EngineError, or any error) said in the page's language; its text goes to the console. */
export function engineWords(err) {
  const type = err?.errorType ?? "";
  if (err?.message) console.info(`engine: ${type || "error"}: ${String(err.message).slice(0, 300)}`);
  // A friends' guest runs no engine: the host refused (its reason, friends/protocol.js) or
  // did not answer in time (the host's device or the link is slow).
  if (type === "HostRefused") return t(`join.refused.${err.refusal ?? "other"}`);
  if (type === "HostTimeout") return t("join.why.slow");
  if (type === "Timeout") return t("engine.why.timeout");
  if (type === "LoadError" || type === "NotRunning") return t("engine.why.load");
  if (type === "Terminated") return t("engine.why.restarted");
  if (/older version/.test(err?.message ?? "")) return t("replay.too_old");
  if (type === "IllegalAction") return t("engine.why.illegal");
  if (err?.valueError && SAVE_METHODS.has(err.method)) return t("engine.why.save");
  if (err?.valueError) return t("engine.why.input");
  return t("engine.why.internal");
}
