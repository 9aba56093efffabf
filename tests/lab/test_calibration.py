"""The calibration (issue 32): seeded test games, each by bots of a skill drawn for it,
set beside the estimate for typical play and its band; `manage.py lab_calibrate`'s table."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.lab.simulation.calibration import (
    OBSERVED_SEED_OFFSET,
    Calibration,
    calibrate,
    drawn_skill,
    observed_games,
)
from games.lab.simulation.estimate import Band, TeamRate
from games.lab.simulation.play import play_one
from games.lab.simulation.setups import suggested
from games.lab.simulation.skills import SKILLS

WEREWOLF_8 = suggested("werewolf", 8)


def test_each_test_game_has_a_skill_of_its_own_drawn_from_its_seed():
    drawn = [drawn_skill(5, i) for i in range(60)]
    assert drawn == [drawn_skill(5, i) for i in range(60)]
    assert set(Counter(drawn)) == set(SKILLS)
    assert drawn != [drawn_skill(6, i) for i in range(60)]


def test_the_test_games_are_played_each_by_its_drawn_skill():
    seen = observed_games(WEREWOLF_8, 9, 12)
    played = Counter(play_one(WEREWOLF_8, 9, i, skill=drawn_skill(9, i))[0] for i in range(12))
    assert seen.games == 12
    assert {t.team: t.wins for t in seen.teams if t.wins} == dict(played)


def test_a_calibration_row_is_inside_when_its_interval_meets_the_answer():
    def row(low, high):
        typical = TeamRate("village", 0, 0.47, 0.44, 0.50)
        return Calibration(
            WEREWOLF_8,
            typical,
            Band("village", 0.47, 0.38, 0.55),
            TeamRate("village", 0, 0, low, high),
            9,
        )

    assert row(0.30, 0.40).inside and row(0.54, 0.70).inside and row(0.45, 0.46).inside
    assert not row(0.20, 0.37).inside and not row(0.56, 0.90).inside


def test_calibrate_plays_the_estimate_and_other_games_beside_it():
    found = calibrate(WEREWOLF_8, games=20, observed=15, seed=2)
    assert found.games == 15
    seen = observed_games(WEREWOLF_8, 2 + OBSERVED_SEED_OFFSET, 15)
    assert found.observed == next(t for t in seen.teams if t.team == "village")


@pytest.mark.slow
def test_lab_calibrate_prints_the_table_for_the_docs():
    out = StringIO()
    call_command(
        "lab_calibrate", "werewolf-8", "witchhunt-8", "--games", "20", "--observed", "15",
        "--workers", "1", stdout=out,
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Calibration (20 games an estimate, seed 1; 15 test games")
    assert [c.strip() for c in lines[1].split("|")[1:-1]] == [
        "Setup",
        "Estimate (typical, 95% interval)",
        "Band (careless / sharp)",
        "Observed in test games (95% interval)",
        "Inside?",
    ]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in lines[3:]]
    assert [r[0] for r in rows] == ["werewolf-8", "witchhunt-8"]
    assert all(r[3].split(":")[0].endswith(" of 15") and r[4] in ("yes", "no") for r in rows)
    with pytest.raises(CommandError, match="no suggested setup"):
        call_command("lab_calibrate", "werewolf-9", stdout=StringIO())
