// The table's address options. Settings (mode, level, partner_level, preset, series, timer,
// ferro, humano_decide=0|1, sinais=0|1...: any key of DEFAULT_SETTINGS), `seed` to fix the
// deals, a scenario for tests and shared situations (`hands=4c.7h.As-3c.2h.Kd`,
// `score=10,4`, `dealer=1`, `vira=Kd`), `autostart=1` to skip the start screen, and
// `fast=1` for no pauses between moves (tests), which also stops the table's motion unless
// `motion=1` is there too (motion.js; the motion tests). `desafio=1` opens o desafio do dia
// (daily.js). The player's name is never taken from an
// address (a link does not rename whoever opens it).

import { DEFAULT_SETTINGS } from "./saved_data.js";
import { isSharedURL } from "./share.js";

/** {settings, scenario, fast, motion, autostart, shared, daily} from the address's query. */
export function urlOptions(search = location.search) {
  const q = new URLSearchParams(search);
  const settings = {};
  for (const [key, dflt] of Object.entries(DEFAULT_SETTINGS)) {
    if (!q.has(key) || key === "player_name") continue;
    const v = q.get(key);
    settings[key] = typeof dflt === "number" ? Number(v) : typeof dflt === "boolean" ? v === "1" || v === "true" : v;
  }
  const scenario = {};
  if (q.has("seed")) {
    // A seed is a whole number the engine drew (< 2^53) or any text; a longer number stays
    // text, which the engine takes as it is (as a Number it would be Infinity: no seed at all).
    const seed = q.get("seed");
    scenario.seed = /^\d+$/.test(seed) && Number.isSafeInteger(Number(seed)) ? Number(seed) : seed;
  }
  if (q.has("hands")) scenario.hands = q.get("hands").split("-").map((h) => h.split("."));
  if (q.has("score")) scenario.score = q.get("score").split(",").map(Number);
  if (q.has("dealer")) scenario.dealer = Number(q.get("dealer"));
  if (q.has("vira")) scenario.vira = q.get("vira");
  return { settings, scenario, fast: q.get("fast") === "1", motion: q.get("motion") === "1", autostart: q.get("autostart") === "1", shared: isSharedURL(search), daily: q.get("desafio") === "1" };
}
