"""The heuristic bot of the three levels: fácil, médio, difícil.

One class, set by a :class:`LevelSettings` (the shipped ones: :data:`LEVEL_SETTINGS`). Every decision reads only the observation (through
:mod:`.knowledge`) and the bot's own ``random.Random``:

- **card play** (RULES.md §2–§4): fácil plays its best card first and ignores its partner;
  médio follows table rules (win cheaply, duck when the round is lost or the partner holds
  it, save the manilha, tie when a tie wins); difícil tries every distinct card (and a
  covered one) on sampled deals of the unseen cards and keeps the one that wins the hand
  most often.
- **raises and answers** (§5): the chance of winning the hand comes from sampled deals
  played out (:mod:`.simulate`); points are weighed by the chance of winning the game
  from the score they lead to (:mod:`.utility`), so "accept anything when running loses
  the game" falls out of the arithmetic. Difícil also reads the table: a raise, an accept
  or a mão de dez played by another seat reweights the sampled deals towards the hands
  that seat would do it with, at the rate that team has shown (:mod:`.opponents`), and it
  raises when the opponents' answers make it pay, bluffs included.
- **mão de dez** (§6): play or run by the same arithmetic, with the partner's cards known.
- **mão de ferro no escuro** (§6): nothing to choose; a random position.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Callable

from ..game import CATCH_CHANCE
from ..names import LEVELS, MANILHA_SIGNALS, STRENGTH_SIGNALS
from .betting_table import pick, shipped, state_keys
from .knowledge import COVERED, TIE, Knowledge, manilhas_of, read, strength_table
from ..cards import RANKS
from .opponents import RANDOM_PRIOR, Memory, TeamStats
from .perceive import beat_table, perceived
from .settled import settled
from .signal_play import taker_after
from .simulate import (VOID, outcomes_after_play, outcomes_from_state, sample_world, sample_worlds,
                       table_state)
from .utility import game_value


@dataclass(frozen=True)
class LevelSettings:
    """What makes a level: every knob of a :class:`HeuristicBot`. The shipped levels are
    :data:`LEVEL_SETTINGS`; a measuring tool builds another with
    ``dataclasses.replace(LEVEL_SETTINGS["dificil"], ...)`` and hands it to
    :func:`truco.bots.make` / :func:`truco.bots.for_move` (or the arena) in place of a
    level's name: nothing is patched."""

    name: str
    worlds: int
    """Sampled deals per decision."""
    card_play: str
    """``best_first``, ``rules`` or ``search``."""
    raise_at: float
    """Win chance from which a threshold bot asks for a raise."""
    accept_at: float
    """Win chance from which a threshold bot accepts."""
    reraise_at: float
    dez_at: float
    """Win chance from which a threshold bot plays a mão de dez."""
    score_aware: bool
    """Accept when running would lose the game."""
    reads_table: bool
    """Difícil: inference from other seats' raises/accepts and utility-based betting."""
    bluff: float
    """Chance of raising without the cards for it, where a bluff can work."""
    cover_rate: float
    """Chance of covering a card that loses the round anyway (hides weakness)."""
    edge: float = 0.5
    """The chance the bot expects to win a future hand: how much it values the rest of
    the game against gambling it on this hand (:mod:`.utility`)."""
    edge_2x2: float | None = None
    """``edge`` instead at a table of 4 (``None``: the same). Difícil's is 0.5 there (0.56
    elsewhere; both before ``noisy_edge`` moves them against a noisy team), issue 27: it
    gambles its lead a little more against a tight table, +3.2 +- 2.7 and +3.1 +- 2.7 points
    against ``honest`` (2 x 2 Mineiro, 1,000 mirrored games, seeds 1 and 2, paired),
    +1.0 +- 2.6 and +0.7 +- 2.5 against médio; in 1 x 1 it moved nothing against ``honest``
    (+0.0 +- 2.0) and lost against ``passive`` (-2.2 +- 1.9), so it stays at 0.56 there
    (bench/bots/arena_results.md)."""
    noisy_edge: float = 0.70
    """With ``reads_table``: the hand-win chance expected against a team that bets and
    plays at random."""
    shown_strength_margin: float = 0.2
    """With ``reads_table``: win chance taken off when opponents have shown strength this
    hand: even after the reweighting, sampled deals flattered us by 0.1 to 0.2 (measured
    against médio's raises). Scaled by the posterior that the bet was made on the cards
    at all, so a bet that is likelier a bluff (a noisy team's, or one the cards shown
    since belie) costs little: against ``random`` 2 x 2, +0.65 +- 0.61 and +1.10 +- 0.65
    points on two seeds of 2,000 mirrored games; against médio -0.65 +- 0.96 and
    -0.20 +- 1.04."""
    random_prior_floor: float = RANDOM_PRIOR
    """With ``reads_table``, the prior that a team acts at random (:data:`RANDOM_PRIOR`,
    :meth:`TeamStats.random_share`) where it says how much another team's raises and
    accepts tell of its cards (the floor of the bet reading)..."""
    random_prior_edge: float = RANDOM_PRIOR
    """...where it sets the hand-win chance expected of the hands to come (the game-value
    table)..."""
    random_prior_rollouts: float = RANDOM_PRIOR
    """...and where it sets how carelessly a team is played in the sampled deals."""
    first_hand_random_prior: float | None = None
    """The prior instead, in every one of those, while a team has been seen in its first
    normal hand only (``None``: no difference)."""
    late_card_careful: float | None = None
    """Count every card a team plays from the 2nd round of a normal hand (covered or
    face up) as evidence of random play, against a careful team covering this share of
    them (random play covers half), instead of its covers alone (``None``: covers alone)."""
    betting_table: bool = False
    """With ``reads_table``: look its raises and answers up in the shipped betting table
    (:mod:`.betting_table`; Mineiro 1 x 1 and 2 x 2 only) after deciding them."""
    table_min_answers: int = 3
    """The table is set aside against a team that answered this many raises without
    ever running (:meth:`HeuristicBot._table_fits`)..."""
    table_min_counters: int = 1
    """...or raised back this many without ever running (a team that folds weak hands
    raises back only its strong ones, and runs as often)..."""
    table_random_cap: float = 0.5
    """...or whose chance of acting at random is above this."""
    table_bluff_below: float = 0.5
    """A raise the table asks for and the bot's own arithmetic would not make, with a win
    chance below this (a bluff, or a thin one), waits until the other team has run from a
    raise in this match: a team that never folds makes every bluff pay
    (:meth:`HeuristicBot._should_raise`)."""
    table_hold_min_runs: int = 3
    """A raise difícil's own arithmetic makes and the table holds back is made anyway
    against a team that has run from this many raises without ever accepting or raising
    one back (0: never): the table's holds were learnt against teams that call with their
    strong hands, and against ``always-run`` they had cost the 2 x 2 row its bound."""
    sample_deals: Callable[[Knowledge, random.Random, int], list] = sample_worlds
    """How the unseen cards are dealt for a decision (a measuring tool may hand the bot
    the true deal)."""
    partner_signal_lie: float = 0.0
    """Share of the sampled deals in which a partner's signal is taken for a bluff (drawn
    ignoring it): a signal is evidence, never proof (issue 44). 0: every deal fits it."""
    caught_signal_lie: float = 0.0
    """The same for an opponent's signal this seat caught."""
    own_signal_caught: bool = False
    """Weigh that the other team may have caught this team's signal
    (:data:`truco.game.CATCH_CHANCE` per opponent) when reading its raises and accepts and
    when predicting its answers: knowing a partner holds the Zap, a player raises and
    calls only with more (:func:`own_signal_shift`)."""
    signals_in_bets: bool = True
    """False: raises, answers and the mão de dez are decided on deals drawn as if no
    signal had been seen, and the other team is read as if it could not have caught ours
    (the card play still uses them): the issue-44 bench's "difícil ignoring the
    signals"."""
    caught_zap_guard: bool = False
    """Never ask (or raise back) past the first step with a win chance under 0.5 when the
    seat that answers it signalled the Zap, this seat caught it and it is not played yet:
    an honest Zap never runs, so that raise only pays points (issue 44)."""

    def random_share(self, stats: TeamStats, use: str) -> float:
        """``stats``' chance of acting at random, with the prior of ``use`` (``floor``,
        ``edge`` or ``rollouts``)."""
        return stats.random_share(getattr(self, f"random_prior_{use}"), self.first_hand_random_prior,
                                  self.late_card_careful)


