"""The names the engine, the bots, the page and the tools share: one place for each.

The page keeps its own labels (``site/i18n/*.json``: ``level.<name>``,
``hint.signal_name.<name>``) and, where its JS needs the list itself, a copy that
``tests/build/test_names.py`` keeps equal to these.
"""

from __future__ import annotations

LEVELS: tuple[str, ...] = ("facil", "medio", "dificil")
"""The bot levels a person plays against, weakest first."""

BASELINES: tuple[str, ...] = ("random", "passive", "always-accept", "always-run", "honest", "caller")
"""Measuring sticks for the arena (never offered at the table)."""

ALL_LEVELS: tuple[str, ...] = LEVELS + BASELINES

SIGNALS: tuple[str, ...] = ("zap", "copas", "espadilha", "pica-fumo", "tres", "nada")
"""Sinais a player may send its partners (a table option with partners): the manilhas from the strongest,
a three, nothing."""

MANILHA_SIGNALS: tuple[str, ...] = SIGNALS[:4]
"""The signals that name a manilha, strongest first (the order of ``manilhas`` in an
observation)."""

STRENGTH_SIGNALS: tuple[str, ...] = SIGNALS[:5]
"""The signals that promise a strong card (a manilha or a three)."""
