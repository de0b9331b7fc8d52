"""Hints ("Dica", issue 12): the difícil bot's choice for the human seat and a one-line
reason that names the deciding card or fact, for every kind of decision, from the seat's
observation only. Each situation cites the rule of /work/shared/RULES.md (§) behind it.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

import truco
from truco.bots.explain import explain, reason_for
from truco.hint_text import CARD_TEXTS, TEXTS, card_text, render
from helpers.engine import call, random_positions

ROOT = Path(__file__).resolve().parents[2]
PAGE_STRINGS = json.loads((ROOT / "site" / "i18n" / "pt-BR.json").read_text(encoding="utf-8"))


def hint(game: truco.Game, cards_only: bool = False, seed: int = 1) -> tuple[str, str, str]:
    """(action, reason key, Portuguese text) for the seat to move; with ``cards_only`` the
    raise is taken off the legal actions, to probe the card play alone."""
    obs = game.observation(game.to_move)
    if cards_only:
        obs["legal_actions"] = [a for a in obs["legal_actions"] if a != "raise"]
    action, reason = explain(obs, random.Random(seed))
    return action, reason["key"], render(reason, obs["manilhas"], obs["rules"]["manilha_names"])


def name(card: str, game: truco.Game) -> str:
    obs = game.observation(0)
    return card_text(card, obs["manilhas"], obs["rules"]["manilha_names"])


def one(hands, dealer=1, **kw) -> truco.Game:
    return truco.new_game(seed=kw.pop("seed", 1), hands=hands, dealer=dealer, **kw)


FOUR = [["3c", "5c", "5h"], ["Kd", "6c", "6h"], ["4c", "5d", "6d"], ["Jd", "Qc", "Qs"]]


# --------------------------------------------------------------- every decision type
def test_play_a_card_when_following():
    """§2–§3: a three takes the king and the Zap is kept; nothing beats the Zap, so the
    weakest card goes; in 2 x 2 a partner holding the round gets the weakest card."""
    g = one([["Kd", "6c", "6h"], ["4c", "3h", "5d"]])
    g.apply("play Kd")
    assert hint(g, cards_only=True) == (
        "play 3h", "hint.play.win_cheap", "Jogue 3 de copas: ganha de rei de ouros e você guarda 4 de paus (Zap).")
    g = one([["4c", "6c", "6h"], ["7h", "3h", "5d"]])
    g.apply("play 4c")
    action, key, text = hint(g, cards_only=True)
    assert (action, key) == ("play 5d", "hint.play.duck")
    assert "4 de paus (Zap)" in text and "5 de ouros" in text
    g = truco.new_game(players=4, seed=1, hands=FOUR, dealer=3)
    g.apply("play 3c")
    g.apply("play Kd")
    assert hint(g, cards_only=True) == (
        "play 5d", "hint.play.partner_holds",
        "Jogue 5 de ouros: seu parceiro já está ganhando a rodada; guarde 4 de paus (Zap).")


def test_lead_the_first_round():
    """§3: leading the first round with the Zap in hand, the Zap is kept for later."""
    g = one([["4c", "3h", "5d"], ["Kd", "6c", "6h"]])
    action, key, text = hint(g, cards_only=True)
    assert key.startswith("hint.lead.first_") and action.startswith("play ")
    assert name(action.split()[1], g) in text
    if key != "hint.lead.first_top":
        assert "4 de paus (Zap)" in text


def test_play_covered():
    """§4: from the second round a card that cannot take the round may go covered."""
    g = one([["Kd", "6c", "2h"], ["4c", "5h", "5d"]])
    g.apply("play 6c")
    g.apply("play 4c")  # seat 1 wins the first and leads
    g.apply("play 5d")
    obs = g.observation(0)
    assert "cover Kd" in obs["legal_actions"]
    reason = reason_for(obs, "cover 6c" if "cover 6c" in obs["legal_actions"] else "cover Kd")
    assert reason["key"] == "hint.cover.duck"
    text = render(reason, obs["manilhas"], obs["rules"]["manilha_names"])
    assert "coberta" in text and "5 de ouros" in text
    # leading after winning the first, a covered card keeps the opponent guessing
    g = one([["4c", "6c", "2h"], ["Kd", "5h", "5d"]])
    g.apply("play 4c")
    g.apply("play 5h")
    obs = g.observation(0)
    reason = reason_for(obs, "cover 6c")
    assert reason == {"key": "hint.cover.won", "params": {"card": "6c"}}


def test_ask_for_truco_after_winning_the_first_with_the_zap():
    """§3 and §5: the first round won and the Zap in hand: the hand is as good as won."""
    g = one([["Kd", "6c", "6h"], ["4c", "3h", "5d"]])
    g.apply("play 6c")
    g.apply("play 3h")
    assert hint(g) == ("raise", "hint.raise.won_first",
                       "Peça truco: a primeira já está ganha e você tem 4 de paus (Zap).")


def test_accept_run_and_raise_back():
    """§5: answering truco at 0 x 0 — the Zap cannot lose (accept), three low cards are
    not worth 4 points (run), the three best manilhas raise to seis."""
    g = one([["Kd", "6c", "6h"], ["4c", "3h", "5d"]])
    g.apply("raise")
    assert hint(g) == ("accept", "hint.accept.sure",
                       "Aceite: 4 de paus (Zap) não perde para nenhuma carta que falta.")
    g = one([["4c", "6c", "6h"], ["4d", "5s", "6d"]])
    g.apply("raise")
    assert hint(g) == ("run", "hint.run.low", "Corra: só com cartas baixas (6 de ouros, 5 de espadas "
                       "e 4 de ouros), 4 pontos é caro demais a 0 x 0.")
    g = one([["5c", "6c", "6h"], ["4c", "7h", "As"]])
    g.apply("raise")
    action, key, text = hint(g)
    assert (action, key) == ("raise", "hint.reraise.sure")
    assert text.startswith("Peça seis:") and "4 de paus (Zap)" in text


def test_accept_when_running_loses_the_game():
    """§5 and §7: running from doze gives the opponents the 10 of the hand: the game."""
    g = one([["4c", "6c", "6h"], ["4d", "5s", "Kd"]], score=(2, 2))
    for _ in range(4):  # truco, seis, dez, doze: seat 0 answers doze
        g.apply("raise")
    assert hint(g) == ("accept", "hint.accept.must", "Aceite: correndo, eles marcam 10 e fecham o jogo.")


def test_mao_de_dez_play_and_run():
    """§6: at 10 the team sees its cards and plays for 4 or runs (the opponents score 2)."""
    g = one([["4c", "7h", "3h"], ["4d", "5s", "Kd"]], score=(10, 0))
    action, key, text = hint(g)
    assert (action, key) == ("accept", "hint.dez.play")
    assert text.startswith("Jogue a mão de dez: com 4 de paus (Zap), 7 de copas (Copas) e 3 de copas")
    g = one([["4d", "5s", "6h"], ["4c", "7h", "Kd"]], score=(10, 4))
    action, key, text = hint(g)
    assert (action, key) == ("run", "hint.dez.run")
    assert "eles marcam só 2" in text
    # 2 x 2: the partner's cards are seen and named
    hands = [["4d", "5s", "6h"], ["4c", "7h", "Kd"], ["5d", "6s", "4h"], ["3c", "2c", "Ks"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=3, score=(10, 4))
    action, key, text = hint(g)
    assert (action, key) == ("run", "hint.dez.run_team")
    assert text == "Corra da mão de dez: o melhor do seu time é só 6 de espadas e 6 de copas; correndo, eles marcam só 2."
    # §9: the paulista preset's mão de onze is named as such
    g = truco.new_game("paulista", seed=1, hands=[["4d", "5s", "6h"], ["4c", "7h", "Kd"]], dealer=1,
                       score=(11, 3), vira="Ks")
    action, key, text = hint(g)
    assert key.startswith("hint.dez.") and ("mão de onze" in text) and "mão de dez" not in text


def test_mao_de_ferro_blind_play():
    """§6: at 10 x 10 in the dark nobody sees their cards: any position is the same."""
    g = one([["4d", "5s", "6h"], ["4c", "7h", "Kd"]], score=(10, 10))
    action, key, text = hint(g)
    assert action.startswith("play #") and key == "hint.ferro.blind"
    assert "no escuro" in text


def test_signal_first_at_a_table_with_sinais():
    """Sinais (issue 12): before the first card, holding a manilha, the hint is its honest
    signal, naming the card; once sent, the hint is a card. A three or nothing is kept
    quiet, as the table's bots do (signal_to_send: caught, it tells the opponents the
    hand is weak)."""
    hands = [["4c", "5c", "5h"], ["Kd", "6c", "6h"], ["3c", "5d", "6d"], ["Jd", "Qc", "Qs"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=3, sinais=True)
    assert hint(g)[:2] == ("signal zap", "hint.signal.send")
    assert "4 de paus (Zap)" in hint(g)[2]
    g.apply("signal zap", seat=0)
    action, key, _ = hint(g)
    assert not action.startswith("signal")
    g = truco.new_game(players=4, seed=1, hands=FOUR, dealer=3, sinais=True)
    assert "3c" in FOUR[0] and not hint(g)[0].startswith("signal")
    hands = [["Kc", "5c", "5h"], ["Kd", "6c", "6h"], ["3c", "5d", "6d"], ["Jd", "Qc", "Qs"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=3, sinais=True)
    assert not hint(g)[0].startswith("signal")


def test_the_partners_signal_is_in_the_reason():
    """Sinais: the partner signalled the Zap and plays last in the round; the hint keeps
    the three and says why (the partner takes the round)."""
    hands = [["4c", "6c", "6h"], ["Kd", "5c", "5h"], ["3h", "5d", "6d"], ["Jd", "Qc", "Qs"]]
    g = truco.new_game(players=4, seed=1, hands=hands, dealer=0, sinais=True)  # seat 1 leads
    g.apply("signal zap", seat=0)
    g.apply("play Kd")
    g.apply("signal tres", seat=2)
    action, key, text = hint(g, cards_only=True)
    assert action in ("play 5d", "play 6d")
    assert key == "hint.play.partner_signal"
    assert "sinalizou zap" in text and "3 de copas" in text


# ------------------------------------------------------------- positions and honesty
def test_reasons_differ_across_positions():
    """The same cards, five positions: five different reasons."""
    texts = set()
    g = one([["4c", "3h", "5d"], ["Kd", "6c", "6h"]])  # leading the first
    texts.add(hint(g, cards_only=True)[2])
    g = one([["Kd", "6c", "6h"], ["4c", "3h", "5d"]])  # following a king
    g.apply("play Kd")
    texts.add(hint(g, cards_only=True)[2])
    g = one([["7h", "6c", "6h"], ["4c", "3h", "5d"]])  # following the Copas
    g.apply("play 7h")
    texts.add(hint(g, cards_only=True)[2])
    g = one([["Kd", "6c", "6h"], ["4c", "3h", "5d"]])  # answering truco
    g.apply("raise")
    texts.add(hint(g)[2])
    g = one([["Kd", "6c", "6h"], ["4c", "3h", "5d"]])  # after winning the first
    g.apply("play 6c")
    g.apply("play 3h")
    texts.add(hint(g)[2])
    assert len(texts) == 5, texts


def test_uses_only_the_observation():
    """The hint of a position is the same when the cards the seat cannot see differ, and
    when given only a JSON copy of the observation (which it does not modify)."""
    hands = [["4c", "3h", "5d"], ["Kd", "6c", "6h"]]
    other = [["4c", "3h", "5d"], ["7h", "As", "2c"]]
    for seed in range(6):
        g1, g2 = one(hands, seed=seed), one(other, seed=seed)
        o1, o2 = g1.observation(0), g2.observation(0)
        assert o1 == o2
        assert explain(o1, random.Random(seed)) == explain(o2, random.Random(seed))
    for i, g in enumerate(random_positions(40, seed=31)):
        obs = g.observation(g.to_move)
        frozen = json.loads(json.dumps(obs))
        assert explain(copy.deepcopy(obs), random.Random(i)) == explain(frozen, random.Random(i))
        assert obs == frozen


def test_every_reason_is_legal_and_complete():
    """Random positions of every preset: the hinted action is legal (or the seat's allowed
    signal), and the reason is a known key whose sentence has every placeholder filled."""
    keys = set()
    for i, g in enumerate(random_positions(150, seed=32)):
        seat = g.to_move
        obs = g.observation(seat)
        action, reason = explain(obs, random.Random(i))
        if action.startswith("signal "):
            assert obs["may_signal"]
            g.apply(action, seat=seat)  # the engine takes it
        else:
            assert action in g.legal_actions()
        assert reason["key"] in TEXTS
        text = render(reason, obs["manilhas"], obs["rules"]["manilha_names"])
        assert "{" not in text and len(text) < 200, text
        keys.add(reason["key"])
    assert len(keys) >= 15


# ------------------------------------------------------------------------- the api
def test_api_hint_gives_the_action_the_reason_and_the_text():
    obs = call("new_game", players=2, seed=8, hands=[["Kd", "6c", "6h"], ["4c", "3h", "5d"]],
                dealer=1, human_seat=1)["observation"]
    assert obs["to_move"] == 0
    with pytest.raises(ValueError, match="not your turn"):
        call("hint")
    call("bot_step")
    obs = call("observation")["observation"]
    reply = call("hint")
    assert set(reply) == {"action", "reason", "text"}
    assert reply["action"] in obs["legal_actions"]
    assert set(reply["reason"]) == {"key", "params"}
    assert reply["text"] == render(reply["reason"], obs["manilhas"], obs["rules"]["manilha_names"])
    assert call("hint") == reply, "the same position gives the same hint"


def test_the_page_has_every_hint_text():
    """The page renders reasons from its table: every hint.* text is there, word for word,
    and so are the card names :func:`render` uses."""
    page = {k: v for k, v in PAGE_STRINGS.items() if k.startswith("hint.")}
    assert page == TEXTS
    for key, text in CARD_TEXTS.items():
        assert PAGE_STRINGS[key] == text
    ladder_names = {s.name for p in truco.PRESETS.values() for s in p.ladder}
    assert {f"hint.step.{n}" for n in ladder_names} <= set(TEXTS)
    assert {f"hint.signal_name.{s}" for s in truco.game.SIGNALS} <= set(TEXTS)
