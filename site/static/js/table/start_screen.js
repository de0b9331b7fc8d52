// The way into a match: the start screen offered (with "Continuar partida" for a saved match
// the engine accepts), the page's first choice (the address's settings checked, then a shared
// match, an autostart or the start screen), and the shared link's match.

import { fillAvatarChoices, setPlayerAvatar } from "../shared/avatars.js";
import { applyDeckColours } from "../shared/cards.js";
import { t } from "../shared/i18n.js";
import { KEYS } from "../shared/storage.js";
import { DEFAULT_SETTINGS, checkSettings } from "./saved_data.js";
import { forgetSharedURL } from "./share.js";

// Word from this tab's table in another language (issue 41): the id of the match in play
// when the language switch was followed, so the new page deals the player straight back
// into it instead of the start screen. Per tab (sessionStorage), read once.
const LANG_RESUME_KEY = "truco:lang-resume";
const IN_A_MATCH = new Set(["human", "bots", "pass"]);
// O desafio do dia (issue 45) loads when it is used: named through a constant, so the build's
// first-visit budget, which follows literal imports, does not count it.
const DAILY = "./daily.js";

export class StartScreen {
  /**
   * @param {object} o  {manager (GameManager), setup (MatchSetup), store (MatchStore),
   *   dialogs (Dialogs), progress (EngineProgress: whether the engine is ready, and when)}
   */
  constructor({ manager, setup, store, dialogs, progress }) {
    Object.assign(this, { manager, setup, store, dialogs, progress });
    this.offers = 0;
    this.dailyChallenge = null; // daily.js's DailyChallenge, once loaded
    document.addEventListener("truco:lang-switch", () => this.leaveWordForOtherLanguage());
    document.getElementById("open-daily")?.addEventListener("click", () => this.daily((d) => d.play()));
  }

  /** O desafio do dia's module (loaded once), then `then(challenge)`; a failure is told. */
  daily(then = () => {}) {
    const { manager, setup, store, dialogs } = this;
    this.dailyLoad ??= import(DAILY).then((m) => (this.dailyChallenge = new m.DailyChallenge({ manager, setup, start: this, store, storage: store.storage, dialogs })));
    return this.dailyLoad.then(then).catch((err) => {
      this.dailyLoad = null;
      dialogs.notice(t("error.engine", { message: String(err?.message ?? err).slice(0, 200) }));
    });
  }

  /** The language switch is followed mid-match: the match's id for the page it leads to. */
  leaveWordForOtherLanguage() {
    const session = IN_A_MATCH.has(this.manager.screen.phase) ? this.store.savedSession() : null;
    try {
      if (session?.id) sessionStorage.setItem(LANG_RESUME_KEY, String(session.id));
    } catch {
      /* storage blocked: the new page offers the start screen, "Continuar partida" on it */
    }
  }

  /** Whether this page was opened by the language switch from the saved match in play. */
  takeLanguageWord() {
    let id = null;
    try {
      id = sessionStorage.getItem(LANG_RESUME_KEY);
      sessionStorage.removeItem(LANG_RESUME_KEY);
    } catch {
      return false;
    }
    const session = this.store.savedSession();
    return id !== null && session?.id !== undefined && String(session.id) === id;
  }

  /** A match asked for before the engine is ready: the table shows the loading meanwhile. */
  play(fn) {
    if (!this.progress.ready) this.manager.setPhase("loading");
    return fn();
  }

  /**
   * Offer the start screen at once. "Continuar partida" is offered for a saved match that
   * passes the page's own check; once the engine is ready it loads the save (a refused one
   * is set aside and the button goes), and it loads it again when the button is pressed.
   */
  async offer() {
    const { manager, dialogs } = this;
    const offer = ++this.offers;
    manager.setPhase("start");
    const session = this.store.savedSession();
    dialogs.showStart(session ? { session, obs: null } : null, manager.settings);
    if (!session) return;
    // A match started meanwhile drops these waits (its epoch: match_epoch.js).
    await manager.epoch.keep(this.progress.whenReady());
    const current = () => offer === this.offers && dialogs.start.open;
    if (!current()) return; // the screen was offered again, or closed
    const saved = await manager.epoch.keep(this.store.checkedSession());
    if (current()) dialogs.setSaved(saved);
  }

  /** "Continuar partida" (or "Jogar aqui"): the saved match, or the start screen if it is gone. */
  continueSaved({ waitForEngine = true } = {}) {
    const session = this.store.savedSession();
    if (!session) return this.offer();
    return waitForEngine ? this.play(() => this.setup.resume(session)) : this.setup.resume(session);
  }

  /**
   * The page's first step, from the address's options (url_options.js). Settings from the
   * address are checked like saved ones: a bad value is told and not used (it would otherwise
   * be saved, and reported as bad saved data on the next visit).
   */
  begin(opts) {
    const { manager, dialogs } = this;
    const fromUrl = checkSettings(opts.settings, { presets: dialogs.presets() });
    const badUrl = new Set(fromUrl.bad);
    const urlSettings = Object.fromEntries(Object.keys(opts.settings).filter((k) => !badUrl.has(k)).map((k) => [k, fromUrl.value[k]]));
    if (badUrl.size) dialogs.notice(t("error.url_settings", { fields: fromUrl.errors.join(", ") }));
    const settings = { ...DEFAULT_SETTINGS, ...(this.store.storedSettings() ?? {}), ...urlSettings };
    this.store.loadKind("stats"); // checked now: bad statistics are reported (and set aside) at once
    manager.updateSettings(settings);
    applyDeckColours(settings);
    setPlayerAvatar(settings);
    fillAvatarChoices(dialogs.form);
    if (opts.shared) {
      // A shared link: that match (its seed and rules) once; the address is cleaned so that a
      // reload continues it and "Jogar de novo" deals new cards.
      const scenario = opts.scenario;
      this.setup.scenario = {};
      forgetSharedURL();
      this.play(() => this.openShared(settings, scenario));
    } else if (opts.autostart) {
      this.play(() => this.setup.newGame(settings));
    } else if (this.takeLanguageWord()) {
      // The same match, in this language: back at the table (the engine's check of the save
      // is resume's, as for "Continuar partida"), no start screen in between.
      this.continueSaved();
    } else {
      this.offer();
      // `?desafio=1`: the challenge, over the start screen (which stays if a saved match is kept).
      if (opts.daily) return void this.daily((d) => d.fromAddress());
    }
    // A device that has played a challenge: its streak on the start screen, its match followed.
    if (this.store.storage.getRaw(KEYS.daily) !== null) this.daily();
  }

  /** Start the shared match, after asking when it would give up a saved game. */
  async openShared(settings, scenario) {
    const saved = await this.store.checkedSession();
    if (saved) {
      const go = await this.dialogs.confirm({
        title: t("share.confirm"), detail: t("share.confirm.detail"), yes: t("share.confirm.yes"), no: t("share.confirm.no"),
      });
      if (!go) {
        await this.setup.restoreEngine();
        this.offer();
        return;
      }
    }
    this.setup.newGame(settings, scenario);
  }
}
