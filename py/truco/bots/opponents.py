"""What a bot remembers of the other players: how often each team raises, accepts, runs.

Built only from the event logs of the observations the bot was shown (each observation's
log goes back to the previous deal, so every hand is seen whole at least once as long as
the bot is asked to move every other hand). A counter-raise is a raise while a request of
the other team is pending (RULES.md §5).
"""

from __future__ import annotations

from dataclasses import dataclass


CARE_PRIOR = 0.3
"""Pseudo-count of wasted plays before any is seen (0.3 in 2 follows reads as 30%
careless): until a team shows careful play, it is not assumed to be flawless."""


@dataclass
class TeamStats:
    """Counts for one team, with Beta-like priors folded into the rates."""

    hands: int = 0
    raised_hands: int = 0
    accepts: int = 0
    runs: int = 0
    counters: int = 0
    showdowns: int = 0
    """Hands this team opened the raising in that were then played out to the end."""
    showdown_wins: int = 0
    follows: int = 0
    """Face-up plays following in a round while holding a lower card shown later."""
    wastes: int = 0
    """Of those, plays of the higher card where it could not take the round for the team."""

    def raise_rate(self) -> float:
        """Share of hands in which the team asks for a raise first."""
        return (self.raised_hands + 0.6) / (self.hands + 2.0)

    def honesty(self) -> float:
        """Share of the hands it raised (and played out) that the team won: near 1 for a
        player that raises on strength, near 1/2 or below for a bluffer or a random one."""
        return (self.showdown_wins + 1.5) / (self.showdowns + 2.0)

    def answers(self) -> int:
        return self.accepts + self.runs + self.counters

    def run_rate(self) -> float:
        """Share of requests the team runs from."""
        return (self.runs + 0.4) / (self.answers() + 2.0)

    def counter_rate(self) -> float:
        """Share of requests the team answers with a raise."""
        return (self.counters + 0.4) / (self.answers() + 2.0)

    def carelessness(self, prior: float | None = None) -> float:
        """Estimated share of careless (random-looking) card plays, from 0 to 1.

        A careful player who cannot take the round, or whose partner holds it, plays a low
        card; wasting a higher one while holding a lower one is what random play does
        about half the time.
        """
        rate = (self.wastes + (CARE_PRIOR if prior is None else prior)) / (self.follows + 2.0)
        return min(1.0, rate / 0.5)


class Memory:
    """Per-team statistics, fed with observations in the order the bot sees them."""

    def __init__(self) -> None:
        self.teams = (TeamStats(), TeamStats())
        self._done: dict[int, int] = {}  # hand_number -> events of that hand already counted

    def update(self, obs: dict, strength: dict[str, int] | None = None) -> None:
        """Count the events of ``obs['log']`` not counted yet. With ``strength`` (card ->
        strength), also judge finished hands' card plays (:meth:`TeamStats.carelessness`)."""
        log = obs.get("log") or []
        hand_no = None
        idx = 0
        seg_start = 0
        pending_team: int | None = None
        raised: set[int] = set()
        for pos, e in enumerate(log):
            t = e["type"]
            if t == "deal":
                hand_no = e["hand_number"]
                idx = 0
                seg_start = pos
                pending_team = None
                raised = set()
                if hand_no not in self._done:
                    self._done[hand_no] = 0
                    if e.get("kind") == "normal":
                        for ts in self.teams:
                            ts.hands += 1
                continue
            if hand_no is None:
                continue
            idx += 1
            fresh = idx > self._done[hand_no]
            if fresh:
                self._done[hand_no] = idx
            if t == "raise":
                team = e["seat"] % 2
                if pending_team is None:
                    if team not in raised:
                        raised.add(team)
                        if fresh:
                            self.teams[team].raised_hands += 1
                elif fresh:
                    self.teams[team].counters += 1
                pending_team = team
            elif t in ("accept", "run") and not e.get("mao_de_dez"):
                team = e["seat"] % 2
                if fresh:
                    if t == "accept":
                        self.teams[team].accepts += 1
                    else:
                        self.teams[team].runs += 1
                pending_team = None
            elif t == "hand" and fresh:
                if e.get("reason") == "rounds":
                    for team in raised:
                        self.teams[team].showdowns += 1
                        self.teams[team].showdown_wins += e.get("winner") == team
                if strength is not None:
                    self._judge_plays(log[seg_start:pos], strength, obs["players"])
        if len(self._done) > 64:  # keep memory bounded over long series
            for key in sorted(self._done)[:-8]:
                del self._done[key]

    def _judge_plays(self, events: list[dict], strength: dict[str, int], players: int) -> None:
        """Find follows where a seat played a higher card than one it showed later.

        Wasted: the card could not take the round, or the partner held it and nobody of
        the other team was left to play.
        """
        by_seat: dict[int, list[tuple[int, bool]]] = {}  # seat -> (value, wasted?) per play
        table: list[tuple[int, int]] = []
        for e in events:
            t = e["type"]
            if t in ("play", "cover"):
                seat = e["seat"]
                v = strength[e["card"]] if (t == "play" and e.get("card")) else -1
                if t == "play" and v >= 0:
                    wasted = None
                    if table:  # following: could this card take the round for its team?
                        best = max(x for _, x in table)
                        teams = {s % 2 for s, x in table if x == best}
                        last = len(table) == players - 1
                        holds = last and len(teams) == 1 and teams.pop() == seat % 2
                        wasted = holds or v < best
                    by_seat.setdefault(seat, []).append((v, wasted))
                table.append((seat, v))
            elif t == "round":
                table = []
        for seat, seq in by_seat.items():
            stats = self.teams[seat % 2]
            for i, (v, wasted) in enumerate(seq):
                if wasted is None:
                    continue
                if any(w < v for w, _ in seq[i + 1:]):
                    stats.follows += 1
                    stats.wastes += bool(wasted)
