// The marcador's state, pure: no DOM, no storage. A state is {names, log}: the team names
// ("" = the default name) and the log of what was tapped. Everything shown (scores, games,
// series, mão de dez / de ferro) is derived by replaying the log, so undo is "drop the last
// entry" and works across games and series. Point values come from the engine's preset
// summaries that the build renders into the page; nothing here knows a number of its own.
//
// Log entries:
//   {t: "new", preset, series}      a fresh scoreboard with these rules (always first)
//   {t: "pts", team, kind, pts}     a hand scored; kind: hand | dez | dez_run | ferro
//   {t: "fix", team}                correction: the team loses the preset's starting value
//   {t: "next"}                     the next game (or the next series) after a game ended

export const SERIES = [1, 3, 5];
export const NAME_MAX = 24;
const LOG_LIMIT = 50_000;
const KINDS = ["hand", "dez", "dez_run", "ferro"];

/** name -> preset summary. */
export function presetIndex(list) {
  const index = new Map();
  for (const p of list) index.set(p.name, p);
  return index;
}

/** A fresh state: default names, one empty game with `preset` and `series`. */
export function initialState(presets, preset = null, series = 1) {
  const name = presets.has(preset) ? preset : presets.keys().next().value;
  return { names: ["", ""], log: [{ t: "new", preset: name, series: SERIES.includes(series) ? series : 1 }] };
}

function newGame() {
  return { scores: [0, 0], hands: [], winner: null };
}

/** Games needed to win a series of `n` (1 -> 1, 3 -> 2, 5 -> 3). */
export function needed(n) {
  return Math.floor(n / 2) + 1;
}

/** The phase of a game: over, ferro (both at X), dez (one at X), or normal. */
function phaseOf(game, rules) {
  const [a, b] = game.scores;
  const x = rules.mao_de_x;
  if (a >= rules.target || b >= rules.target) return { phase: "over", dezTeam: null };
  if (a === x && b === x) return { phase: "ferro", dezTeam: null };
  if (a === x) return { phase: "dez", dezTeam: 0 };
  if (b === x) return { phase: "dez", dezTeam: 1 };
  return { phase: "normal", dezTeam: null };
}

/**
 * The outcomes a team can be given now: [{kind, pts, call}], from the preset.
 * normal: the hand's start value and every step of the raise ladder (a run scores the
 * previous value, which is one of these); mão de dez: the hand is worth mao_de_x_value,
 * and the other side scores mao_de_x_run_gives when the side at X runs; mão de ferro:
 * worth ferro_value; over: nothing.
 */
export function offered(rules, phase, dezTeam, team) {
  switch (phase) {
    case "normal":
      return [{ kind: "hand", pts: rules.start_value, call: null },
        ...rules.ladder.map((s) => ({ kind: "hand", pts: s.value, call: s.name }))];
    case "dez": {
      const won = { kind: "dez", pts: rules.mao_de_x_value, call: null };
      return team === dezTeam ? [won] : [won, { kind: "dez_run", pts: rules.mao_de_x_run_gives, call: null }];
    }
    case "ferro":
      return [{ kind: "ferro", pts: rules.ferro_value ?? rules.start_value, call: null }];
    default:
      return [];
  }
}

class Invalid extends Error {}

function isTeam(v) {
  return v === 0 || v === 1;
}

/** Apply one log entry to the session being replayed (mutates `s`); throws Invalid. */
function apply(s, ev, presets) {
  if (!ev || typeof ev !== "object") throw new Invalid("entry is not an object");
  if (ev.t === "new") {
    if (!presets.has(ev.preset)) throw new Invalid(`unknown preset ${ev.preset}`);
    if (!SERIES.includes(ev.series)) throw new Invalid(`bad series ${ev.series}`);
    s.rules = presets.get(ev.preset);
    s.series = ev.series;
    s.sets = [[newGame()]];
    return;
  }
  if (!s.rules) throw new Invalid("the log must start with a new scoreboard");
  const set = s.sets.at(-1);
  const game = set.at(-1);
  const { phase, dezTeam } = phaseOf(game, s.rules);
  if (ev.t === "pts") {
    if (!isTeam(ev.team) || !KINDS.includes(ev.kind) || !Number.isInteger(ev.pts)) {
      throw new Invalid("bad score entry");
    }
    const offer = offered(s.rules, phase, dezTeam, ev.team);
    const match = offer.find((o) => o.kind === ev.kind && o.pts === ev.pts);
    if (!match) throw new Invalid(`+${ev.pts} (${ev.kind}) is not on offer in a ${phase} hand`);
    game.scores[ev.team] += ev.pts;
    game.hands.push({ team: ev.team, kind: ev.kind, pts: ev.pts, call: match.call,
      phase, scores: [...game.scores] });
  } else if (ev.t === "fix") {
    if (!isTeam(ev.team)) throw new Invalid("bad correction entry");
    const pts = Math.min(s.rules.start_value, game.scores[ev.team]);
    if (pts <= 0) throw new Invalid("nothing to correct");
    game.scores[ev.team] -= pts;
    game.hands.push({ team: ev.team, kind: "fix", pts: -pts, call: null, phase, scores: [...game.scores] });
  } else if (ev.t === "next") {
    if (phase !== "over") throw new Invalid("the game is not over");
    const wins = winsOf(set, s.rules);
    if (Math.max(...wins) >= needed(s.series)) s.sets.push([newGame()]);
    else set.push(newGame());
  } else {
    throw new Invalid(`unknown entry ${ev.t}`);
  }
  // A game's winner follows its score (a correction can reopen it).
  game.winner = game.scores[0] >= s.rules.target ? 0 : game.scores[1] >= s.rules.target ? 1 : null;
}

