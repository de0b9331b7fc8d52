"""JSON-in, JSON-out facade for the browser worker: one table session at a time.

The page never sees a Python object and never sees a hidden card: every reply carries
the human seat's observation only (at a table of several people, the seat the request
names, or with ``seat: null`` nobody's: the public view), plus the opaque ``save`` blob
(the full state, stored by the page without reading it, handed back to ``load`` to resume).

>>> import json
>>> reply = json.loads(handle(json.dumps({"method": "new_game", "params": {"seed": 3, "players": 2}})))
>>> sorted(reply)
['observation', 'save']
>>> reply["observation"]["seat"]
0
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from . import __version__
from .daily import daily_seed
from .game import Game, IllegalAction, new_game
from .names import LEVELS
from .openings import opening_seed
from .quote import QUOTE_MAX, said
from .table import OPTION_NAMES

SAVE_FORMAT = "truco-session"
SAVE_VERSION = 2
"""Version 2 holds the game as its start and moves (:mod:`truco.persist`); version 1 saves
(the game's internal state) are still read, through the converter and the same replay."""
MAX_DEPTH = 64
"""How deeply a request may nest arrays and objects (a real one nests under 10)."""
MESSAGE_MAX = 300
"""The longest error message :func:`handle` raises: a message names what is wrong and
quotes the bad input cut short (:func:`said`), never a whole request or save."""


class Session:
    """A table: a game, the seats people drive (``humans``, the first being ``human_seat``)
    and the bots' levels of the other seats.

    A seat in ``humans`` is driven by someone other than the local bot: today a person at
    this device (pass-and-play, where several humans share one screen); the engine treats
    every such seat alike and answers each request from the view of the seat it names.
    """

    def __init__(self, game: Game, human_seat: int, levels: dict[int, str], start: dict | None = None,
                 humans: list[int] | None = None, apart: bool = False) -> None:
        self.game = game
        # The humans sit at devices of their own (a friends' table): sinais between partners
        # go to the partner's device only, so they stay on.
        self.apart = apart
        self.human_seat = human_seat
        self.humans = sorted(set(humans or [human_seat]) | {human_seat})
        self.levels = levels
        # How the match was started (new_game's arguments, the drawn seed included): the
        # replay plays it again from there, and a shared link starts the same deals.
        self.start = start

    def seat_of(self, params: dict) -> int | None:
        """The seat a request speaks for (``seat``, default the human's): one of ``humans``.
        ``None`` when the request asks explicitly for no seat (``"seat": null``): the public view."""
        if "seat" not in params:
            return self.human_seat
        seat = params["seat"]
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.humans:
            raise ValueError(f"seat {said(seat, 20)} is not a human seat of this table ({self.humans})")
        return seat

    def signals_off(self, seat: int) -> bool:
        """Sinais make no sense between people sharing one screen: a seat whose partners are
        all humans may not signal (with a bot partner it still may)."""
        if self.apart:
            return False
        partners = [p for p in range(seat % 2, self.game.players, 2) if p != seat]
        return bool(partners) and all(p in self.humans for p in partners)

    def view(self, seat: int | None) -> dict:
        """``seat``'s observation (sinais off between human partners), or with ``None`` the
        public view: what anyone at the table sees (no hand, no covered card, no signal)."""
        if seat is None:
            return public_view(self.game.observation(self.human_seat))
        obs = self.game.observation(seat)
        if obs["may_signal"] and self.signals_off(seat):
            obs["may_signal"] = False
        return obs

    def to_json(self) -> str:
        return json.dumps({
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "human_seat": self.human_seat,
            **({"humans": self.humans} if len(self.humans) > 1 else {}),
            **({"apart": True} if self.apart else {}),
            "levels": {str(s): lv for s, lv in sorted(self.levels.items())},
            "game": json.loads(self.game.to_json()),
            **({"start": self.start} if self.start is not None else {}),
        }, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "Session":
        """The session a save holds: its match replayed from its start through the rules.
        Any fault is a ``ValueError`` naming it; nothing outside is changed."""
        from .persist import canonical_start, game_from_state

        if not isinstance(text, str):
            raise ValueError(f"the save must be text, not {type(text).__name__}")
        data = _parse_json(text, "the save", "the save is not JSON a table can hold: it is nested too deeply")
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("the save is not a Truco table save")
        version = data.get("version")
        if version not in (1, SAVE_VERSION) or isinstance(version, bool):
            raise ValueError(f"unsupported save version {said(version)}")
        unknown = set(data) - {"format", "version", "human_seat", "humans", "apart", "levels", "game", "start"}
        if unknown:
            raise ValueError(f"the save has unknown field(s) {said(sorted(unknown))}")
        start = data.get("start")
        if start is not None and not isinstance(start, dict):
            raise ValueError("the save's start must be an object")
        game = game_from_state(Game, data.get("game"), start if version == 1 else None)
        if version != 1 and start is not None and canonical_start(Game, start) != game.start:
            raise ValueError("the save's start is not how its game started")
        seat = data.get("human_seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise ValueError(f"the save's human_seat {said(seat)} is not a seat of the game")
        humans = _check_humans(data.get("humans", [seat]), game.players, seat)
        levels = _check_levels(data.get("levels"), game.players, humans)
        apart = data.get("apart", False)
        if not isinstance(apart, bool):
            raise ValueError("the save's apart must be true or false")
        return cls(game, seat, levels, start, humans, apart)

    def reply(self, seat: int | None = -1) -> dict:
        """A table reply: ``seat``'s observation (default the human's) and the save."""
        return {"observation": self.view(self.human_seat if seat == -1 else seat), "save": self.to_json()}


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:QUOTE_MAX]} is past the largest number JSON carries")
    return value


def _parse_json(text: str | bytes, what: str, too_deep: str) -> Any:
    """``text`` parsed as strict JSON, or a ``ValueError`` saying that ``what`` is not JSON
    (``too_deep`` when it nests past what the parser's recursion allows). ``NaN``,
    ``Infinity`` and numbers too large for a float are refused: the page's ``JSON.parse``
    could not read them back, and nothing in a game is one."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not JSON: {exc.msg.lower()} at character {exc.pos}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{what} is not JSON: it is not UTF-8 text") from None
    except RecursionError:
        raise ValueError(too_deep) from None
    except ValueError as exc:
        # A constant or float refused above, or an integer past Python's digit limit.
        why = str(exc) if "JSON" in str(exc) else "a number has too many digits"
        raise ValueError(f"{what} is not JSON a table can hold: {why}") from None


def public_view(obs: dict) -> dict:
    """What anyone at the table sees, from a seat's observation: no hand (its own or a
    partner's), no covered card, no signal, no decision to take. For a screen that shows
    no seat's cards (pass-and-play's "Passe para …", the start screen's summary)."""
    def public(e: dict) -> dict | None:
        if e["type"] == "signal":
            return None
        if e["type"] == "cover":
            return {"type": "cover", "seat": e["seat"], "card": None, "n": e["n"]}
        return e

    return dict(
        obs, hand=[], visible_hands=[], signals=[], may_signal=False, legal_actions=[],
        rounds=[dict(r, plays=[dict(p, card=None if p["covered"] else p["card"]) for p in r["plays"]])
                for r in obs["rounds"]],
        log=[x for x in map(public, obs["log"]) if x is not None],
    )


def _check_humans(humans: Any, players: int, human: int) -> list[int]:
    if not isinstance(humans, list) or not humans or len(humans) > players:
        raise ValueError("humans must list the seats people play")
    for seat in humans:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"humans: {said(seat, 20)} is not a seat of the table")
    if len(set(humans)) != len(humans) or human not in humans:
        raise ValueError("humans must name each seat once, the human_seat among them")
    return sorted(humans)


