// Putting a match on the table and taking it off: a new match (the start screen's settings,
// an address's scenario), a saved one resumed, the match put back when the engine got
// stuck, "Sair da mesa", another tab taking the match over. Each seats the table
// (GameManager.seatUp: who sits where and their drivers), asks the engine, and hands the
// first reply to the game manager (GameManager.deal), which runs the table from there.

import { t } from "../shared/i18n.js";
import { newGameParams } from "./match_params.js";
import { openingFor, sameData } from "./openings.js";
import { DEFAULT_SETTINGS } from "./saved_data.js";

export class MatchSetup {
  /**
   * @param {object} o  {table (GameManager), record (MatchRecord), dialogs (Dialogs), scenario
   *   (the address's seed, deal...), engineReady() (false while the engine loads: a new match
   *   with the defaults is then dealt from the page's openings, openings.js)}
   */
  constructor({ table, record, dialogs, scenario = {}, engineReady = () => true }) {
    Object.assign(this, { table, record, dialogs, scenario, engineReady });
  }

  get engine() {
    return this.table.engine;
  }

  /** Back to the start screen, with the settings as they are. */
  toStart() {
    this.table.setPhase("start");
    this.dialogs.showStart(null, this.table.settings);
  }

  /** A new match; `scenario` (seed, fixed deal…) defaults to the page's (its address). */
  async newGame(settings, scenario = this.scenario) {
    const table = this.table;
    const last = { id: this.record.id, obs: table.observation }; // given up for this one (the start screen asked first)
    table.seatUp({ ...DEFAULT_SETTINGS, ...settings });
    // The desafio do dia's table (daily.js) is the challenge's, not the player's choice to keep.
    if (!scenario?.daily) this.record.chose(table.settings);
    this.dialogs.closeAll();
    table.screen.clear();
    const params = { ...newGameParams(table.settings, scenario), ...table.viewParams() };
    const fromAddress = Object.keys(scenario ?? {}).length > 0;
    const opening = this.engineReady() || fromAddress ? null : openingFor(params);
    if (opening) return this.dealOpening(params, opening, last);
    let reply;
    try {
      reply = await this.engine.newGame(params);
    } catch (err) {
      if (fromAddress && err.valueError) {
        // The address described no possible match (a card twice or that does not exist, a
        // score the rules cannot reach…): the link is at fault, not the engine; the next
        // "Começar" deals afresh. Any ValueError, its subclasses too (CardError): the
        // worker marks them (`valueError`), as a subclass has its own name.
        if (scenario === this.scenario) this.scenario = {};
        console.info(`the link describes no possible match: ${String(err.message).slice(0, 300)}`);
        this.dialogs.notice(t("error.url_scenario"));
      } else {
        table.failed(err);
      }
      return this.toStart();
    }
    this.record.started(table.settings, table.seats, last);
    table.screen.newMatch({ hint: table.settings.hint });
    table.deal(reply, { kind: "new" });
  }

  /**
   * The engine is loading: the first deal is shown from the page's opening, and the player may
   * decide on it at once (the decision waits in the engine's queue behind this new_game). The
   * engine's reply brings the save; its view must be the one shown, else (never seen: a test
   * holds them equal) the match is dealt again by the engine.
   */
  async dealOpening(params, { opening, observation }, last) {
    const table = this.table;
    const asked = this.engine.newGame({ ...params, opening });
    this.record.started(table.settings, table.seats, last);
    table.screen.newMatch({ hint: table.settings.hint });
    table.deal({ observation, save: null }, { kind: "new" });
    let reply;
    try {
      reply = await asked;
    } catch (err) {
      table.failed(err);
      return this.toStart();
    }
    if (!sameData(reply.observation, observation)) {
      console.error(`opening ${opening}: the engine's first deal is not the page's; dealt again`);
      return this.newGame(table.settings, {});
    }
    table.confirm(reply);
  }

  /** The console's and the tests' new match (`__truco.start`): settings naming `auto_next` set the pace even under `?fast=1`. */
  startScenario(settings, scenario) {
    this.scenario = scenario;
    if ("auto_next" in settings) this.table.autoPace = false;
    return this.newGame({ ...this.table.settings, ...settings });
  }

