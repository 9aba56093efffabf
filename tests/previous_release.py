"""The previous release's code, for the tests that prove an upgrade changes nothing a
running game has announced (tests/games/test_upgrade_midgame.py,
tests/engine/test_previous_release.py).

PREVIOUS is the last commit before rulings revision 3 (28c2d0f introduced it): the code a
site ran while its revision 2b games started. It is taken from this repository's history,
so a clone needs its full history (CI's has it); without git or the commit the tests fail
in words, never skip."""

import shutil
import subprocess
from pathlib import Path

import pytest

PREVIOUS = "104394f"
ROOT = Path(__file__).resolve().parents[1]


def previous_release(into: Path) -> Path:
    """The previous release's tree, extracted into the new folder `into`."""
    git = shutil.which("git")
    if git is None:
        pytest.fail("the upgrade tests need git to take the previous release's code")
    found = subprocess.run(
        [git, "-C", str(ROOT), "cat-file", "-e", f"{PREVIOUS}^{{commit}}"], capture_output=True
    )
    if found.returncode != 0:
        pytest.fail(
            f"commit {PREVIOUS} (the previous release) is not in {ROOT}'s history: "
            "clone the repository with its full history (not --depth)"
        )
    into.mkdir()
    archive = subprocess.run(
        [git, "-C", str(ROOT), "archive", "--format=tar", PREVIOUS],
        capture_output=True,
        check=True,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into
