"""The rules tutorial's lessons: site/tutorial/NN_slug.md -> data for tutorial.html and embed.html.

A lesson is one Markdown file with a TOML front matter between two ``+++`` lines::

    +++
    title = "As quatro manilhas"
    summary = "Zap, Copas, Espadilha e Pica-fumo."

    [[exercise]]
    id = "manilhas-pica-fumo"          # unique; also the embed's ?scenario= name
    prompt = "Tonho jogou o 3 de espadas. Ganhe dele."
    hands = ["2c 7d Kh", "3s 5c 6h"]   # seat 0 is the learner, then in play order
    dealer = 0                         # the seat after the dealer leads ("o mão")
    setup = ["1 play 3s"]              # moves made before the learner's turn
    goal = "round"                     # round | hand | net | action (see GOALS)
    right = "O 7 de ouros é manilha: ganha do 3."
    wrong = "Só uma manilha ganha do 3."
    why = { "play 2c" = "O 2 perde do 3." }   # optional, by the learner's first action
    # optional: offer = ["raise", "cover"] shows those buttons even where the engine says no;
    # marks = true marks the manilhas on the cards (off: the learner should know them);
    # players, score, preset, ferro, series, timer, level (the bots), seed, refused (text);
    # vira = "3d" fixes the turned-up card for a manilha-nova preset (preset = "paulista")
    solution = ["0 play 7d"]           # a path judged right (checked here, replayed by the tests)
    mistake = ["0 play 2c"]            # a path judged wrong

    [[quiz]]
    plays = ["1 7d", "0 3c"]           # "seat card" in play order; "0 5c cover" is a covered card
    # optional: preset = "paulista", vira = "3d" (the manilhas are then the 4s)
    +++
    Markdown text of the lesson...

Adding a lesson means adding a file: the files are read in name order. The text is a small
Markdown subset (paragraphs, ``## heading``, ``- `` and ``1. `` lists, ``**bold**``,
``*italic*``) plus three blocks drawn from the engine's rules at build time: ``{cartas 4c 7h
As 7d | caption}`` (big card pictures; ``xx`` is a card seen from the back), ``{ordem}`` (every
card, strongest first) and ``{escada}`` (the preset's raise ladder). They follow the lesson's
``preset`` and ``vira`` (front matter keys; default: ``mineiro``, no vira).

Every exercise is checked here with the engine (py/truco, through ``truco.api`` as the page
calls it): the fixed deal is legal, the setup replays, and ``solution`` / ``mistake`` are
judged right / wrong. The bots are the engine's own (``level``: ``passive`` by default,
``random`` when the opponent must raise or cover), seeded by ``seed``: a bot's move depends
only on (seed, seat, position), so a scripted bot move ("1 play 3s") holds for one seed.
``python -m truco_tools.lessons seeds`` finds a seed for exercises whose scripted bot moves do not hold.

The page never gets ``solution`` / ``mistake``, and quizzes carry no answers: the page asks
the engine (``judge``) who wins each round. Each exercise carries its ``first`` position
(``first_position``: the learner's view when its first move is due, computed here with the
engine), so the page draws the table before the engine has started.
"""

from __future__ import annotations

import html
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout (this file: py/truco_tools/)
LESSONS_DIR = ROOT / "site" / "tutorial"

GOALS = {
    # the round in which the learner plays its first card: won / tied / lost (`want`)
    "round": {"want"},
    # the hand: the learner's team scores at least `min` points (default 1)
    "hand": {"min"},
    # the hand: our points minus theirs is at least `min` (e.g. -2: running was right)
    "net": {"min"},
    # the learner's first accepted action matches one of `actions` ("cover *", "raise")
    "action": {"actions"},
    # no right or wrong (the embed's free play): the hand is played and its result shown
    "free": set(),
}
EXERCISE_KEYS = {
    "id", "title", "prompt", "players", "hands", "dealer", "score", "preset", "ferro", "series",
    "timer", "level", "seed", "setup", "goal", "want", "min", "actions", "offer", "right",
    "wrong", "why", "refused", "solution", "mistake", "marks", "vira",
}
# Keys the page does not receive (the tests read them from the files).
PRIVATE_KEYS = {"solution", "mistake"}
LESSON_KEYS = {"title", "summary", "exercise", "quiz", "preset", "vira"}
QUIZ_KEYS = {"plays", "preset", "players", "vira"}
BOT_LEVELS = {"passive", "random", "facil", "medio", "dificil"}
OFFERS = {"raise", "cover"}
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FILE_NAME = re.compile(r"^(\d{2})_([a-z0-9_]+)\.md$")
CARD = re.compile(r"^[4567QJKA23][chsd]$")
# A learner's move, or a bot's scripted move ("1 play *": any card face up, not a raise).
MOVE = re.compile(r"^(\d) (play [4567QJKA23][chsd]|cover [4567QJKA23][chsd]|play #[1-3]|play \*|cover \*|raise|accept|run|timeout)$")


