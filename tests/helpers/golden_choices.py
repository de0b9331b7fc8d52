"""Golden bot choices: every decision of seeded arena matches, kept to prove a refactor of
the bots changes no choice (issue 30, "this refactor must not change a single choice").

    .venv/bin/python tests/helpers/golden_choices.py --write    # regenerate tests/golden/bot_choices.txt

Each match is played as the arena plays it (:func:`truco_lab.arena.play_game`: a new bot per
move from :func:`truco.bots.for_move`, seeded by the game's seed, the seat and the log's
length; with sinais, the signalling seats send :func:`truco.signals.signal_to_send`'s
signal before their first card), or with ``reuse`` one bot object per seat for the
whole match (``bots.make``), which is how a bot keeps its memory between calls. Every
line is ``<match> <move> <seat> <level> <observation digest> <choice>``; with ``hints``,
seat 0's positions also get the hint's action and reason (:func:`truco.bots.explain.explain`).
A change shows as the first differing line.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from truco import bots
from truco.bots.explain import explain
from truco.game import new_game
from truco.signals import signal_to_send

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "bot_choices.txt"

MATCHES = {
    # name: preset, players, seat levels (seat order), seed, reuse, options, hints
    "mineiro-1x1-dificil-medio": ("mineiro", 2, ["dificil", "medio"], "g1", False, {}, True),
    "mineiro-1x1-medio-dificil-reused": ("mineiro", 2, ["medio", "dificil"], "g2", True, {}, False),
    "mineiro-1x1-facil-dificil": ("mineiro", 2, ["facil", "dificil"], "g3", False, {}, False),
    "mineiro-2x2-dificil-random": ("mineiro", 4, ["dificil", "random"] * 2, "g4", False, {}, False),
    "mineiro-2x2-dificil-random-reused": ("mineiro", 4, ["dificil", "random"] * 2, "g5", True, {}, False),
    "mineiro-2x2-medio-dificil-sinais": ("mineiro", 4, ["medio", "dificil"] * 2, "g6", False,
                                         {"sinais": True, "series": 3}, True),
    "mineiro-2x2-dificil-always-accept": ("mineiro", 4, ["dificil", "always-accept"] * 2, "g7", False, {}, False),
    "paulista-1x1-dificil-facil": ("paulista", 2, ["dificil", "facil"], "g8", False, {}, True),
    "paulista-2x2-dificil-medio-reused": ("paulista", 4, ["dificil", "medio"] * 2, "g9", True, {}, False),
    "truco473-1x1-dificil-passive-escuro": ("truco473", 2, ["dificil", "passive"], "g10", False,
                                            {"ferro": "escuro"}, False),
    "paulista-3x3-dificil-medio-limpo": ("paulista", 6, ["dificil", "medio"] * 3, "g11", False,
                                         {"baralho_limpo": True, "familia_real": True}, False),
    "torneio-2x2-facil-dificil": ("torneio", 4, ["facil", "dificil"] * 2, "g12", False, {"series": 3}, False),
}


def digest(obs: dict) -> str:
    text = json.dumps(obs, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def play(name: str, index: int = 0) -> list[str]:
    preset, players, levels, seed, reuse, options, hints = MATCHES[name]
    if index:
        seed, name = f"{seed}.{index}", f"{name}.{index}"
    game = new_game(preset, players=players, seed=seed, **options)
    kept = [bots.make(levels[s], random.Random(f"reuse:{seed}:{s}")) for s in range(players)] if reuse else None
    out = []
    move = 0
    while game.to_move is not None:
        if options.get("sinais"):
            for s in range(players):
                if s % 2 == 0 and game.may_signal(s):
                    signal = signal_to_send(game.observation(s))
                    if signal:
                        game.apply("signal " + signal, seat=s)
                        out.append(f"{name} {move} {s} signal - {signal}")
        seat = game.to_move
        obs = game.observation(seat)
        bot = kept[seat] if reuse else bots.for_move(levels[seat], game.seed, seat, len(game.log))
        d = digest(obs)
        if hints and seat == 0:
            action, reason = explain(obs, random.Random(f"hint:{seed}:{move}"))
            out.append(f"{name} {move} {seat} hint {d} {action} "
                       f"{json.dumps(reason, sort_keys=True, ensure_ascii=False, separators=(',', ':'))}")
        choice = bot.choose(obs)
        out.append(f"{name} {move} {seat} {levels[seat]} {d} {choice}")
        game.apply(choice, seat=seat)
        move += 1
    out.append(f"{name} end winner {game.winner} score {game.score[0]}x{game.score[1]} games {game.games}")
    return out


GAMES = 6
"""Seeded matches of each kind (seeds ``<seed>``, ``<seed>.1``, ...)."""


def render() -> str:
    return "".join(line + "\n" for name in MATCHES for i in range(GAMES) for line in play(name, i))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        GOLDEN.write_text(render(), encoding="utf-8")
        print(f"wrote {GOLDEN}")
    else:
        sys.stdout.write(render())
