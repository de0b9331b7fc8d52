"""The match state and its rules: deal, rounds, raises, mão de dez / de ferro, series.

A :class:`Game` is the whole match (one game or a series). It is driven by text actions
(``play 4c``, ``cover 4c``, ``raise``, ``accept``, ``run``, ``timeout``, ``play #1``) and
seen through :meth:`Game.observation`, which holds only what one seat may know.

>>> g = new_game(seed=7, hands=[["4c", "3h", "5s"], ["7h", "2c", "Qd"]], dealer=1)
>>> g.to_move, g.hand_value
(0, 2)
>>> g.apply("raise"); g.to_move, g.legal_actions()
(1, ['accept', 'run', 'raise'])
>>> g.apply("accept"); g.hand_value
4
>>> g.apply("cover 4c")
Traceback (most recent call last):
...
truco.table.IllegalAction: 'cover 4c': a covered card is allowed only from the 2nd round on (RULES.md §4)
"""

from __future__ import annotations

import random
from typing import Any

from . import persist, view
from .cards import CardError, is_card
from .judge import TIE, VOID, hand_outcome, round_result
from .names import SIGNALS
from .persist import FORMAT, FORMAT_VERSION
from .rules import PRESETS, preset
from .quote import said
from .table import (ANSWERS, FERRO_MODES, OPTION_NAMES, PLAYER_COUNTS, SERIES_LENGTHS, TIMER_SECONDS,
                    IllegalAction, check_hands, check_options, check_score, deal_for, draw_dealer,
                    shuffled_deck, team_of)

CATCH_CHANCE = 0.15
"""How often each opponent catches a signal, as at a real table (drawn from the game's seed)."""


def new_game(
    preset: str = "mineiro",
    players: int = 2,
    seed: int | str | None = None,
    hands: list[list[str]] | None = None,
    score: tuple[int, int] | list[int] = (0, 0),
    dealer: int | None = None,
    vira: str | None = None,
    **options: Any,
) -> "Game":
    """Start a match. See DESIGN.md, "The engine's public contract".

    Options: ``series`` (1, 3 or 5 games), ``ferro`` (``"escuro"`` or ``"claras"``: how a
    mão de ferro is dealt; default from the preset), ``timer`` (0, 10, 20 or 30 seconds;
    stored for the table, the engine only applies ``timeout``), and the house rules of
    RULES.md §9: ``baralho_limpo`` (no 4, 5, 6, 7 but the manilhas) and ``familia_real``
    (a hand of only Q/J/K may be exchanged once, with the ``exchange`` action).
    With partners (2 x 2, 3 x 3): ``humano_decide`` (a seat that takes every decision the
    rules give its partners: answering a raise, the mão de dez decision; or a list of such
    seats, one a team at most: a friends' table) and ``sinais``
    (``signal <name>`` actions, see :data:`SIGNALS`).
    """
    return Game.new(preset, players, seed, hands, score, dealer, vira, **options)