def _check_levels(levels: Any, players: int, humans: list[int]) -> dict[int, str]:
    if not isinstance(levels, dict):
        raise ValueError("levels must map seats to bot levels")
    out = {}
    for seat in range(players):
        if seat in humans:
            continue
        level = levels.get(str(seat), levels.get(seat))
        if not isinstance(level, str) or (level not in LEVELS and level not in ("random", "passive")):
            raise ValueError(f"seat {seat}: unknown bot level {said(level)} ({', '.join(LEVELS)})")
        out[seat] = level
    return out


_session: Session | None = None


def _current() -> Session:
    if _session is None:
        raise ValueError("no game in progress: call new_game or load first")
    return _session


def _new_game(params: dict) -> dict:
    global _session
    params = dict(params)
    humans = params.pop("humans", None)
    human = params.pop("human_seat", min(humans) if isinstance(humans, list) and humans and all(
        isinstance(x, int) for x in humans) else 0)
    seat = params.pop("seat", -1)
    apart = params.pop("apart", False)
    if not isinstance(apart, bool):
        raise ValueError(f"apart must be true or false, not {said(apart, 20)}")
    level = params.pop("level", "medio")
    partner_level = params.pop("partner_level", level)
    if "opening" in params:
        # A match the page dealt from the build before the engine was up (truco.openings):
        # the engine deals it from its own seed, the page never having seen it.
        if any(name in params for name in ("seed", "hands", "score", "dealer", "vira")):
            raise ValueError("opening deals a match of its own: no seed, hands, score, dealer or vira with it")
        params["seed"] = opening_seed(params.pop("opening"))
    if "daily" in params:
        # O desafio do dia (truco.daily): the date's seed, made here, not by the page.
        if any(name in params for name in ("seed", "hands", "score", "dealer", "vira")):
            raise ValueError("daily deals the day's match: no seed, hands, score, dealer or vira with it")
        params["seed"] = daily_seed(params.pop("daily"))
    players = params.get("players", 2)
    if isinstance(human, bool) or not isinstance(human, int) or not 0 <= human < (players if isinstance(players, int) else 2):
        raise ValueError(f"human_seat {said(human)} is not a seat of the table")
    # The page says "the human decides for the team" as a flag; the engine wants the seat.
    decide = params.pop("humano_decide", False)
    if not isinstance(decide, bool):
        raise ValueError(f"humano_decide must be true or false, not {said(decide)}")
    if decide:
        if isinstance(humans, list) and len(humans) > 1:
            if not apart:
                raise ValueError("humano_decide is for a table with one human: several humans each decide for themselves")
            # A friends' table (each person at a device of their own): a person whose partners
            # are all bots decides for them, as in a bot match; partners who are both people
            # each decide for themselves.
            bosses = _bosses(humans, params.get("players", 2))
            if bosses:
                params["humano_decide"] = bosses if len(bosses) > 1 else bosses[0]
        else:
            params["humano_decide"] = human
    game = new_game(**params)
    humans = _check_humans([human] if humans is None else humans, game.players, human)
    levels = {s: (partner_level if s % 2 == human % 2 else level)
              for s in range(game.players) if s not in humans}
    start = dict(params, seed=game.seed)
    session = Session(game, human, _check_levels({str(k): v for k, v in levels.items()}, game.players, humans),
                      start, humans, apart)
    reply_seat = session.seat_of({"seat": seat} if seat != -1 else {})
    _session = session
    _bots_signal(_session)
    return _session.reply(reply_seat)


