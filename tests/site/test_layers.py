"""The import layers of docs/architecture.md hold: ruff's banned-api rules (the ruff.toml
files under games/) pass on the tree and fail on each kind of break."""

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
        ("games/views/example.py", "from games.engine import TYPES, Phase, options_for\n"),
        ("games/forms_example.py", "from games.engine import GameRuleError, records\n"),
    ],
)
def test_an_allowed_import_passes_the_lint(path, source):
    result = _ruff("--stdin-filename", path, "-", stdin=source)
    assert result.returncode == 0, result.stdout
