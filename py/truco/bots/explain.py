"""Hints (issue 12, "Dica"): the difícil bot's choice for one seat, with a one-line reason.

:func:`explain` reads nothing but the seat's observation, like every bot. The action is
the difícil bot's (or, before the seat's first card at a table with sinais, the honest
signal of its hand); the reason names the card or the fact that decides it, as a
translation key and parameters (see :mod:`truco.hint_text` for how parameters are
rendered):

>>> import random, truco
>>> g = truco.new_game(seed=8, players=2, hands=[["4c", "7h", "As"], ["3c", "2h", "Kd"]], dealer=1)
>>> action, reason = explain(g.observation(0), random.Random(1))
>>> action in g.legal_actions(), reason["key"].startswith("hint.")
(True, True)

Reasons are chosen from facts (who holds the round, what the first round gave, which
cards no unseen card beats, what the partner signalled, the score) and from the chance
of winning the hand on sampled deals of the unseen cards, so they always hold for the
position; the bot's own search decides the move.
"""

from __future__ import annotations

import random

from ..signals import signal_for, signal_to_send
from .knowledge import COVERED, TIE, Knowledge, manilhas_of, read
from ..names import STRENGTH_SIGNALS
from .betting_table import likeliest
from .player import LEVEL_SETTINGS, HeuristicBot
from .simulate import VOID, outcomes_from_state, sample_worlds, table_state
from .utility import game_value

CHANCE_WORLDS = 160
"""Sampled deals behind the chance a reason quotes (a few ms)."""

_SIGNALS_MEANING_STRENGTH = STRENGTH_SIGNALS


def explain(obs: dict, rng: random.Random | None = None) -> tuple[str, dict]:
    """``(action, {"key": "hint.…", "params": {...}})`` for the seat of ``obs``.

    ``obs`` must be the observation of a seat whose turn it is. Deterministic for a
    given ``rng``.
    """
    if rng is None:
        rng = random.Random()
    legal = obs.get("legal_actions") or []
    if not legal:
        raise ValueError("the observation has no legal action: it is not this seat's turn")
    if _should_signal(obs):
        name = signal_for(obs)
        return f"signal {name}", _signal_reason(obs, name)
    chance_rng = random.Random(rng.random())
    action = _Adviser(LEVEL_SETTINGS["dificil"], rng).choose(obs)
    k = read(obs)
    return action, _Why(k, chance_rng).reason(action, legal)


class _Adviser(HeuristicBot):
    """Difícil as the Dica: where its betting table's entry is mixed, the entry's likeliest
    action (:func:`~.betting_table.likeliest`), not a draw. At the table difícil mixes so
    that a player cannot read its bets (issue 44); a player asking for advice gets what the
    table does most of the time, the same every time the position comes up."""

    read_entry = staticmethod(likeliest)


def reason_for(obs: dict, action: str, rng: random.Random | None = None) -> dict:
    """The reason :func:`explain` gives for ``action`` (a legal action of ``obs``, or the
    seat's signal) in this position, whoever chose it."""
    if action.startswith("signal "):
        name = action.split(" ", 1)[1]
        if name != signal_for(obs):
            raise ValueError(f"{action!r} is not the signal of this hand ({signal_for(obs)})")
        return _signal_reason(obs, name)
    if action not in (obs.get("legal_actions") or []):
        raise ValueError(f"{action!r} is not a legal action of this observation")
    return _Why(read(obs), rng or random.Random(0)).reason(action, obs["legal_actions"])


def _should_signal(obs: dict) -> bool:
    """The first thing to do in a hand with sinais, before a card: tell the partner what
    the table's bots would tell theirs (:func:`signal_to_send`: a manilha, not a weak hand
    an opponent might catch)."""
    return bool((obs.get("options") or {}).get("sinais") and not obs.get("pending")
                and not obs.get("decision") and signal_to_send(obs) is not None)


def _signal_reason(obs: dict, name: str) -> dict:
    if name == "nada":
        return {"key": "hint.signal.nada", "params": {}}
    manilhas = list(manilhas_of(obs))
    hand = obs["hand"]
    if name == "tres":
        card = next(c for c in hand if c[0] == "3")
    else:
        card = next(c for c in hand if c in manilhas and signal_for({"hand": [c], "manilhas": manilhas}) == name)
    return {"key": "hint.signal.send", "params": {"signal": name, "card": card}}