def _bosses(humans: Any, players: Any) -> list[int]:
    """The humano decide seats of a table with several people at devices of their own: the
    one person of each team that has exactly one (by the seats asked for, whoever is
    connected: a dropped guest's bot keeps its seat's role until it rejoins)."""
    if not isinstance(humans, list) or not isinstance(players, int) or isinstance(players, bool):
        return []
    seats = [h for h in humans if isinstance(h, int) and not isinstance(h, bool)]
    out = []
    for team in (0, 1):
        mine = [h for h in seats if h % 2 == team]
        if len(mine) == 1 and any(p % 2 == team and p != mine[0] for p in range(players)):
            out.append(mine[0])
    return sorted(out)


def _bots_signal(s: Session) -> None:
    """Each bot sends its partners the honest signal of its hand when its policy says the
    partner gains from it (:func:`truco.signals.signal_to_send`, as in the arena)."""
    game = s.game
    if not game.options["sinais"] or game.winner is not None:
        return
    from .signals import signal_to_send

    for seat in range(game.players):
        if seat not in s.humans and game.may_signal(seat):
            name = signal_to_send(game.observation(seat))
            if name:
                game.apply("signal " + name, seat=seat)


def _bot(s: Session, seat: int, level: str | None = None):
    """The bot of ``seat``, seeded by the position so a resumed game replays the same."""
    from . import bots

    return bots.for_move(level or s.levels.get(seat, "dificil"), s.game.seed, seat, len(s.game.log))


