"""Truco Mineiro: rules engine and bots in pure Python.

>>> import truco
>>> g = truco.new_game(seed=1, hands=[["4c", "7h", "As"], ["3c", "2h", "Kd"]], dealer=1)
>>> g.to_move
0
>>> g.apply("play 4c")
>>> g.legal_actions()
['play 3c', 'play 2h', 'play Kd', 'raise']
"""

__version__ = "0.1.0"

from .cards import DECK, RANKS, SUITS, CardError, card_name, parse_card  # noqa: E402
from .game import Game, IllegalAction, new_game, team_of  # noqa: E402
from .persist import SaveError  # noqa: E402
from .rules import PRESETS, Rules, preset  # noqa: E402

__all__ = [
    "__version__", "DECK", "RANKS", "SUITS", "CardError", "card_name", "parse_card",
    "Game", "IllegalAction", "new_game", "team_of", "SaveError", "PRESETS", "Rules", "preset",
]
