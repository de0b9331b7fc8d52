"""How an error message quotes a bad input: cut short, so that a message names what is
wrong without carrying a whole request or save back to the page (docs/engine.md, "Errors")."""

from __future__ import annotations

from typing import Any

QUOTE_MAX = 40
"""How much of a bad input a message quotes."""


def said(value: Any, limit: int = QUOTE_MAX) -> str:
    """``value`` as a message quotes it: its ``repr``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