def _apply(params: dict) -> dict:
    s = _current()
    seat = s.seat_of(params)
    if seat is None:
        raise ValueError("apply needs the seat that acts")
    action = params.get("action")
    if isinstance(action, str) and action.startswith("signal") and s.signals_off(seat):
        raise IllegalAction(f"{action[:30]!r}: no sinais between human partners sharing one screen")
    s.game.apply(action, seat=seat)
    _bots_signal(s)
    return s.reply(seat)


def _set_humans(params: dict) -> dict:
    """Change the seats people play mid-match (a friends' table: a guest whose device dropped
    is played by a bot until they rejoin). ``humans`` keeps ``human_seat``; a seat that turns
    bot gets the level of a bot of its team (else of any bot, else ``medio``); a bot seat
    that turns human drops its level. Returns a table reply from ``human_seat``'s view."""
    s = _current()
    humans = _check_humans(params.get("humans"), s.game.players, s.human_seat)
    levels = {}
    for seat in range(s.game.players):
        if seat in humans:
            continue
        team = [lv for b, lv in s.levels.items() if b % 2 == seat % 2]
        levels[seat] = s.levels.get(seat) or (team or list(s.levels.values()) or ["medio"])[0]
    if len(humans) > 1 and s.game.options.get("humano_decide") is not None and not s.apart:
        raise ValueError("humano_decide is for a table with one human")
    s.humans, s.levels = humans, levels
    _bots_signal(s)
    return s.reply()


def _bot_step(params: dict) -> dict:
    """Let the bot whose turn it is make one move.

    With ``{"fallback": true}`` (the page, never the tests, the arena or the fuzzers), a
    bot that fails still moves: a legal action drawn from the seat and the position
    (seeded, so a reload repeats it), and the reply carries ``"fallback": {"seat",
    "action", "error"}`` for the page to log. Without it, the bot's error is raised.
    """
    fallback = params.get("fallback", False)
    if not isinstance(fallback, bool):
        raise ValueError(f"fallback must be true or false, not {said(fallback)}")
    s = _current()
    view = s.seat_of(params)
    game = s.game
    seat = game.to_move
    if seat is None or seat in s.humans:
        raise IllegalAction(f"no bot to move: it is {'nobody' if seat is None else 'the human'}'s turn")
    if not fallback:
        action = _bot(s, seat).choose(game.observation(seat))
        game.apply(action, seat=seat)
        _bots_signal(s)
        return s.reply(view)
    used = None
    try:  # a bot only reads an observation, and a refused action leaves the game as it was
        action = _bot(s, seat).choose(game.observation(seat))
        game.apply(action, seat=seat)
    except Exception as exc:  # noqa: BLE001 - the fallback the page asked for: the match goes on
        action = random.Random(f"fallback:{game.seed}:{seat}:{len(game.log)}").choice(game.legal_actions())
        game.apply(action, seat=seat)
        used = {"seat": seat, "action": action, "error": f"{type(exc).__name__}: {exc}"[:300]}
    _bots_signal(s)
    reply = s.reply(view)
    if used is not None:
        reply["fallback"] = used
    return reply


