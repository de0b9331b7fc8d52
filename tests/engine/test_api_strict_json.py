"""Every reply of ``truco.api`` is strict JSON, and every error message is short and in the
contract's words (issue 42; docs/engine.md, "Errors" and "The worker protocol").

The page reads each reply with ``JSON.parse``, which refuses ``NaN`` and ``Infinity``; an
error message is shown (or logged) on the page, so it must never carry a whole input back,
nor speak Python (``UnicodeDecodeError: 'utf-8' codec can't decode…``).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco import api

MESSAGE_LIMIT = 300
PYTHON_WORDS = ("Traceback", "codec", "Error:", "sys.set_int_max_str_digits", "Expecting")


def _refuse(name):
    raise AssertionError(f"{name} in a reply: JSON.parse refuses it")


def strict(text: str):
    """`text` parsed as the page's JSON.parse would: no NaN, Infinity or -Infinity."""
    return json.loads(text, parse_constant=_refuse)


def check(request) -> None:
    """One request: a strict JSON reply, or a ValueError with a short message in words."""
    try:
        reply = api.handle(request)
    except ValueError as exc:
        message = str(exc)
        assert len(message) <= MESSAGE_LIMIT, message[:400]
        assert not any(w in message for w in PYTHON_WORDS), message
    else:
        strict(reply)
    # The worker's envelope (api.reply): always strict JSON, whatever the request.
    envelope = strict(api.reply(request))
    assert envelope["ok"] in (True, False)
    if not envelope["ok"]:
        assert len(envelope["error"]) <= MESSAGE_LIMIT
        assert envelope["valueError"] is True, envelope  # bad input is never an engine fault


leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50), st.text(min_size=300, max_size=2000),
    st.sampled_from(["4c", "7h", "As", "9z", "mineiro", "paulista", "play 4c", "raise", "", "NaN"]),
)
values = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                    st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                      max_leaves=12)
params = st.one_of(
    st.dictionaries(st.sampled_from(sorted({p for ps in api.PARAMS.values() if ps for p in ps})), values, max_size=5),
    st.dictionaries(st.text(max_size=200), values, max_size=3),
    values,
)
methods = st.one_of(st.sampled_from(sorted(api.METHODS)), st.text(max_size=400))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(method=methods, params=params)
def test_every_reply_is_strict_json_and_every_message_short(method, params):
    # allow_nan: the request may hold what JSON.parse refuses; the engine must refuse it.
    check(json.dumps({"method": method, "params": params}, allow_nan=True))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.one_of(st.text(max_size=300), st.binary(max_size=300)))
def test_any_text_or_bytes_gets_a_strict_reply_or_a_short_message(raw):
    check(raw)


@pytest.mark.parametrize("request_text", [
    '{"method": "echo", "params": {"x": NaN}}',
    '{"method": "echo", "params": {"x": Infinity}}',
    '{"method": "echo", "params": {"x": -Infinity}}',
    '{"method": "echo", "params": {"x": 1e999}}',
    '{"method": "echo", "params": {"x": ' + "9" * 5000 + "}}",
    '{"method": "' + "x" * 100_000 + '"}',
    json.dumps({"method": "load", "params": {"save": "{" + "x" * 100_000}}),
    json.dumps({"method": "new_game", "params": {"players": 2, "preset": "p" * 100_000}}),
    json.dumps({"method": "new_game", "params": {"players": 2, "hands": [["x" * 100_000] * 3] * 2}}),
    json.dumps({"method": "new_game", "params": {"players": "2" * 100_000}}),
    b"\xff\xfe\xfd" * 1000,
    b'{"method": "echo", "params": {"x": "\xc3"}}',
])
def test_the_probe_s_inputs_are_refused_in_short_words(request_text):
    """The issue's cases: NaN and Infinity echoed, a 100,000-character input quoted whole,
    a UnicodeDecodeError's own words."""
    with pytest.raises(ValueError) as caught:
        api.handle(request_text)
    message = str(caught.value)
    assert len(message) <= MESSAGE_LIMIT and not any(w in message for w in PYTHON_WORDS), message[:400]
    assert strict(api.reply(request_text))["ok"] is False


def test_a_card_error_is_marked_as_bad_input_for_the_page():
    """The page tells a bad link from an engine fault by `valueError`, not by the class's
    name: a CardError is a ValueError (match_setup.js)."""
    reply = strict(api.reply(json.dumps({"method": "new_game", "params": {"preset": "paulista", "vira": "9z"}})))
    assert reply == {"ok": False, "error": reply["error"], "errorType": "CardError", "valueError": True}
    assert strict(api.reply('{"method": "echo", "params": {"oi": 1}}')) == {"ok": True, "result": {"oi": 1}}
