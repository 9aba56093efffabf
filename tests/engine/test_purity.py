"""games/engine is pure Python: no Django import anywhere in it (house style)."""

import ast

from tests.engine_source import ENGINE


def _imports(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_engine_imports_no_django():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    offenders = {
        str(f.relative_to(ENGINE)): m
        for f in files
        for m in _imports(f)
        if m == "django" or m.startswith("django.")
    }
    assert offenders == {}


def test_engine_uses_no_global_random():
    """Randomness comes from a seeded random.Random, never the module's global state."""
    for f in ENGINE.rglob("*.py"):
        text = f.read_text()
        for call in ("random.choice(", "random.random(", "random.shuffle(", "random.randint("):
            assert call not in text, f"{f.name} uses {call}"
