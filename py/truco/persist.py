"""Loading a saved match: how it started, then its moves replayed through the rules.

A save (:func:`dumps`, :meth:`Game.to_json`, version 2) is ``{"start": <new_game's arguments>, "moves":
[[seat, action], ...]}``, as OpenSpiel keeps a state as its action history. Loading
starts the match again with :func:`new_game` and applies every move with
:meth:`Game.apply`: a tampered save is refused by the rules themselves, with a
``ValueError`` (:class:`SaveError`) that names the move or the field, and nothing is
built until the whole save has replayed (the game in play, if any, is never touched).

Version 1 saves (the internal state: 17 keys) are checked field by field, turned into
that form (the start read from the first deal, the moves from the log) and replayed the
same way; the state the replay reaches must be the saved one, field for field. No save
is ever loaded straight into the state. Nothing here trusts the input.

This module does not import :mod:`truco.game`: it is given the game's class (``cls``,
whose ``cls.new`` is :func:`truco.game.new_game`) and uses only the game's public face
(``apply``, ``start``, ``moves``, ``log``, ``hand``...). :class:`truco.game.Game`'s
``to_json``/``from_json`` delegate here.
"""

from __future__ import annotations

import json
from typing import Any

from . import __version__
from .cards import is_card
from .judge import TIE, hand_outcome, round_result
from .names import SIGNALS
from .rules import preset as _preset
from .table import OPTION_NAMES, PLAYER_COUNTS, IllegalAction, check_options, shuffled_deck
from .quote import said

FORMAT = "truco-game"
FORMAT_VERSION = 2
"""Version 2: a save is how the match started and its moves, replayed on load (version 1,
the internal state, is still read: :func:`game_from_state` converts it and replays it too)."""

Game = Any  # the game's class is given by the caller (truco.game.Game): no import of it here


class SaveError(ValueError):
    """A saved game that cannot be loaded; the message names the bad field."""


def save_dict(game: Game) -> dict:
    """The save: how the match started and every move since (JSON-safe)."""
    return {"format": FORMAT, "version": FORMAT_VERSION, "engine": __version__,
            "start": game.start, "moves": game.moves}


def state_dict(game: Game) -> dict:
    """The internal state, as version 1 saves held it (the converter checks an old save
    against the state its replay reaches)."""
    return {
        "format": FORMAT,
        "version": 1,
        "engine": __version__,
        "preset": game.rules.name,
        "players": game.players,
        "seed": game.seed,
        "options": dict(game.options),
        "hand_index": game.hand_index,
        "dealer": game.dealer,
        "score": list(game.score),
        "games": list(game.games),
        "game_number": game.game_number,
        "winner": game.winner,
        "abandoned_by": game.abandoned_by,
        "auto_moves": list(game.auto_moves),
        "hand": game.hand,
        "log": game.log,
    }