LEVEL_SETTINGS: dict[str, LevelSettings] = {
    "facil": LevelSettings("facil", worlds=16, card_play="best_first",
                           raise_at=0.82, accept_at=0.62, reraise_at=0.93, dez_at=0.6,
                           score_aware=False, reads_table=False, bluff=0.0, cover_rate=0.0),
    "medio": LevelSettings("medio", worlds=32, card_play="rules",
                           raise_at=0.70, accept_at=0.45, reraise_at=0.85, dez_at=0.48,
                           score_aware=True, reads_table=False, bluff=0.02, cover_rate=0.1),
    "dificil": LevelSettings("dificil", worlds=64, card_play="search",
                             raise_at=0.0, accept_at=0.0, reraise_at=0.0, dez_at=0.0,
                             score_aware=True, reads_table=True, bluff=0.07, cover_rate=0.4,
                             edge=0.56, edge_2x2=0.5, betting_table=True,
                             partner_signal_lie=0.05, caught_signal_lie=0.1, own_signal_caught=True,
                             caught_zap_guard=True),
}
assert tuple(LEVEL_SETTINGS) == LEVELS, "truco.names.LEVELS lists the levels"

BET_FLOOR = 0.03
"""Likelihood of a raise or an accept whatever the cards: bluffs exist."""
SOFTNESS = 0.05
"""Softness of a seat's decision around its threshold, in units of perceived win chance."""


