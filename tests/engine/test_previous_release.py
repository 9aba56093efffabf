"""W-76: a revision 2b game plays under this engine exactly as under the release it started
on. Every one of the team's record cases that is not revision 3 (it names "2b", or no
revision) is played by the previous release's engine (tests/previous_release.py) and by
this one: the results must be the same, byte for byte.

This is also why revision 3's clarifications need no branch of their own where the rulings
say no 2b game could tell them apart (W-76): the Paladin's gift after a disbanding removal
(W-51: w51_r2b_*), a Judge's pick naming a player removed since, withdrawn (W-8a's last
sentence: w8a_r2b_judge_*), FORMAT's stray keys (format_r2b_*): the previous release
already played them so. Where this engine's 2b play could be told apart from revision 3's,
2b keeps the previous release's: W-8a's whole lapses (w8a_r2b_*) and W-73a's Pauper who
joins by day after a member died in the same event (w73a_r2b_*: the dead member is still
named and told, as the previous release did)."""

import json
import subprocess
import sys

import pytest

from tests.engine.cases import RECORDS, case_files
from tests.previous_release import previous_release

pytestmark = pytest.mark.slow

# Runs in the previous release's tree: plays each case given, its revision left out (that
# release knew none and read every game as what is now 2b).
PLAY = """
import json, sys
from games.engine import records
out = {}
for path in sys.argv[1:]:
    case = json.load(open(path))
    case.pop("expect", None)
    case.pop("revision", None)
    out[path] = records.play(json.dumps(case))[0]
print(json.dumps(out))
"""


def _revision_2b_cases():
    out = []
    for path in case_files(RECORDS):
        case = json.loads(path.read_text())
        if case.get("revision", "2b") == "2b":
            out.append(path)
    return out


def test_every_revision_2b_case_plays_as_the_previous_release_played_it(tmp_path):
    from games.engine import records

    old = previous_release(tmp_path / "previous")
    paths = _revision_2b_cases()
    assert len(paths) > 300  # the whole collection, not a stray few
    done = subprocess.run(
        [sys.executable, "-P", "-c", PLAY, *map(str, paths)],
        cwd=old,
        env={"PYTHONPATH": str(old), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    before = json.loads(done.stdout)
    differ = []
    for path in paths:
        case = json.loads(path.read_text())
        case.pop("expect", None)
        now = json.loads(records.dumps(records.play(json.dumps(case))[0]))
        if now != before[str(path)]:
            differ.append(path.name)
    assert differ == []
