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
from games.lab.simulation.estimate import Band, TeamRate, simulate
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


def test_a_calibration_row_agrees_when_the_test_games_meet_the_mix_expected():
    """Each test game's skill is drawn evenly from the three, so the lab predicts the mean
    of its three estimates; a row agrees when the test games' share is within 1.96
    standard errors of both samplings of it."""

    def row(wins, games=400, expected=0.40, expected_se=0.01):
        share = wins / games
        return Calibration(
            WEREWOLF_8,
            TeamRate("village", 0, 0.47, 0.44, 0.50),
            Band("village", 0.47, 0.38, 0.35),
            TeamRate("village", wins, share, 0.0, 1.0),
            games,
            expected,
            expected_se,
        )

    # 400 games at 40%: a standard error of sqrt(.24/400 + .0001) = 0.0265, so 1.96 of it
    # is 0.052 either side of 40%.
    assert row(160).inside and row(181).inside and row(140).inside
    assert not row(182).inside and not row(138).inside
    # The typical estimate alone is not the prediction: 47% is far from this mix.
    assert not row(188).inside


def test_calibrate_predicts_the_mean_of_the_three_skills():
    found = calibrate(WEREWOLF_8, games=20, observed=15, seed=2)
    shares = [
        next(t.share for t in simulate(WEREWOLF_8, games=20, seed=2, skill=s).teams
             if t.team == "village")
        for s in ("careless", "typical", "sharp")
    ]  # fmt: skip
    assert found.expected == pytest.approx(sum(shares) / 3)
    assert found.expected_se > 0


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
        "Expected for the mix",
        "Observed in test games (95% interval)",
        "Agrees?",
    ]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in lines[3:]]
    assert [r[0] for r in rows] == ["werewolf-8", "witchhunt-8"]
    assert all(r[4].split(":")[0].endswith(" of 15") and r[5] in ("yes", "no") for r in rows)
    with pytest.raises(CommandError, match="no suggested setup"):
        call_command("lab_calibrate", "werewolf-9", stdout=StringIO())
