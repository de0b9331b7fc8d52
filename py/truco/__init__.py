"""Truco Mineiro: rules engine and bots in pure Python.

>>> import truco
>>> g = truco.new_game(seed=1, hands=[["4c", "7h", "As"], ["3c", "2h", "Kd"]], dealer=1)
>>> g.to_move
0
>>> g.apply("play 4c")
>>> g.legal_actions()[:3]
['play 3c', 'play 2h', 'play Kd']
"""

__version__ = "0.1.0"
