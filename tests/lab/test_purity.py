"""The lab's simulation is pure Python, like the engine: its games run in worker
processes and in Celery without Django (the web page's modules beside it may use it)."""

import ast
from pathlib import Path

LAB = Path(__file__).resolve().parents[2] / "games" / "lab" / "simulation"
PURE = (
    *("bots", "chart", "estimate", "parallel", "play"),
    *("report", "scaling", "setups", "town", "view"),
)


def _imports(path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_the_simulation_imports_no_django_and_no_stored_game():
    for name in PURE:
        imports = set(_imports(LAB / f"{name}.py"))
        assert not {m for m in imports if m.split(".")[0] == "django"}, name
        assert not imports & {"games.models", "games.mapping", "games.services"}, name


def test_the_simulation_uses_no_global_random():
    for name in PURE:
        text = (LAB / f"{name}.py").read_text()
        for call in ("random.choice(", "random.random(", "random.shuffle(", "random.sample("):
            assert call not in text, f"{name} uses {call}"
