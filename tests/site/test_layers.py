"""The import layers of docs/architecture.md hold: ruff's banned-api rules (the ruff.toml
files under games/) pass on the tree and fail on each kind of break."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUFF = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")

pytestmark = pytest.mark.skipif(RUFF is None, reason="ruff is not installed")


def _ruff(*args, stdin=None):
    return subprocess.run(
        [RUFF, "check", "--no-cache", "--select", "TID251", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_tree_keeps_its_import_layers():
    result = _ruff("games")
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("games/views/example.py", "from games.mapping import engine_state\n"),
        ("games/views/example.py", "from ..mapping import engine_state\n"),
        ("games/templatetags/example.py", "from games import mapping\n"),
        ("games/templatetags/example.py", "from games.services.clock import MOVE_MAX\n"),
        ("games/templatetags/example.py", "from django.db.models import Q\n"),
        ("games/forms_example.py", "from games.mapping import game_record\n"),
        ("games/views/example.py", "from games.engine.rulesets.witchhunt.cards import TYPES\n"),
        ("games/views/example.py", "from ..engine.options import options_for\n"),
        ("games/templatetags/example.py", "from games.engine import votes\n"),
        ("games/forms_example.py", "import games.engine.inputs\n"),
        ("games/services/example.py", "from games import tasks\n"),
        ("games/services/example.py", "from ..tasks import game_role_emails\n"),
        ("games/engine/example.py", "from django.db import models\n"),
        ("games/engine/rulesets/example.py", "import django\n"),
        ("games/selectors/example.py", "from games.services import vote_cast\n"),
        ("games/narration/example.py", "from games.models import Game\n"),
    ],
)
def test_a_layer_break_fails_the_lint(path, source):
    result = _ruff("--stdin-filename", path, "-", stdin=source)
    assert result.returncode == 1
    assert "TID251" in result.stdout


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("games/selectors/example.py", "from ..mapping import engine_state\n"),
        ("games/services/example.py", "from games.mapping import engine_state\n"),
        ("games/views/example.py", "from games.selectors import game_page\n"),
        ("games/templatetags/example.py", "from games.selectors import early_end_panel\n"),
        ("games/views/example.py", "from games.engine import TYPES, Phase, options_for\n"),
        ("games/forms_example.py", "from games.engine import GameRuleError, records\n"),
    ],
)
def test_an_allowed_import_passes_the_lint(path, source):
    result = _ruff("--stdin-filename", path, "-", stdin=source)
    assert result.returncode == 0, result.stdout


# --- the core and its capabilities (docs/architecture.md) -------------------------------------
CAPABILITIES = (
    "fair_deal", "lab", "reading", "community", "archive", "leaving", "calendar", "webhooks",
    "push", "anonymous", "viewer", "spectators", "reports",
)
CORE = (
    "games/services/example.py",
    "games/selectors/example.py",
    "games/narration/example.py",
    "games/views/example.py",
    "games/templatetags/example.py",
    "games/engine/example.py",
    "games/example.py",  # models, mapping, permissions, queue, panels, tasks, admin, forms
)


@pytest.mark.parametrize("capability", CAPABILITIES)
@pytest.mark.parametrize("path", CORE)
def test_the_core_importing_a_capability_fails_the_lint(path, capability):
    for source in (
        f"from games.{capability} import apps\n",
        f"import games.{capability}.urls\n",
    ):
        result = _ruff("--stdin-filename", path, "-", stdin=source)
        assert result.returncode == 1, (path, source)
        assert "the core never imports a capability" in result.stdout


def test_a_capability_importing_another_fails_the_lint():
    for one in CAPABILITIES:
        for other in CAPABILITIES:
            if other == one:
                continue
            result = _ruff(
                "--stdin-filename", f"games/{one}/example.py", "-",
                stdin=f"from games.{other} import apps\n",
            )  # fmt: skip
            assert result.returncode == 1, (one, other)
            assert "a capability never imports another" in result.stdout


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("games/reading/example.py", "from games.services.posts import post_create\n"),
        ("games/community/example.py", "from games import panels, queue\n"),
        ("games/lab/example.py", "from games.lab.simulation.setups import SUGGESTED\n"),
        ("games/benchmarks/example.py", "from games.reading.services import read_state\n"),
        ("games/management/commands/example.py", "from games.lab import services\n"),
    ],
)
def test_capabilities_may_use_the_core_and_edges_may_use_both(path, source):
    result = _ruff("--stdin-filename", path, "-", stdin=source)
    assert result.returncode == 0, result.stdout


def test_the_tree_has_no_import_from_the_core_to_a_capability():
    """The lint's word checked on the files themselves, as a second look: no core module
    names a capability (the edges, benchmarks and commands, may)."""
    games = ROOT / "games"
    offenders = []
    for path in games.rglob("*.py"):
        part = path.relative_to(games).parts[0]
        if part in (*CAPABILITIES, "benchmarks", "management", "migrations"):
            continue
        text = path.read_text()
        offenders += [
            f"{path.relative_to(ROOT)}: {name}"
            for name in CAPABILITIES
            if re.search(rf"^\s*(from|import)\s+(games\.|\.+){name}\b", text, re.M)
        ]
    assert offenders == []
