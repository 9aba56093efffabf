"""A finished game for the viewer's tests: the afterlife cast (tests/games/afterlife_cast.py)
played to Day 3, where Gus is replaced, then a vote and a stalemate end it (W-72).

Each act happens a minute after the one before (`at(k)`), so a test can say which act a
viewer step's moment belongs to."""

from datetime import timedelta

import time_machine

from games import services
from tests.games.afterlife_cast import afterlife_users, play_to_day_3
from tests.games.conftest import T0

DAY3_POST = "Day-three-word-8815"


def at(k):
    return T0 + timedelta(minutes=k)


def finish(moderator, users):
    """The afterlife cast's game, finished: returns it."""
    with time_machine.travel(at(0), tick=False):
        game, newcomer = play_to_day_3(moderator, users)
        services.post_create(game=game, user=newcomer, body=f"{DAY3_POST}: I am new here.")
        services.vote_cast(game=game, user=users["cat"], target="hal")
        services.stalemate_declare(game=game, by=moderator)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


__all__ = ["afterlife_users", "finish"]