class LessonError(ValueError):
    pass


def _engine():
    """The engine (py/truco, the same source the browser's wheel is built from)."""
    import truco.api  # noqa: F401
    from truco import api
    from truco.rules import preset

    return api, preset


# ------------------------------------------------------------------------ parsing

def parse_file(path: Path) -> tuple[dict, str]:
    """(front matter, Markdown body) of a lesson file."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "+++":
        raise LessonError(f"{path.name}: must start with a '+++' line (TOML front matter)")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "+++")
    except StopIteration:
        raise LessonError(f"{path.name}: the front matter has no closing '+++' line") from None
    try:
        meta = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{path.name}: front matter: {exc}") from None
    return meta, "\n".join(lines[end + 1:]).strip() + "\n"


def _need(cond: bool, where: str, msg: str) -> None:
    if not cond:
        raise LessonError(f"{where}: {msg}")


def _cards(text: Any, where: str) -> list[str]:
    _need(isinstance(text, str), where, f"expected a string of cards, got {text!r}")
    cards = text.split()
    for c in cards:
        _need(bool(CARD.match(c)), where, f"{c!r} is not a card (e.g. 4c, 7h, As, Qd)")
    return cards


def _moves(value: Any, where: str, players: int) -> list[str]:
    _need(isinstance(value, list), where, "expected a list of moves like \"1 play 3s\"")
    for m in value:
        match = MOVE.match(m) if isinstance(m, str) else None
        _need(match is not None, where, f"{m!r} is not a move (\"seat action\", e.g. \"1 play 3s\", \"0 raise\")")
        _need(int(m[0]) < players, where, f"{m!r}: no seat {m[0]} at a {players}-player table")
        _need(not (m[0] == "0" and "*" in m), where, f"{m!r}: the learner's moves name their card")
    return list(value)


def check_exercise(ex: dict, where: str) -> dict:
    """Validate the shape of an exercise; returns it with defaults filled in."""
    unknown = set(ex) - EXERCISE_KEYS
    _need(not unknown, where, f"unknown keys {sorted(unknown)} (known: {sorted(EXERCISE_KEYS)})")
    for key in ("id", "prompt", "hands", "dealer", "goal"):
        _need(key in ex, where, f"missing {key!r}")
    _need(isinstance(ex["id"], str) and bool(SLUG.match(ex["id"])), where, f"id {ex['id']!r} must be a lower-case slug")
    where = f"{where} ({ex['id']})"
    out = dict(ex)
    out.setdefault("players", 2)
    out.setdefault("score", [0, 0])
    out.setdefault("preset", "mineiro")
    out.setdefault("series", 1)
    out.setdefault("timer", 0)
    out.setdefault("level", "passive")
    out.setdefault("seed", 1)
    out.setdefault("setup", [])
    out.setdefault("offer", [])
    out.setdefault("why", {})
    out.setdefault("title", "")
    _need(out["players"] in (2, 4), where, "players must be 2 or 4")
    _need(isinstance(out["hands"], list) and len(out["hands"]) == out["players"], where,
          f"hands must give {out['players']} hands (seat 0 is the learner)")
    out["hands"] = [_cards(h, f"{where} hands[{i}]") for i, h in enumerate(out["hands"])]
    _need(out["level"] in BOT_LEVELS, where, f"level must be one of {sorted(BOT_LEVELS)}")
    _need(isinstance(out["seed"], int) and not isinstance(out["seed"], bool) and out["seed"] >= 0, where, "seed must be an int >= 0")
    out["setup"] = _moves(out["setup"], f"{where} setup", out["players"])
    for key in ("solution", "mistake"):
        _need(key in out, where, f"missing {key!r} (a path the tests replay: right / wrong)")
        out[key] = _moves(out[key], f"{where} {key}", out["players"])
        _need(any(m[0] == "0" for m in out[key]), where, f"{key} has no move of the learner (seat 0)")
    goal = out["goal"]
    _need(goal in GOALS and goal != "free", where, f"goal must be one of round, hand, net, action")
    extra = {"want", "min", "actions"} - GOALS[goal]
    _need(not (extra & set(out)), where, f"goal {goal!r} takes no {sorted(extra & set(out))}")
    if goal == "round":
        out.setdefault("want", "win")
        _need(out["want"] in ("win", "tie", "lose"), where, "want must be win, tie or lose")
    if goal in ("hand", "net"):
        out.setdefault("min", 1)
        _need(isinstance(out["min"], int), where, "min must be an int")
    if goal == "action":
        _need(isinstance(out.get("actions"), list) and out["actions"], where, "goal 'action' needs actions = [...]")
    _need(isinstance(out.get("marks", False), bool), where, "marks must be true or false")
    if "vira" in out:  # the engine refuses a vira of a preset without one, or a card dealt twice
        _need(isinstance(out["vira"], str) and bool(CARD.match(out["vira"])), where, f"vira {out['vira']!r} is not a card")
    _need(isinstance(out["offer"], list) and set(out["offer"]) <= OFFERS, where, f"offer must list some of {sorted(OFFERS)}")
    for key in ("prompt", "right", "wrong"):
        _need(isinstance(out.get(key), str) and out[key].strip(), where, f"{key!r} must be a non-empty string")
    _need(isinstance(out["why"], dict) and all(isinstance(v, str) for v in out["why"].values()), where,
          "why must map actions to texts")
    return out


def check_quiz(q: dict, where: str) -> dict:
    unknown = set(q) - QUIZ_KEYS
    _need(not unknown, where, f"unknown keys {sorted(unknown)}")
    plays = []
    for p in q.get("plays", []):
        parts = p.split() if isinstance(p, str) else []
        ok = len(parts) in (2, 3) and parts[0].isdigit() and bool(CARD.match(parts[1])) and (
            len(parts) == 2 or parts[2] == "cover")
        _need(ok, where, f"play {p!r} must be \"seat card\" or \"seat card cover\"")
        plays.append({"seat": int(parts[0]), "card": parts[1], "covered": len(parts) == 3})
    _need(2 <= len(plays) <= 4, where, "a quiz round has 2 to 4 cards")
    players = q.get("players", 2 if max(p["seat"] for p in plays) < 2 else 4)
    _need(players in (2, 4) and all(p["seat"] < players for p in plays), where, "seats must fit the table (2 or 4 players)")
    _need(len({p["seat"] for p in plays}) == len(plays), where, "one card per seat")
    _need(len({p["card"] for p in plays}) == len(plays), where, "the cards must be distinct")
    out = {"plays": plays, "players": players, "preset": q.get("preset", "mineiro")}
    if "vira" in q:
        vira = q["vira"]
        _need(isinstance(vira, str) and bool(CARD.match(vira)), where, f"vira {vira!r} is not a card")
        _need(vira not in {p["card"] for p in plays}, where, f"the vira {vira} is also on the table")
        out["vira"] = vira
    return out


# ------------------------------------------------------------------------ the engine

def _event_action(ev: dict) -> str | None:
    """The action string a log event records (for a covered card, from its owner's view)."""
    kind = ev.get("type")
    if kind in ("play", "cover"):
        return f"{kind} {ev['card']}"
    if kind in ("raise", "accept", "run"):
        return kind
    return None


class Replay:
    """An exercise played through ``truco.api`` exactly as the page plays it.

    ``events`` collects the learner's view of the log after the setup; ``verdict`` is
    ``"right"`` / ``"wrong"`` / ``None`` (undecided), judged like exercise.js judges it.
    """

    def __init__(self, ex: dict, seed: int | None = None) -> None:
        self.api, _ = _engine()
        self.ex = ex
        self.seed = ex["seed"] if seed is None else seed
        self.events: list[dict] = []
        self.last_n = -1
        self.learner_actions: list[str] = []
        self.round_of_first_card: int | None = None
        self.verdict: str | None = None
        self.hand_number: int | None = None
        obs = self.call("new_game", new_game_params(ex, self.seed))
        self.obs = obs
        self.hand_number = obs["hand_number"]
        self.last_n = obs["log"][-1]["n"]
        for move in ex["setup"]:
            self.move(move, setup=True)
        self.events = []

    def call(self, method: str, params: dict | None = None) -> dict:
        """One request to ``truco.api`` through its JSON text, as the page sends it.

        ``method`` and the params' names are checked against ``api.METHODS`` and
        ``api.PARAMS`` first, raising a ``TypeError``: the engine's own ``ValueError`` would
        be taken for a refused move (a learner's "wrong"), so a renamed method or param
        would pass for a wrong solution instead of failing the build."""
        params = params or {}
        if method not in self.api.METHODS:
            raise TypeError(f"truco.api has no method {method!r}: one of {', '.join(self.api.METHODS)}")
        unknown = self.api.unknown_params(method, params)
        if unknown:
            raise TypeError(f"truco.api's {method} takes no param {', '.join(unknown)}")
        reply = json.loads(self.api.handle(json.dumps({"method": method, "params": params})))
        return reply["observation"] if "observation" in reply else reply

    def _take(self, obs: dict) -> None:
        self.obs = obs
        new = [e for e in obs["log"] if e["n"] > self.last_n]
        if new:
            self.last_n = new[-1]["n"]
        self.events += new

    def move(self, move: str, setup: bool = False) -> None:
        """Play one "seat action"; a bot seat's move must be what the seeded bot does."""
        seat, action = int(move[0]), move[2:]
        if seat == 0:
            if not setup:
                self.learner_act(action)
                return
            self._take(self.call("apply", {"action": action}))
            return
        game = self.api._session.game
        if game.to_move != seat:
            raise LessonError(f"{move!r}: it is seat {game.to_move}'s turn, not seat {seat}'s")
        before = len(game.log)
        self._take(self.call("bot_step"))
        # The bot's own view of the event (its covered card shows to its owner).
        got = next((_event_action(e) for e in game.observation(seat)["log"] if e["n"] == before), None)
        if got is None or not _matches(got, action):
            raise ScriptMismatch(f"{move!r}: with seed {self.seed} the bot chose {got!r}")

    def learner_act(self, action: str) -> None:
        if self.verdict is not None:
            raise LessonError(f"{action!r}: the exercise is already judged {self.verdict}")
        obs = self.obs
        if action.startswith(("play ", "cover ")) and self.round_of_first_card is None:
            self.round_of_first_card = len(obs["rounds"])
        try:
            self._take(self.call("apply", {"action": action}))
        except ValueError:
            if action.startswith(("play ", "cover ")) and not self.learner_actions:
                self.round_of_first_card = None
            self.verdict = "wrong"  # refused by the engine
            return
        self.learner_actions.append(action)
        self.judge()

    def run_bots(self, scripted: list[str]) -> None:
        """Bots move until the learner's turn; scripted moves must match, others are free."""
        game = self.api._session.game
        while self.verdict is None and game.to_move not in (None, 0):
            if scripted and int(scripted[0][0]) == game.to_move:
                self.move(scripted.pop(0))
            else:
                self._take(self.call("bot_step"))
            self.judge()

    def judge(self) -> None:
        if self.verdict is None:
            self.verdict = judge(self.ex, self.learner_actions, self.round_of_first_card, self.events)

    def play(self, path: list[str]) -> str | None:
        """Play a solution / mistake path; returns the verdict at its end."""
        moves = list(path)
        self.run_bots(moves)
        while moves and self.verdict is None:
            m = moves.pop(0)
            if m[0] == "0":
                act = m[2:]
                if act == "timeout":
                    # The timer ran out: the engine moves for the learner (RULES.md §8).
                    if self.round_of_first_card is None and not self.obs["pending"] and not self.obs["decision"]:
                        self.round_of_first_card = len(self.obs["rounds"])
                    self._take(self.call("apply", {"action": "timeout"}))
                    self.learner_actions.append("timeout")
                    self.judge()
                else:
                    self.learner_act(act)
                self.run_bots(moves)
            else:
                self.move(m)
                self.judge()
        if moves:
            raise LessonError(f"judged {self.verdict} before the moves {moves} were played")
        return self.verdict


class ScriptMismatch(LessonError):
    pass


# What the mini-table draws from an observation (site/static/js/mini_table.js, exercise.js):
# the first position carries these and nothing else (no log, no history).
FIRST_KEYS = (
    "players", "team", "preset", "hand_number", "hand_kind", "dealer", "mao", "blind", "vira", "manilhas",
    "hand", "hand_sizes", "visible_hands", "decision", "rounds", "hand_value", "next_raise", "pending",
    "to_move", "legal_actions", "score", "winner",
)
FIRST_RULES = ("ladder", "manilha_names", "vira", "mao_de_x", "mao_de_x_value", "mao_de_x_run_gives")


def first_position(ex: dict) -> dict | None:
    """What the mini-table shows before the learner's first move, from the learner's (seat 0's)
    observation after the setup and the bots' moves: the page draws it before the engine has
    started. None when the learner never gets a move (the exercise is judged before).

    Only seat 0's view goes in (the engine's observation hides the other hands); ``events``
    are the moves the bots made after the setup, as the page collects them (speech bubbles)."""
    rep = Replay(ex)
    rep.run_bots([])
    obs = rep.obs
    if rep.verdict is not None or obs["to_move"] != 0 or obs["winner"] is not None:
        return None
    first = {k: obs[k] for k in FIRST_KEYS}
    first["rules"] = {k: obs["rules"][k] for k in FIRST_RULES}
    return {"obs": first, "events": rep.events}


def new_game_params(ex: dict, seed: int) -> dict:
    params = {
        "preset": ex["preset"], "players": ex["players"], "seed": seed, "hands": ex["hands"],
        "score": ex["score"], "dealer": ex["dealer"], "series": ex["series"], "timer": ex["timer"],
        "level": ex["level"], "partner_level": ex["level"], "human_seat": 0,
    }
    if ex.get("ferro"):
        params["ferro"] = ex["ferro"]
    if ex.get("vira"):
        params["vira"] = ex["vira"]
    return params


def _matches(action: str, pattern: str) -> bool:
    return action == pattern or (pattern.endswith(" *") and action.startswith(pattern[:-1]))


def judge(ex: dict, actions: list[str], round_no: int | None, events: list[dict]) -> str | None:
    """Right / wrong / undecided, from the learner's actions and the events since the setup
    (the same rules as judge() in site/static/js/exercise.js)."""
    goal = ex["goal"]
    hand = next((e for e in events if e["type"] == "hand"), None)
    if goal == "action":
        if not actions:
            return None
        return "right" if any(_matches(actions[0], p) for p in ex["actions"]) else "wrong"
    if goal == "round":
        if round_no is None:
            return "wrong" if hand else None
        rnd = next((e for e in events if e["type"] == "round" and e["round"] == round_no), None)
        if rnd is None:
            return "wrong" if hand else None
        got = "tie" if rnd["result"] == "tie" else ("win" if rnd["result"] == 0 else "lose")
        return "right" if got == ex["want"] else "wrong"
    if hand is None:
        return None
    points = hand.get("points") or 0
    ours = points if hand.get("winner") == 0 else 0
    theirs = points if hand.get("winner") == 1 else 0
    if goal == "hand":
        return "right" if ours >= ex["min"] else "wrong"
    return "right" if ours - theirs >= ex["min"] else "wrong"


def verify_exercise(ex: dict, where: str) -> None:
    """The deal is legal, the setup replays, solution is right and mistake is wrong."""
    for key, expected in (("solution", "right"), ("mistake", "wrong")):
        try:
            rep = Replay(ex)
            got = rep.play(ex[key])
        except ValueError as exc:
            raise LessonError(f"{where} ({ex['id']}) {key}: {exc}") from None
        _need(got == expected, f"{where} ({ex['id']})", f"{key} {ex[key]} is judged {got}, not {expected}")


def find_seed(ex: dict, limit: int = 200_000) -> int | None:
    """The smallest seed for which the setup and both paths replay (bot moves as scripted)."""
    for seed in range(limit):
        try:
            for key, expected in (("solution", "right"), ("mistake", "wrong")):
                if Replay(ex, seed).play(ex[key]) != expected:
                    return None
        except ScriptMismatch:
            continue
        except ValueError:
            return None
        return seed
    return None


# ------------------------------------------------------------------------ rendering

class Cards:
    """Card pictures and names at build time, from the engine's rules and the UI strings."""

    def __init__(self, strings: dict, preset_name: str = "mineiro", vira: str | None = None) -> None:
        _, preset = _engine()
        self.rules = preset(preset_name)
        self.strings = strings
        if vira is not None and (not self.rules.vira or not CARD.match(vira)):
            raise LessonError(f"vira {vira!r}: the preset {preset_name!r} has no vira, or it is not a card")
        self.vira = vira
        self.manilhas = list(self.rules.manilhas_for(vira))

    def s(self, key: str) -> str:
        v = self.strings[key]
        return v[0] if isinstance(v, list) else v

    def name(self, card: str) -> str:
        r = card[0]
        rank = self.s(f"rank.{r}") if r in "QJKA" else r
        return self.s("card.name").replace("{rank}", rank).replace("{suit}", self.s(f"suit.{card[1]}"))

    def manilha(self, card: str) -> str | None:
        """The manilha's name ("Zap"); with a vira, the word "manilha" (its rank changes by hand)."""
        if card in self.manilhas:
            if self.rules.vira:
                return self.s("card.manilha")
            return self.rules.manilha_names[self.manilhas.index(card)]
        return None

    def html(self, card: str, small: bool = False) -> str:
        """The markup of cards.js cardElement() (aria-hidden: a caption names the card)."""
        size = " small" if small else ""
        if card == "xx":
            return f'<div class="card back{size}" aria-hidden="true"></div>'
        sym = {"c": "♣", "h": "♥", "s": "♠", "d": "♦"}[card[1]]
        red = " red" if card[1] in "hd" else ""
        m = self.manilha(card)
        cls = f"card face suit-{card[1]}{red}{size}{' manilha' if m else ''}"
        corner = f"<b>{card[0]}</b><i>{sym}</i>"
        # As at the table (cards.js): with a vira the tag is a star, the caption names it.
        tag = f'<span class="tag" aria-hidden="true">{"★" if self.rules.vira else html.escape(m)}</span>' if m else ""
        return (f'<div class="{cls}" aria-hidden="true">'
                f'<span class="corner tl">{corner}</span><span class="pip">{sym}</span>'
                f'<span class="corner br">{corner}</span>{tag}</div>')

    def row(self, cards: list[str], caption: str = "") -> str:
        items = []
        for c in cards:
            if c == "xx":
                label = html.escape(self.s("card.back"))
                items.append(f'<li>{self.html(c)}<span class="card-caption">{label}</span></li>')
                continue
            m = self.manilha(c)
            label = html.escape(self.name(c)) + (f"<b>{html.escape(m)}</b>" if m else "")
            items.append(f'<li>{self.html(c)}<span class="card-caption">{label}</span></li>')
        cap = f"<figcaption>{inline(caption)}</figcaption>" if caption else ""
        return f'<figure class="card-row"><ul>{"".join(items)}</ul>{cap}</figure>'

    def order(self) -> str:
        """Every card, strongest first, equal cards grouped (rules.strength_table)."""
        table = self.rules.strength_table(self.vira)
        groups: dict[int, list[str]] = {}
        for card in self.rules.deck():
            if card != self.vira:  # the vira is out of play
                groups.setdefault(table[card], []).append(card)
        rows = []
        for i, s in enumerate(sorted(groups, reverse=True), 1):
            cards = groups[s]
            names = ", ".join(self.name(c) + (f" ({self.manilha(c)})" if self.manilha(c) else "") for c in cards)
            pics = "".join(self.html(c, small=True) for c in cards)
            first = cards[0]
            label = self.manilha(first) or (self.s(f"rank.{first[0]}") if first[0] in "QJKA" else first[0])
            if self.manilha(first) and self.rules.vira:
                label = f"{label} {'♣♥♠♦'['chsd'.index(first[1])]}"
            cls = "order-name manilha" if self.manilha(first) else "order-name"
            rows.append(f'<li><span class="order-n" aria-hidden="true">{i}</span>'
                        f'<span class="order-cards">{pics}</span>'
                        f'<span class="{cls}" aria-hidden="true">{html.escape(label)}</span>'
                        f'<span class="visually-hidden">{i}: {html.escape(names)}</span></li>')
        title = html.escape(self.s("tutorial.order"))
        return f'<figure class="card-order"><figcaption>{title}</figcaption><ol>{"".join(rows)}</ol></figure>'

    def ladder(self) -> str:
        """The preset's raise ladder: what each call is worth, and what running from it gives."""
        head = "".join(f"<th scope=\"col\">{html.escape(self.s(k))}</th>"
                       for k in ("tutorial.ladder.call", "tutorial.ladder.value", "tutorial.ladder.run"))
        rows = [f"<tr><th scope=\"row\">{html.escape(self.s('tutorial.ladder.start'))}</th>"
                f"<td>{self.rules.start_value}</td><td>—</td></tr>"]
        before = self.rules.start_value
        for step in self.rules.ladder:
            name = self.strings.get(f"raise.{step.name}", step.name.capitalize())
            rows.append(f"<tr><th scope=\"row\">{html.escape(name)}!</th><td>{step.value}</td><td>{before}</td></tr>")
            before = step.value
        return f'<table class="ladder"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def inline(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<em>\1</em>", out)
    return out


BLOCK = re.compile(r"^\{(cartas|ordem|escada)(?:\s+([^|}]*))?(?:\|\s*([^}]*))?\}$")


def render_markdown(text: str, cards: Cards, where: str) -> str:
    """The Markdown subset of the lesson bodies, to HTML."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    kind = ""

    def flush() -> None:
        nonlocal kind
        if para:
            out.append(f"<p>{inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append(f"<{kind}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{kind}>")
            items.clear()
        kind = ""

    for raw in text.split("\n"):
        line = raw.strip()
        block = BLOCK.match(line)
        if not line:
            flush()
        elif block:
            flush()
            name, args, caption = block.group(1), (block.group(2) or "").split(), (block.group(3) or "").strip()
            if name == "cartas":
                for c in args:
                    _need(c == "xx" or bool(CARD.match(c)), where, f"{{cartas}}: {c!r} is not a card")
                _need(bool(args), where, "{cartas} needs cards")
                out.append(cards.row(args, caption))
            elif name == "ordem":
                out.append(cards.order())
            else:
                out.append(cards.ladder())
        elif line.startswith("## "):
            flush()
            out.append(f"<h3>{inline(line[3:])}</h3>")
        elif re.match(r"^(- |\d+\. )", line):
            k = "ul" if line.startswith("- ") else "ol"
            if para or (items and kind != k):
                flush()
            kind = k
            items.append(re.sub(r"^(- |\d+\. )", "", line))
        elif items and raw.startswith("  "):
            items[-1] += " " + line
        else:
            if items:
                flush()
            para.append(line)
    flush()
    return "\n".join(out)


# ------------------------------------------------------------------------ the whole set

def lesson_files(directory: Path = LESSONS_DIR) -> list[Path]:
    files = sorted(p for p in directory.glob("*.md"))
    for p in files:
        if not FILE_NAME.match(p.name):
            raise LessonError(f"{p.name}: lesson files are named NN_slug.md (e.g. 02_manilhas.md)")
    return files


def load(strings: dict, directory: Path = LESSONS_DIR, verify: bool = True) -> list[dict]:
    """Every lesson, rendered and checked (verify=False skips the engine replays)."""
    lessons = []
    seen: set[str] = set()
    for n, path in enumerate(lesson_files(directory), 1):
        meta, body = parse_file(path)
        where = path.name
        unknown = set(meta) - LESSON_KEYS
        _need(not unknown, where, f"unknown front matter keys {sorted(unknown)}")
        _need(isinstance(meta.get("title"), str) and meta["title"], where, "needs a title")
        slug = FILE_NAME.match(path.name).group(2).replace("_", "-")
        try:
            cards = Cards(strings, meta.get("preset", "mineiro"), meta.get("vira"))
        except ValueError as exc:
            raise LessonError(f"{where}: {exc}") from None
        exercises = [check_exercise(e, f"{where} exercise {i + 1}") for i, e in enumerate(meta.get("exercise", []))]
        _need(bool(exercises), where, "a lesson needs at least one [[exercise]]")
        quiz = [check_quiz(q, f"{where} quiz {i + 1}") for i, q in enumerate(meta.get("quiz", []))]
        _need(bool(quiz), where, "a lesson ends with a quiz: at least one [[quiz]]")
        for ex in exercises:
            _need(ex["id"] not in seen, where, f"exercise id {ex['id']!r} is used twice")
            seen.add(ex["id"])
            ex["lesson"] = slug
            if verify:
                verify_exercise(ex, where)
                # Drawn by the page before the engine starts (the engine replays it on a touch).
                ex["first"] = first_position(ex)
        lessons.append({
            "n": n, "slug": slug, "file": path.name, "title": meta["title"],
            "summary": meta.get("summary", ""), "html": render_markdown(body, cards, where),
            # The rules its card pictures follow (a translation's text is drawn with the same).
            "preset": meta.get("preset", "mineiro"), "vira": meta.get("vira"),
            "exercises": exercises, "quiz": quiz,
        })
    _need(bool(lessons), str(directory), "no lesson files")
    return lessons


# ------------------------------------------------------------------------ translations

# The texts of an exercise that a translation gives (the deal, moves and goal are shared).
EXERCISE_TEXTS = ("title", "prompt", "right", "wrong", "refused", "why")
TRANSLATION_KEYS = {"title", "summary", "exercise"}


def translation_file(lesson: dict, lang: str, directory: Path = LESSONS_DIR) -> Path:
    return directory / lang / lesson["file"]


def translate(lessons: list[dict], lang: str, strings: dict, directory: Path = LESSONS_DIR) -> list[dict]:
    """The lessons with their texts in `lang`, from site/tutorial/<lang>/NN_slug.md.

    A translation file has the same name as the lesson and the same layout, but its front
    matter holds only texts: ``title``, ``summary``, and per exercise (by id) the texts the
    Portuguese exercise has::

        +++
        title = "The four manilhas"
        summary = "Zap, Copas, Espadilha and Pica-fumo."

        [exercise.manilhas-pica-fumo]
        prompt = "Tonho played the 3 of spades. Beat it."
        right = "..."
        wrong = "..."
        why = { "play 2c" = "..." }
        +++
        Markdown text of the lesson...

    The deals, moves, goals and quizzes stay in the Portuguese file (one place to change
    them). A missing file, a missing or extra text, or an unknown exercise id is an error,
    so a lesson can't be left half-translated."""
    out = []
    for lesson in lessons:
        # The card pictures follow the lesson's rules (manilha nova: its vira), in `lang`'s words.
        cards = Cards(strings, lesson.get("preset", "mineiro"), lesson.get("vira"))
        path = translation_file(lesson, lang, directory)
        where = path.name
        # The card pictures follow the lesson's rules (a vira's manilhas), as in Portuguese.
        cards = Cards(strings, lesson.get("preset", "mineiro"), lesson.get("vira"))
        _need(path.is_file(), where,
              f"the lesson {lesson['file']} has no {lang} translation: add site/tutorial/{lang}/{lesson['file']} "
              f"(the same texts, see lessons.translate)")
        meta, body = parse_file(path)
        unknown = set(meta) - TRANSLATION_KEYS
        _need(not unknown, where, f"unknown front matter keys {sorted(unknown)} (a translation has only texts)")
        _need(isinstance(meta.get("title"), str) and meta["title"], where, "needs a title")
        _need(bool(meta.get("summary")) == bool(lesson["summary"]), where,
              "summary: give one exactly when the Portuguese lesson has one")
        texts = meta.get("exercise", {})
        _need(isinstance(texts, dict), where, "exercises are [exercise.<id>] tables")
        ids = [ex["id"] for ex in lesson["exercises"]]
        extra = set(texts) - set(ids)
        _need(not extra, where, f"no exercise {sorted(extra)} in {lesson['file']}")
        exercises = []
        for ex in lesson["exercises"]:
            tr = texts.get(ex["id"])
            _need(isinstance(tr, dict), where, f"missing [exercise.{ex['id']}]")
            ex_where = f"{where} ({ex['id']})"
            bad = set(tr) - set(EXERCISE_TEXTS)
            _need(not bad, ex_where, f"unknown keys {sorted(bad)} (texts only: {', '.join(EXERCISE_TEXTS)})")
            new = dict(ex)
            for key in EXERCISE_TEXTS:
                has = bool(ex.get(key))
                _need(bool(tr.get(key)) == has, ex_where,
                      f"{key!r}: {'missing' if has else 'the Portuguese exercise has none'}")
                if not has:
                    continue
                if key == "why":
                    _need(isinstance(tr["why"], dict) and set(tr["why"]) == set(ex["why"]), ex_where,
                          f"why must explain the same actions: {sorted(ex['why'])}")
                    _need(all(isinstance(v, str) and v.strip() for v in tr["why"].values()), ex_where,
                          "why texts must be non-empty strings")
                else:
                    _need(isinstance(tr[key], str) and tr[key].strip(), ex_where, f"{key!r} must be a non-empty string")
                new[key] = tr[key]
            exercises.append(new)
        out.append(dict(lesson, title=meta["title"], summary=meta.get("summary", ""),
                        html=render_markdown(body, cards, where), exercises=exercises))
    return out


def public_exercise(ex: dict, lesson: dict) -> dict:
    data = {k: v for k, v in ex.items() if k not in PRIVATE_KEYS}
    data["lesson_title"] = lesson["title"]
    return data


def page_data(lessons: list[dict]) -> dict:
    """What the tutorial and embed pages receive: no solutions, no quiz answers."""
    return {
        "lessons": [{"slug": l["slug"], "n": l["n"], "title": l["title"],
                     "exercises": [e["id"] for e in l["exercises"]], "quiz": l["quiz"]} for l in lessons],
        "exercises": {e["id"]: public_exercise(e, l) for l in lessons for e in l["exercises"]},
        "manilha_names": manilha_names(),
    }


def manilha_names() -> dict:
    """Each preset's manilha names, strongest first (the engine's judge answers with cards)."""
    _engine()
    from truco.rules import PRESETS

    return {name: list(rules.manilha_names) for name, rules in sorted(PRESETS.items())}


def json_for_script(data: Any) -> str:
    """JSON for a <script type="application/json"> block ("</" cannot close it)."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def write_seed(path: Path, ex_id: str, seed: int) -> None:
    """Set `seed = N` in the exercise `ex_id` of a lesson file (the line after its id)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines.index(f'id = "{ex_id}"')
    end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith("[") or lines[i] == "+++"), len(lines))
    for i in range(at + 1, end):
        if lines[i].startswith("seed = "):
            lines[i] = f"seed = {seed}"
            break
    else:
        lines.insert(at + 1, f"seed = {seed}")
    path.write_text("\n".join(lines), encoding="utf-8")


def _ui_strings() -> dict:
    return json.loads((ROOT / "site" / "i18n" / "pt-BR.json").read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    if argv[:1] == ["seeds"]:
        strings = _ui_strings()
        bad = 0
        for lesson in load(strings, verify=False):
            for ex in lesson["exercises"]:
                try:
                    verify_exercise(ex, lesson["file"])
                    print(f"{ex['id']}: seed {ex['seed']} ok")
                except LessonError as exc:
                    seed = find_seed(ex)
                    bad += 1
                    print(f"{ex['id']}: {exc}\n  -> " + (f"use seed = {seed}" if seed is not None else "no seed works"))
                    if seed is not None and "--write" in argv:
                        write_seed(LESSONS_DIR / lesson["file"], ex["id"], seed)
                        print(f"  -> written to {lesson['file']}")
        return 1 if bad else 0
    if argv[:1] == ["check"]:
        lessons = load(_ui_strings())
        print(f"{len(lessons)} lessons, {sum(len(l['exercises']) for l in lessons)} exercises, "
              f"{sum(len(l['quiz']) for l in lessons)} quiz rounds: ok")
        return 0
    print("usage: python -m truco_tools.lessons check | seeds [--write]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