class Game:
    """A whole match. Build one with :func:`new_game` or :meth:`Game.from_json`."""

    __slots__ = (
        "rules", "players", "seed", "options", "hand_index", "dealer", "_score",
        "games", "game_number", "winner", "abandoned_by", "auto_moves", "hand", "log",
        "start", "moves",
    )

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, preset_name: str = "mineiro", players: int = 2, seed: int | str | None = None,
            hands: list[list[str]] | None = None, score: tuple[int, int] | list[int] = (0, 0),
            dealer: int | None = None, vira: str | None = None, /, **options: Any) -> "Game":
        """:func:`new_game` for this class (the save replays a match through it)."""
        rules = preset(preset_name)
        if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
            raise ValueError(f"players must be 2, 4 or 6, not {said(players)}")
        opts = check_options(rules, options, players)
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)
        elif isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"seed must be an int or a str, not {said(seed)}")
        sc = check_score(rules, score)
        if dealer is None:
            dealer = draw_dealer(seed, players)
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}, not {said(dealer)}")
        deck = rules.deck(opts["baralho_limpo"])
        if vira is not None:
            if not rules.vira:
                raise ValueError(f"vira={said(vira)}: the {rules.name!r} preset has no vira (RULES.md §9)")
            if vira not in deck:
                raise CardError(f"vira={said(vira)} is not a card of this deck")
        if hands is not None:
            hands = check_hands(hands, players, deck)
            if vira in {c for h in hands for c in h}:
                raise ValueError(f"vira={said(vira)} is also dealt to a seat")
        g = cls.__new__(cls)
        g.rules = rules
        g.players = players
        g.seed = seed
        g.options = opts
        g.hand_index = -1
        g.dealer = (dealer - 1) % players  # _deal() rotates it onto `dealer`
        g._score = sc
        g.games = [0, 0]
        g.game_number = 1
        g.winner = None
        g.abandoned_by = None
        g.auto_moves = [0] * players
        g.log = []
        g.hand = {}
        # What fully determines the match with its moves: a save is these and the moves,
        # and loading one replays the moves through the rules (see to_json).
        g.start = {"preset": rules.name, "players": players, "seed": seed,
                   "hands": hands, "score": list(sc), "dealer": dealer, "vira": vira, "options": dict(opts)}
        g.moves = []
        g._deal(hands, vira)
        return g

    # ------------------------------------------------------------ public reads
    @property
    def score(self) -> tuple[int, int]:
        """The current game's points, team 0 first."""
        return (self._score[0], self._score[1])

    @property
    def hand_value(self) -> int:
        """What the hand in play is worth now (the last accepted value)."""
        return self.hand["value"]

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, or ``None`` when the match is over."""
        if self.winner is not None:
            return None
        h = self.hand
        if h["phase"] == "decide":
            return h["decider"]
        if h["pending"] is not None:
            return h["pending"]["answerer"]
        return h["turn"]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def legal_actions(self) -> list[str]:
        """The actions the seat to move may take, in a stable order.

        ``timeout`` is always accepted from the seat to move but never listed.
        """
        if self.winner is not None:
            return []
        h = self.hand
        if h["phase"] == "decide":
            return ["accept", "run"]
        pending = h["pending"]
        if pending is not None:
            if pending["level"] < len(self.rules.ladder):
                return ["accept", "run", "raise"]
            return ["accept", "run"]
        seat = h["turn"]
        cards = h["hands"][seat]
        if h["blind"]:
            return [f"play #{i + 1}" for i in range(len(cards))]
        actions = ["play " + c for c in cards]
        if self._may_exchange(seat):
            actions.append("exchange")
        if h["kind"] == "normal":
            if len(h["rounds"]) >= 2:
                actions += ["cover " + c for c in cards]
            if h["level"] < len(self.rules.ladder) and h["last_asker_team"] != seat % 2:
                actions.append("raise")
        return actions

    # ------------------------------------------------------------------- moves
    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply one action of the seat to move (or of ``seat``, checked to be it).

        Raises :class:`IllegalAction` (a ``ValueError``) naming the rule, leaving the game
        unchanged.
        """
        mover = self.to_move
        if not isinstance(action, str):
            raise IllegalAction(f"{said(action)}: an action is a string such as 'play 4c'")
        if mover is None:
            raise IllegalAction(f"{said(action)}: the match is over")
        if action.startswith("signal "):  # any seat, on anyone's turn, before its first card
            sender = mover if seat is None else seat
            name = action[7:]
            if not self.options["sinais"]:
                raise IllegalAction(f"{said(action)}: this table does not use sinais")
            if name not in SIGNALS:
                raise IllegalAction(f"{said(action)}: the signals are {', '.join(SIGNALS)}")
            if isinstance(sender, bool) or not isinstance(sender, int) or not 0 <= sender < self.players:
                raise IllegalAction(f"{said(action)}: seat {said(sender)} is not at the table")
            if not self.may_signal(sender):
                raise IllegalAction(f"{said(action)}: a seat signals once a hand, before its first card")
            self._signal(sender, name)
            self.moves.append([sender, action])
            return
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise IllegalAction(f"{said(action)} from seat {said(seat)}: a seat is a whole number")
        if seat is not None and seat != mover:
            raise IllegalAction(
                f"{said(action)} from seat {seat}: it is seat {mover}'s turn to "
                f"{'answer' if self._answering() else 'play'}"
            )
        if action == "timeout":
            auto = self._timeout_action(mover)
            self.moves.append([mover, action])
            self.log.append({"type": "timeout", "seat": mover, "action": auto})
            self._do(mover, auto)
            self.auto_moves[mover] += 1
            if self.auto_moves[mover] >= 2 and self.winner is None:
                self.abandoned_by = mover
                self.winner = 1 - mover % 2
                self.log.append({"type": "abandon", "seat": mover, "winner": self.winner})
            return
        if action not in self.legal_actions():
            raise IllegalAction(f"{said(action)}: {self._why_illegal(action, mover)}")
        self.auto_moves[mover] = 0
        self.moves.append([mover, action])
        self._do(mover, action)

    def _decision_seat(self, seat: int) -> int:
        """With ``humano_decide``, that seat answers for its partners (issue: humano decide);
        a list of seats (a friends' table) names one such seat for each team that has one."""
        boss = self.options["humano_decide"]
        for b in boss if isinstance(boss, list) else [boss]:
            if b is not None and seat != b and seat % 2 == b % 2:
                return b
        return seat

    def may_signal(self, seat: int) -> bool:
        """A seat may send one signal a hand, before its first card (never listed as legal)."""
        h = self.hand
        return (self.options["sinais"] and self.winner is None and len(h["hands"][seat]) == 3
                and all(p[0] != seat for r in h["rounds"] for p in r["plays"])
                and all(x["seat"] != seat for x in h["signals"]))

    def _signal(self, seat: int, name: str) -> None:
        rng = random.Random(f"truco:{self.seed}:{self.hand_index}:signal:{seat}")
        caught_by = [o for o in range(self.players) if o % 2 != seat % 2 and rng.random() < CATCH_CHANCE]
        self.hand["signals"].append({"seat": seat, "signal": name, "caught_by": caught_by})
        self.log.append({"type": "signal", "seat": seat, "signal": name, "caught_by": caught_by})

    def _may_exchange(self, seat: int) -> bool:
        """Família real (§9 house rule): a hand of only Q/J/K, before its first card, once."""
        h = self.hand
        cards = h["hands"][seat]
        return (self.options["familia_real"] and len(h["rounds"]) == 1 and len(cards) == 3
                and all(c[0] in "QJK" for c in cards) and len(h["stock"]) >= 3
                and all(x["seat"] != seat for x in h["exchanged"]))

    def strength_table(self) -> dict[str, int]:
        """Card -> strength in the hand being played (the vira may change the manilhas)."""
        return self.rules.strength_table(self.hand["vira"], self.options["baralho_limpo"])

    def _answering(self) -> bool:
        h = self.hand
        return h["phase"] == "decide" or h["pending"] is not None

    def _timeout_action(self, seat: int) -> str:
        """RULES.md §8: run from a pending decision, else play the weakest card face up."""
        if self._answering():
            return "run"
        h = self.hand
        cards = h["hands"][seat]
        if h["blind"]:
            return "play #1"  # choosing the weakest would reveal something
        strength = self.strength_table()
        weakest = min(range(len(cards)), key=lambda i: (strength[cards[i]], i))
        return "play " + cards[weakest]

    def _why_illegal(self, action: str, seat: int) -> str:
        verb, _, arg = action.partition(" ")
        h = self.hand
        known = ("play", "cover", "raise", "accept", "run", "timeout", "exchange")
        if verb not in known or (verb in ("play", "cover")) != bool(arg):
            return ("not an action: actions are 'play <card>', 'cover <card>', "
                    "'play #<n>' (blind hand), 'raise', 'accept', 'run' and 'timeout'")
        if h["phase"] == "decide":
            team = h["dez_team"]
            return (f"a mão de dez decision is pending: seat {seat} (team {team}) must "
                    f"'accept' to play the hand or 'run' (RULES.md §6)")
        pending = h["pending"]
        if pending is not None:
            step = self.rules.ladder[pending["level"] - 1]
            if verb == "raise":
                return f"{step.name} ({step.value}) is the top of the ladder: nothing to raise to (RULES.md §5)"
            return (f"seat {pending['asker']} asked {step.name} ({step.value}): seat "
                    f"{pending['answerer']} must answer 'accept', 'run' or 'raise' first (RULES.md §5)")
        if verb in ("accept", "run"):
            return "nothing to answer: no raise or mão de dez decision is pending (RULES.md §5)"
        if verb == "exchange":
            if not self.options["familia_real"]:
                return "exchanging a hand is a house rule (familia_real) this table does not use (RULES.md §9)"
            return ("família real: only a hand of three Q/J/K cards, before its first card, "
                    "may be exchanged, once (RULES.md §9)")
        if verb == "raise":
            if h["kind"] == "dez":
                return "nobody may raise in a mão de dez (RULES.md §6)"
            if h["kind"] == "ferro":
                return "nobody may raise in a mão de ferro (RULES.md §6)"
            if h["level"] >= len(self.rules.ladder):
                return f"the hand is already worth {h['value']}, the top of the ladder (RULES.md §5)"
            return (f"nobody raises twice in a row: team {seat % 2}'s last raise was accepted, "
                    f"so only team {1 - seat % 2} may ask the next one (RULES.md §5)")
        # play / cover
        if arg.startswith("#"):
            if not h["blind"]:
                return "a card is named by position ('#n') only in a blind hand (RULES.md §6)"
            return f"seat {seat} holds {len(h['hands'][seat])} card(s): play '#1' to '#{len(h['hands'][seat])}'"
        if not is_card(arg):
            return str(CardError(f"{said(arg)} is not a card: a card is a rank (4 5 6 7 Q J K A 2 3) and a suit (c h s d), e.g. '4c'"))
        if h["blind"]:
            return (f"mão de ferro no escuro: seat {seat} cannot see its cards and names "
                    f"one by position, 'play #1' to 'play #{len(h['hands'][seat])}' (RULES.md §6)")
        if arg not in h["hands"][seat]:
            return f"seat {seat} does not hold {arg}"
        if verb == "cover":
            if h["kind"] != "normal":
                return "no covered card in a mão de dez or a mão de ferro (RULES.md §4)"
            return "a covered card is allowed only from the 2nd round on (RULES.md §4)"
        return "not allowed now"  # pragma: no cover - every case is named above

    def _do(self, seat: int, action: str) -> None:
        h = self.hand
        rules = self.rules
        if h["phase"] == "decide":
            if action == "accept":
                h["phase"] = "play"
                h["value"] = rules.mao_de_x_value
                self.log.append({"type": "accept", "seat": seat, "value": h["value"], "mao_de_dez": True})
            else:
                self.log.append({"type": "run", "seat": seat, "mao_de_dez": True})
                self._end_hand(1 - h["dez_team"], rules.mao_de_x_run_gives, "dez_run")
            return
        pending = h["pending"]
        if action == "raise":
            if pending is not None:  # a counter-raise accepts the request it answers
                self._accept(pending)
                asker, answerer = seat, self._decision_seat(pending["asker"])
            else:
                asker, answerer = seat, self._decision_seat((seat + 1) % self.players)
            level = h["level"] + 1
            step = rules.ladder[level - 1]
            h["pending"] = {"asker": asker, "answerer": answerer, "level": level}
            self.log.append({"type": "raise", "seat": seat, "name": step.name, "value": step.value})
            return
        if action == "accept":
            self._accept(pending)
            h["pending"] = None
            self.log.append({"type": "accept", "seat": seat, "value": h["value"]})
            return
        if action == "run":
            h["pending"] = None
            self.log.append({"type": "run", "seat": seat})
            self._end_hand(pending["asker"] % 2, h["value"], "run")
            return
        if action == "exchange":
            old = h["hands"][seat]
            h["hands"][seat] = h["stock"][:3]
            h["stock"] = h["stock"][3:]
            h["exchanged"].append({"seat": seat, "cards": old})
            self.log.append({"type": "exchange", "seat": seat, "cards": list(old)})
            return
        verb, _, arg = action.partition(" ")
        cards = h["hands"][seat]
        if arg[0] == "#":  # a blind seat names the card by position
            card = cards.pop(int(arg[1:]) - 1)
        else:
            card = arg
            cards.remove(card)
        covered = verb == "cover"
        rnd = h["rounds"][-1]
        rnd["plays"].append([seat, card, covered])
        self.log.append({"type": "cover" if covered else "play", "seat": seat, "card": card})
        if len(rnd["plays"]) < self.players:
            h["turn"] = (seat + 1) % self.players
            return
        if h["vira"] is not None and not h["vira_visible"]:  # no escuro, the vira is shown once the 1st round is on the table
            h["vira_visible"] = True
            self.log.append({"type": "vira", "card": h["vira"]})
        result, winner = round_result(self.strength_table(), rnd["plays"])
        rnd["result"] = result
        rnd["winner"] = winner
        self.log.append({"type": "round", "round": len(h["rounds"]), "result": result, "seat": winner})
        outcome = hand_outcome([r["result"] for r in h["rounds"]])
        if outcome is None:
            leader = rnd["leader"] if result == TIE else winner
            h["rounds"].append({"leader": leader, "plays": [], "result": None, "winner": None})
            h["turn"] = leader
        elif outcome == VOID:
            self._end_hand(None, 0, "void")
        else:
            self._end_hand(outcome, h["value"], "rounds")

    def _accept(self, pending: dict) -> None:
        h = self.hand
        h["level"] = pending["level"]
        h["value"] = self.rules.step_value(pending["level"])
        h["last_asker_team"] = pending["asker"] % 2

    def _end_hand(self, team: int | None, points: int, reason: str) -> None:
        caught = [dict(x) for x in self.hand["signals"] if x["caught_by"]]
        if caught:  # a signal that was caught is shown to everyone once the hand is over
            self.log.append({"type": "signals_caught", "caught": caught})
        if team is not None:
            self._score[team] += points
        self.log.append({
            "type": "hand", "winner": team, "points": points if team is not None else 0,
            "reason": reason, "score": list(self._score),
            "rounds": [r["result"] for r in self.hand["rounds"] if r["result"] is not None],
        })
        if team is not None and self._score[team] >= self.rules.target:
            self.games[team] += 1
            self.log.append({"type": "game", "winner": team, "score": list(self._score),
                             "games": list(self.games), "game_number": self.game_number})
            if self.games[team] > self.options["series"] // 2:
                self.winner = team
                self.log.append({"type": "match", "winner": team, "games": list(self.games)})
                return
            self._score = [0, 0]
            self.game_number += 1
        self._deal(None, None)

    def _deal(self, hands: list[list[str]] | None, vira: str | None) -> None:
        self.hand_index += 1
        self.dealer = (self.dealer + 1) % self.players
        rules = self.rules
        n = self.players
        deck = shuffled_deck(self.seed, self.hand_index, rules.deck(self.options["baralho_limpo"]))
        if hands is None:
            hands = [deck[3 * i: 3 * i + 3] for i in range(n)]
            rest = deck[3 * n:]
        else:  # a fixed deal: the rest of the deck keeps its seeded order
            dealt = {c for h in hands for c in h}
            rest = [c for c in deck if c not in dealt]
        if rules.vira:
            if vira is None:
                vira = rest[0]
            rest.remove(vira)
        mao = (self.dealer + 1) % self.players
        at_x = [s == rules.mao_de_x for s in self._score]
        kind = "ferro" if all(at_x) else "dez" if any(at_x) else "normal"
        dez_team = at_x.index(True) if kind == "dez" else None
        decider = None
        if dez_team is not None:
            decider = self._decision_seat(mao if mao % 2 == dez_team else (mao + 1) % self.players)
        blind = kind == "ferro" and self.options["ferro"] == "escuro"
        self.hand = {
            "kind": kind,
            "blind": blind,
            "vira": vira,
            "vira_visible": vira is not None and not blind,
            "stock": rest,
            "exchanged": [],
            "signals": [],
            "dez_team": dez_team,
            "decider": decider,
            "phase": "decide" if kind == "dez" else "play",
            "hands": [list(h) for h in hands],
            "rounds": [{"leader": mao, "plays": [], "result": None, "winner": None}],
            "turn": mao,
            "value": rules.ferro_value if kind == "ferro" else rules.start_value,
            "level": 0,
            "last_asker_team": None,
            "pending": None,
        }
        self.log.append({"type": "deal", "hand_number": self.hand_index + 1, "game_number": self.game_number,
                         "dealer": self.dealer, "mao": mao, "kind": kind, "score": list(self._score)})

    # ------------------------------------------------- what a seat sees (truco.view)
    HISTORY_HANDS = view.HISTORY_HANDS

    def observation(self, seat: int) -> dict:
        """Everything ``seat`` may know, and nothing else (:func:`truco.view.observation`)."""
        return view.observation(self, seat)

    def history(self, seat: int) -> list[dict]:
        """The earlier hands' public events (:func:`truco.view.history`)."""
        return view.history(self, seat)

    def events(self, seat: int | None = None, recent: bool = False) -> list[dict]:
        """The event log, as ``seat`` may see it (:func:`truco.view.events`)."""
        return view.events(self, seat, recent)

    # ------------------------------------------------------- the save (truco.persist)
    def to_dict(self) -> dict:
        """The save: how the match started and every move since (:func:`truco.persist.save_dict`)."""
        return persist.save_dict(self)

    def state_dict(self) -> dict:
        """The internal state, as version 1 saves held it (:func:`truco.persist.state_dict`)."""
        return persist.state_dict(self)

    def to_json(self) -> str:
        """The match as deterministic text: how it started (``start``: the arguments of
        :func:`new_game`, seed included, which decide every deal) and its ``moves``
        (``[seat, action]``). :meth:`from_json` replays the moves through the rules."""
        return persist.dumps(self)

    @classmethod
    def from_json(cls, text: str) -> "Game":
        """Rebuild a game from :meth:`to_json` (or a version-1 save); bad input raises
        ``ValueError`` saying what is wrong (:func:`truco.persist.loads`)."""
        return persist.loads(cls, text)

    def copy(self) -> "Game":
        """An independent copy (cheaper than a JSON round trip)."""
        g = Game.__new__(Game)
        for name in ("rules", "players", "seed", "hand_index", "dealer", "game_number",
                     "winner", "abandoned_by"):
            setattr(g, name, getattr(self, name))
        g.options = dict(self.options)
        g._score = list(self._score)
        g.games = list(self.games)
        g.auto_moves = list(self.auto_moves)
        g.log = list(self.log)
        g.start = self.start
        g.moves = list(self.moves)
        h = dict(self.hand)
        h["hands"] = [list(c) for c in h["hands"]]
        h["rounds"] = [dict(r, plays=[list(p) for p in r["plays"]]) for r in h["rounds"]]
        h["pending"] = dict(h["pending"]) if h["pending"] else None
        h["stock"] = list(h["stock"])
        h["exchanged"] = [dict(x, cards=list(x["cards"])) for x in h["exchanged"]]
        h["signals"] = [dict(x, caught_by=list(x["caught_by"])) for x in h["signals"]]
        g.hand = h
        return g

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} {self.players}p hand {self.hand_index + 1} "
                f"score {self._score[0]}x{self._score[1]} to_move={self.to_move}>")


__all__ = ["Game", "IllegalAction", "new_game", "team_of", "deal_for", "shuffled_deck", "PRESETS", "SIGNALS",
           "CATCH_CHANCE", "FORMAT", "FORMAT_VERSION", "OPTION_NAMES", "PLAYER_COUNTS", "SERIES_LENGTHS",
           "FERRO_MODES", "TIMER_SECONDS", "ANSWERS"]
