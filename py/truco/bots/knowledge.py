"""What a bot knows: its observation turned into plain numbers.

Everything here is derived from one observation dict (``Game.observation(seat)``) and
nothing else. Card strength comes from the rules summary inside the observation (the
manilhas it lists and the rank order of RULES.md §2), never from constants about a preset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..cards import DECK, RANKS
from ..names import MANILHA_SIGNALS
from ..rules import preset as _preset

COVERED = -1
"""A covered card is worth nothing (RULES.md §2, §4)."""

TIE = -1
"""A tied round, in the integer form of round results used by the simulator."""


@lru_cache(maxsize=16)
def strength_table(manilhas: tuple[str, ...]) -> dict[str, int]:
    """Card -> strength: common cards by rank, the manilhas above them in the listed order (§2)."""
    table = {card: RANKS.index(card[0]) for card in DECK}
    top = len(RANKS) + len(manilhas) - 1
    for i, card in enumerate(manilhas):
        table[card] = top - i
    return table


@dataclass
class Knowledge:
    """The current hand as one seat sees it."""

    seat: int
    team: int
    players: int
    strength: dict[str, int]
    top_strength: int
    hand: list[str]
    blind: bool
    kind: str
    results: list[int]
    """Completed rounds of this hand: winning team, or TIE."""
    leader: int
    """The seat that leads the current round."""
    plays: list[tuple[int, int]]
    """The current round so far: (seat, strength), covered cards as COVERED."""
    next_seat: int
    """The seat that plays the next card."""
    known: dict[int, list[int]]
    """Strengths of the cards this seat knows in other hands (partner in mão de dez)."""
    unknown_sizes: dict[int, int]
    """Seats whose cards are hidden -> how many cards they hold."""
    pool: list[int]
    """Strengths of every card this seat has not seen (hidden hands, covered, undealt)."""
    played: dict[int, list[tuple[int, int]]]
    """Seat -> (log position, strength) of the cards it played face up this hand."""
    checks: dict
    """Seat -> test its whole hand (strengths, played ones included) passes, from the
    signal it sent (sinais): sampled deals are drawn to fit."""
    musts: dict
    """Seat -> strength of a card it must still hold (the manilha it signalled)."""
    value: int
    score_us: int
    score_them: int
    obs: dict = field(repr=False)

    @property
    def round_index(self) -> int:
        return len(self.results)

    def my_strengths(self) -> list[int]:
        return [self.strength[c] for c in self.hand]


def manilhas_of(obs: dict) -> tuple[str, ...]:
    """This hand's manilhas as the seat sees them: the observation's per-hand list when it
    has one (a vira names them, §9), else the preset's fixed ones."""
    m = obs.get("manilhas")
    if m is None:
        m = obs["rules"]["manilhas"]
    return tuple(m)


@lru_cache(maxsize=32)
def _deck(preset_name: str, limpo: bool) -> tuple[str, ...]:
    try:
        return _preset(preset_name).deck(limpo)
    except (ValueError, TypeError, AttributeError):
        return DECK


def deck_of(obs: dict) -> tuple[str, ...]:
    """The cards in play in this game (*baralho limpo* drops the 4-7s, §9)."""
    limpo = bool((obs.get("options") or {}).get("baralho_limpo"))
    return _deck(obs.get("preset", ""), limpo) if limpo else DECK


SIGNAL_NAMES = MANILHA_SIGNALS


def signal_check(signal: str, manilhas: tuple[str, ...], strength: dict[str, int]):
    """A test on a seat's strengths that an honest ``signal`` (the sinais) is true of, or
    ``None`` for a signal that says nothing we can use."""
    man = [strength[c] for c in manilhas]
    if signal in SIGNAL_NAMES and len(man) == 4:
        want = man[SIGNAL_NAMES.index(signal)]
        stronger = set(man[:SIGNAL_NAMES.index(signal)])
        return lambda vals: want in vals and not stronger.intersection(vals)
    three = RANKS.index("3")
    mset = set(man)
    if signal == "tres":
        return lambda vals: not mset.intersection(vals) and three in vals
    if signal == "nada":
        return lambda vals: not mset.intersection(vals) and three not in vals
    return None