def _partner_opinion(params: dict) -> dict:
    """What the partner's bot would do with a decision the human takes for the team."""
    s = _current()
    game = s.game
    human = s.seat_of(params)  # a friends' guest asks for its own seat (the host's page: its own)
    boss = game.options["humano_decide"]
    if human is None or game.to_move != human or human not in (boss if isinstance(boss, list) else [boss]):
        return {"seat": None, "action": None}
    partners = [p for p in range(human % 2, game.players, 2) if p != human]
    obs = None
    # The decision the rules gave a partner: the pending raise's natural answerer, or the
    # mão de dez decider in play order.
    for p in partners:
        candidate = game.observation(p)
        if candidate["pending"] or candidate["decision"]:
            obs = candidate
            break
    if obs is None:
        return {"seat": None, "action": None}
    seat = obs["seat"]
    obs = dict(obs, to_move=seat, legal_actions=game.legal_actions())
    if obs["pending"]:
        obs["pending"] = dict(obs["pending"], answerer=seat)
    if obs["decision"]:
        obs["decision"] = dict(obs["decision"], seat=seat)
    bot = _bot(s, seat)
    action = bot.choose(obs)
    # Why (issue 44), as the human may read it now: the partner's cards it names only
    # once face up, a signal only one the human saw (the hand is still being played).
    from .bots.review import visible

    seen = s.view(human)
    cards = {p["card"] for r in seen["rounds"] for p in r["plays"] if p["card"] and not p["covered"]}
    reason = visible(getattr(bot, "last_reason", None), cards, {x["seat"] for x in seen["signals"]})
    return {"seat": seat, "action": action, **({"reason": reason} if reason else {})}


def _hint(params: dict) -> dict:
    """The difícil bot's choice for the human seat, from the human's observation only.

    Returns ``{"action": "play 3s", "reason": {"key": "hint.play.partner_holds",
    "params": {"card": "3s", "keep_card": "4c"}}, "text": "Jogue 3 de espadas: seu
    parceiro já está ganhando a rodada; guarde 4 de paus (Zap)."}``. ``action`` is one
    of the observation's legal actions, or ``signal <name>`` while the human may still
    signal at a table with sinais. ``reason`` is for the page to render from its
    translation table (every ``hint.*`` key is in ``site/i18n/pt-BR.json``); a parameter
    named ``card`` or ``…_card`` is a card code, ``cards`` a list of them, ``raise`` a
    ladder step name (``hint.step.<name>``), ``signal`` a signal (``hint.signal_name.<name>``),
    ``x`` the preset's mão de X score (``hint.x.<value>``), the rest numbers (see :mod:`truco.hint_text`). ``text`` is the Portuguese sentence.
    """
    from .dica import dica

    s = _current()
    game = s.game
    seat = s.seat_of(params)
    if seat is None or game.to_move != seat:
        raise IllegalAction("no hint: it is not your turn")
    return dica(s.view(seat), game.seed, len(game.log))


def _history(params: dict) -> dict:
    """The whole match's public log, as the human seat (or ``seat``, one of the humans) saw
    it (for the hand review). With ``reasons_for`` (the number of a finished hand's
    ``hand`` event) also ``reasons``: event number -> why a bot made that raise, accept or
    run, as this seat may read it (:func:`truco.bots.review.bet_reasons`)."""
    s = _current()
    seat = s.seat_of(params)
    if seat is None:
        raise ValueError("history needs a seat")
    reply = {"log": s.game.events(seat)}
    if params.get("reasons_for") is not None:
        from .bots.review import bet_reasons

        hand_n = params["reasons_for"]
        if isinstance(hand_n, bool) or not isinstance(hand_n, int):
            raise ValueError(f"reasons_for must be the number of a hand event, not {said(hand_n, 20)}")
        reply["reasons"] = bet_reasons(s.game, seat, s.levels, hand_n)
    return reply


