"""JSON-in, JSON-out facade used by the browser worker (placeholder until the engine lands)."""

from __future__ import annotations

import json

from . import __version__


def handle(request_json: str) -> str:
    """Answer one request ``{"method": str, "params": {...}}`` with a JSON string.

    Raises ``ValueError`` (with a readable message) for a bad request.
    """
    try:
        request = json.loads(request_json)
    except json.JSONDecodeError as exc:
        raise ValueError(f"request is not JSON: {exc}") from None
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        raise ValueError(f"request must be an object with a 'method' string: {request_json[:80]!r}")
    method = request["method"]
    params = request.get("params") or {}
    if method == "version":
        return json.dumps({"version": __version__})
    if method == "echo":
        return json.dumps(params)
    raise ValueError(f"unknown method {method!r}")