def _result_int(result) -> int:
    return TIE if result == "tie" else int(result)


def read(obs: dict) -> Knowledge:
    """Turn an observation into :class:`Knowledge` (pure function of ``obs``)."""
    manilhas = manilhas_of(obs)
    strength = strength_table(manilhas)
    top = len(RANKS) + len(manilhas) - 1
    seat = obs["seat"]
    n = obs["players"]
    team = seat % 2
    hand = list(obs["hand"])
    seen: set[str] = set(hand)
    if obs.get("vira"):
        seen.add(obs["vira"])  # the turned-up card is out of play (§9)
    for x in obs.get("exchanged") or []:
        seen.update(x.get("cards") or [])  # cards shown and put away (família real)
    results: list[int] = []
    rounds = obs["rounds"]
    cur = rounds[-1] if rounds else {"leader": obs["mao"], "plays": []}
    for r in rounds:
        if r["result"] is not None:
            results.append(_result_int(r["result"]))
        else:
            cur = r
    # log positions of plays: used to know which cards a seat still held at a raise
    played: dict[int, list[tuple[int, int]]] = {}
    log = obs.get("log") or []
    start = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i]["type"] == "deal":
            start = i
            break
    for i in range(start, len(log)):
        e = log[i]
        if e["type"] == "play" and e.get("card"):
            played.setdefault(e["seat"], []).append((i, strength[e["card"]]))
    plays: list[tuple[int, int]] = []
    for r in rounds:
        for p in r["plays"]:
            c = p["card"]
            if c is not None:
                seen.add(c)
            if r is cur:
                plays.append((p["seat"], COVERED if p["covered"] else strength[c]))
    known: dict[int, list[int]] = {}
    for v in obs.get("visible_hands") or []:
        known[v["seat"]] = [strength[c] for c in v["cards"]]
        seen.update(v["cards"])
    sizes = obs["hand_sizes"]
    unknown_sizes = {s: sizes[s] for s in range(n)
                     if s not in known and (s != seat or obs["blind"])}
    pool = [strength[c] for c in deck_of(obs) if c not in seen]
    checks = {}
    musts: dict[int, int] = {}
    claims: dict[int, list[int]] = {}
    for x in obs.get("signals") or []:
        s = x.get("seat")
        if s != seat and s in unknown_sizes:
            sig = x.get("signal", "")
            test = signal_check(sig, manilhas, strength)
            if test is not None:
                checks[s] = test
                if sig in SIGNAL_NAMES and len(manilhas) == 4:
                    v = strength[manilhas[SIGNAL_NAMES.index(sig)]]
                    shown = any(pv == v for _, pv in played.get(s, []))
                    if not shown and v in pool and unknown_sizes[s] > 0:
                        claims.setdefault(v, []).append(s)
    # A signal is evidence, never proof (a player may bluff): a manilha is placed in a
    # hand only when exactly one seat claims it. Two seats naming the same card (one of
    # them lies) place it nowhere; their checks still weigh the sampled deals.
    for v, seats in claims.items():
        if len(seats) == 1:
            musts[seats[0]] = v  # the named manilha is still in that hand
    score = obs["score"]
    return Knowledge(
        seat=seat, team=team, players=n, strength=strength, top_strength=top,
        hand=hand, blind=obs["blind"], kind=obs["hand_kind"], results=results,
        leader=cur["leader"], plays=plays, next_seat=(cur["leader"] + len(plays)) % n,
        known=known, unknown_sizes=unknown_sizes, pool=pool, played=played, checks=checks, musts=musts,
        value=obs["hand_value"], score_us=score[team], score_them=score[1 - team], obs=obs,
    )
