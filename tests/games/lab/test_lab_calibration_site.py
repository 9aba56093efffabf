"""`lab_calibrate --site-games` (issue 32): the calibration's test games played again on
the site as finished games of their own, input by input through the services, so that the
estimate's page reads them as the site's games of the setup. SQLite, and PostgreSQL with
DATABASE_URL set."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.engine import records
from games.lab.selectors import lab_observed
from games.lab.services import lab_store
from games.lab.services.calibration import bot_steps, calibration_members
from games.lab.simulation.estimate import simulate
from games.lab.simulation.setups import find_suggested
from games.mapping import game_record
from games.models import Game

WITCHHUNT_8 = find_suggested("witchhunt-8")
WEREWOLF_8 = find_suggested("werewolf-8")


@pytest.mark.slow
@pytest.mark.django_db
def test_the_test_games_become_finished_site_games_the_page_reads(client):
    out = StringIO()
    args = ("witchhunt-8", "werewolf-8", "--games", "10", "--observed", "4", "--workers", "1")
    call_command("lab_calibrate", *args, "--site-games", stdout=out)
    rows = [line for line in out.getvalue().splitlines() if line.startswith("| w")]
    for setup, row in zip((WITCHHUNT_8, WEREWOLF_8), rows, strict=True):
        played = Game.objects.filter(title__startswith=f"Lab calibration: {setup.slug()} #")
        assert played.count() >= 3  # of 4: a game the bots did not finish is left out
        assert {g.status for g in played} == {Game.Status.FINISHED}
        seen = lab_observed(setup)
        assert seen.games == played.count()
        assert f"{seen.wins} of {seen.games}: " in row
        for game in played:  # each is a whole game: its record replays to its result
            result, _ = records.play(records.dumps(game_record(game)))
            assert result["final"]["winner"] == game.winner and not result["refused"]

    # Played once: the command again adds no game.
    before = Game.objects.count()
    call_command("lab_calibrate", *args, "--site-games", stdout=StringIO())
    assert Game.objects.count() == before

    lab_store(setup=WITCHHUNT_8, estimate=simulate(WITCHHUNT_8, games=10, seed=1))
    html = client.get(reverse("lab_result", kwargs={"key": WITCHHUNT_8.key()})).content.decode()
    seen = lab_observed(WITCHHUNT_8)
    assert re.search(
        rf"{seen.games} finished games on this site: the Village won {seen.wins} ", html
    )


@pytest.mark.django_db
def test_the_bots_play_the_game_the_site_dealt_and_their_inputs_are_recorded():
    from games.deal import deal_cards
    from games.engine import CURRENT_REVISION

    _, players = calibration_members(8)
    names = [u.player_key for u in players]
    record = {
        "ruleset": "werewolf",
        "revision": CURRENT_REVISION,
        "seed": 3,
        "options": dict(WEREWOLF_8.options),
        **deal_cards("werewolf", WEREWOLF_8.deal, names, 3),
    }
    game, steps = bot_steps(record, "typical")
    assert game.over and steps
    assert {s["actor"] for s in steps if "actor" in s} <= set(names)
    replayed, _ = records.play(records.dumps({**record, "steps": steps}))
    assert replayed["final"]["winner"] == game.winner and not replayed["refused"]