def _session_of(params: dict) -> Session:
    """The session a review asks about: a saved one (``save``) or the one being played."""
    if params.get("save") is not None:
        return Session.from_json(params["save"])
    return _current()


def _session_and_seat(params: dict, method: str):
    """The session ``params`` name (a ``save`` or the current one) and the seat asked for,
    which ``method`` needs."""
    s = _session_of(params)
    seat = s.seat_of({k: v for k, v in params.items() if k == "seat"})
    if seat is None:
        raise ValueError(f"{method} needs a seat")
    return s, seat


def _replay(params: dict) -> dict:
    """The match step by step as the human saw it (the hand review and "Rever a partida").

    From ``save`` (a finished match kept by the page) or the current session; either way
    the session being played is left as it was.
    """
    from .replay import replay_steps

    s, seat = _session_and_seat(params, "replay")
    obs = s.game.observation(seat)
    return {"rules": obs["rules"], "options": obs["options"], "seat": seat,
            "steps": replay_steps(s.game, seat)}


def _decisions(params: dict) -> dict:
    """The seat's decisions in a match, each with what the Dica would have said
    (:func:`truco.replay.decision_hints`): the review of a finished match, the day's
    challenge the day after. From ``save`` or the current session, left as it was."""
    from .replay import decision_hints

    s, seat = _session_and_seat(params, "decisions")
    return {"seat": seat, "decisions": decision_hints(s.game, seat)}


def _achievements(params: dict) -> dict:
    """The achievements of the seat's team in a match (:mod:`truco.achievements`), found in
    what the seat saw of it. From ``save`` or the current session, left as it was."""
    from .achievements import earned

    s, seat = _session_and_seat(params, "achievements")
    return {"seat": seat, "earned": earned(s.game, seat)}


def _share(params: dict) -> dict:
    """What reproduces a match's deals: its seed and how it started. Only once it is over:
    the seed decides every hand, so during the match it would show the other seats' cards."""
    s = _session_of(params)
    if s.game.winner is None:
        raise IllegalAction("a match is shared once it is over")
    # The table's own record of its start (what the page asked for) when the save has it;
    # else the game's (a version-1 save without one: its first deal, score and dealer).
    start = s.start if s.start is not None else s.game.start
    return {
        "seed": s.game.seed,
        "preset": s.game.rules.name,
        "players": s.game.players,
        "options": {k: v for k, v in s.game.options.items() if k != "humano_decide"},
        "humano_decide": s.game.options["humano_decide"] is not None,
        "levels": {str(k): v for k, v in sorted(s.levels.items())},
        **({"humans": s.humans} if len(s.humans) > 1 else {}),
        "scenario": {k: start[k] for k in ("hands", "score", "dealer", "vira") if start.get(k) is not None},
    }


def _load(params: dict) -> dict:
    """Resume a saved table. A save that is refused leaves the table in play as it was:
    the new session replaces it only once it is whole and has answered."""
    global _session
    session = Session.from_json(params.get("save"))
    if "humans" in params:
        # The seats the page means to drive as people (its stored settings): a save whose
        # people sit elsewhere would have the page wait on a seat the engine gives a bot, or
        # ask a bot's seat to move (issue 42: a tampered session looped on "Passe para …").
        humans = params["humans"]
        if not isinstance(humans, list) or any(isinstance(s, bool) or not isinstance(s, int) for s in humans):
            raise ValueError(f"humans must list seats, not {said(humans)}")
        if sorted(set(humans)) != session.humans:
            raise ValueError(f"the save's people sit at seats {session.humans}, not at {said(sorted(set(humans)))}")
    reply = session.reply(session.seat_of(params))
    _session = session
    return reply


def _observation(params: dict) -> dict:
    s = _current()
    return s.reply(s.seat_of(params))


