"""The table's openings (issue 43): seat 0's view of the first deal of some of the engine's
openings (truco.openings), made by the engine itself at build time, for index.html. A first
visit's "Começar" with the start screen's defaults shows one at once, while the engine loads;
the engine then deals the same match (`new_game {opening: k}`). The page gets the view only,
never the seed."""

from __future__ import annotations

import json

from truco import api
from truco.names import LEVELS
from truco.openings import OPENING_SEEDS

from .common import BuildError

# What match_params.js newGameParams() gives for the start screen's defaults (saved_data.js
# DEFAULT_SETTINGS), less the opponents' level (the openings' first deals are the same at every
# level): tests/browser/test_openings.py fails unless they are equal (no opening is dealt).
OPENING_PARAMS = {
    "preset": "mineiro", "players": 4, "series": 1, "timer": 0, "ferro": "escuro",
    "partner_level": "medio", "human_seat": 0, "baralho_limpo": False, "familia_real": False,
    "humano_decide": True, "sinais": True,
}
# How many of the engine's openings the page carries (each ~1.6 KB of JSON in index.html).
IN_THE_PAGE = 4


def first_deal(index: int, level: str) -> dict:
    """The engine's reply's observation to the page's `new_game {opening: index}`."""
    request = {"method": "new_game", "params": {**OPENING_PARAMS, "level": level, "opening": index}}
    try:
        return json.loads(api.handle(json.dumps(request)))["observation"]
    except ValueError as exc:  # api.handle raises what the engine refuses
        raise BuildError(f"opening {index}: the engine refused it: {exc}") from None


def openings_data() -> dict:
    """{"params", "levels", "openings": [{"opening", "observation"}]} for index.html."""
    openings = []
    for index in range(min(IN_THE_PAGE, len(OPENING_SEEDS))):
        views = [first_deal(index, level) for level in LEVELS]
        if any(view != views[0] for view in views):
            raise BuildError(f"opening {index}: its first deal depends on the opponents' level")
        view = views[0]
        if not (view["seat"] == 0 and view["to_move"] == 0 and view["legal_actions"]):
            raise BuildError(f"opening {index}: seat 0 is not the first to decide")
        openings.append({"opening": index, "observation": view})
    return {"params": OPENING_PARAMS, "levels": list(LEVELS), "openings": openings}


def openings_json() -> str:
    """openings_data() as JSON for a <script type="application/json"> ("</" escaped)."""
    return json.dumps(openings_data(), ensure_ascii=False, sort_keys=False, separators=(",", ":")).replace("</", "<\\/")
