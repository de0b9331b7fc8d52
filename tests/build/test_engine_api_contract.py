"""One contract for engine calls (issue 40): the page's engine_api.js names the same methods
as `truco.api.METHODS` with the same parameters as `truco.api.PARAMS`, each handler reads
exactly the parameters declared for it, and a parameter a method does not take is refused on
both sides (the page's facade before sending, `api.handle` if it is sent anyway) instead of
being ignored. docs/engine.md, "`truco.api`: the JSON facade", describes the methods."""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

import truco
from truco import api
from truco.table import OPTION_NAMES
from helpers.node import run_module_script

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "site" / "static" / "js" / "engine" / "engine_api.js"

# Run in Node: the module's tables, and what its facade does with each method called with its
# declared params and with one more, through a client that records what it is asked.
PROBE = """
const m = await import(process.argv[1]);
const sent = [];
const engine = m.engineApi({ call: (method, params) => (sent.push([method, params]), Promise.resolve(method)) });
const camel = (n) => n.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const calls = {};
for (const [method, names] of Object.entries(m.PARAMS)) {
  const own = Object.fromEntries((names ?? ["anything"]).map((n, i) => [n, i]));
  sent.length = 0;
  const forwarded = await engine[camel(method)](own);
  const declared = { forwarded, sent: [...sent] };
  sent.length = 0;
  let refused = null;
  try { engine[camel(method)]({ ...own, no_such_param: 1 }); } catch (err) { refused = { name: err.name, message: err.message }; }
  calls[method] = { declared, extra: { refused, sent: [...sent] } };
}
let unknownMethod = null;
try { m.checkParams("no_such_method", {}); } catch (err) { unknownMethod = err.name; }
console.log(JSON.stringify({ params: m.PARAMS, method: m.METHOD, facade: Object.keys(engine), calls, unknownMethod }));
"""


@pytest.fixture(scope="module")
def js():
    return run_module_script(PROBE, MODULE.as_uri())


def test_the_page_names_the_engines_methods(js):
    assert list(js["params"]) == list(api.METHODS)
    assert js["method"] == {name: name for name in api.METHODS}
    assert list(api.PARAMS) == list(api.METHODS)


def test_the_page_declares_the_engines_parameters(js):
    assert js["params"] == {m: None if p is None else list(p) for m, p in api.PARAMS.items()}


def test_the_facade_forwards_declared_params_and_refuses_any_other(js):
    for method, call in js["calls"].items():
        names = ("anything",) if api.PARAMS[method] is None else api.PARAMS[method]
        # Declared names go through unchanged, to client.call under the engine's name.
        assert call["declared"]["sent"] == [[method, {n: i for i, n in enumerate(names)}]], method
        if api.PARAMS[method] is None:  # echo returns whatever it gets
            assert call["extra"]["refused"] is None and len(call["extra"]["sent"]) == 1
            continue
        # One more name is a TypeError naming it, and nothing is sent.
        assert call["extra"]["refused"]["name"] == "TypeError", method
        assert "no_such_param" in call["extra"]["refused"]["message"], method
        assert call["extra"]["sent"] == [], method
    assert js["unknownMethod"] == "TypeError"


def test_handle_refuses_a_param_the_method_does_not_take():
    with pytest.raises(ValueError, match="apply takes no param 'acton'"):
        api.handle(json.dumps({"method": "apply", "params": {"acton": "play 4c"}}))
    with pytest.raises(ValueError, match="version takes no param 'seat'"):
        api.handle(json.dumps({"method": "version", "params": {"seat": 0}}))
    # The table in play is left as it was: refused before the handler runs.
    reply = json.loads(api.handle(json.dumps({"method": "new_game", "params": {"seed": 3}})))
    with pytest.raises(ValueError, match="no_such_param"):
        api.handle(json.dumps({"method": "bot_step", "params": {"no_such_param": True}}))
    again = json.loads(api.handle(json.dumps({"method": "observation", "params": {}})))
    assert again["save"] == reply["save"]
    assert json.loads(api.handle(json.dumps({"method": "echo", "params": {"any": 1}}))) == {"any": 1}


# --- each handler reads exactly what PARAMS declares for it (read from api.py's source) ----

def _functions() -> dict[str, ast.FunctionDef]:
    tree = ast.parse(inspect.getsource(api))
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            out.setdefault(node.name, node)
    return out


def _reads(fn: ast.FunctionDef, functions: dict[str, ast.FunctionDef], seen: set[str]) -> set[str]:
    """The param names `fn` reads from its `params` (or a copy of it): `params["x"]`,
    `params.get/pop("x")`, `"x" in params`, `k == "x"` in a comprehension over
    `params.items()`, and what the functions it hands `params` to read."""
    seen.add(fn.name)
    keys = set()

    def is_params(node):
        return isinstance(node, ast.Name) and node.id == "params"

    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and is_params(node.value) and isinstance(node.slice, ast.Constant):
            keys.add(node.slice.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if is_params(node.func.value) and node.func.attr in ("get", "pop") and isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            if is_params(node.comparators[0]):
                keys.add(node.left.value)
        elif isinstance(node, (ast.DictComp, ast.ListComp)):
            gen = node.generators[0]
            if isinstance(gen.iter, ast.Call) and isinstance(gen.iter.func, ast.Attribute) and is_params(gen.iter.func.value):
                keys |= {c.comparators[0].value for cond in gen.ifs for c in ast.walk(cond)
                         if isinstance(c, ast.Compare) and isinstance(c.comparators[0], ast.Constant)}
        if isinstance(node, ast.Call) and any(is_params(a) for a in node.args):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in functions and name not in seen:
                keys |= _reads(functions[name], functions, seen)
    return keys


def test_each_handler_reads_exactly_its_declared_params():
    functions = _functions()
    for method, handler in api.METHODS.items():
        if api.PARAMS[method] is None:
            continue
        if handler.__name__ == "<lambda>":
            assert api.PARAMS[method] == (), method  # version: `lambda p: {...}` reads nothing
            continue
        reads = _reads(functions[handler.__name__], functions, set())
        if method == "new_game":
            # The rest goes on to truco.new_game: its arguments and its options.
            game_args = [p for p in inspect.signature(truco.new_game).parameters if p != "options"]
            reads |= {*game_args, *OPTION_NAMES}
        assert reads == set(api.PARAMS[method]), method


def test_the_docs_name_every_param():
    # docs/engine.md describes each method; its params named there keep the doc true.
    doc = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    for method, params in api.PARAMS.items():
        section = doc.split(f"### `{method}`", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
        for name in params or ():
            if method == "new_game" and name in OPTION_NAMES:
                continue  # "the options": listed under "Starting a match"
            assert re.search(rf"`[^`\n]*\b{name}\b[^`\n]*`", section), (method, name)


def test_the_lessons_check_refuses_a_name_the_engine_does_not_take():
    # lessons.py takes the engine's ValueError for a refused move (the learner's "wrong"): a
    # renamed method or param must fail the build instead, as a TypeError.
    from types import SimpleNamespace

    from truco_tools.lessons import Replay

    replay = SimpleNamespace(api=api)
    with pytest.raises(TypeError, match="no method 'botstep'"):
        Replay.call(replay, "botstep")
    with pytest.raises(TypeError, match="apply takes no param acton"):
        Replay.call(replay, "apply", {"acton": "play 4c"})
    assert Replay.call(replay, "version") == {"version": truco.__version__}
