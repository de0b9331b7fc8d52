// For the console and the tests: window.__engine (the engine's client) and window.__truco
// (what the human sees at the table, and a way to start a scenario without reloading
// Pyodide). Their shapes are what the browser tests use: keep them.

/** window.__engine.call("echo", {...}), and the client's state, version, timings and start. */
export function installEngineHook(client) {
  window.__engine = Object.freeze({
    call: (method, params) => client.call(method, params),
    get state() {
      return client.state;
    },
    get version() {
      return client.version;
    },
    get timings() {
      return client.timings;
    },
    /** "snapshot" or "wheel": how the worker started Python. */
    get start() {
      return client.startedFrom;
    },
  });
}

/**
 * window.__truco: the observation, busy, this tab's id, the pauses, each seat's driver, the
 * sounds asked for and the vibrations (sound.js: {requested, buzzed}), and start(settings,
 * scenario).
 */
export function installTableHook({ manager, setup, dialogs, tabs, sound = null }) {
  window.__truco = Object.freeze({
    get observation() {
      return manager.observation;
    },
    get busy() {
      return manager.busy;
    },
    get tab() {
      return tabs.id;
    },
    get pauses() {
      return manager.pauses;
    },
    /** Each seat's driver (seat_drivers.js) by its kind: "LocalPlayer", "PersonAtDevice", "FriendSeat", "BotDriver". */
    get drivers() {
      const seats = manager.seats;
      return seats ? Array.from({ length: seats.players }, (_, s) => seats.driver(s).constructor.name) : [];
    },
    get sounds() {
      return { requested: [...(sound?.requested ?? [])], buzzed: [...(sound?.buzzed ?? [])] };
    },
    /** A new match; settings naming `auto_next` choose the pace even under `?fast=1`. */
    start(settings = {}, scenario = {}) {
      dialogs.hideStart();
      return setup.startScenario(settings, scenario);
    },
  });
}
