// The narrator: what the table says about the engine's events. Each new event of the log
// becomes a line for screen readers (the view's live region), a speech bubble over the seat
// that spoke ("Truco!", "Corro"), or a banner (the timer's automatic move); a hand's end
// becomes its summary, and the match's end the end screen's title. It only reads the events
// and the observation.

import { listText, phraseNodes, portuguese, t, tNodes } from "../shared/i18n.js";
import { cardName } from "../shared/cards.js";
import { callName, maoDeXParams, speech } from "../shared/table_words.js";
import { caughtSignalsText } from "./partner_talk.js";

/** "primeira vencida por nós" etc.: a round's result for `us`. */
function roundResult(result, us, ord) {
  return result === "tie" ? t("round.tie", { ord }) : result === us ? t("round.won", { ord }) : t("round.lost", { ord });
}

export class Narrator {
  /**
   * @param {object} o  {view (TableView), talk (PartnerTalk: the sinais' events, or null),
   *   reviewable (a hand's summary offers "Ver a mão")}
   */
  constructor({ view, talk = null, reviewable = false }) {
    this.view = view;
    this.talk = talk;
    this.reviewable = reviewable;
  }

  /** Tell one event of the log; `obs` is the observation it arrived with. */
  narrate(e, obs) {
    const v = this.view;
    const name = (s) => v.name(s);
    switch (e.type) {
      case "deal":
        v.clearBubbles();
        v.announce(t("announce.deal", { name: name(e.dealer) }));
        break;
      case "play":
        v.announce(t("announce.play", { name: name(e.seat), card: cardName(e.card) }));
        break;
      case "cover":
        v.announce(t("announce.cover", { name: name(e.seat) }));
        break;
      case "raise":
        v.say(e.seat, speech(e), undefined, { call: true });
        v.announce(t("announce.raise", { name: name(e.seat), call: callName(e.name), value: e.value }));
        break;
      case "accept":
        v.say(e.seat, speech(e));
        v.announce(t("announce.accept", { name: name(e.seat), value: e.value }));
        break;
      case "run":
        v.say(e.seat, speech(e));
        v.announce(t("announce.run", { name: name(e.seat) }));
        break;
      case "exchange":
        v.say(e.seat, phraseNodes("say.exchange", e.n));
        break;
      case "vira":
        v.announce(t("announce.vira", { card: cardName(e.card) }));
        break;
      case "round": {
        const result = roundResult(e.result, obs.team, t(`ord.${e.round}`));
        v.announce(t("announce.round", { n: e.round, result }));
        break;
      }
      case "signal":
        this.talk?.narrate(e, obs);
        break;
      case "timeout":
        v.say(e.seat, phraseNodes("say.timeout", e.n));
        if (e.seat === obs.seat) v.banner(t("timer.auto"), "", "warn");
        break;
      default:
        break;
    }
  }

  /** The summary of the hand whose `hand` event is `e`: a banner, read aloud too. */
  handSummary(e, obs) {
    const us = obs.team;
    const won = e.winner === us;
    let title;
    // Who ran, by name ("Tonho correu"), the human in the second person ("Você correu").
    const ran = e.reason === "run" || e.reason === "dez_run" ? obs.log.filter((x) => x.type === "run" && x.n < e.n).at(-1) : null;
    const runKey = (key) => (won ? `${key}_won` : ran?.seat === obs.seat ? `${key}_lost.you` : `${key}_lost`);
    const name = ran ? this.view.name(ran.seat) : "";
    if (e.winner === null) title = t("hand.void");
    else if (e.reason === "run") title = t(runKey("hand.run"), { name, points: e.points });
    else if (e.reason === "dez_run") {
      const kind = portuguese(t("hud.kind.dez", maoDeXParams(obs.rules))); // "mão de dez", in Portuguese everywhere
      title = tNodes(runKey("hand.dez_run"), { name, kind, points: e.points });
    }
    else title = t(won ? "hand.won" : "hand.lost", { points: e.points });
    const results = (e.rounds || []).map((r, i) => roundResult(r, us, t(`ord.${i + 1}`)));
    const detail = results.length ? t("hand.rounds", { rounds: listText(results, "list.comma") }) : "";
    const tone = e.winner === null ? "" : won ? "good" : "bad";
    // A sinal the other pair caught is told once the hand is over (the engine logs it then).
    const caughtEvent = obs.log.find((x) => x.n === e.n - 1 && x.type === "signals_caught"); // logged just before
    const caught = caughtEvent ? caughtSignalsText(caughtEvent, obs, this.view) : "";
    const sentence = detail ? detail.charAt(0).toUpperCase() + detail.slice(1) : "";
    const titleText = title.textContent ?? title; // read before the banner takes the nodes
    this.view.banner(title, sentence, tone, caught, "summary");
    if (this.reviewable) this.view.offerReview(e.n);
    this.view.announce(`${titleText} ${sentence} ${caught}`.trim());
  }

  /** The end screen's title: won, lost, or left by someone. */
  endText(obs) {
    const us = obs.team;
    if (obs.abandoned_by !== null) {
      return obs.abandoned_by === obs.seat
        ? { title: t("match.abandon_you"), won: false, obs }
        : { title: t("match.abandon_other", { name: this.view.name(obs.abandoned_by) }), won: true, obs };
    }
    const won = obs.winner === us;
    return { title: t(won ? "match.won" : "match.lost"), won, obs };
  }
}
