// The engine's contract on the page: every method of `truco.api` and the parameter names it
// takes, in one place (the Python side declares the same in `truco.api.PARAMS`, and
// tests/build/test_engine_api_contract.py holds the two together; docs/engine.md describes
// each method).
//
// Use it instead of writing a method's name as a string:
//
//   import { engineApi, METHOD } from "../engine/engine_api.js";
//   const engine = engineApi(client);          // any object with call(method, params)
//   const reply = await engine.apply({ action: "play 4c" });
//   const { log } = await engine.history();    // params may be left out
//
// `engineApi` wraps a transport (the EngineClient, the table's per-seat client, the friends
// guest's client, anything with `call(method, params)`): each method checks its params'
// names against PARAMS and forwards to `client.call`. A name the method does not take (a
// typo, a param of another method) throws a TypeError on the page, where the engine would
// otherwise have ignored it. Values are not checked here: the engine refuses a bad value
// with a ValueError naming it.
//
// METHOD names each method as data (`METHOD.apply === "apply"`), for code that relays a call
// by name (the friends guest, the console hook); `checkParams(method, params)` is the check
// alone, for such relays.

// The game's own arguments of new_game (truco.new_game), then its options
// (truco.table.OPTION_NAMES), then what the table session adds (truco.api._new_game).
const NEW_GAME_PARAMS = [
  "preset", "players", "seed", "hands", "score", "dealer", "vira",
  "series", "ferro", "timer", "baralho_limpo", "familia_real", "humano_decide", "sinais",
  "human_seat", "humans", "seat", "apart", "level", "partner_level",
];

/**
 * Each method's parameter names (all optional unless the method says otherwise; see
 * docs/engine.md). `echo` returns its params unchanged, so it takes any: `null`.
 */
export const PARAMS = Object.freeze({
  version: Object.freeze([]),
  echo: null,
  new_game: Object.freeze(NEW_GAME_PARAMS),
  apply: Object.freeze(["action", "seat"]),
  bot_step: Object.freeze(["fallback", "seat"]),
  set_humans: Object.freeze(["humans"]),
  load: Object.freeze(["save", "seat"]),
  observation: Object.freeze(["seat"]),
  judge: Object.freeze(["plays", "preset", "vira"]),
  partner_opinion: Object.freeze(["seat"]),
  hint: Object.freeze(["seat"]),
  history: Object.freeze(["seat"]),
  replay: Object.freeze(["save", "seat"]),
  share: Object.freeze(["save"]),
  card_order: Object.freeze(["preset", "vira", "baralho_limpo"]),
});

/** Each method's name as data: `METHOD.bot_step === "bot_step"`. */
export const METHOD = Object.freeze(Object.fromEntries(Object.keys(PARAMS).map((name) => [name, name])));

/**
 * Throw a TypeError unless `method` is an engine method and `params` (an object, or
 * undefined/null for none) holds only parameter names it takes. Returns the params to send
 * (`{}` for none).
 */
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

/**
 * The engine's methods over `client` (anything with `call(method, params)`):
 * `{ version, echo, newGame, apply, botStep, setHumans, load, observation, judge,
 * partnerOpinion, hint, history, replay, share, cardOrder }`, each `(params) => client.call(...)`.
 * A parameter the method does not take throws a TypeError (synchronously, before any call).
 */
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
