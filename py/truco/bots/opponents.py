"""What a bot remembers of the other players: how often each team raises, accepts, runs.

Built only from the event logs of the observations the bot was shown (each observation's
log goes back to the previous deal, so every hand is seen whole at least once as long as
the bot is asked to move every other hand). A counter-raise is a raise while a request of
the other team is pending (RULES.md §5).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TeamStats:
    """Counts for one team, with Beta-like priors folded into the rates."""

    hands: int = 0
    raised_hands: int = 0
    accepts: int = 0
    runs: int = 0
    counters: int = 0

    def raise_rate(self) -> float:
        """Share of hands in which the team asks for a raise first."""
        return (self.raised_hands + 1.2) / (self.hands + 4.0)

    def answers(self) -> int:
        return self.accepts + self.runs + self.counters

    def run_rate(self) -> float:
        """Share of requests the team runs from."""
        return (self.runs + 1.2) / (self.answers() + 4.0)

    def counter_rate(self) -> float:
        """Share of requests the team answers with a raise."""
        return (self.counters + 0.6) / (self.answers() + 4.0)


class Memory:
    """Per-team statistics, fed with observations in the order the bot sees them."""

    def __init__(self) -> None:
        self.teams = (TeamStats(), TeamStats())
        self._done: dict[int, int] = {}  # hand_number -> events of that hand already counted

    def update(self, obs: dict) -> None:
        log = obs.get("log") or []
        hand_no = None
        idx = 0
        pending_team: int | None = None
        raised: set[int] = set()
        for e in log:
            t = e["type"]
            if t == "deal":
                hand_no = e["hand_number"]
                idx = 0
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
        if len(self._done) > 64:  # keep memory bounded over long series
            for key in sorted(self._done)[:-8]:
                del self._done[key]
