"""The named cast: a started eight-seat Witchhunt game whose cards everyone knows."""

import pytest

from games import services
from tests.factories import UserFactory

CAST = [  # player name, character, type
    ("Ann", "priest", "holy_villager"),
    ("Bob", "judge", "elder_witch"),
    ("Cat", "spy_placeholder", "village_spy"),
    ("Dan", "gravedigger", "basic_villager"),
    ("Eve", "inquisitor", "basic_villager"),
    ("Fay", "cupid", "village_lover"),
    ("Gus", "harlot", "village_lover"),
    ("Hal", "wizard", "junior_witch"),
]
CAST[2] = ("Cat", "oracle", "village_spy")


@pytest.fixture
def moderator(db):
    return UserFactory(player_name="Mod", is_staff=False)


@pytest.fixture
def cast_users(db):
    return {name.lower(): UserFactory(player_name=name) for name, _, _ in CAST}


def make_game(moderator, users, cast=CAST, ruleset="witchhunt", start=True, **kwargs):
    cards = (
        [{"role": c} for _, c, _ in cast]
        if ruleset == "werewolf"
        else [{"character": c, "type": t} for _, c, t in cast]
    )
    game = services.game_create(
        host=moderator,
        ruleset=ruleset,
        title="The named cast",
        seats_count=len(cast),
        seed=7,
        deal={"mode": "explicit", "cards": cards, "shuffle": False},
        **kwargs,
    )
    for name, _, _ in cast:
        services.game_join(game=game, user=users[name.lower()])
    if start:
        game = services.game_start(game=game, by=moderator)
    return game


@pytest.fixture
def cast_game(moderator, cast_users):
    """Day 1 of the named cast's game: Ann the Priest, Bob an Elder (Judge), Cat a Spy,
    Dan the Gravedigger, Eve the Inquisitor, Fay and Gus Lovers, Hal a Junior (Wizard)."""
    return make_game(moderator, cast_users)
