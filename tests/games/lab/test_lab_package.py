"""The lab is a capability of its own (games/lab): the core imports none of it and names
none of its templates, the simulation stays free of Django (its ruff.toml), the task keeps
the name and the queue it had in the core, and the lab fills the new-game form through the
core's event and panels."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import QueryDict

from games import panels, queue
from witchhunt.celery import app

ROOT = Path(__file__).resolve().parents[3]
# The edges may use a capability: the commands and the benchmarks.
EDGES = ("lab", "management", "benchmarks")
RUFF = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")


def _imports(path):
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = node.module if node.level == 0 else ".".join([*base, node.module or ""])
            module = module.rstrip(".")  # `from .. import lab`: the package itself
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def test_the_core_imports_nothing_of_the_lab():
    found = []
    for path in (ROOT / "games").rglob("*.py"):
        if path.relative_to(ROOT / "games").parts[0] in EDGES:
            continue
        found += [
            (str(path), m) for m in _imports(path) if m == "games.lab" or m.startswith("games.lab.")
        ]
    assert found == []


def test_the_core_templates_name_none_of_the_lab_s():
    found = [
        str(path)
        for path in (ROOT / "templates").rglob("*.html")
        if '"lab/' in path.read_text() or "'lab/" in path.read_text()
    ]
    assert found == []


@pytest.mark.skipif(RUFF is None, reason="ruff is not installed")
@pytest.mark.parametrize(
    "source",
    [
        "import django\n",
        "from django.conf import settings\n",
        "from games.models import Game\n",
        "from games.lab.services import lab_start\n",
    ],
)
def test_the_simulation_lint_refuses_the_site(source):
    result = subprocess.run(
        [RUFF, "check", "--no-cache", "--select", "TID251", "--stdin-filename"]
        + ["games/lab/simulation/example.py", "-"],
        cwd=ROOT,
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1 and "TID251" in result.stdout


def test_the_task_keeps_its_core_name_and_the_lab_queue():
    task = app.tasks["games.tasks.lab_estimate"]
    assert task.run.__module__ == "games.lab.tasks"
    assert app.amqp.router.route({}, task.name)["queue"].name == "lab"


def test_a_suggested_setup_fills_the_new_game_form_through_the_core_s_event():
    initial = queue.refine(queue.NEW_GAME_INITIAL, None, query=QueryDict("suggested=witchhunt-12"))
    assert initial["ruleset"] == "witchhunt" and initial["seats_count"] == 12
    assert queue.refine(queue.NEW_GAME_INITIAL, None, query=QueryDict("suggested=no")) is None
    assert queue.refine(queue.NEW_GAME_INITIAL, None, query=QueryDict("")) is None


def test_the_lab_offers_the_new_game_form_its_panels():
    templates = {}
    for p in panels._providers[panels.NEW_GAME]:
        templates.setdefault(p.slot, []).append(p.template)
    # The list first, then the picked setup's estimate in words (issue 32).
    assert templates["suggestions"] == [
        "lab/_new_game_suggestions.html",
        "lab/_new_game_chosen.html",
    ]
    assert templates["actions"] == ["lab/_new_game_estimate.html"]
