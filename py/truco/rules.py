"""Rule sets (presets) of RULES.md §9, as data: the ladder, the manilhas, the mão de X.

Nothing else in the engine or the bots hard-codes a point value or a manilha: they ask
the :class:`Rules` object of the game.

>>> r = preset("mineiro")
>>> [step.value for step in r.ladder]
[4, 6, 10, 12]
>>> r.strength("4c") > r.strength("7h") > r.strength("As") > r.strength("7d") > r.strength("3s")
True
>>> r.strength("Kc") == r.strength("Kh")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd

from .cards import DECK, RANKS

COVERED_STRENGTH = -1
"""A covered card is worth nothing: it loses to every face-up card (RULES.md §2)."""


@dataclass(frozen=True)
class Step:
    """One step of the raise ladder: its call (``"truco"``) and the hand's value if accepted."""

    name: str
    value: int


@dataclass(frozen=True)
class Rules:
    """A named rule set. All point values and card strengths come from here."""

    name: str
    title: str
    description: str
    start_value: int
    ladder: tuple[Step, ...]
    manilhas: tuple[str, ...]
    manilha_names: tuple[str, ...]
    mao_de_x: int
    mao_de_x_value: int
    mao_de_x_run_gives: int
    target: int = 12
    ferro_blind: bool = True
    tentos: bool = False
    vira: bool = False
    """Manilha nova: a card is turned up after the deal and names the manilhas (§9)."""
    _tables: dict = field(default_factory=dict, repr=False, compare=False)

    def deck(self, limpo: bool = False) -> tuple[str, ...]:
        """The cards in play. *Baralho limpo* (§9) drops the 4, 5, 6 and 7, keeping fixed manilhas."""
        if not limpo:
            return DECK
        return tuple(c for c in DECK if c[0] not in "4567" or c in self.manilhas)

    def manilhas_for(self, vira: str | None, limpo: bool = False) -> tuple[str, ...]:
        """The manilhas of a hand, strongest first.

        With a vira, the four cards of the next rank (wrapping from 3 to the lowest rank of
        the deck), ordered clubs > hearts > spades > diamonds (§9).

        >>> preset("mineiro").manilhas_for(None)
        ('4c', '7h', 'As', '7d')
        """
        if not self.vira:
            return self.manilhas
        if vira is None:
            return ()
        cycle = [r for r in RANKS if not limpo or r not in "4567"]
        rank = cycle[(cycle.index(vira[0]) + 1) % len(cycle)]
        return tuple(rank + suit for suit in "chsd")

    def strength_table(self, vira: str | None = None, limpo: bool = False) -> dict[str, int]:
        """Card -> strength for a hand: manilhas above common cards; equal ranks tie (§2).

        The table is cached and shared: do not modify it.
        """
        key = (vira, limpo)
        table = self._tables.get(key)
        if table is None:
            table = {card: RANKS.index(card[0]) for card in DECK}
            manilhas = self.manilhas_for(vira, limpo)
            top = len(RANKS) + len(manilhas) - 1
            for i, card in enumerate(manilhas):
                table[card] = top - i
            self._tables[key] = table
        return table

    def strength(self, card: str, vira: str | None = None) -> int:
        """The card's strength (in a hand with ``vira``, for the manilha-nova presets)."""
        return self.strength_table(vira)[card]

    @property
    def ferro_value(self) -> int:
        """A mão de ferro is worth the preset's starting value (§6, §9)."""
        return self.start_value

    @property
    def max_value(self) -> int:
        return self.ladder[-1].value if self.ladder else self.start_value

    def step_value(self, level: int) -> int:
        """The hand's value after ``level`` accepted raises (0 = none)."""
        return self.start_value if level == 0 else self.ladder[level - 1].value

    def point_unit(self) -> int:
        """The greatest common divisor of every amount a hand can score.

        Every reachable score is a multiple of it (e.g. 2 in ``mineiro``).
        """
        amounts = [self.start_value, self.mao_de_x_value, self.mao_de_x_run_gives]
        amounts += [s.value for s in self.ladder]
        unit = 0
        for a in amounts:
            unit = gcd(unit, a)
        return unit

    def summary(self) -> dict:
        """JSON-safe description of the rules, for observations and the page."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "start_value": self.start_value,
            "ladder": [{"name": s.name, "value": s.value} for s in self.ladder],
            "manilhas": list(self.manilhas),
            "manilha_names": list(self.manilha_names),
            "vira": self.vira,
            "mao_de_x": self.mao_de_x,
            "mao_de_x_value": self.mao_de_x_value,
            "mao_de_x_run_gives": self.mao_de_x_run_gives,
            "target": self.target,
            "tentos": self.tentos,
        }


_MANILHAS_VELHAS = ("4c", "7h", "As", "7d")
_MANILHA_NAMES = ("Zap", "Copas", "Espadilha", "Pica-fumo")
_FIXED_MANILHAS_MAO_DE_DEZ = dict(
    manilhas=_MANILHAS_VELHAS,
    manilha_names=_MANILHA_NAMES,
    mao_de_x=10,
    mao_de_x_value=4,
    mao_de_x_run_gives=2,
)
"""What the three presets with fixed manilhas share: the manilhas and the mão de dez (§9)."""

PRESETS: dict[str, Rules] = {
    "mineiro": Rules(
        name="mineiro",
        title="Truco Mineiro",
        description="Manilhas fixas; a mão vale 2 e sobe para 4, 6, 10 e 12.",
        start_value=2,
        ladder=(Step("truco", 4), Step("seis", 6), Step("dez", 10), Step("doze", 12)),
        **_FIXED_MANILHAS_MAO_DE_DEZ,
    ),
    "truco473": Rules(
        name="truco473",
        title="Truco 473",
        description="Manilhas fixas; a mão vale 2 e sobe para 4, 8, 10 e 12.",
        start_value=2,
        ladder=(Step("truco", 4), Step("seis", 8), Step("nove", 10), Step("doze", 12)),
        **_FIXED_MANILHAS_MAO_DE_DEZ,
    ),
    "torneio": Rules(
        name="torneio",
        title="Torneio",
        description="Regulamento de torneio: 2, 4, 8 e 12; placar em tentos; mão de ferro às claras.",
        start_value=2,
        ladder=(Step("truco", 4), Step("seis", 8), Step("nove", 12)),
        **_FIXED_MANILHAS_MAO_DE_DEZ,
        ferro_blind=False,
        tentos=True,
    ),
    "paulista": Rules(
        name="paulista",
        title="Truco Paulista",
        description="Manilha nova (a vira define as manilhas); a mão vale 1 e sobe para 3, 6, 9 e 12.",
        start_value=1,
        ladder=(Step("truco", 3), Step("seis", 6), Step("nove", 9), Step("doze", 12)),
        manilhas=(),
        manilha_names=("Paus", "Copas", "Espadas", "Ouros"),
        mao_de_x=11,
        mao_de_x_value=3,
        mao_de_x_run_gives=1,
        vira=True,
    ),
}


def preset(name: str) -> Rules:
    """The rule set called ``name``; a ``ValueError`` names the presets on offer."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"unknown preset {str(name)[:40]!r}: choose one of {', '.join(sorted(PRESETS))}")
    return PRESETS[name]