  async resume(session) {
    const table = this.table;
    const chosen = table.settings; // the start screen's, kept if the save is refused
    // The game's own settings, but the Dica, the pace, the sound and the name as the player
    // has them now (the start screen's).
    const { hint, auto_next, sound, player_name } = { ...DEFAULT_SETTINGS, ...chosen };
    // A shared table resumes on a pass screen, no hand shown first.
    table.seatUp({ ...DEFAULT_SETTINGS, ...(session.settings || {}), hint: hint === true, auto_next: auto_next === true, sound, player_name });
    let reply;
    try {
      // The engine refuses a save whose people sit elsewhere than the settings say (issue
      // 42; match_store.js's checkedSession): set aside, never a loop of pass screens.
      const humans = table.settings.friends === "host" ? {} : { humans: table.seats.humans };
      reply = await this.engine.load({ save: session.save, ...humans, ...table.viewParams() });
      if (reply.observation.players !== table.seats.players) {
        throw Object.assign(new Error(`the save is a table of ${reply.observation.players}, its settings one of ${table.seats.players}`), { errorType: "ValueError" });
      }
      // A friends' table hosted here: its guests are away until they rejoin with new codes
      // (friends/host.js, told by the "resumed" reply); their bots play meanwhile.
      if (table.settings.friends === "host") reply = await this.engine.setHumans({ humans: [0] });
    } catch (err) {
      table.settings = chosen;
      this.record.refused(err);
      return this.toStart();
    }
    this.record.resumed(session, table.settings, table.seats);
    table.screen.setHints(table.settings.hint);
    this.dialogs.closeAll();
    table.deal(reply, { quiet: true, kind: "resumed" });
  }

  /** Put this tab's game back into the engine after it was asked to check another save. */
  async restoreEngine() {
    const { observation: obs, lastSave } = this.table;
    if (obs && obs.winner === null && lastSave) await this.engine.load({ save: lastSave, ...this.table.viewParams() });
  }

  /**
   * An engine call passed its time limit and the worker was started again (EngineClient):
   * put the match in play back from its last save, and say so in a line. If it happens
   * again in the same match, the save itself may be what sticks the engine: offer to set
   * it aside.
   */
  async engineStuck({ method, tag = null }) {
    const table = this.table;
    table.halt(); // replies to the old worker's calls are dropped
    const { observation: obs, lastSave: save } = table;
    if (!(obs && obs.winner === null && save && this.record.id)) return this.dialogs.notice(t("engine.stuck", { method }));
    // A call made for a friends' guest (tag "guest", friends/host.js) says nothing of this
    // match's save: the match is put back all the same, but it is not counted.
    const counted = tag !== "guest";
    if (counted) {
      this.stuckTimes = (this.stuckMatch === this.record.id ? this.stuckTimes : 0) + 1;
      this.stuckMatch = this.record.id;
    }
    if (counted && this.stuckTimes >= 2) {
      const setAside = await table.epoch.keep(this.dialogs.confirm({
        title: t("engine.stuck_again"), detail: t("engine.stuck_again.detail"),
        yes: t("engine.stuck_again.yes"), no: t("engine.stuck_again.no"),
      }));
      if (setAside) {
        this.record.setAside(`the engine got stuck twice (${method})`);
        table.clear();
        return this.toStart();
      }
    }
    let reply;
    try {
      reply = await this.engine.load({ save, ...table.viewParams() });
    } catch (err) {
      return table.failed(err);
    }
    table.screen.resumedAfterStuck();
    table.deal(reply, { quiet: true });
  }

  /** "Sair da mesa": the match counts as lost (and abandoned); at a pass-and-play table
   * it counts for nobody (match_store.js). */
  leave() {
    const table = this.table;
    table.halt();
    this.record.left(table.settings, table.observation);
    table.clear();
    this.toStart();
  }

  /** Another tab took the game: stop here without saving anything more. */
  takenOver() {
    const obs = this.table.observation;
    if (!obs || obs.winner !== null || !this.record.shared) return;
    this.table.halt();
    this.record.forget();
    this.table.setPhase("elsewhere");
    this.dialogs.showElsewhere();
  }
}
