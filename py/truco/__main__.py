"""Play or watch Truco Mineiro in the terminal.

    python -m truco                      # you are seat 0 against a bot, 1 x 1
    python -m truco --players 4 --level dificil --seed 7
    python -m truco --watch --players 4  # bots on every seat; prints every event

Type the number of an action, or the action itself (``play 4c``, ``raise``, ``run``...).
"""

from __future__ import annotations

import argparse
import random
import sys

from . import IllegalAction, __version__, card_name, new_game
from .names import LEVELS
from .rules import PRESETS

SUIT_SYMBOLS = {"c": "♣", "h": "♥", "s": "♠", "d": "♦"}


def show(card: str | None) -> str:
    return "[coberta]" if card is None else card[0] + SUIT_SYMBOLS[card[1]]


def describe(event: dict, seat: int) -> str | None:
    t = event["type"]
    who = "você" if event.get("seat") == seat else f"jogador {event.get('seat')}"
    if t == "deal":
        kind = {"dez": " — mão de dez", "ferro": " — mão de ferro"}.get(event["kind"], "")
        return (f"\n== Mão {event['hand_number']} (jogo {event['game_number']}), placar "
                f"{event['score'][0]} x {event['score'][1]}, dá as cartas: jogador {event['dealer']}{kind}")
    if t == "play":
        return f"{who} joga {show(event['card'])} ({card_name(event['card'])})"
    if t == "cover":
        return f"{who} joga uma carta coberta" + (f" ({show(event['card'])})" if event["card"] else "")
    if t == "raise":
        return f"{who}: {event['name'].capitalize()}! (vale {event['value']})"
    if t == "accept":
        return f"{who}: aceito! (vale {event['value']})" if not event.get("mao_de_dez") else f"{who}: joga a mão de dez"
    if t == "run":
        return f"{who}: corro!"
    if t == "round":
        res = "empate (cangou)" if event["result"] == "tie" else f"time {event['result']} ganha"
        return f"-- rodada {event['round']}: {res}"
    if t == "hand":
        if event["winner"] is None:
            return "-- mão anulada: ninguém marca"
        return f"-- time {event['winner']} marca {event['points']}: placar {event['score'][0]} x {event['score'][1]}"
    if t == "game":
        return f"*** time {event['winner']} ganha o jogo {event['game_number']} ({event['score'][0]} x {event['score'][1]})"
    if t == "match":
        return f"*** time {event['winner']} ganha a partida! jogos {event['games'][0]} x {event['games'][1]}"
    if t == "timeout":
        return f"{who}: tempo esgotado ({event['action']})"
    if t == "abandon":
        return f"{who} abandonou a mesa: time {event['winner']} vence"
    return None


def make_bot(level: str, rng: random.Random):
    try:
        from . import bots
        return bots.make(level, rng)
    except ImportError:  # the bots package is optional for the engine
        class RandomBot:
            def choose(self, obs: dict) -> str:
                return rng.choice(obs["legal_actions"])
        return RandomBot()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m truco", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="mineiro", choices=sorted(PRESETS))
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--series", type=int, default=1, choices=(1, 3, 5))
    ap.add_argument("--level", default="medio", help=f"bot level: {', '.join(LEVELS)}, random")
    ap.add_argument("--watch", action="store_true", help="bots on every seat")
    ap.add_argument("--version", action="version", version=f"truco {__version__}")
    args = ap.parse_args(argv)

    game = new_game(args.preset, players=args.players, seed=args.seed, series=args.series)
    rng = random.Random(game.seed)
    human = None if args.watch else 0
    bots = {s: make_bot(args.level, random.Random(f"{game.seed}:{s}"))
            for s in range(game.players) if s != human}
    me = 0 if human is None else human
    print(f"Truco ({game.rules.title}), {game.players} jogadores, semente {game.seed}. "
          f"Você é o jogador {me}, time {me % 2}." if human is not None else
          f"Truco ({game.rules.title}), {game.players} bots, semente {game.seed}.")
    shown = 0
    while True:
        for event in game.events(me)[shown:]:
            line = describe(event, me if human is not None else -1)
            if line:
                print(line)
        shown = len(game.log)
        if game.to_move is None:
            return 0
        seat = game.to_move
        if seat != human:
            game.apply(bots[seat].choose(game.observation(seat)))
            continue
        obs = game.observation(human)
        hand = " ".join(show(c) for c in obs["hand"]) if not obs["blind"] else f"{obs['hand_sizes'][human]} cartas viradas"
        if obs["visible_hands"]:
            hand += "   parceiro: " + "  ".join(" ".join(show(c) for c in v["cards"]) for v in obs["visible_hands"])
        pending = obs["pending"]
        if pending:
            print(f"Jogador {pending['asker']} pede {pending['name']} (vale {pending['value']}).")
        if obs["decision"]:
            print("Mão de dez: jogar (accept) ou correr (run)?")
        actions = obs["legal_actions"]
        print(f"Sua mão: {hand}   (a mão vale {obs['hand_value']})")
        print("  ".join(f"{i + 1}) {a}" for i, a in enumerate(actions)))
        while True:
            try:
                answer = input("> ").strip()
            except EOFError:
                print()
                return 1
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                answer = actions[int(answer) - 1]
            try:
                game.apply(answer, seat=human)
                break
            except IllegalAction as exc:
                print(f"Jogada inválida: {exc}")


if __name__ == "__main__":
    sys.exit(main())
