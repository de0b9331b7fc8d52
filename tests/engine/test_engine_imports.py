"""The engine's rooms (issue 30): no import cycle anywhere in py/truco, and the rules, the
seat's view and the save each in a module of its own, the view and the save never
importing the game.

Every import statement counts, at module level or inside a function (a lazy import is a
cycle put off, not removed). ``from . import name`` goes to the submodule ``name`` when
there is one; a name the package's ``__init__`` defines itself (``__version__``, set
before it imports anything) goes to a node with no imports of its own.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "py" / "truco"


def _module_name(path: Path) -> str:
    parts = ["truco", *path.relative_to(PKG).with_suffix("").parts]
    return ".".join(parts[:-1]) if parts[-1] == "__init__" else ".".join(parts)


def _own_names(init: Path) -> set[str]:
    """Names a package's __init__ binds itself (not imported from a submodule)."""
    names = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def import_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in PKG.rglob("*.py")}
    packages = {_module_name(p) for p in PKG.rglob("__init__.py")}
    own = {_module_name(p): _own_names(p) for p in PKG.rglob("__init__.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        here = name if name in packages else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in files:
                        targets.append(sub)
                    elif base in packages and alias.name in own[base]:
                        targets.append(f"{base}:own")
                    else:
                        targets.append(base)
            for target in targets:
                while target and target not in files and not target.endswith(":own"):
                    target = target.rpartition(".")[0]  # truco.x.y imports truco.x
                if target and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_in_the_engine():
    graph = import_graph()
    assert "truco.game" in graph and "truco.bots.player" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_a_lazy_import_counts(tmp_path, monkeypatch):
    """An import inside a function is an edge too: the checker would see the old
    game.py <-> persist.py pair (Game.from_json importing persist in its body)."""
    fake = tmp_path / "truco"
    fake.mkdir()
    (fake / "__init__.py").write_text('__version__ = "0"\nfrom .game import Game\n')
    (fake / "game.py").write_text("from . import __version__\nclass Game:\n"
                                  "    def load(self):\n        from .persist import load\n")
    (fake / "persist.py").write_text("from .game import Game\n")
    monkeypatch.setattr(sys.modules[__name__], "PKG", fake)
    assert find_cycle(import_graph()) == ["truco.game", "truco.persist", "truco.game"]


def test_the_view_and_the_save_do_not_import_the_game():
    graph = import_graph()
    assert graph["truco.view"] == set(), "the seat's view reads a game it is given"
    assert "truco.game" not in graph["truco.persist"], "the save is given the game's class"
    for room in ("truco.table", "truco.names"):
        # truco.quote (how a message quotes a bad input) imports nothing of the engine.
        assert graph[room] <= {"truco.cards", "truco.rules", "truco.names", "truco.quote"}, room
    assert graph["truco.quote"] == set()


def _private_reads(path: Path) -> list[str]:
    """``x._name`` where ``_name`` is not one of this module's own (a function, a class, a
    slot or an attribute it sets on ``self``/``cls``): another module's private field."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            own.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)  # a dataclass field
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                  for t in node.targets):
            own |= {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)}
    return [f"{path.name}:{node.lineno} .{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__") and node.attr not in own]


def test_no_module_reaches_into_another_objects_private_fields(tmp_path):
    """The replay once set ``tmp._score`` and stepped a copy's ``hand_index`` back; the
    rooms talk through public names only."""
    found = [hit for p in sorted(PKG.rglob("*.py")) for hit in _private_reads(p)]
    assert found == []
    old = tmp_path / "replay.py"
    old.write_text("def f(game):\n    tmp = game.copy()\n    tmp._score = [0, 0]\n")
    assert _private_reads(old) == ["replay.py:3 ._score"]