function winsOf(set, rules) {
  const wins = [0, 0];
  for (const g of set) {
    if (g.scores[0] >= rules.target) wins[0] += 1;
    else if (g.scores[1] >= rules.target) wins[1] += 1;
  }
  return wins;
}

function replay(log, presets) {
  const s = { rules: null, series: 1, sets: [] };
  // A later "new" starts over: the scoreboard before it stays in the log only for undo.
  for (const ev of log) apply(s, ev, presets);
  return s;
}

/**
 * Everything the page shows, derived from the state:
 * {rules, series, need, names, game, gameNo, games (this series), wins (games won in this
 *  series), gameWinner, seriesWinner, seriesNo, tally (series won in this session, or games
 *  won when a series is one game), phase, dezTeam, offers: [team0, team1], canFix, canUndo,
 *  last (the log entry undo removes)}
 */
export function derive(state, presets) {
  const s = replay(state.log, presets);
  const rules = s.rules;
  const set = s.sets.at(-1);
  const game = set.at(-1);
  const need = needed(s.series);
  const wins = winsOf(set, rules);
  const tally = [0, 0];
  for (const past of s.sets) {
    const w = winsOf(past, rules);
    if (w[0] >= need) tally[0] += 1;
    else if (w[1] >= need) tally[1] += 1;
  }
  const { phase, dezTeam } = phaseOf(game, rules);
  const seriesWinner = wins[0] >= need ? 0 : wins[1] >= need ? 1 : null;
  return {
    rules,
    series: s.series,
    need,
    names: state.names,
    game,
    gameNo: set.length,
    games: set,
    wins,
    gameWinner: game.winner,
    seriesWinner,
    seriesNo: s.sets.length,
    tally,
    phase,
    dezTeam,
    offers: [0, 1].map((team) => offered(rules, phase, dezTeam, team)),
    canFix: [0, 1].map((team) => game.scores[team] > 0),
    fixValue: rules.start_value,
    canUndo: state.log.length > 1,
    last: state.log.length > 1 ? state.log.at(-1) : null,
  };
}

function withLog(state, log) {
  return { names: state.names, log };
}

/**
 * state + action -> new state (the same object when the action is not allowed now).
 * Actions: {type: "score", team, kind, pts} | {type: "fix", team} | {type: "next"} |
 * {type: "new", preset, series} | {type: "undo"} | {type: "rename", team, name}.
 */
export function reduce(state, action, presets) {
  switch (action && action.type) {
    case "score":
    case "fix":
    case "next": {
      const ev = action.type === "score"
        ? { t: "pts", team: action.team, kind: action.kind, pts: action.pts }
        : action.type === "fix" ? { t: "fix", team: action.team } : { t: "next" };
      try {
        apply(replay(state.log, presets), ev, presets);
      } catch (e) {
        if (e instanceof Invalid) return state;
        throw e;
      }
      return withLog(state, [...state.log, ev]);
    }
    case "new": {
      if (!presets.has(action.preset) || !SERIES.includes(action.series)) return state;
      // Keep the current scoreboard (from its "new") so that undo can bring it back.
      let start = 0;
      state.log.forEach((ev, i) => { if (ev.t === "new") start = i; });
      return withLog(state, [...state.log.slice(start), { t: "new", preset: action.preset, series: action.series }]);
    }
    case "undo":
      return state.log.length > 1 ? withLog(state, state.log.slice(0, -1)) : state;
    case "rename": {
      if (!isTeam(action.team) || typeof action.name !== "string") return state;
      const name = cleanName(action.name);
      if (name === state.names[action.team]) return state;
      const names = [...state.names];
      names[action.team] = name;
      return { names, log: state.log };
    }
    default:
      return state;
  }
}

/** A team name as stored: trimmed, inner runs of spaces collapsed, at most NAME_MAX chars. */
export function cleanName(text) {
  return Array.from(text.replace(/\s+/g, " ").trim()).slice(0, NAME_MAX).join("");
}

/**
 * Check data read from storage: {ok: true, state} (a clean copy) or {ok: false, error}.
 * The log is replayed, so a save that could not have been tapped is refused as a whole.
 */
export function validate(data, presets) {
  try {
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new Invalid("not an object");
    const { names, log } = data;
    if (!Array.isArray(names) || names.length !== 2
        || !names.every((n) => typeof n === "string" && n === cleanName(n))) {
      throw new Invalid("bad team names");
    }
    if (!Array.isArray(log) || log.length === 0 || log.length > LOG_LIMIT) throw new Invalid("bad log");
    const clean = log.map((ev) => {
      if (!ev || typeof ev !== "object") throw new Invalid("entry is not an object");
      switch (ev.t) {
        case "new": return { t: "new", preset: ev.preset, series: ev.series };
        case "pts": return { t: "pts", team: ev.team, kind: ev.kind, pts: ev.pts };
        case "fix": return { t: "fix", team: ev.team };
        case "next": return { t: "next" };
        default: throw new Invalid(`unknown entry ${ev.t}`);
      }
    });
    if (clean[0].t !== "new") throw new Invalid("the log must start with a new scoreboard");
    replay(clean, presets);
    return { ok: true, state: { names: [...names], log: clean } };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    throw e;
  }
}
