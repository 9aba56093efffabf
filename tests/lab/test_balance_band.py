"""`manage.py balance`'s skill and band (issue 32): each team's share for bots of a chosen
skill with its 95% interval, and the Village's share from careless to sharp play beside
it (`estimate.Band`)."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.lab.simulation.estimate import Band, Estimate, TeamRate, simulate
from games.lab.simulation.report import size_table
from games.lab.simulation.setups import suggested

WEREWOLF_8 = suggested("werewolf", 8)


def run(*args):
    out = StringIO()
    call_command("balance", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def village(estimate):
    return next(t.share for t in estimate.teams if t.team == "village")


def test_balance_prints_the_band_of_careless_to_sharp_play_beside_the_estimate():
    out = run("werewolf-8", "--games", "30", "--seed", "3", "--sizes", "none", "--workers", "1")
    assert out.splitlines()[0].endswith("; typical bots")
    careless, sharp = (
        simulate(WEREWOLF_8, games=30, seed=3, skill=s) for s in ("careless", "sharp")
    )
    line = next(x for x in out.splitlines() if x.startswith("Careless to sharp play: "))
    assert line == (
        f"Careless to sharp play: Village {100 * village(careless):.1f}% (careless) to "
        f"{100 * village(sharp):.1f}% (sharp)"
    )
    assert "Careless to sharp" not in run(
        "werewolf-8", "--games", "30", "--sizes", "none", "--workers", "1", "--no-band"
    )


def test_balance_plays_the_skill_asked_for():
    out = run(
        "werewolf-8", "--games", "30", "--seed", "3", "--sizes", "none", "--workers", "1",
        "--skill", "random", "--no-band",
    )  # fmt: skip
    assert out.splitlines()[0].endswith("; random bots")
    played = simulate(WEREWOLF_8, games=30, seed=3, skill="random")
    row = next(x for x in out.splitlines() if x.startswith("Village "))
    assert row.split()[1] == str(played.teams[0].wins)
    with pytest.raises(CommandError):
        run("werewolf-8", "--skill", "expert")
    with pytest.raises(CommandError, match="typical play's estimate only"):
        run("werewolf-8", "--games", "5", "--sizes", "none", "--skill", "sharp", "--store")
    with pytest.raises(ValueError, match="no skill"):
        simulate(WEREWOLF_8, games=1, seed=1, skill="expert")


@pytest.mark.slow
def test_balance_suggested_prints_the_band_column():
    out = run("--suggested", "--games", "2", "--workers", "1")
    heads = [x for x in out.splitlines() if x.startswith("| Seats")]
    assert len(heads) == 2 and all(
        h.rstrip("| ").endswith("Village: careless / sharp") for h in heads
    )
    rows = [x for x in out.splitlines() if re.match(r"\| \d+ ", x)]
    assert len(rows) == 10 and all(re.search(r"\| \d+\.\d% / \d+\.\d% +\|$", r) for r in rows)
    plain = run("--suggested", "--games", "1", "--workers", "1", "--no-band")
    assert "careless" not in plain


def _estimate(share):
    teams = [TeamRate("village", 0, share, 0.0, 1.0), TeamRate("witches", 0, 1 - share, 0, 1)]
    return Estimate("k", 100, teams, 3.0)


def test_a_band_is_the_village_share_at_the_two_ends_of_skill():
    band = Band.of(_estimate(0.47), _estimate(0.55), _estimate(0.38))
    assert (band.team, band.typical, band.careless, band.sharp) == ("village", 0.47, 0.55, 0.38)
    assert (band.low, band.high) == (0.38, 0.55)  # either end may be the higher
    kept = {"careless": _estimate(0.38).as_dict(), "sharp": _estimate(0.55).as_dict()}
    assert Band.from_job(kept) == Band("village", None, 0.38, 0.55)
    assert Band.from_job({}) is None and Band.from_job({"careless": kept["careless"]}) is None
    assert Band.of(None, _estimate(0.3), _estimate(0.4), "witches").low == pytest.approx(0.6)
    lines = size_table([(8, _estimate(0.47))], "witchhunt", [band])
    assert lines[0].split("|")[-2].strip() == "Village: careless / sharp"
    assert lines[2].split("|")[-2].strip() == "55.0% / 38.0%"  # careless, then sharp