def dumps(game: Game) -> str:
    """The save as deterministic text (sorted keys, no spaces)."""
    return json.dumps(save_dict(game), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(cls: type, text: Any) -> Game:
    """The game (of class ``cls``) a save's text holds; bad input raises :class:`SaveError`
    (a ``ValueError``) saying what is wrong."""
    if not isinstance(text, (str, bytes)):
        raise ValueError(f"a saved game is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"a saved game must be JSON: {exc}") from None
    except RecursionError:
        raise ValueError("a saved game must be JSON: it is nested too deeply") from None
    return game_from_state(cls, data)


def _fail(msg: str) -> None:
    raise SaveError(f"invalid saved game: {msg}")


def _int(value: Any, name: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        rng = f"from {lo}" + (f" to {hi}" if hi is not None else "")
        _fail(f"{name} must be a whole number {rng}, not {said(value)}")
    return value


def _opt_int(value: Any, name: str, lo: int, hi: int) -> int | None:
    return None if value is None else _int(value, name, lo, hi)


def _keys(obj: Any, keys: set[str], name: str) -> dict:
    if not isinstance(obj, dict):
        _fail(f"{name} must be an object, not {type(obj).__name__}")
    if set(obj) != keys:
        missing, extra = keys - set(obj), set(obj) - keys
        _fail(f"{name} has " + ", ".join(
            ([f"missing {sorted(missing)}"] if missing else []) + ([f"unknown {sorted(extra)}"] if extra else [])))
    return obj


_TOP_KEYS = {"format", "version", "engine", "preset", "players", "seed", "options", "hand_index",
             "dealer", "score", "games", "game_number", "winner", "abandoned_by", "auto_moves",
             "hand", "log"}
_HAND_KEYS = {"kind", "blind", "vira", "vira_visible", "stock", "exchanged", "signals", "dez_team", "decider",
              "phase", "hands", "rounds", "turn", "value", "level", "last_asker_team", "pending"}


_START_KEYS = {"preset", "players", "seed", "hands", "score", "dealer", "vira", "options"}
_V2_KEYS = {"format", "version", "engine", "start", "moves"}


def game_from_state(cls: type, data: Any, session_start: Any = None) -> Game:
    """The game a parsed save holds (version 2, or version 1 through the converter).

    ``session_start`` is the table's record of how a version-1 match started (the
    ``new_game`` arguments a session save kept), used instead of guessing the first deal.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _fail(f"not a Truco game (expected format {FORMAT!r})")
    version = data.get("version")
    if version == 1:
        return _from_v1(cls, data, session_start)
    if version != FORMAT_VERSION or isinstance(version, bool):
        _fail(f"unsupported version {said(version)} (this engine reads versions 1 and {FORMAT_VERSION})")
    _keys(data, _V2_KEYS, "the save")
    if not isinstance(data["engine"], str):
        _fail("engine must be a version string")
    start = data["start"]
    _keys(start, _START_KEYS, "start")
    return replay_moves(cls, start, data["moves"])


def start_game(cls: type, start: dict) -> Game:
    """``new_game(**start)`` (as ``cls.new``), every bad argument a :class:`SaveError` naming it."""
    opts = start.get("options")
    if not isinstance(opts, dict):
        _fail("start.options must be an object")
    try:
        return cls.new(start.get("preset"), start.get("players"), start.get("seed"), start.get("hands"),
                        start.get("score"), start.get("dealer"), start.get("vira"), **opts)
    except ValueError as exc:  # every check of new_game raises ValueError (CardError included)
        _fail(f"start: {exc}")


def canonical_start(cls: type, params: Any) -> dict:
    """The canonical start of a match begun with ``new_game(**params)`` (a table's record)."""
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        _fail("the session's start must be an object")
    params = dict(params)
    try:
        return cls.new(params.pop("preset", "mineiro"), params.pop("players", 2), params.pop("seed", None),
                       params.pop("hands", None), params.pop("score", (0, 0)), params.pop("dealer", None),
                       params.pop("vira", None), **params).start
    except ValueError as exc:
        _fail(f"the session's start: {exc}")


def replay_moves(cls: type, start: dict, moves: Any) -> Game:
    """Start the match and apply ``moves`` (``[[seat, action], ...]``) through the rules."""
    game = start_game(cls, start)
    if game.start != start:
        _fail("start is not in its own canonical form (e.g. a missing option or a dealer of null)")
    if not isinstance(moves, list):
        _fail("moves must be a list of [seat, action]")
    for i, move in enumerate(moves):
        if not (isinstance(move, list) and len(move) == 2 and isinstance(move[1], str)):
            _fail(f"moves[{i}] must be [seat, action], not {str(move)[:60]}")
        seat, action = move
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            _fail(f"moves[{i}]: seat {said(seat)} is not a seat of this table")
        try:
            game.apply(action, seat=seat)
        except IllegalAction as exc:
            _fail(f"moves[{i}] ({said(action[:40])} by seat {seat}) breaks the rules: {exc}")
    return game


def _check_v1(data: dict) -> dict:
    """Every field of a version-1 save, checked (the validated options are returned)."""
    _keys(data, _TOP_KEYS, "the save")
    try:
        rules = _preset(data["preset"])
    except ValueError as exc:
        _fail(str(exc))
    n = data["players"]
    if n not in PLAYER_COUNTS or isinstance(n, bool):
        _fail(f"players must be 2, 4 or 6, not {said(n)}")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        _fail(f"seed must be an int or a str, not {said(seed)}")
    opts = data["options"]
    if not isinstance(opts, dict) or set(opts) != set(OPTION_NAMES):
        _fail(f"options must hold {', '.join(OPTION_NAMES)}")
    if any(isinstance(v, (list, dict)) for v in opts.values()):
        _fail("options: every option is a number, a word, true/false or null")
    try:
        opts = check_options(rules, opts, n)
    except ValueError as exc:
        _fail(str(exc))
    hand_index = _int(data["hand_index"], "hand_index")
    dealer = _int(data["dealer"], "dealer", 0, n - 1)
    cap = rules.target + rules.max_value
    score = data["score"]
    games = data["games"]
    if not isinstance(score, list) or len(score) != 2:
        _fail(f"score must be two numbers, not {said(score)}")
    for s in score:
        _int(s, "score", 0, cap)
    if not isinstance(games, list) or len(games) != 2:
        _fail(f"games must be two numbers, not {said(games)}")
    for s in games:
        _int(s, "games", 0, opts["series"] // 2 + 1)
    game_number = _int(data["game_number"], "game_number", 1, opts["series"])
    winner = _opt_int(data["winner"], "winner", 0, 1)
    abandoned_by = _opt_int(data["abandoned_by"], "abandoned_by", 0, n - 1)
    auto = data["auto_moves"]
    if not isinstance(auto, list) or len(auto) != n:
        _fail(f"auto_moves must list {n} counts")
    for a in auto:
        _int(a, "auto_moves", 0, 2)
    if winner is None and any(s >= rules.target for s in score):
        _fail(f"score {score} already ends the game but no winner is recorded")
    hand = _check_hand(data["hand"], rules, n, opts, winner is not None)
    log = data["log"]
    if not isinstance(log, list) or not all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in log):
        _fail("log must be a list of events")
    first = log[0] if log else None
    if (not isinstance(first, dict) or first.get("type") != "deal" or first.get("hand_number") != 1
            or first.get("game_number") != 1):
        _fail("log must begin with the first deal")
    _int(first.get("dealer"), "log[0].dealer", 0, n - 1)
    fs = first.get("score")
    if not isinstance(fs, list) or len(fs) != 2:
        _fail("log[0].score must be two numbers")
    for x in fs:
        _int(x, "log[0].score", 0, cap)
    return {"rules": rules, "options": opts, "hand": hand}


def _from_v1(cls: type, data: dict, session_start: Any) -> Game:
    """A version-1 save: checked, turned into a start and moves, replayed, and the state
    the replay reaches compared with the saved one."""
    checked = _check_v1(data)
    log = data["log"]
    if session_start is not None:
        if not isinstance(session_start, dict) or not all(isinstance(k, str) for k in session_start):
            _fail("the session's start must be an object")
        start = canonical_start(cls, session_start)
        for key in ("preset", "players", "seed", "options"):
            if start[key] != (checked["options"] if key == "options" else data[key]):
                _fail(f"the session's start does not match the saved game's {key}")
    else:
        start = {"preset": data["preset"], "players": data["players"], "seed": data["seed"],
                 "hands": None, "score": list(log[0]["score"]), "dealer": log[0]["dealer"], "vira": None,
                 "options": dict(checked["options"])}
        if data["hand_index"] == 0:  # still in the first deal: the state shows it whole
            start["hands"], start["vira"] = _first_deal(data, checked["hand"])
    game = start_game(cls, start)
    if game.log[:1] != log[:1]:
        _fail("log[0]: the match does not start with this deal")
    moves = len(game.moves)
    while len(game.log) < len(log):
        at = len(game.log)
        action, seat = _action_of(game, log[at], at)
        try:
            game.apply(action, seat=seat)
        except IllegalAction as exc:
            _fail(f"log[{at}] ({said(action)} by seat {seat}) breaks the rules: {exc}")
        if game.log[at:] != log[at:len(game.log)]:
            _fail(f"log[{at}]: the events after this move are not the ones the rules write")
        moves += 1
    if len(game.log) != len(log):
        _fail("log: the last move wrote events the log does not have")
    state = state_dict(game)
    for key in sorted(_TOP_KEYS - {"engine", "hand"}):
        if state[key] != data[key]:
            _fail(f"{key} {said(data[key])} does not follow from the moves in its log")
    for key in sorted(_HAND_KEYS):
        if state["hand"][key] != data["hand"][key]:
            _fail(f"hand.{key} does not follow from the moves in its log")
    return game


def _first_deal(data: dict, hand: dict) -> tuple[list[list[str]], str | None]:
    """The first deal as the state of its own hand shows it (held, played, exchanged)."""
    n = data["players"]
    hands = [list(cards) for cards in hand["hands"]]
    for r in hand["rounds"]:
        for seat, card, _ in r["plays"]:
            hands[seat].append(card)
    for x in hand["exchanged"]:
        hands[x["seat"]] = list(x["cards"])
    rules = _preset(data["preset"])
    deck = shuffled_deck(data["seed"], 0, rules.deck(data["options"]["baralho_limpo"]))
    seeded = [deck[3 * i: 3 * i + 3] for i in range(n)]
    seeded_vira = deck[3 * n] if rules.vira else None
    if all(sorted(a) == sorted(b) for a, b in zip(hands, seeded)) and hand["vira"] == seeded_vira:
        return None, None  # the seeded deal
    return hands, hand["vira"]


def _action_of(game: Game, event: dict, at: int) -> tuple[str, int]:
    """The move that wrote ``event`` as the next entry of the log."""
    kind = event["type"]
    seat = event.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        _fail(f"log[{at}]: {said(kind)} is not the result of a move of a seat at the table")
    if kind in ("play", "cover"):
        card = event.get("card")
        if not is_card(card):
            _fail(f"log[{at}]: {said(card)} is not a card")
        if kind == "play" and game.hand["blind"]:  # a blind seat names its card by position
            held = game.hand["hands"][seat]
            if card not in held:
                _fail(f"log[{at}]: seat {seat} does not hold {card}")
            return f"play #{held.index(card) + 1}", seat
        return f"{kind} {card}", seat
    if kind in ("raise", "accept", "run", "exchange", "timeout"):
        return kind, seat
    if kind == "signal":
        name = event.get("signal")
        if not isinstance(name, str):
            _fail(f"log[{at}]: a signal names a signal")
        return f"signal {name}", seat
    _fail(f"log[{at}]: {said(kind)} is not the result of a move")


def _check_hand(h: Any, rules, n: int, opts: dict, over: bool) -> dict:
    _keys(h, _HAND_KEYS, "hand")
    if h["vira"] is not None and not is_card(h["vira"]):
        _fail(f"hand.vira: {str(h['vira'])[:40]} is not a card")
    if h["kind"] not in ("normal", "dez", "ferro"):
        _fail(f"hand.kind must be normal, dez or ferro, not {said(h['kind'])}")
    if not isinstance(h["blind"], bool) or h["blind"] != (h["kind"] == "ferro" and opts["ferro"] == "escuro"):
        _fail("hand.blind does not match the hand kind and the ferro option")
    if h["phase"] not in ("decide", "play"):
        _fail(f"hand.phase must be decide or play, not {said(h['phase'])}")
    dez_team = _opt_int(h["dez_team"], "hand.dez_team", 0, 1)
    decider = _opt_int(h["decider"], "hand.decider", 0, n - 1)
    if (h["kind"] == "dez") != (dez_team is not None) or (dez_team is None) != (decider is None):
        _fail("hand.dez_team and hand.decider must be set exactly in a mão de dez")
    if h["phase"] == "decide" and h["kind"] != "dez":
        _fail("only a mão de dez has a decision phase")
    turn = _int(h["turn"], "hand.turn", 0, n - 1)
    level = _int(h["level"], "hand.level", 0, len(rules.ladder))
    value = _int(h["value"], "hand.value", 1, rules.max_value)
    allowed_values = {rules.step_value(level)}
    if h["kind"] == "dez":
        allowed_values = {rules.mao_de_x_value if h["phase"] == "play" else rules.start_value}
    elif h["kind"] == "ferro":
        allowed_values = {rules.ferro_value}
    if value not in allowed_values:
        _fail(f"hand.value {value} does not match the hand (level {level}, kind {h['kind']})")
    _opt_int(h["last_asker_team"], "hand.last_asker_team", 0, 1)
    pending = h["pending"]
    if pending is not None:
        _keys(pending, {"asker", "answerer", "level"}, "hand.pending")
        _int(pending["asker"], "pending.asker", 0, n - 1)
        _int(pending["answerer"], "pending.answerer", 0, n - 1)
        _int(pending["level"], "pending.level", level + 1, level + 1)
        if pending["asker"] % 2 == pending["answerer"] % 2:
            _fail("hand.pending: a raise is answered by the other team")
        if h["kind"] != "normal":
            _fail("hand.pending: nobody raises in a mão de dez or de ferro")

    hands = h["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        _fail(f"hand.hands must list {n} hands")
    seen: set[str] = set()

    def see(card: Any, where: str) -> None:
        if not is_card(card):
            _fail(f"{where}: {said(card)} is not a card")
        if card in seen:
            _fail(f"{where}: {card} appears twice")
        seen.add(card)

    for seat, cards in enumerate(hands):
        if not isinstance(cards, list) or len(cards) > 3:
            _fail(f"hand.hands[{seat}] must be a list of at most 3 cards")
        for c in cards:
            see(c, f"hand.hands[{seat}]")
    rounds = h["rounds"]
    if not isinstance(rounds, list) or not 1 <= len(rounds) <= 3:
        _fail("hand.rounds must list 1 to 3 rounds")
    played = [0] * n
    results = []
    for i, r in enumerate(rounds):
        _keys(r, {"leader", "plays", "result", "winner"}, f"hand.rounds[{i}]")
        leader = _int(r["leader"], f"rounds[{i}].leader", 0, n - 1)
        plays = r["plays"]
        last = i == len(rounds) - 1
        if not isinstance(plays, list) or len(plays) > n or (not last and len(plays) != n):
            _fail(f"hand.rounds[{i}].plays has the wrong number of cards")
        for j, p in enumerate(plays):
            if not (isinstance(p, list) and len(p) == 3 and isinstance(p[2], bool)):
                _fail(f"hand.rounds[{i}].plays[{j}] must be [seat, card, covered]")
            seat = _int(p[0], "play seat", 0, n - 1)
            if seat != (leader + j) % n:
                _fail(f"hand.rounds[{i}].plays[{j}]: seat {seat} played out of turn")
            if p[2] and (i == 0 or h["kind"] != "normal"):
                _fail(f"hand.rounds[{i}]: a covered card is not allowed there")
            see(p[1], f"hand.rounds[{i}]")
            played[seat] += 1
        if len(plays) == n:
            expect = round_result(rules.strength_table(h["vira"], opts["baralho_limpo"]), [tuple(p) for p in plays])
            if (r["result"], r["winner"]) != expect:
                _fail(f"hand.rounds[{i}] result does not match its cards")
            results.append(r["result"])
        elif r["result"] is not None or r["winner"] is not None:
            _fail(f"hand.rounds[{i}] is open but has a result")
        if not over and last and len(plays) < n and turn != (leader + len(plays)) % n:
            _fail("hand.turn is not the next seat of the round")
    if not over and (len(results) == len(rounds) or hand_outcome(results) is not None):
        _fail("hand.rounds: a hand in play is undecided and has an open round")
    vira = h["vira"]
    if rules.vira != (vira is not None):
        _fail("hand.vira must be a card exactly in a manilha-nova preset")
    if vira is not None:
        see(vira, "hand.vira")
    if not isinstance(h["vira_visible"], bool) or (vira is None and h["vira_visible"]):
        _fail("hand.vira_visible must be true or false (false without a vira)")
    if vira is not None and not h["vira_visible"] and not (h["blind"] and results == []):
        _fail("hand.vira is face down only in the 1st round of a blind hand")
    stock = h["stock"]
    if not isinstance(stock, list):
        _fail("hand.stock must be a list of cards")
    for c in stock:
        see(c, "hand.stock")
    exchanged = h["exchanged"]
    if not isinstance(exchanged, list):
        _fail("hand.exchanged must be a list")
    for x in exchanged:
        _keys(x, {"seat", "cards"}, "hand.exchanged[]")
        _int(x["seat"], "hand.exchanged seat", 0, n - 1)
        if not isinstance(x["cards"], list) or len(x["cards"]) != 3:
            _fail("hand.exchanged: an exchange gives up 3 cards")
        for c in x["cards"]:
            see(c, "hand.exchanged")
    signals = h["signals"]
    if not isinstance(signals, list) or len(signals) > n:
        _fail("hand.signals must be a list, at most one per seat")
    for x in signals:
        _keys(x, {"seat", "signal", "caught_by"}, "hand.signals[]")
        _int(x["seat"], "hand.signals seat", 0, n - 1)
        if x["signal"] not in SIGNALS or not opts["sinais"]:
            _fail(f"hand.signals: {said(x['signal'])} is not a signal of this table")
        if not isinstance(x["caught_by"], list) or any(
                _int(c, "caught_by", 0, n - 1) % 2 == x["seat"] % 2 for c in x["caught_by"]):
            _fail("hand.signals: only opponents catch a signal")
    if seen != set(rules.deck(opts["baralho_limpo"])):
        _fail("hand: the cards held, played, turned up and left in the deck are not exactly the deck")
    for seat in range(n):
        if played[seat] + len(hands[seat]) != 3:
            _fail(f"hand: seat {seat} has {len(hands[seat])} cards after playing {played[seat]}")
    if any(res not in (0, 1, TIE) for res in results):
        _fail("hand.rounds: a result must be 0, 1 or 'tie'")
    return {
        **h,
        "hands": [list(c) for c in hands],
        "rounds": [dict(r, plays=[list(p) for p in r["plays"]]) for r in rounds],
        "pending": dict(pending) if pending else None,
        "stock": list(stock),
        "exchanged": [{"seat": x["seat"], "cards": list(x["cards"])} for x in exchanged],
        "signals": [{"seat": x["seat"], "signal": x["signal"], "caught_by": list(x["caught_by"])} for x in signals],
    }
