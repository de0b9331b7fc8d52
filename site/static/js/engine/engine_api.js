// The engine's contract on the page: each method of `truco.api` and the parameter names it
// takes (truco.api.PARAMS; tests/build/test_engine_api_contract.py holds the two equal;
// docs/engine.md describes each method). Call the engine through it, not by a name in a string:
//
//   const engine = engineApi(client); // any object with call(method, params)
//   const reply = await engine.apply({ action: "play 4c" });
//   const { log } = await engine.history(); // params may be left out
//
// A param the method does not take (a typo, another method's) throws a TypeError before
// anything is sent; values are the engine's to check. `METHOD.apply === "apply"` and
// `checkParams` are for code that relays calls by name (the friends guest, the console).

// null: any (echo returns its params). new_game: truco.new_game's arguments, its options
// (truco.table.OPTION_NAMES), then what the table session adds (truco.api._new_game).
export const PARAMS = Object.freeze({
  version: [],
  echo: null,
  new_game: [
    "preset", "players", "seed", "hands", "score", "dealer", "vira",
    "series", "ferro", "timer", "baralho_limpo", "familia_real", "humano_decide", "sinais",
    "human_seat", "humans", "seat", "apart", "level", "partner_level", "opening",
    "daily",
  ],
  apply: ["action", "seat"],
  bot_step: ["fallback", "seat"],
  set_humans: ["humans"],
  load: ["save", "seat", "humans"],
  observation: ["seat"],
  judge: ["plays", "preset", "vira"],
  partner_opinion: ["seat"],
  hint: ["seat"],
  history: ["seat", "reasons_for"],
  replay: ["save", "seat"],
  decisions: ["save", "seat"],
  achievements: ["save", "seat"],
  share: ["save"],
  card_order: ["preset", "vira", "baralho_limpo"],
});
Object.values(PARAMS).forEach((names) => names && Object.freeze(names));

/** Each method's name as data: `METHOD.bot_step === "bot_step"`. */
export const METHOD = Object.freeze(Object.fromEntries(Object.keys(PARAMS).map((name) => [name, name])));

/** The params to send (`{}` for none); a TypeError unless `method` takes each of their names. */
export function checkParams(method, params) {
  if (!Object.prototype.hasOwnProperty.call(PARAMS, method)) {
    throw new TypeError(`unknown engine method ${JSON.stringify(method)}: one of ${Object.keys(PARAMS).join(", ")}`);
  }
  if (params === undefined || params === null) return {};
  if (typeof params !== "object" || Array.isArray(params)) {
    throw new TypeError(`engine method ${method}: params must be an object`);
  }
  const allowed = PARAMS[method];
  if (allowed !== null) {
    const unknown = Object.keys(params).filter((name) => !allowed.includes(name));
    if (unknown.length) {
      throw new TypeError(
        `engine method ${method} takes no parameter ${unknown.map((n) => JSON.stringify(n)).join(", ")}` +
          ` (it takes ${allowed.length ? allowed.join(", ") : "none"})`,
      );
    }
  }
  return params;
}

// new_game -> newGame: the facade's methods read as JS.
const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** The methods over `client`, in camelCase (`newGame`, `botStep`…), each `(params) => client.call(...)`. */
export function engineApi(client) {
  if (!client || typeof client.call !== "function") {
    throw new TypeError("engineApi needs an object with call(method, params)");
  }
  const api = {};
  for (const method of Object.keys(PARAMS)) {
    api[camel(method)] = (params) => client.call(method, checkParams(method, params));
  }
  return Object.freeze(api);
}