def _judge(params: dict) -> dict:
    """Who wins a round of face-up / covered cards (RULES.md §2–§3): for quizzes and lessons."""
    from .cards import is_card
    from .judge import round_result
    from .rules import preset

    rules = preset(params.get("preset", "mineiro"))
    vira = _vira_param(rules, params)
    plays = params.get("plays")
    if not isinstance(plays, list) or not 2 <= len(plays) <= 6:
        raise ValueError("plays must list 2 to 6 cards as {seat, card, covered}")
    seen = set()
    seats = set()
    rows = []
    for i, p in enumerate(plays):
        if not isinstance(p, dict) or not is_card(p.get("card")) or p["card"] in seen:
            raise ValueError(f"plays[{i}]: each play is {{seat, card, covered}} with a distinct card")
        seat = p.get("seat", i)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 6 or seat in seats:
            raise ValueError(f"plays[{i}].seat must be a seat from 0 to 5, each once, not {said(seat)}")
        covered = p.get("covered", False)
        if not isinstance(covered, bool):
            raise ValueError(f"plays[{i}].covered must be true or false, not {said(covered)}")
        seen.add(p["card"])
        seats.add(seat)
        rows.append((seat, p["card"], covered))
    table = rules.strength_table(vira)
    result, winner = round_result(table, rows)
    return {"result": result, "winner": winner,
            "manilhas": list(rules.manilhas_for(vira)),
            "strengths": {card: (-1 if covered else table[card]) for _, card, covered in rows}}


def _card_order(params: dict) -> dict:
    """The deck from strongest to weakest, equal cards grouped (RULES.md §2), for lessons."""
    from .rules import preset

    rules = preset(params.get("preset", "mineiro"))
    vira = _vira_param(rules, params)
    limpo = params.get("baralho_limpo", False)
    if not isinstance(limpo, bool):
        raise ValueError(f"baralho_limpo must be true or false, not {said(limpo)}")
    table = rules.strength_table(vira, limpo)
    deck = rules.deck(limpo)
    groups: dict[int, list[str]] = {}
    for card in deck:
        groups.setdefault(table[card], []).append(card)
    return {"groups": [groups[s] for s in sorted(groups, reverse=True)],
            "manilhas": list(rules.manilhas_for(vira)),
            "manilha_names": list(rules.manilha_names)}


def _vira_param(rules, params: dict) -> str | None:
    """The ``vira`` of a lesson's request: a card, or null (ignored by a preset without one)."""
    from .cards import is_card

    vira = params.get("vira")
    if vira is not None and not is_card(vira):
        raise ValueError(f"vira must be a card such as '4c', or null, not {said(vira)}")
    return vira if rules.vira else None


METHODS = {
    "version": lambda p: {"version": __version__},
    "echo": lambda p: p,
    "new_game": _new_game,
    "apply": _apply,
    "bot_step": _bot_step,
    "set_humans": _set_humans,
    "load": _load,
    "observation": _observation,
    "judge": _judge,
    "partner_opinion": _partner_opinion,
    "hint": _hint,
    "history": _history,
    "replay": _replay,
    "decisions": _decisions,
    "achievements": _achievements,
    "share": _share,
    "card_order": _card_order,
}

PARAMS: dict[str, tuple[str, ...] | None] = {
    "version": (),
    "echo": None,  # any: it returns its params unchanged
    # new_game's own arguments, its options, then what the table session adds.
    "new_game": ("preset", "players", "seed", "hands", "score", "dealer", "vira", *OPTION_NAMES,
                 "human_seat", "humans", "seat", "apart", "level", "partner_level", "opening",
                 "daily"),
    "apply": ("action", "seat"),
    "bot_step": ("fallback", "seat"),
    "set_humans": ("humans",),
    "load": ("save", "seat", "humans"),
    "observation": ("seat",),
    "judge": ("plays", "preset", "vira"),
    "partner_opinion": ("seat",),
    "hint": ("seat",),
    "history": ("seat", "reasons_for"),
    "replay": ("save", "seat"),
    "decisions": ("save", "seat"),
    "achievements": ("save", "seat"),
    "share": ("save",),
    "card_order": ("preset", "vira", "baralho_limpo"),
}
"""The parameter names each method of :data:`METHODS` takes (``None``: any). The page's
copy is ``site/static/js/engine/engine_api.js``, held equal to this by
``tests/build/test_engine_api_contract.py``; :func:`handle` refuses any other name."""