class _Why:
    """The facts of one position, and the reason for an action in it."""

    def __init__(self, k: Knowledge, rng: random.Random) -> None:
        self.k = k
        self.rng = rng
        self.S = k.strength
        self.obs = k.obs
        self._chance: float | None = None

    # ---------------------------------------------------------------- facts
    def by_strength(self, cards: list[str] | None = None) -> list[str]:
        return sorted(self.k.hand if cards is None else cards, key=lambda c: (self.S[c], c))

    def top(self) -> str:
        return self.by_strength()[-1]

    def keep(self, played: str) -> str | None:
        """The card worth keeping when ``played`` goes: the strongest of the rest."""
        rest = [c for c in self.k.hand if c != played]
        return self.by_strength(rest)[-1] if rest else None

    def unbeatable(self, card: str) -> bool:
        """No card this seat has not seen beats ``card`` (ties are not beats)."""
        return max(self.k.pool, default=-1) < self.S[card]

    def won_first(self) -> bool:
        return bool(self.k.results) and self.k.results[0] == self.k.team

    def lost_first(self) -> bool:
        return bool(self.k.results) and self.k.results[0] not in (self.k.team, TIE)

    def partner_signal(self) -> str | None:
        """The strength-meaning signal a partner sent this hand (not 'nada')."""
        for x in self.obs.get("signals") or []:
            s = x.get("seat")
            if s != self.k.seat and s % 2 == self.k.team and x.get("signal") in _SIGNALS_MEANING_STRENGTH:
                return x["signal"]
        return None

    def partner_after(self) -> bool:
        """A partner still plays in this round after this seat."""
        k = self.k
        n = k.players
        for i in range(1, n - len(k.plays)):
            if ((k.seat + i) % n) % 2 == k.team:
                return True
        return False

    def strong(self, card: str) -> bool:
        """A manilha or a three: what players call a good card."""
        return card in manilhas_of(self.obs) or card[0] == "3"

    def low_hand(self) -> bool:
        """No manilha, no three, no two."""
        return all(not self.strong(c) and c[0] != "2" for c in self.k.hand)

    def chance(self) -> float:
        """The chance of winning the hand from here, on sampled deals (void = half)."""
        if self._chance is None:
            k = self.k
            worlds = sample_worlds(k, self.rng, CHANCE_WORLDS)
            outs = outcomes_from_state(k, worlds)
            self._chance = sum(0.5 if o == VOID else 1.0 if o == k.team else 0.0 for o in outs) / len(outs)
        return self._chance

    def pct(self) -> int:
        return int(round(100 * self.chance()))

    def score(self) -> dict:
        return {"us": self.k.score_us, "them": self.k.score_them}

    def run_loses_game(self, gives: int) -> bool:
        gv = game_value(self.obs["rules"])
        return gv.win_prob(self.k.score_us, self.k.score_them + gives) == 0.0

    # --------------------------------------------------------------- reasons
    def reason(self, action: str, legal: list[str]) -> dict:
        k = self.k
        if k.blind:
            return {"key": "hint.ferro.blind", "params": {}}
        if self.obs.get("decision"):
            return self._dez(action)
        if self.obs.get("pending"):
            return self._answer(action)
        if action == "raise":
            return self._ask()
        kind, _, card = action.partition(" ")
        if kind == "play" and card.startswith("#"):  # a blind position (never reached: k.blind)
            return {"key": "hint.ferro.blind", "params": {}}
        covered = kind == "cover"
        return self._card(card, covered, "raise" in legal)

    def _card(self, card: str, covered: bool, could_raise: bool) -> dict:
        k = self.k
        S = self.S
        keep = self.keep(card)
        if keep is None:
            if could_raise:
                return {"key": "hint.play.last_noraise",
                        "params": {"card": card, "raise": self.obs["next_raise"]["name"]}}
            return {"key": "hint.play.last", "params": {"card": card}}
        if k.plays:
            return self._follow(card, covered, keep)
        return self._lead(card, covered, keep)

    def _follow(self, card: str, covered: bool, keep: str) -> dict:
        k = self.k
        S = self.S
        best, bteam = table_state(k.plays)
        best_card = self._best_card_on_table(best)
        v = COVERED if covered else S[card]
        if covered:
            if best_card is None:
                return {"key": "hint.cover.hide", "params": {"card": card}}
            return {"key": "hint.cover.duck", "params": {"card": card, "best_card": best_card}}
        if bteam == k.team and v <= best:
            return {"key": "hint.play.partner_holds", "params": {"card": card, "keep_card": keep}}
        if bteam == k.team and best_card is not None:
            return {"key": "hint.play.over_partner", "params": {"card": card, "best_card": best_card}}
        if best_card is None:  # only covered cards on the table: any face-up card beats them
            return {"key": "hint.play.over_covered", "params": {"card": card}}
        if v > best:
            opponents_after = any(((k.seat + i) % k.players) % 2 != k.team
                                  for i in range(1, k.players - len(k.plays)))
            if self.unbeatable(card) and opponents_after:
                return {"key": "hint.play.win_sure", "params": {"card": card}}
            if S[keep] > v:
                return {"key": "hint.play.win_cheap",
                        "params": {"card": card, "best_card": best_card, "keep_card": keep}}
            if S[keep] > best:  # a cheaper card would do, but not as surely
                key = "hint.play.win_strong" if opponents_after else "hint.play.win"
                return {"key": key, "params": {"card": card, "best_card": best_card}}
            return {"key": "hint.play.win_top", "params": {"card": card, "best_card": best_card}}
        if v == best and bteam != k.team:
            if self.won_first():
                return {"key": "hint.play.tie_closes", "params": {"card": card, "best_card": best_card}}
            if not k.results:
                return {"key": "hint.play.tie_first",
                        "params": {"card": card, "best_card": best_card, "keep_card": keep}}
            return {"key": "hint.play.tie", "params": {"card": card, "best_card": best_card}}
        # a card below the table's best
        if S[keep] <= best:
            if card == self.by_strength()[0]:
                return {"key": "hint.play.duck", "params": {"card": card, "best_card": best_card}}
            return {"key": "hint.play.duck_other", "params": {"card": card, "best_card": best_card}}
        if self.partner_after():
            sig = self.partner_signal()
            if sig:
                return {"key": "hint.play.partner_signal",
                        "params": {"card": card, "signal": sig, "keep_card": keep}}
            return {"key": "hint.play.partner_after", "params": {"card": card, "keep_card": keep}}
        return {"key": "hint.play.save", "params": {"card": card, "best_card": best_card, "keep_card": keep}}

    def _best_card_on_table(self, best: int) -> str | None:
        for r in self.obs["rounds"]:
            if r["result"] is None:
                for p in r["plays"]:
                    if p["card"] and not p["covered"] and self.S[p["card"]] == best:
                        return p["card"]
        return None

    def _lead(self, card: str, covered: bool, keep: str) -> dict:
        k = self.k
        S = self.S
        if not k.results:
            sig = self.partner_signal()
            if sig and self.partner_after() and S[keep] > S[card]:
                return {"key": "hint.lead.first_partner",
                        "params": {"card": card, "signal": sig, "keep_card": keep}}
            cards = self.by_strength()
            if card == cards[-1] or S[card] >= S[keep]:
                return {"key": "hint.lead.first_top", "params": {"card": card}}
            if card == cards[0]:
                return {"key": "hint.lead.first_low", "params": {"card": card, "keep_card": keep}}
            if S[card] >= S["Kc"] and card not in manilhas_of(self.obs):
                return {"key": "hint.lead.first_middle", "params": {"card": card, "keep_card": keep}}
            return {"key": "hint.lead.first_keep", "params": {"card": card, "keep_card": keep}}
        if self.won_first():
            if covered:
                return {"key": "hint.cover.won", "params": {"card": card}}
            if self.unbeatable(card):
                return {"key": "hint.lead.won_sure", "params": {"card": card}}
            if S[card] >= S[keep]:
                return {"key": "hint.lead.won_top", "params": {"card": card}}
            return {"key": "hint.lead.won_low", "params": {"card": card, "keep_card": keep}}
        if covered:
            return {"key": "hint.cover.hide", "params": {"card": card}}
        # the loser of a round never leads the next (§3): here the first was tied
        return {"key": "hint.lead.tied", "params": {"card": card}}

    def _ask(self) -> dict:
        name = self.obs["next_raise"]["name"]
        if not self.k.hand:  # not reached: a seat raises on its turn to play, holding a card
            return {"key": "hint.raise.bluff", "params": {"raise": name, "value": self.k.value}}
        top = self.top()
        if self.won_first() and (self.strong(top) or self.unbeatable(top)):
            return {"key": "hint.raise.won_first", "params": {"raise": name, "card": top}}
        if self.k.results and self.unbeatable(top):
            return {"key": "hint.raise.sure", "params": {"raise": name, "card": top}}
        if self.chance() < 0.5:
            return {"key": "hint.raise.bluff", "params": {"raise": name, "value": self.k.value}}
        sig = self.partner_signal()
        if sig:
            return {"key": "hint.raise.partner_signal", "params": {"raise": name, "signal": sig, "card": top}}
        return {"key": "hint.raise.strong", "params": {"raise": name, "card": top, "pct": self.pct()}}

    def _answer(self, action: str) -> dict:
        k = self.k
        pending = self.obs["pending"]
        gives = k.value  # running gives the askers the value before the request (§5)
        if not k.hand:  # every card played: the cards on the table and the partners' decide
            return self._answer_empty(action, pending, gives)
        top = self.top()
        if action == "raise":
            name = self.obs["next_raise"]["name"]
            if self.won_first() and (self.strong(top) or self.unbeatable(top)):
                return {"key": "hint.reraise.won_first", "params": {"raise": name, "card": top}}
            if self.unbeatable(top):
                return {"key": "hint.reraise.sure", "params": {"raise": name, "card": top}}
            if self.chance() >= 0.5:
                return {"key": "hint.reraise.strong", "params": {"raise": name, "card": top, "pct": self.pct()}}
            return {"key": "hint.reraise.bluff", "params": {"raise": name, "value": pending["value"]}}
        if action == "accept":
            if self.run_loses_game(gives):
                return {"key": "hint.accept.must", "params": {"gives": gives}}
            if self.won_first() and (self.strong(top) or self.unbeatable(top)):
                return {"key": "hint.accept.won_first", "params": {"card": top}}
            if self.unbeatable(top):
                return {"key": "hint.accept.sure", "params": {"card": top}}
            sig = self.partner_signal()
            if sig and self.chance() >= 0.5 and not self.strong(top):
                return {"key": "hint.accept.partner_signal", "params": {"signal": sig, "card": top}}
            if self.chance() >= 0.5:
                return {"key": "hint.accept.strong", "params": {"card": top, "pct": self.pct()}}
            return {"key": "hint.accept.odds",
                    "params": {"gives": gives, "pct": self.pct(), "value": pending["value"], **self.score()}}
        # run
        best, bteam = table_state(k.plays) if k.plays else (-2, TIE)
        if (k.plays and bteam != k.team and not self.partner_after()
                and best > max(self.S[c] for c in k.hand)):
            best_card = self._best_card_on_table(best)
            if best_card:
                return {"key": "hint.run.beaten", "params": {"best_card": best_card}}
        if self.lost_first():
            return {"key": "hint.run.lost_first", "params": {"card": top}}
        if self.low_hand():
            return {"key": "hint.run.low",
                    "params": {"cards": self.by_strength()[::-1], "value": pending["value"], **self.score()}}
        if self.chance() < 0.4:
            return {"key": "hint.run.odds",
                    "params": {"pct": self.pct(), "gives": gives, "value": pending["value"], **self.score()}}
        # the cards alone look fair: it is the request that says the askers are strong
        return {"key": "hint.run.shown", "params": {"card": top, "value": pending["value"], **self.score()}}

    def _answer_empty(self, action: str, pending: dict, gives: int) -> dict:
        """A raise answered with no card left in the hand (a partner or the table decides)."""
        if action == "raise":
            return {"key": "hint.reraise.bluff", "params": {"raise": self.obs["next_raise"]["name"],
                                                            "value": pending["value"]}}
        if action == "accept":
            if self.run_loses_game(gives):
                return {"key": "hint.accept.must", "params": {"gives": gives}}
            return {"key": "hint.accept.odds",
                    "params": {"gives": gives, "pct": self.pct(), "value": pending["value"], **self.score()}}
        k = self.k
        if k.plays and not self.partner_after():
            best, bteam = table_state(k.plays)
            best_card = self._best_card_on_table(best)
            if bteam != k.team and best_card:
                return {"key": "hint.run.beaten", "params": {"best_card": best_card}}
        return {"key": "hint.run.odds",
                "params": {"pct": self.pct(), "gives": gives, "value": pending["value"], **self.score()}}

    def _dez(self, action: str) -> dict:
        k = self.k
        rules = self.obs["rules"]
        gives = rules["mao_de_x_run_gives"]
        x = rules["mao_de_x"]
        cards = list(k.hand)
        for v in self.obs.get("visible_hands") or []:
            cards += v["cards"]
        cards = self.by_strength(cards)[::-1]
        team = len(cards) > len(k.hand)
        if action == "accept":
            if self.run_loses_game(gives):
                return {"key": "hint.dez.play_must", "params": {"gives": gives, "x": x}}
            if team:  # the team's three best cards say enough
                return {"key": "hint.dez.play_team", "params": {"cards": cards[:3], "pct": self.pct(), "x": x}}
            return {"key": "hint.dez.play", "params": {"cards": cards, "pct": self.pct(), "x": x}}
        if team:
            return {"key": "hint.dez.run_team", "params": {"cards": cards[:2], "gives": gives, "x": x}}
        return {"key": "hint.dez.run", "params": {"cards": cards, "pct": self.pct(), "gives": gives, "x": x}}
