// "Dica": on request, the difícil bot's choice for the human seat (the engine's `hint`,
// computed from the human's observation only), shown on the table — the card lifted or the
// button outlined — with a one-line reason, and a button that follows it. Off by default
// (the `hint` setting); nothing is asked of the engine unless the player asks.

import { engineApi } from "../engine/engine_api.js";
import { engineWords } from "../shared/engine_words.js";
import { cardName, manilhaName } from "../shared/cards.js";
import { listText, t } from "../shared/i18n.js";

const $ = (id) => document.getElementById(id);

/**
 * The reason in words. The engine gives `{key, params}` (rendered from the translation
 * table; parameters by name: `*card` a card, `cards` a list, `raise` a ladder step,
 * `signal` a signal, `x` the mão de X's score) and `text` (the same sentence in Portuguese), or, from an older
 * engine, a plain string.
 */
export function reasonText(hint, obs) {
  const reason = hint?.reason;
  if (reason && typeof reason === "object" && typeof reason.key === "string") {
    const params = {};
    for (const [name, value] of Object.entries(reason.params || {})) params[name] = paramText(name, value, obs);
    const text = t(reason.key, params);
    if (text !== reason.key) return text;
  }
  if (typeof hint?.text === "string" && hint.text) return hint.text;
  if (typeof reason === "string" && reason) return reason;
  return t("dica.no_reason", { action: actionText(hint?.action ?? "", obs) });
}

function paramText(name, value, obs) {
  const card = (c) => {
    if (typeof c !== "string" || !/^[2-7QJKA][chsd]$/.test(c)) return String(c);
    const m = manilhaName(c, obs);
    return m ? t("text.aside", { text: cardName(c), aside: m }) : cardName(c);
  };
  if (name.endsWith("card")) return card(value);
  if (name === "cards" && Array.isArray(value)) {
    return listText(value.map(card));
  }
  if (name === "raise") return lookup(`hint.step.${value}`, value);
  if (name === "signal") return lookup(`hint.signal_name.${value}`, value);
  if (name === "x") return lookup(`hint.x.${value}`, value);
  return String(value);
}

function lookup(key, fallback) {
  const text = t(key);
  return text === key ? String(fallback) : text;
}

/** "Jogue 3 de copas", "Peça truco"... for a hint whose reason is missing. */
export function actionText(action, obs) {
  const [verb, arg] = action.split(" ");
  if (verb === "play" && arg?.startsWith("#")) return t("dica.action.blind", { n: arg.slice(1) });
  if (verb === "play" || verb === "cover") return t(`dica.action.${verb}`, { card: cardName(arg) });
  if (verb === "signal") return t("dica.action.signal", { signal: lookup(`hint.signal_name.${arg}`, arg) });
  return t(`dica.action.${verb}`, { name: obs?.next_raise?.name ?? "" });
}

export class HintView {
  /** `send(action)` plays an action as the human; `busy()` says a move is under way. */
  constructor({ client, send, busy }) {
    this.engine = engineApi(client);
    this.send = send;
    this.busy = busy;
    this.box = $("hint-box");
    this.button = $("hint-button");
    this.line = $("hint-line");
    this.textEl = $("hint-text");
    this.follow = $("hint-follow");
    this.enabled = false;
    this.obs = null;
    this.hint = null; // {n, action, text}: the hint for the position after event n
    this.asking = null;
    this.button.addEventListener("click", () => this.ask());
    this.follow.addEventListener("click", () => {
      if (this.hint && !this.busy()) this.send(this.hint.action);
    });
    document.addEventListener("keydown", (e) => {
      if (e.key.toLowerCase() !== "h" || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target.closest?.("input, select, textarea, dialog")) return;
      if (!this.button.hidden && !this.button.disabled) {
        e.preventDefault();
        this.ask();
      }
    });
  }

  setEnabled(on) {
    this.enabled = on === true;
    if (!this.enabled) this.clear();
    this.update(this.obs);
  }

  /** After each render: offer the button on the human's turn; keep a hint for this position. */
  update(obs, { frozen = false } = {}) {
    this.obs = obs;
    const mine = Boolean(this.enabled && obs && !frozen && obs.winner === null && obs.to_move === obs.seat);
    // The box keeps its room all match long (issue 29: the table must not move when the
    // Dica comes and goes); off the player's turn its button is hidden, its room kept.
    this.box.hidden = !(this.enabled && obs && obs.winner === null);
    this.button.hidden = !mine;
    this.button.disabled = false;
    const n = lastN(obs);
    if (!mine || !this.hint || this.hint.n !== n) {
      this.clear();
      return;
    }
    this.highlight(this.hint.action); // the table was drawn again: lift the card again
  }

  async ask() {
    const obs = this.obs;
    if (!obs || this.busy()) return;
    const n = lastN(obs);
    if (this.hint?.n === n) {
      this.highlight(this.hint.action);
      return;
    }
    this.button.disabled = true;
    this.show(t("dica.thinking"), false);
    const asking = (this.asking = {});
    let hint;
    try {
      hint = await this.engine.hint();
    } catch (err) {
      if (this.asking !== asking) return;
      this.button.disabled = false;
      this.show(t("dica.error", { message: engineWords(err) }), false);
      return;
    }
    if (this.asking !== asking || lastN(this.obs) !== n) return; // the game moved on meanwhile
    this.button.disabled = false;
    this.hint = { n, action: hint.action, text: reasonText(hint, obs) };
    this.show(this.hint.text, true);
    this.highlight(hint.action);
  }

  show(text, followable) {
    this.line.hidden = false;
    this.textEl.textContent = text;
    this.follow.hidden = !followable;
  }

  /** Lift the suggested card / outline the suggested button. */
  highlight(action) {
    for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
    const [verb, arg] = action.split(" ");
    let target = null;
    if (verb === "play" || verb === "cover") {
      target = arg.startsWith("#")
        ? document.querySelector(`#hand .card.in-hand[data-index="${Number(arg.slice(1)) - 1}"]`)
        : document.querySelector(`#hand .card.in-hand[data-card="${arg}"]`);
      if (verb === "cover") document.querySelector('#actions [data-action="toggle-cover"]')?.classList.add("hinted");
    } else if (verb === "signal") {
      // The Sinal control (partner_talk.js): its button, and the sinal in its menu.
      document.getElementById("signal-toggle")?.classList.add("hinted");
      target = document.querySelector(`#signal-menu [data-signal="${arg}"]`);
    } else {
      target = document.querySelector(`#actions [data-action="${verb}"]`);
    }
    target?.classList.add("hinted");
    this.line.dataset.action = action;
  }

  clear() {
    this.asking = null;
    this.hint = null;
    for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
    this.line.hidden = true;
    this.textEl.textContent = "";
    delete this.line.dataset.action;
  }
}

function lastN(obs) {
  return obs?.log?.length ? obs.log[obs.log.length - 1].n : -1;
}