def unknown_params(method: str, params: dict) -> list[str]:
    """The names in ``params`` that ``method`` does not take (:data:`PARAMS`), sorted."""
    allowed = PARAMS[method]
    return [] if allowed is None else sorted(k for k in params if k not in allowed)


def _check_depth(value: Any) -> None:
    """Refuse a request nested deeper than :data:`MAX_DEPTH` (its reply could not cross to
    the page: the structured clone overflows the stack long before Python does)."""
    todo = [(value, 1)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, (list, dict)):
            if depth > MAX_DEPTH:
                raise ValueError(f"request is nested too deeply (at most {MAX_DEPTH} levels)")
            todo.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))


def handle(request_json: str) -> str:
    """Answer one request ``{"method": str, "params": {...}}`` with a JSON string.

    The reply is strict JSON (no ``NaN`` or ``Infinity``: a request holding one is
    refused). Raises ``ValueError`` (an :class:`~truco.IllegalAction` for a refused move)
    with a readable message of at most :data:`MESSAGE_MAX` characters; the session is left
    unchanged.
    """
    try:
        return _handle(request_json)
    except ValueError as exc:
        text = str(exc)
        if len(text) > MESSAGE_MAX:
            # Every message is short at its source; this keeps one that is not from carrying
            # a whole input to the page (the class and its fields stay as raised).
            exc.args = (text[:MESSAGE_MAX - 1] + "…", *exc.args[1:])
        raise


def _handle(request_json: str) -> str:
    if not isinstance(request_json, (str, bytes)):
        raise ValueError(f"request is not JSON text: {type(request_json).__name__}")
    request = _parse_json(request_json, "request", f"request is nested too deeply (at most {MAX_DEPTH} levels)")
    _check_depth(request)
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        raise ValueError(f"request must be an object with a 'method' string: {said(request_json)}")
    method = METHODS.get(request["method"])
    if method is None:
        raise ValueError(f"unknown method {said(request['method'])}: one of {', '.join(METHODS)}")
    params = request.get("params") or {}
    if not isinstance(params, dict):
        raise ValueError("params must be an object")
    # A name the method does not take is a caller's slip (a typo, another method's param):
    # refused, not ignored, as the page's engine_api.js refuses it before sending.
    unknown = unknown_params(request["method"], params)
    if unknown:
        taken = PARAMS[request["method"]]
        raise ValueError(f"{request['method']} takes no param {', '.join(said(k) for k in unknown[:3])}"
                         f"{' …' if len(unknown) > 3 else ''} (it takes {', '.join(taken) if taken else 'none'})")
    result = method(params)
    try:
        return json.dumps(result, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise ValueError("the reply would hold a number JSON does not allow (NaN or infinity)") from None


def reply(request_json: str) -> str:
    """The worker's answer to one request, always strict JSON: ``{"ok": true, "result"}``
    or ``{"ok": false, "error", "errorType", "valueError"}`` (``valueError``: the error is
    a ``ValueError`` or a subclass such as ``CardError``, i.e. bad input, not a fault of the
    engine), plus ``traceback`` for an error that is no ``ValueError`` (the worker logs it).
    docs/engine.md, "The worker protocol"."""
    try:
        result = handle(request_json)
    except ValueError as exc:
        return json.dumps({"ok": False, "error": str(exc), "errorType": type(exc).__name__, "valueError": True})
    except Exception as exc:  # noqa: BLE001 - never leave a request unanswered
        import traceback  # only on the rare path: it is slow to import in WebAssembly

        text = f"{type(exc).__name__}: {exc}"
        return json.dumps({"ok": False, "error": text[:MESSAGE_MAX], "errorType": type(exc).__name__,
                           "valueError": False, "traceback": traceback.format_exc()})
    return '{"ok": true, "result": ' + result + '}'
