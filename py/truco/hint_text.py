"""The Portuguese texts of the hints (issue 12, "Dica") and how a reason is put into words.

A hint's reason is data: ``{"key": "hint.play.partner_holds", "params": {...}}``. The page
renders it from its translation table, so another language needs no change here;
:func:`render` gives the Portuguese sentence for callers without the page's table.

:data:`TEXTS` is the one place the Portuguese hint texts are written: the ``hint.*``
entries of ``site/i18n/pt-BR.json`` are generated from it (``python -m truco.hint_text``
rewrites them, :func:`page_table_text`), and the tests fail while the page's table
differs. Translators write ``es.json`` and ``en.json`` from them as from any other key.

How a parameter is rendered depends on its name (the same rule the page follows):

- a name ending in ``card`` (``card``, ``keep_card``, ``best_card``): a card code,
  written "3 de espadas", or "4 de paus (Zap)" for a manilha of this hand;
- ``cards``: a list of card codes, joined with ", " and " e ";
- ``raise``: a ladder step of the preset ("truco", "seis"...), written with ``hint.step.<name>``;
- ``signal``: a signal (``truco.names.SIGNALS``), written with ``hint.signal_name.<name>``;
- ``x``: the score of the preset's mão de X (10 or 11), written with ``hint.x.<value>``;
- anything else (``value``, ``gives``, ``pct``, ``us``, ``them``): as it is.
"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # names used inside the sentences
    "hint.step.truco": "truco",
    "hint.step.seis": "seis",
    "hint.step.nove": "nove",
    "hint.step.dez": "dez",
    "hint.step.doze": "doze",
    "hint.x.10": "dez",
    "hint.x.11": "onze",
    "hint.signal_name.zap": "zap",
    "hint.signal_name.copas": "copas",
    "hint.signal_name.espadilha": "espadilha",
    "hint.signal_name.pica-fumo": "pica-fumo",
    "hint.signal_name.tres": "três",
    "hint.signal_name.nada": "nada",
    # sinais
    "hint.signal.send": "Sinalize {signal} ao seu parceiro: sabendo que você tem {card}, ele joga a mão junto com você.",
    "hint.signal.nada": "Sinalize nada ao seu parceiro: sabendo que você não tem manilha nem três, ele joga a mão por vocês dois.",
    # mão de ferro no escuro
    "hint.ferro.blind": "Jogue qualquer carta: na mão de ferro no escuro ninguém vê as próprias cartas, então toda escolha é igual.",
    # a card when following
    "hint.play.last": "Jogue {card}: é a sua última carta.",
    "hint.play.last_noraise": "Jogue {card}: é a sua última carta, e pedir {raise} agora não compensa.",
    "hint.play.partner_holds": "Jogue {card}: seu parceiro já está ganhando a rodada; guarde {keep_card}.",
    "hint.play.partner_signal": "Jogue {card}: seu parceiro sinalizou {signal} e ainda joga nesta rodada; deixe a rodada com ele e guarde {keep_card}.",
    "hint.play.partner_after": "Jogue {card}: seu parceiro ainda joga nesta rodada; não gaste {keep_card}.",
    "hint.play.win_sure": "Jogue {card}: nenhuma carta que falta ganha dela, a rodada é sua.",
    "hint.play.win_cheap": "Jogue {card}: ganha de {best_card} e você guarda {keep_card}.",
    "hint.play.win_top": "Jogue {card}: é a sua única carta que ganha de {best_card}.",
    "hint.play.win": "Jogue {card}: ganha de {best_card} e leva a rodada.",
    "hint.play.win_strong": "Jogue {card}: ela ganha de {best_card} e segura melhor a rodada contra quem ainda joga.",
    "hint.play.over_covered": "Jogue {card}: na mesa só há carta coberta, e qualquer carta aberta ganha dela.",
    "hint.play.over_partner": "Jogue {card}: {best_card}, do seu parceiro, pode perder para quem ainda joga; garanta a rodada.",
    "hint.play.tie_closes": "Jogue {card}: empata com {best_card}, e como a primeira já está ganha, o empate fecha a mão.",
    "hint.play.tie_first": "Jogue {card}: empata a primeira com {best_card}; quem ganhar a segunda leva a mão, e você guarda {keep_card}.",
    "hint.play.tie": "Jogue {card}: empatar com {best_card} é o melhor que dá nesta rodada.",
    "hint.play.duck": "Jogue {card}: nenhuma carta sua ganha de {best_card}; descarte a mais fraca.",
    "hint.play.duck_other": "Jogue {card}: nenhuma carta sua ganha de {best_card} nesta rodada.",
    "hint.play.save": "Jogue {card}: não vale gastar {keep_card} contra {best_card}; guarde-a para as próximas rodadas.",
    "hint.cover.duck": "Jogue {card} coberta: ela não ganha de {best_card}, e assim ninguém fica sabendo que carta era.",
    "hint.cover.hide": "Jogue {card} coberta: ela não decide a rodada, e assim ninguém fica sabendo que carta era.",
    # a card when leading
    "hint.lead.first_top": "Jogue {card} na primeira: é a sua melhor carta, e quem ganha a primeira fica perto de levar a mão.",
    "hint.lead.first_middle": "Jogue {card} na primeira: é forte o bastante para disputar a rodada, e você guarda {keep_card}.",
    "hint.lead.first_low": "Jogue {card} na primeira: é a sua carta mais fraca; guarde {keep_card} para as rodadas que decidem.",
    "hint.lead.first_keep": "Jogue {card} na primeira e guarde {keep_card} para as rodadas que decidem.",
    "hint.lead.first_partner": "Jogue {card} na primeira: seu parceiro sinalizou {signal} e pode fazer a rodada; guarde {keep_card}.",
    "hint.lead.won_sure": "Jogue {card}: a primeira já está ganha e nenhuma carta que falta ganha dela; a mão é sua.",
    "hint.lead.won_top": "Jogue {card}: a primeira já está ganha, e ganhar esta rodada fecha a mão.",
    "hint.lead.won_low": "Jogue {card}: a primeira já está ganha; faça o adversário gastar uma carta boa e guarde {keep_card} para a última.",
    "hint.lead.tied": "Jogue {card}: a primeira empatou, e quem ganhar esta rodada leva a mão.",
    "hint.cover.won": "Jogue {card} coberta: a primeira já está ganha, e o adversário precisa ganhar as duas sem saber o que você tem.",
    # asking for a raise
    "hint.raise.won_first": "Peça {raise}: a primeira já está ganha e você tem {card}.",
    "hint.raise.sure": "Peça {raise}: {card} não perde para nenhuma carta que falta.",
    "hint.raise.partner_signal": "Peça {raise}: seu parceiro sinalizou {signal} e você tem {card}; a dupla está forte.",
    "hint.raise.strong": "Peça {raise}: com {card}, a chance de ganhar esta mão é de {pct}%.",
    "hint.raise.bluff": "Peça {raise}: é blefe, mas arrisca pouco; se eles correrem, {value} pontos vão para o seu lado.",
    # answering a raise
    "hint.accept.must": "Aceite: correndo, eles marcam {gives} e fecham o jogo.",
    "hint.accept.won_first": "Aceite: a primeira já está ganha e você tem {card}.",
    "hint.accept.sure": "Aceite: {card} não perde para nenhuma carta que falta.",
    "hint.accept.partner_signal": "Aceite: seu parceiro sinalizou {signal}, e com {card} a dupla tem chance.",
    "hint.accept.strong": "Aceite: com {card}, a chance de ganhar esta mão é de {pct}%.",
    "hint.accept.odds": "Aceite: correr já entrega {gives} pontos; com {pct}% de chance, jogar por {value} compensa a {us} x {them}.",
    "hint.run.low": "Corra: só com cartas baixas ({cards}), {value} pontos é caro demais a {us} x {them}.",
    "hint.run.lost_first": "Corra: a primeira foi deles, e {card} não garante as duas que faltam.",
    "hint.run.beaten": "Corra: {best_card} já está na mesa e ganha de todas as suas cartas.",
    "hint.run.shown": "Corra: quem pede {value} costuma ter cartas, e a sua melhor é {card}; não compensa arriscar a {us} x {them}.",
    "hint.run.odds": "Corra: a chance de ganhar esta mão é de só {pct}%; entregar {gives} pontos custa menos que arriscar {value} a {us} x {them}.",
    "hint.reraise.sure": "Peça {raise}: {card} não perde para nenhuma carta que falta.",
    "hint.reraise.won_first": "Peça {raise}: a primeira já está ganha e você tem {card}.",
    "hint.reraise.strong": "Peça {raise}: com {card}, a chance de ganhar esta mão é de {pct}%; vale subir.",
    "hint.reraise.bluff": "Peça {raise}: subir põe pressão; se eles correrem, {value} pontos vão para o seu lado.",
    # mão de dez (mão de onze in the paulista preset)
    "hint.dez.play_must": "Jogue a mão de {x}: correndo, eles marcam {gives} e fecham o jogo.",
    "hint.dez.play": "Jogue a mão de {x}: com {cards}, a chance de ganhar é de {pct}%, e ganhando o jogo acaba.",
    "hint.dez.play_team": "Jogue a mão de {x}: o melhor do seu time é {cards}, e a chance de ganhar é de {pct}%.",
    "hint.dez.run": "Corra da mão de {x}: com {cards}, a chance é de só {pct}%; correndo, eles marcam só {gives}.",
    "hint.dez.run_team": "Corra da mão de {x}: o melhor do seu time é só {cards}; correndo, eles marcam só {gives}.",
}
"""Every ``hint.*`` text, in Brazilian Portuguese (the page's table holds the same)."""

CARD_TEXTS: dict[str, str] = {
    "card.name": "{rank} de {suit}",
    "rank.Q": "dama", "rank.J": "valete", "rank.K": "rei", "rank.A": "ás",
    "suit.c": "paus", "suit.h": "copas", "suit.s": "espadas", "suit.d": "ouros",
    "explain.and": "e",
}
"""The page's card-name texts that :func:`render` needs (kept equal to the page's by a test)."""


def card_text(card: str, manilhas: list[str] | None = None, names: list[str] | None = None) -> str:
    """"3 de espadas"; a manilha of the hand with its name: "4 de paus (Zap)" (as the page's
    ``cardText`` in explain.js)."""
    r = card[0]
    rank = CARD_TEXTS[f"rank.{r}"] if r in "QJKA" else r
    name = CARD_TEXTS["card.name"].format(rank=rank, suit=CARD_TEXTS[f"suit.{card[1]}"])
    if manilhas and card in manilhas:
        i = manilhas.index(card)
        if names and i < len(names) and names[i]:
            return f"{name} ({names[i]})"
    return name


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {CARD_TEXTS['explain.and']} {items[-1]}"


def render(reason: dict, manilhas: list[str] | None = None, names: list[str] | None = None) -> str:
    """The Portuguese sentence of a reason ``{"key", "params"}`` (``manilhas`` and their
    ``names`` from the observation, so a manilha is called by its name)."""
    params = reason.get("params") or {}
    out = {}
    for name, value in params.items():
        if name.endswith("card"):
            out[name] = card_text(value, manilhas, names)
        elif name == "cards":
            out[name] = _join([card_text(c, manilhas, names) for c in value])
        elif name == "raise":
            out[name] = TEXTS.get(f"hint.step.{value}", str(value))
        elif name == "signal":
            out[name] = TEXTS.get(f"hint.signal_name.{value}", str(value))
        elif name == "x":
            out[name] = TEXTS.get(f"hint.x.{value}", str(value))
        else:
            out[name] = str(value)
    text = TEXTS[reason["key"]]
    for name, value in out.items():
        text = text.replace("{" + name + "}", value)
    return text


def page_table_text(text: str) -> str:
    """The page's Portuguese table (the text of ``site/i18n/pt-BR.json``) with its block of
    ``hint.*`` entries written from :data:`TEXTS`; every other line is kept as it is."""
    import json

    lines = text.split("\n")
    at = [i for i, line in enumerate(lines) if line.lstrip().startswith('"hint.')]
    if not at or at != list(range(at[0], at[-1] + 1)):
        raise ValueError("the table must hold the hint.* entries in one block of lines")
    last = at[-1] + 1 < len(lines) and lines[at[-1] + 1].strip().startswith("}")
    block = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)},"
             for k, v in TEXTS.items()]
    if last:
        block[-1] = block[-1][:-1]
    return "\n".join(lines[:at[0]] + block + lines[at[-1] + 1:])


if __name__ == "__main__":  # python -m truco.hint_text [path of pt-BR.json]
    import sys
    from pathlib import Path

    path = Path(sys.argv[1] if len(sys.argv) > 1 else "site/i18n/pt-BR.json")
    old = path.read_text(encoding="utf-8")
    new = page_table_text(old)
    if new != old:
        path.write_text(new, encoding="utf-8")
    print(f"{path}: {len(TEXTS)} hint texts {'written' if new != old else 'already up to date'}")
