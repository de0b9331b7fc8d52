"""How much a score is worth: the chance of winning the game from a score, for even teams.

Bots weigh points by this table instead of counting them: 2 points at 8 x 10 are worth
more than at 0 x 0, and running when the opponents would reach the target by it is never
better than playing on. The table is built from the rules summary in the observation
(start value, ladder, target, mão de X), so it follows every preset (RULES.md §5–§7, §9).
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=64)
def _table(start: int, ladder: tuple[int, ...], target: int, x: int, x_value: int,
           x_run: int, edge: float = 0.5) -> dict[tuple[int, int], float]:
    # A rough model of the rest of the game: each hand goes to us with probability
    # ``edge`` (1/2 for even teams); it is worth the start value most of the time,
    # sometimes one or two raises more.
    values = [start] + list(ladder[:2])
    probs = [0.65, 0.25, 0.10][: len(values)]
    total = sum(probs)
    probs = [p / total for p in probs]
    memo: dict[tuple[int, int], float] = {}

    def v(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        key = (a, b)
        if key in memo:
            return memo[key]
        if a == x and b == x:  # mão de ferro: the hand decides the game
            r = 0.5 * v(a + start, b) + 0.5 * v(a, b + start)
        elif a == x:  # we decide: play for x_value (mostly) or give x_run
            play = edge * v(a + x_value, b) + (1 - edge) * v(a, b + x_value)
            r = max(play, 0.8 * play + 0.2 * v(a, b + x_run))
        elif b == x:
            play = edge * v(a + x_value, b) + (1 - edge) * v(a, b + x_value)
            r = min(play, 0.8 * play + 0.2 * v(a + x_run, b))
        else:
            r = 0.0
            for val, p in zip(values, probs):
                r += p * (edge * v(a + val, b) + (1 - edge) * v(a, b + val))
        memo[key] = r
        return r

    out = {}
    for a in range(target + 1):
        for b in range(target + 1):
            out[(a, b)] = v(a, b)
    return out


class GameValue:
    """``win_prob(us, them)`` for the rules of one observation."""

    def __init__(self, rules: dict, edge: float = 0.5) -> None:
        self.target = rules["target"]
        self._t = _table(rules["start_value"], tuple(s["value"] for s in rules["ladder"]),
                         rules["target"], rules["mao_de_x"], rules["mao_de_x_value"],
                         rules["mao_de_x_run_gives"], edge)

    def win_prob(self, us: int, them: int) -> float:
        t = self.target
        if us >= t:
            return 1.0
        if them >= t:
            return 0.0
        return self._t[(us, them)]


@lru_cache(maxsize=64)
def _game_value(key: tuple, edge: float) -> GameValue:
    start, ladder, target, x, xv, xr = key
    return GameValue({"start_value": start, "ladder": [{"value": v} for v in ladder],
                      "target": target, "mao_de_x": x, "mao_de_x_value": xv,
                      "mao_de_x_run_gives": xr}, edge)


def game_value(rules: dict, edge: float = 0.5) -> GameValue:
    """The (cached) :class:`GameValue` of a rules summary; ``edge`` is the chance of
    winning a future hand (above 1/2 for a side that expects to outplay the other)."""
    return _game_value((rules["start_value"], tuple(s["value"] for s in rules["ladder"]),
                        rules["target"], rules["mao_de_x"], rules["mao_de_x_value"],
                        rules["mao_de_x_run_gives"]), round(edge, 2))