def _weighted_quantile(values: list[float], weights: list[float], q: float) -> float:
    """The value below which a share ``q`` of the total weight lies."""
    order = sorted(range(len(values)), key=values.__getitem__)
    total = sum(weights)
    if total <= 0:
        return values[order[len(order) // 2]]
    acc = 0.0
    target = q * total
    for i in order:
        acc += weights[i]
        if acc >= target:
            return values[i]
    return values[order[-1]]


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


@dataclass(frozen=True)
class Thresholds:
    """How a team is expected to decide, in perceived win chance (see :func:`perceived`)."""

    raise_at: float
    accept_at: float
    counter_at: float


def thresholds(stats) -> Thresholds:
    """Thresholds of a team, shifted by how often it has run and raised back."""
    return Thresholds(
        raise_at=0.64,
        accept_at=_clamp(0.40 + 0.9 * (stats.run_rate() - 0.2), 0.03, 0.97),
        counter_at=_clamp(0.80 - 1.0 * (stats.counter_rate() - 0.2), 0.1, 0.97),
    )


def noise_of(stats: TeamStats, random_share: float | None = None) -> float:
    """How little a team's raises and accepts say about its cards, from 0 (a player who
    bets on its cards) to 1 (bets that are coin flips), from what it showed this match:
    careless card play, raises that lose at showdown, raising back far more often than an
    honest player does (one that always raises back says nothing by it), covering cards
    far more often than a careful player (one in five for random play), and bets seen
    made with a weak hand once its cards were shown. ``random_share``: the team's chance of
    acting at random, if not :meth:`TeamStats.random_share` with the shipped prior."""
    care = stats.carelessness(prior=0.05)  # evidence only, no benefit of doubt
    bluffy = _clamp((0.8 - stats.honesty()) / 0.45, 0.0, 1.0)
    counters = _clamp((stats.counter_rate() - 0.22) / 0.25, 0.0, 1.0)
    weak = _clamp((stats.bluff_share() - 0.1) / 0.3, 0.0, 1.0)
    covers = _clamp((stats.cover_share() - 0.06) / 0.1, 0.0, 1.0)
    if random_share is None:
        random_share = stats.random_share()
    return max(care, bluffy, counters, weak, covers, random_share)


PARTNER = Thresholds(raise_at=0.62, accept_at=0.42, counter_at=0.8)
"""What a bot assumes of its partner: a tight, honest player."""

SIGNAL_SHIFT = {"zap": 0.25, "copas": 0.18, "espadilha": 0.14, "pica-fumo": 0.10, "tres": 0.04, "nada": -0.08}
"""How much a seat's perceived win chance moves when it knows the other team's signal
(issue 44): knowing an opponent holds the Zap, a hand judged 0.7 plays like one judged
0.45; knowing it holds nothing ('nada'), like a slightly better one. Used as the second
branch of a likelihood mixture (:func:`own_signal_shift`), never as a certainty."""


def _deal_start(log: list[dict]) -> int:
    for i in range(len(log) - 1, -1, -1):
        if log[i]["type"] == "deal":
            return i
    return 0


def signal_card(known: Knowledge, signal: str) -> int | None:
    """The strength of the manilha ``signal`` names in this hand, or ``None``."""
    manilhas = manilhas_of(known.obs)
    if signal in MANILHA_SIGNALS and len(manilhas) == 4:
        return known.strength[manilhas[MANILHA_SIGNALS.index(signal)]]
    return None


def signal_live(known: Knowledge, seat: int, signal: str, before: int | None = None) -> bool:
    """Whether what ``seat`` signalled still says something about the cards it holds: the
    manilha (or the three) it named is not played face up yet (before log position
    ``before``); 'nada' always."""
    shown = [v for p, v in known.played.get(seat, []) if before is None or p < before]
    v = signal_card(known, signal)
    if v is not None:
        return v not in shown
    if signal == "tres":
        return RANKS.index("3") not in shown
    return signal == "nada"


def own_signal_shift(known: Knowledge, before: int | None = None) -> tuple[float, float]:
    """``(chance, shift)``: the chance that one seat of the other team caught a signal of
    this seat's team still live (before log position ``before``), and how much that moves
    its perceived win chance (:data:`SIGNAL_SHIFT`, the largest of them). A seat catches
    each signal with :data:`truco.game.CATCH_CHANCE` (the engine's rule, public): the
    signaller's team never learns during the hand whether it was caught (issue 44)."""
    log = known.obs.get("log") or []
    shifts = []
    for i in range(_deal_start(log), len(log) if before is None else min(before, len(log))):
        e = log[i]
        if e["type"] == "signal" and e["seat"] % 2 == known.team and e.get("signal") in SIGNAL_SHIFT:
            if signal_live(known, e["seat"], e["signal"], before):
                shifts.append(SIGNAL_SHIFT[e["signal"]])
    if not shifts:
        return 0.0, 0.0
    return 1.0 - (1.0 - CATCH_CHANCE) ** len(shifts), max(shifts, key=abs)


def caught_zap(known: Knowledge, seat: int) -> bool:
    """``seat``, of the other team, signalled the Zap, this seat caught it, and the Zap is
    not played yet."""
    if seat % 2 == known.team or signal_card(known, "zap") not in known.pool:
        return False  # ours, or the Zap is seen elsewhere (in this hand, face up): a lie
    return any(x.get("seat") == seat and x.get("signal") == "zap" and signal_live(known, seat, "zap")
               for x in known.obs.get("signals") or [])


def dead_bet(obs: dict, action: str) -> bool:
    """Whether ``action`` is a dead bet from ``obs``'s seat (issue 27, :mod:`.settled`):
    an accept or a raise back (or playing a mão de dez) when every way the hand can still
    go loses it from the seat's view; a raise on its turn when the face-up cards alone
    settle the hand against it; a run when every way wins from the seat's view."""
    answering = bool(obs.get("pending") or obs.get("decision"))
    team = obs["seat"] % 2
    if action == "run":
        return settled(obs) == team
    if action == "accept" or (action == "raise" and answering):
        return settled(obs) == 1 - team
    if action == "raise":
        return settled(obs, public=True) == 1 - team
    return False


def no_dead_bet(obs: dict, action: str) -> str:
    """``action``, or the bet every way of playing the hand calls for when ``action`` is a
    dead bet: run from a lost hand, take (raising back when the ladder allows it) a won
    one, play a card instead of asking for a publicly lost one."""
    if action not in ("run", "accept", "raise") or not dead_bet(obs, action):
        return action
    legal = obs["legal_actions"]
    if action == "run":
        return "raise" if "raise" in legal and obs.get("pending") else "accept"
    if obs.get("pending") or obs.get("decision"):
        return "run"
    plays = [a for a in legal if a.startswith("play ")]
    return plays[0] if plays else action


class HeuristicBot:
    """A bot of one level. ``choose(observation) -> action``.

    **Reusable.** ``choose`` keeps nothing between calls that changes its choice: what it
    knows of the other team (:class:`Memory`) is rebuilt from each observation's ``history``
    and ``log``, and the per-decision state (sampled rollouts' noise, the margin for shown
    strength) is reset, so one object kept for a whole match chooses exactly what a new
    object given the same RNG state would (``tests/bots/test_bots_reuse.py``).

    **No dead bets** (:mod:`.settled`, exact): it never accepts or raises back when every
    way the hand can still go loses it from its own view, never asks for a raise when the
    face-up cards alone settle the hand against it, and never runs when every way wins."""

    def __init__(self, settings: LevelSettings, rng: random.Random) -> None:
        # Per decision: set by sampled_deals (and _infer) for the methods that follow it,
        # and reset by choose() before every decision, with the memory of the table.
        self._rollout_noise: list[float] | None = None
        self._rollout_coins: list[list[float]] | None = None
        self._rollout_covers: list[float] | None = None
        self._margin = 0.0
        """Win chance taken off for the strength opponents showed (set by _infer)."""
        self._no_signals = False
        """Per decision: this bet is decided as if no signal had been seen (the setting
        ``signals_in_bets`` off, :meth:`_bet_view`)."""
        self._why: dict = {}
        """Per decision: the inputs of the bet being decided (win chance, what decided it),
        for :meth:`_bet_reason`."""
        self.last_reason: dict | None = None
        """The reason for the last bet ``choose`` returned (a raise, an accept, a run, the
        mão de dez), ``{"key": "bet.…", "params": {…}, "fallback": {…}}``, or ``None``
        for a card (:meth:`_bet_reason`)."""
        self.settings = settings
        self.level = settings.name
        self.rng = rng
        self.memory = Memory()

    # ----------------------------------------------------------------- entry
    def choose(self, obs: dict) -> str:
        """The action for this observation (always one of ``obs['legal_actions']``)."""
        legal = obs["legal_actions"]
        if not legal:
            raise ValueError("the observation has no legal action: it is not this seat's turn")
        # nothing of an earlier call may change this one (the class docstring)
        self.memory = Memory()
        self._rollout_noise = self._rollout_coins = self._rollout_covers = None
        self._margin = 0.0
        self._no_signals = False
        self._why = {}
        self.last_reason = None
        if self.settings.reads_table:
            self.memory.update(obs, strength_table(manilhas_of(obs)), manilhas_of(obs))
        if len(legal) == 1:
            return legal[0]
        known = read(obs)
        if known.blind:  # mão de ferro no escuro: every position is the same to us (§6)
            return self.rng.choice(legal)
        if obs.get("decision"):
            action = self._decide_dez(known)
        elif obs.get("pending"):
            action = self._answer(known, obs["pending"], legal)
        else:
            action = self._turn(known, legal)
        chosen = action
        action = no_dead_bet(obs, action)
        if action not in legal:  # defensive: never hand the engine an illegal move
            action = legal[0]
        if action in ("raise", "accept", "run"):
            self.last_reason = self._bet_reason(known, action, settled_by_cards=action != chosen)
        return action

    # ------------------------------------------------------------- utilities
    def _game_values(self, known: Knowledge):
        edge = self.settings.edge
        if known.players == 4 and self.settings.edge_2x2 is not None:
            edge = self.settings.edge_2x2
        if self.settings.reads_table:
            # against a team whose bets are noise or whose card play is careless we are
            # the better side: expect more of the hands to come and gamble the lead less
            # (following the hands won instead was measured weaker: a game is too short)
            them = self.memory.teams[1 - known.team]
            edge += (self.settings.noisy_edge - edge) * noise_of(them, self.settings.random_share(them, "edge"))
            edge = round(edge * 50) / 50  # steps of 0.02: few game-value tables to build
        return game_value(known.obs["rules"], edge)

    def _value_after(self, known: Knowledge, outcome: int, value: int) -> float:
        values = self._game_values(known)
        if outcome == VOID:
            return values.win_prob(known.score_us, known.score_them)
        if outcome == known.team:
            return values.win_prob(known.score_us + value, known.score_them)
        return values.win_prob(known.score_us, known.score_them + value)

    def _expected_value(self, known: Knowledge, outcomes: list[int], weights: list[float], value: int,
                shrink: float = 0.0) -> float:
        """Expected game value of playing the hand out for ``value`` points; ``shrink``
        moves that much win chance to the opponents (a margin against over-confidence)."""
        values = self._game_values(known)
        if_won = values.win_prob(known.score_us + value, known.score_them)
        if_lost = values.win_prob(known.score_us, known.score_them + value)
        if_void = values.win_prob(known.score_us, known.score_them)
        tot = win = void = 0.0
        for o, w in zip(outcomes, weights):
            tot += w
            if o == VOID:
                void += w
            elif o == known.team:
                win += w
        if not tot:
            return if_void
        p_win = max(0.0, win / tot - shrink)
        p_void = void / tot
        return p_win * if_won + p_void * if_void + (1.0 - p_win - p_void) * if_lost

    # sampled_deals, outcomes_from_state and win_chance are public: the measuring sticks
    # (bots/sticks.py) build their betting on the same estimate of a hand.
    @staticmethod
    def win_chance(known: Knowledge, outcomes: list[int], weights: list[float]) -> float:
        tot = 0.0
        acc = 0.0
        for o, w in zip(outcomes, weights):
            tot += w
            acc += w * (0.5 if o == VOID else 1.0 if o == known.team else 0.0)
        return acc / tot if tot else 0.5

    def sampled_deals(self, known: Knowledge):
        settings = self.settings
        if (known.checks and settings.sample_deals is sample_worlds
                and (settings.partner_signal_lie or settings.caught_signal_lie)):
            worlds = [self._sample_doubting(known) for _ in range(settings.worlds)]
        else:
            worlds = settings.sample_deals(known, self.rng, settings.worlds)
        self._rollout_noise = None
        self._rollout_coins = None
        self._rollout_covers = None
        if self.settings.reads_table:
            weights = self._infer(known, worlds)
            them = self.memory.teams[1 - known.team]
            care = max(them.carelessness(), self.settings.random_share(them, "rollouts"))
            if care > 0.05:
                self._rollout_noise = [care if s % 2 != known.team else 0.0 for s in range(known.players)]
                if known.obs.get("hand_kind", "normal") == "normal":
                    # the covers it was seen to make, as a share of its careless cards
                    cover = min(1.0, them.late_cover_share() / care)
                    self._rollout_covers = [cover if s % 2 != known.team else 0.0 for s in range(known.players)]
                rnd = self.rng.random
                m = 6 * known.players
                self._rollout_coins = [[rnd() for _ in range(m)] for _ in worlds]
        else:
            weights = [1.0] * len(worlds)
        return worlds, weights

    def _sample_doubting(self, known: Knowledge) -> list[list[int]]:
        """One deal of the unseen cards in which each signal seen is believed, or, in a
        share of the deals (``partner_signal_lie``, ``caught_signal_lie``), taken for a
        bluff and ignored: a likelihood, never a certainty (issue 44)."""
        s = self.settings
        doubted = [seat for seat in known.checks
                   if self.rng.random() < (s.partner_signal_lie if seat % 2 == known.team else s.caught_signal_lie)]
        if doubted:
            known = replace(known, checks={x: t for x, t in known.checks.items() if x not in doubted},
                            musts={x: v for x, v in known.musts.items() if x not in doubted})
        return sample_world(known, self.rng)

    def _bet_view(self, known: Knowledge) -> Knowledge:
        """``known`` for a bet: itself, or without any signal with ``signals_in_bets`` off."""
        if self.settings.signals_in_bets or not (known.checks or known.musts):
            return known
        self._no_signals = True
        return replace(known, checks={}, musts={})

    def _outcomes_after_play(self, known: Knowledge, worlds, removed: int, shown: int) -> list[int]:
        return outcomes_after_play(known, worlds, removed, shown, self._rollout_noise, self._rollout_coins,
                                   self._rollout_covers)

    def outcomes_from_state(self, known: Knowledge, worlds) -> list[int]:
        return outcomes_from_state(known, worlds, self._rollout_noise, self._rollout_coins, self._rollout_covers)

    # ------------------------------------------------------------- inference
    def _beat_table(self, known: Knowledge) -> tuple[float, ...]:
        return beat_table(manilhas_of(known.obs))

    def _infer(self, known: Knowledge, worlds: list[list[list[int]]]) -> list[float]:
        """Reweight sampled deals by how likely each seat's visible choices were in them.

        A seat that raised, accepted, raised back or played a mão de dez is taken to do so
        when its perceived chance (:func:`perceived`) passes its team's threshold, with a
        floor for bluffs.
        """
        weights = [1.0] * len(worlds)
        log = known.obs.get("log") or []
        start = 0
        for i in range(len(log) - 1, -1, -1):
            if log[i]["type"] == "deal":
                start = i
                break
        pending = False
        results: list[int] = []
        events: list[tuple[int, int, float, list[int]]] = []  # position, seat, threshold, results
        for i in range(start + 1, len(log)):
            e = log[i]
            t = e["type"]
            if t == "round":
                r = e["result"]
                results.append(TIE if r == "tie" else r % 2 if isinstance(r, int) else TIE)
                continue
            if t == "run":
                pending = False
                continue
            if t not in ("raise", "accept"):
                continue
            s = e["seat"]
            counter = t == "raise" and pending
            pending = t == "raise"
            if s == known.seat or s not in known.unknown_sizes:
                continue
            their = PARTNER if s % 2 == known.team else thresholds(self.memory.teams[s % 2])
            if e.get("mao_de_dez"):
                threshold = 0.45
            elif t == "raise":
                threshold = their.counter_at if counter else their.raise_at
            else:
                threshold = their.accept_at
            events.append((i, s, threshold, list(results)))
        self._margin = 0.0
        if not events:
            return weights
        beat = self._beat_table(known)
        n = known.players
        honest = 0.0  # how credible the likeliest honest reading of an opponent's bet is
        for pos, s, threshold, res in events:
            later = [v for (p, v) in known.played.get(s, []) if p > pos]
            team = s % 2
            # a careless card player is taken to bet carelessly too: its choices say less
            if team == known.team:
                floor = BET_FLOOR
            else:
                stats = self.memory.teams[team]
                noise = noise_of(stats, self.settings.random_share(stats, "floor"))
                floor = noise + (1.0 - noise) * BET_FLOOR
            # the other team may have caught our signal: then it bet knowing our card
            caught, shift = (own_signal_shift(known, pos) if team != known.team and self._own_caught()
                             else (0.0, 0.0))
            fits = 0.0
            for j, w in enumerate(worlds):
                chance = perceived(w[s] + later, res, team, n, beat)
                fit = _sigmoid((chance - threshold) / SOFTNESS)
                if caught:
                    fit = (1.0 - caught) * fit + caught * _sigmoid((chance - shift - threshold) / SOFTNESS)
                fits += fit
                weights[j] *= floor + (1.0 - floor) * fit
            if team != known.team:
                # posterior that this bet was made on the cards rather than regardless of
                # them: low for a noisy team, and low when the cards it has shown since
                # leave few hands it would have made it with
                on_cards = (1.0 - floor) * fits / len(worlds)
                honest = max(honest, on_cards / (on_cards + floor) if on_cards else 0.0)
        self._margin = self.settings.shown_strength_margin * honest
        return weights

    @staticmethod
    def _raised_this_hand(known: Knowledge, team: int) -> bool:
        log = known.obs.get("log") or []
        for i in range(len(log) - 1, -1, -1):
            e = log[i]
            if e["type"] == "deal":
                return False
            if e["type"] == "raise" and e["seat"] % 2 == team:
                return True
        return False

    def _responses(self, known: Knowledge, worlds, weights, seat: int) -> list[tuple[float, float, float]]:
        """Per deal, (run, accept, raise back) chances of ``seat`` answering a request.

        The seat is taken to run with its weakest hands and raise back with its best, at
        the rates its team has shown: the thresholds are quantiles of its perceived
        chance over the sampled deals, so they follow the situation.
        """
        stats = self.memory.teams[seat % 2]
        beat = self._beat_table(known)
        chances = [perceived(w[seat], known.results, seat % 2, known.players, beat) for w in worlds]
        run_rate = stats.run_rate()
        if self._raised_this_hand(known, seat % 2):
            run_rate *= 0.3  # a team that asked for more this hand seldom runs from it
        q_run = _weighted_quantile(chances, weights, _clamp(run_rate, 0.01, 0.99))
        q_up = _weighted_quantile(chances, weights, _clamp(1.0 - stats.counter_rate(), 0.01, 0.99))
        q_up = max(q_up, q_run)
        care = stats.carelessness()
        flat_up = stats.counter_rate()
        flat_run = min(run_rate, 1.0 - flat_up)
        # the answerer may have caught our signal: then it answers as if its hand were worse
        caught, shift = own_signal_shift(known) if self._own_caught() else (0.0, 0.0)
        out = []
        for x in chances:
            go = _sigmoid((x - q_run) / SOFTNESS)
            up = go * _sigmoid((x - q_up) / SOFTNESS)
            if caught:
                go2 = _sigmoid((x - shift - q_run) / SOFTNESS)
                up = (1.0 - caught) * up + caught * go2 * _sigmoid((x - shift - q_up) / SOFTNESS)
                go = (1.0 - caught) * go + caught * go2
            run = (1.0 - care) * (1.0 - go) + care * flat_run
            up = (1.0 - care) * up + care * flat_up
            out.append((run, 1.0 - run - up, up))
        return out

    def _own_caught(self) -> bool:
        return self.settings.own_signal_caught and not self._no_signals

    # ---------------------------------------------------------------- reasons
    def _bet_reason(self, known: Knowledge, action: str, settled_by_cards: bool) -> dict | None:
        """Why this bet, in the terms it was decided on (issue 44): the win chance the bot
        weighed (``pct``), what decided it (running loses the game, the cards already
        settle the hand, a bluff and the runs that invite it), and the signals that moved
        the chance (a partner's, one caught from the other team). ``{"key": "bet.…",
        "params": {…}, "fallback": {…}}``: ``fallback`` says the same without the facts
        another seat may not have seen (this seat's cards, a signal), for a reader that
        must not see them (the hand review shows only what the person saw,
        :func:`truco.api._history`). A parameter ``cards`` lists this seat's cards,
        ``seat`` the seat whose signal is named, ``team`` the team that ran."""
        obs = known.obs
        why = self._why
        if settled_by_cards:
            return {"key": "bet.settled.lost" if action == "run" else "bet.settled.won", "params": {}}
        p = why.get("p")
        if p is None:
            return None
        pct = int(round(100 * p))
        value = (obs.get("pending") or {}).get("value", known.value)
        signals = [x for x in obs.get("signals") or [] if x.get("seat") is not None]
        mine = next((x["signal"] for x in signals if x["seat"] == known.seat), None)
        partner = next((x for x in signals if x["seat"] != known.seat and x["seat"] % 2 == known.team), None)
        caught = [x for x in signals if x["seat"] % 2 != known.team
                  and x.get("signal") in STRENGTH_SIGNALS and signal_live(known, x["seat"], x["signal"])]
        plain = {"key": "bet.accept.value", "params": {"pct": pct}}
        if obs.get("decision"):
            rules = obs["rules"]
            if action == "accept" and why.get("must"):
                return {"key": "bet.dez.must", "params": {"gives": rules["mao_de_x_run_gives"]}}
            return {"key": "bet.dez.play" if action == "accept" else "bet.dez.run", "params": {"pct": pct}}
        if action == "accept":
            if why.get("must"):
                return {"key": "bet.accept.must", "params": {"gives": known.value}}
            if p < 0.5:
                return {"key": "bet.accept.odds", "params": {"pct": pct, "gives": known.value, "value": value}}
            if mine == "nada":  # what it signalled, and why it accepts anyway
                return {"key": "bet.accept.nada", "params": {"pct": pct}}
            return self._with_facts("accept", known, partner, pct, plain)
        if action == "run":
            plain = {"key": "bet.run.odds" if p < 0.5 else "bet.run.price", "params": {"pct": pct, "value": value}}
            if caught:
                x = caught[0]
                return {"key": "bet.run.caught", "params": {"seat": x["seat"], "signal": x["signal"], "pct": pct},
                        "fallback": plain}
            if partner and partner["signal"] == "nada":
                return {"key": "bet.run.nada", "params": {"seat": partner["seat"], "pct": pct}, "fallback": plain}
            return plain
        # a raise: on its turn, or back
        if p < 0.5:
            them = self.memory.teams[1 - known.team]
            bluff = {"key": "bet.raise.bluff", "params": {"pct": pct}}
            if them.runs:
                bluff = {"key": "bet.raise.bluff_run" if them.runs == 1 else "bet.raise.bluff_runs",
                         "params": {"pct": pct, "runs": them.runs, "team": 1 - known.team}}
            zap = next((x["seat"] for x in caught if x["signal"] == "zap"), None)
            if zap is not None:
                return {"key": "bet.raise.bluff_zap", "params": {"pct": pct, "seat": zap}, "fallback": bluff}
            return bluff
        if mine == "nada":
            return {"key": "bet.raise.nada", "params": {"pct": pct}}
        return self._with_facts("raise", known, partner, pct, {"key": "bet.raise.value", "params": {"pct": pct}})

    def _with_facts(self, kind: str, known: Knowledge, partner: dict | None, pct: int, plain: dict) -> dict:
        """A bet made on strength: the partner's strength signal when this seat's own cards
        are not (no manilha, no three), else this seat's good cards."""
        manilhas = manilhas_of(known.obs)
        good = sorted((c for c in known.hand if c in manilhas or c[0] == "3"),
                      key=lambda c: -known.strength[c])
        if partner and partner["signal"] in STRENGTH_SIGNALS and not good:
            return {"key": f"bet.{kind}.partner",
                    "params": {"seat": partner["seat"], "signal": partner["signal"], "pct": pct}, "fallback": plain}
        cards = good or sorted(known.hand, key=lambda c: -known.strength[c])[:1]
        if not cards:
            return plain
        return {"key": f"bet.{kind}.value_cards", "params": {"cards": cards, "pct": pct}, "fallback": plain}

    def _raise_ev(self, known: Knowledge, worlds, weights, outcomes, answerer: int,
                  v_now: int, v_up: int, v_next: int | None) -> float:
        """Expected game value of asking ``v_up`` now (the hand being worth ``v_now``):
        the answerer runs, accepts, or raises back to ``v_next`` (then we take the better
        of running and accepting, judged on the deals where it would raise back)."""
        responses = self._responses(known, worlds, weights, answerer)
        tot = sum(weights)
        if not tot:
            return self._value_after(known, known.team, v_now)
        w_run = [w * r[0] for w, r in zip(weights, responses)]
        w_acc = [w * r[1] for w, r in zip(weights, responses)]
        w_up = [w * r[2] for w, r in zip(weights, responses)]
        s_run, s_acc, s_up = sum(w_run), sum(w_acc), sum(w_up)
        ev = s_run * self._value_after(known, known.team, v_now)
        if s_acc:
            ev += s_acc * self._expected_value(known, outcomes, w_acc, v_up, self._margin + 0.04)
        if s_up:
            if v_next is None:
                ev += s_up * self._expected_value(known, outcomes, w_up, v_up, self._margin + 0.04)
            else:
                ev += s_up * max(self._value_after(known, 1 - known.team, v_up),
                                 self._expected_value(known, outcomes, w_up, v_next, self._margin + 0.1))
        return ev / tot

    # ------------------------------------------------------------- mão de dez
    def _decide_dez(self, known: Knowledge) -> str:
        """RULES.md §6: play for mão_de_x_value or give the opponents mao_de_x_run_gives."""
        rules = known.obs["rules"]
        known = self._bet_view(known)
        worlds, weights = self.sampled_deals(known)
        outcomes = self.outcomes_from_state(known, worlds)
        p = self.win_chance(known, outcomes, weights)
        self._why = {"p": p}
        if self.settings.reads_table or self.settings.score_aware:
            play = self._expected_value(known, outcomes, weights, rules["mao_de_x_value"])
            run = self._value_after(known, 1 - known.team, rules["mao_de_x_run_gives"])
            self._why["must"] = run == 0.0
            if not self.settings.reads_table:
                return "accept" if p >= self.settings.dez_at or play >= run + 0.05 else "run"
            return "accept" if play >= run else "run"
        return "accept" if p >= self.settings.dez_at else "run"

    # ------------------------------------------------------------------ answer
    def _answer(self, known: Knowledge, pending: dict, legal: list[str]) -> str:
        """RULES.md §5: accept, run (the askers score the current value) or raise back."""
        settings = self.settings
        known = self._bet_view(known)
        worlds, weights = self.sampled_deals(known)
        outcomes = self.outcomes_from_state(known, worlds)
        v_now = known.value
        p = self.win_chance(known, outcomes, weights)
        must = self._value_after(known, 1 - known.team, v_now) == 0.0
        self._why = {"p": p, "must": must and (settings.score_aware or settings.reads_table)}
        if settings.reads_table:
            action = self._answer_by_value(known, pending, legal, worlds, weights, outcomes)
            if self._table_in_use(known) is not None:
                # a table's state lumps spots together: its "run" never stands where running
                # hands the other team the game (RULES.md §5, §7)
                options = [a for a in ("run", "accept", "raise") if a in legal and not (a == "run" and must)]
                action = self._table_action("answer", known, p, pending["value"], action, options)
            if action == "raise" and self._zap_blocks(known, p, pending["asker"]):
                # raising back into a Zap we saw: take the better of the other two
                action = "accept" if self._why.get("accept_ev", 1.0) >= self._why.get("run_ev", 0.0) else "run"
                self._why["zap_held"] = True
            return action
        if settings.score_aware and must:
            # running loses the game: play on, and raise if there is anything to gain
            return "raise" if "raise" in legal and p >= 0.5 else "accept"
        if "raise" in legal and p >= settings.reraise_at:
            return "raise"
        return "accept" if p >= settings.accept_at else "run"

    def _zap_blocks(self, known: Knowledge, p: float, answerer: int) -> bool:
        """``caught_zap_guard``: a raise past the first step, with a win chance under 0.5,
        that ``answerer`` would answer holding a Zap this seat saw it signal."""
        nxt = known.obs.get("next_raise")
        if not (self.settings.caught_zap_guard and nxt and p < 0.5) or self._no_signals:
            return False
        ladder = [step["value"] for step in known.obs["rules"]["ladder"]]
        return nxt["value"] in ladder[1:] and caught_zap(known, answerer)

    def _answer_by_value(self, known: Knowledge, pending: dict, legal: list[str],
                         worlds, weights, outcomes) -> str:
        """Difícil's answer: run, accept or raise back, whichever is worth most in games won
        (the score after the hand), from these sampled deals and their outcomes."""
        v_ask = pending["value"]
        nxt = known.obs.get("next_raise")
        run = self._value_after(known, 1 - known.team, known.value)
        acc = self._expected_value(known, outcomes, weights, v_ask, self._margin)
        self._why.update(run_ev=run, accept_ev=acc)
        best, action = run, "run"
        if acc >= best:
            best, action = acc, "accept"
        if "raise" in legal and nxt:
            ladder = [step["value"] for step in known.obs["rules"]["ladder"]]
            i = ladder.index(nxt["value"])
            v_next = ladder[i + 1] if i + 1 < len(ladder) else None
            ev = self._raise_ev(known, worlds, weights, outcomes, pending["asker"], v_ask,
                                nxt["value"], v_next)
            if ev > best + 0.005:
                action = "raise"
        return action

    # -------------------------------------------------------------------- turn
    def _turn(self, known: Knowledge, legal: list[str]) -> str:
        settings = self.settings
        # never ask for more of a hand the face-up cards alone have lost (a dead bet)
        can_raise = "raise" in legal and settled(known.obs, public=True) != 1 - known.team
        if settings.card_play == "search":
            worlds, weights = self.sampled_deals(known)
            card, covered, outcomes = self._search_card(known, legal, worlds, weights)
        else:
            card, covered = (self._best_first(known) if settings.card_play == "best_first"
                             else self._rules_card(known))
            outcomes = None
            if can_raise:
                worlds, weights = self.sampled_deals(known)
                s = known.strength[card]
                outcomes = self._outcomes_after_play(known, worlds, s, COVERED if covered else s)
        if can_raise:
            bet = self._bet_view(known)
            if bet is not known:  # the bet decided as if no signal had been seen
                worlds, weights = self.sampled_deals(bet)
                s = bet.strength[card]
                outcomes = self._outcomes_after_play(bet, worlds, s, COVERED if covered else s)
            if self._should_raise(bet, worlds, weights, outcomes):
                return "raise"
        if covered and ("cover " + card) in legal:
            return "cover " + card
        return "play " + card

    def _should_raise(self, known: Knowledge, worlds, weights, outcomes) -> bool:
        """Whether to ask for a raise on its turn: by value (:meth:`_raise_by_value`), then
        the betting table where it has the state."""
        p = self.win_chance(known, outcomes, weights)
        self._why = {"p": p}
        raises = self._table_raise(known, p, worlds, weights, outcomes)
        if raises and self._zap_blocks(known, p, (known.seat + 1) % known.players):
            self._why["zap_held"] = True
            return False
        return raises

    def _table_raise(self, known: Knowledge, p: float, worlds, weights, outcomes) -> bool:
        default = self._raise_by_value(known, worlds, weights, outcomes)
        nxt = known.obs.get("next_raise")
        if not nxt or self._table_in_use(known) is None:
            return default
        raises = self._table_action("ask", known, p, nxt["value"], "raise" if default else "play",
                                    ["raise", "play"]) == "raise"
        them = self.memory.teams[1 - known.team]
        if raises and not default and p < self.settings.table_bluff_below:
            # the table's bluffs were learnt against teams that fold: not before this one has
            return them.runs > 0
        hold_until = self.settings.table_hold_min_runs
        if default and not raises and hold_until and them.runs >= hold_until and not them.accepts + them.counters:
            # the table's holds were learnt against teams that call with strong hands
            return True
        return raises

    # ----------------------------------------------------------- betting table
    def _betting_table(self, known: Knowledge) -> dict | None:
        """The betting table this bot consults at this table (:mod:`.betting_table`), or
        ``None``: the level does not read one, or none is shipped for this preset and table
        size (Mineiro 1 x 1 and 2 x 2 only; 2 x 2 with sinais has a table of its own)."""
        if not (self.settings.reads_table and self.settings.betting_table):
            return None
        sinais = bool((known.obs.get("options") or {}).get("sinais"))
        return shipped(known.obs["rules"]["name"], known.players, sinais)

    def _table_in_use(self, known: Knowledge) -> dict | None:
        """The betting table for this decision: :meth:`_betting_table`, unless the other
        team does not play like the teams it was learnt against (:meth:`_table_fits`) or
        this seat caught one of its signals, still live (:meth:`_caught_theirs`)."""
        table = self._betting_table(known)
        return table if table is not None and self._table_fits(known) and not self._caught_theirs(known) else None

    def _caught_theirs(self, known: Knowledge) -> bool:
        """This seat caught a signal of the other team that still tells of a hand (a 'nada'
        always): its own arithmetic, which weighs it, decides. A table's state knows only
        the bot's win chance, and an entry learnt where a first-turn truco was mostly made
        on strength runs from one the asker's caught 'nada' shows to be a bluff (issue 44)."""
        if self._no_signals:
            return False
        return any(x["seat"] % 2 != known.team and signal_live(known, x["seat"], x["signal"])
                   for x in known.obs.get("signals") or [] if x.get("seat") is not None)

    def _table_fits(self, known: Knowledge) -> bool:
        """Whether the other team plays like the teams the betting table was learnt against
        (which fold weak hands and play their cards). Against a team that has answered
        :attr:`LevelSettings.table_min_answers` raises or more, or raised back
        :attr:`LevelSettings.table_min_counters`, without ever running, or that looks random
        (:meth:`LevelSettings.random_share` above ``table_random_cap``), the table's
        bluffs and thin raises lose: difícil's own arithmetic, which reads those rates,
        decides instead (issue 27: the tables had cost 4-6 points against
        ``always-accept``)."""
        them = self.memory.teams[1 - known.team]
        if them.runs == 0 and (them.answers() >= self.settings.table_min_answers
                               or them.counters >= self.settings.table_min_counters):
            return False
        return self.settings.random_share(them, "floor") <= self.settings.table_random_cap

    read_entry = staticmethod(pick)
    """How an entry of the betting table becomes an action: a draw from the bot's RNG
    (:func:`.betting_table.pick`); the Dica reads its likeliest action instead
    (:func:`.betting_table.likeliest`, ``truco.bots.explain``)."""

    def _table_action(self, kind: str, known: Knowledge, p: float, step: int, default: str,
                      options: list[str]) -> str:
        """``default`` (the bot's own decision), or the betting table's action for the
        state (read by :attr:`read_entry`)."""
        keys = state_keys(kind, known, p, step)
        return self.read_entry(self._betting_table(known) or {}, keys, default, options, self.rng)

    def _raise_by_value(self, known: Knowledge, worlds, weights, outcomes) -> bool:
        settings = self.settings
        nxt = known.obs.get("next_raise")
        if not nxt:
            return False
        if not settings.reads_table:
            p = self.win_chance(known, outcomes, weights)
            if p >= settings.raise_at:
                return True
            return known.round_index >= 1 and p < 0.3 and self.rng.random() < settings.bluff
        v_now, v_up = known.value, nxt["value"]
        ladder = [step["value"] for step in known.obs["rules"]["ladder"]]
        i = ladder.index(v_up)
        v_next = ladder[i + 1] if i + 1 < len(ladder) else None
        stay = self._expected_value(known, outcomes, weights, v_now, self._margin)
        answerer = (known.seat + 1) % known.players
        ev = self._raise_ev(known, worlds, weights, outcomes, answerer, v_now, v_up, v_next)
        if ev > stay + 0.003:
            return True
        # a measured bluff, where a run is plausible and it costs little
        them = self.memory.teams[1 - known.team]
        if settings.bluff and known.round_index >= 1 and them.run_rate() > 0.3 and ev > stay - 0.04:
            return self.rng.random() < settings.bluff
        return False

    # ------------------------------------------------------------- card play
    def _cards_by_strength(self, known: Knowledge) -> list[str]:
        return sorted(known.hand, key=lambda c: (known.strength[c], c))

    def _best_first(self, known: Knowledge) -> tuple[str, bool]:
        """Fácil: lead with the best card; follow with the best card if it wins, else the
        weakest. Does not look at who holds the round."""
        cards = self._cards_by_strength(known)
        if not known.plays:
            return cards[-1], False
        best, _ = table_state(known.plays)
        if known.strength[cards[-1]] > best:
            return cards[-1], False
        return cards[0], False

    def _rules_card(self, known: Knowledge) -> tuple[str, bool]:
        """Médio: the table rules a decent player follows (RULES.md §2–§4)."""
        cards = self._cards_by_strength(known)
        strength = known.strength
        vals = [strength[c] for c in cards]
        low = cards[0]
        r = known.round_index
        n = known.players
        team = known.team
        can_cover = known.kind == "normal" and r >= 1
        strong = known.top_strength - len(manilhas_of(known.obs))  # the best common rank
        if not known.plays:
            if r == 0:
                if len(cards) == 3:
                    if n > 2:
                        if taker_after(known) == team:  # sinais: lead low to the partner's sure card
                            return low, False
                        return cards[1], False
                    # 1 x 1: win the first round with the best card short of a manilha
                    return (cards[1] if vals[2] > strong else cards[2]), False
                return cards[-1], False
            if known.results[0] == team:
                # a win or a tie closes the hand: lead the best only if nothing unseen beats it
                if max(known.pool, default=-1) < vals[-1]:
                    return cards[-1], False
                return low, (can_cover and self.rng.random() < self.settings.cover_rate)
            return cards[-1], False
        best, bteam = table_state(known.plays)
        if taker_after(known) is not None:  # sinais: a seat after us surely takes the round
            return low, False
        seats_after = [(known.seat + i) % n for i in range(1, n - len(known.plays))]
        opp_after = any(s % 2 != team for s in seats_after)
        if bteam == team:
            if not opp_after or best >= strong - 1:
                return low, False
            winners = [c for c, v in zip(cards, vals) if v > best and v >= strong - 1]
            return (winners[0] if winners else low), False
        winners = [c for c, v in zip(cards, vals) if v > best]
        if winners:
            return winners[0], False
        ties = [c for c, v in zip(cards, vals) if v == best]
        if ties and bteam != TIE:
            if r == 0 or known.results[0] == team or known.results[0] == TIE:
                return ties[0], False
        return low, (can_cover and self.rng.random() < self.settings.cover_rate)

    def _search_card(self, known: Knowledge, legal: list[str], worlds, weights):
        """Difícil: play out every distinct card (and covering the weakest) on the sampled
        deals; keep the best, the cheaper card on near-ties."""
        strength = known.strength
        cards = self._cards_by_strength(known)
        options: list[tuple[str, bool, int, int]] = []  # card, covered, removed, shown
        seen: set[int] = set()
        for c in cards:
            if strength[c] in seen:
                continue
            seen.add(strength[c])
            options.append((c, False, strength[c], strength[c]))
        if ("cover " + cards[0]) in legal:
            options.append((cards[0], True, strength[cards[0]], COVERED))
        if len(options) == 1:
            c, cov, rem, shown = options[0]
            return c, cov, self._outcomes_after_play(known, worlds, rem, shown)
        scored = []
        for c, cov, rem, shown in options:
            outcomes = self._outcomes_after_play(known, worlds, rem, shown)
            scored.append((self.win_chance(known, outcomes, weights), c, cov, outcomes))
        top = max(s[0] for s in scored)
        near = [s for s in scored if not s[2] and s[0] >= top - 0.01]
        if not near:
            near = [max(scored, key=lambda s: s[0])]
        # on a near-tie, the table rules decide; else the cheapest card saves strength
        rule_card, _ = self._rules_card(known)
        pick = next((s for s in near if s[1] == rule_card), near[0])
        chosen = (pick[1], pick[2], pick[3])
        # hide a card that loses the round anyway
        c, cov, outcomes = chosen
        if not cov and c == cards[0] and known.plays:
            cover = [s for s in scored if s[2]]
            if cover and cover[0][0] >= top - 0.015 and self.rng.random() < self.settings.cover_rate:
                best, _ = table_state(known.plays)
                if strength[c] < best:
                    return c, True, cover[0][3]
        return chosen
