"""The named cast: a started eight-seat Witchhunt game whose cards everyone knows."""

import threading
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import DatabaseError, connections, transaction

from games import services
from games.models import Game
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


def users_for(cast):
    """A user for each player of `cast`, by lower-case name."""
    return {name.lower(): UserFactory(player_name=name) for name, _, _ in cast}


@pytest.fixture
def cast_users(db):
    return users_for(CAST)


def make_game(
    moderator, users, cast=CAST, ruleset="witchhunt", start=True, *,
    title="The named cast", seed=7, shuffle=False, **kwargs,
):  # fmt: skip
    cards = (
        [{"role": c} for _, c, _ in cast]
        if ruleset == "werewolf"
        else [{"character": c, "type": t} for _, c, t in cast]
    )
    game = services.game_create(
        host=moderator,
        ruleset=ruleset,
        title=title,
        seats_count=len(cast),
        seed=seed,
        deal={"mode": "explicit", "cards": cards, "shuffle": shuffle},
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


# --- fixtures for the pages (tests/games/test_views.py, test_leaks.py, test_queries.py) ----
@pytest.fixture
def host(moderator):
    """The named cast's moderator, allowed to host games (the games.add_game permission)."""
    from django.contrib.auth.models import Permission

    permission = Permission.objects.get(content_type__app_label="games", codename="add_game")
    moderator.user_permissions.add(permission)
    # has_perm caches permissions on the instance: a fresh copy sees the new one.
    return type(moderator).objects.get(pk=moderator.pk)


COURT_CAST = [  # player name, character, type: a King's Court forms on Night 1
    ("Ann", "king", "holy_villager"),
    ("Bob", "judge", "elder_witch"),
    ("Cat", "oracle", "village_spy"),
    ("Dan", "gravedigger", "basic_villager"),
    ("Eve", "queen", "basic_villager"),
    ("Fay", "cupid", "village_lover"),
    ("Gus", "harlot", "village_lover"),
    ("Hal", "wizard", "junior_witch"),
    ("Ivy", "inquisitor", "basic_villager"),
    ("Jon", "survivalist", "basic_villager"),
]


@pytest.fixture
def court_users(db):
    return {name.lower(): UserFactory(player_name=name) for name, _, _ in COURT_CAST}


@pytest.fixture
def court_game(moderator, court_users):
    """Day 2 of a ten-seat game whose characters in play are secret (public_setup off).

    Night 1: Ann the King adds Ivy to his Court (with Eve the Queen: Ann, Eve, Ivy); Bob,
    the only Elder, has the Coven kill Jon, who survives on the Survivalist's extra life;
    Ivy the Inquisitor checks Ann (a Holy Villager); Cupid (Fay) is protected and learns
    the Lovers, and Gus the Harlot learns that Fay was protected. Hal is a Junior who has
    not joined the Coven. On Day 2, Dan votes for Bob and Ann posts."""
    game = make_game(moderator, court_users, cast=COURT_CAST, options={"public_setup": False})
    services.phase_advance(game=game, by=moderator)
    game.refresh_from_db()
    u = court_users
    services.action_submit(game=game, user=u["ann"], action="ability", targets=["ivy"])
    services.action_submit(game=game, user=u["bob"], action="coven", target="jon")
    services.action_submit(game=game, user=u["ivy"], action="ability", targets=["ann"])
    services.phase_advance(game=game, by=moderator)
    game.refresh_from_db()
    assert game.phase == "day 2"
    services.vote_cast(game=game, user=u["dan"], target="bob")
    services.post_create(game=game, user=u["ann"], body="Good morning, village.")
    return game


T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)  # a Monday: Day 1 ends Thu 5 Mar, 18:00 UTC


@pytest.fixture
def traveller():
    """Time frozen at T0; `traveller.move_to(when)` jumps."""
    with time_machine.travel(T0, tick=False) as t:
        yield t


@pytest.fixture
def game(traveller, moderator, cast_users):
    """The named cast's game, started at T0: Day 1 ends at T0 + 72 h."""
    return make_game(moderator, cast_users)


def forget_start_notices():
    """The start's sign-up notices ("your cards are on your role page", issue 16) dropped,
    for tests that count the notifications of posts and votes alone."""
    from django.contrib.auth import get_user_model

    from games.models import Notification

    Notification.objects.filter(kind=Notification.Kind.SIGNUP).delete()
    get_user_model().objects.update(notifications_unread=0)


def row_lock_free(pk) -> bool:
    """Whether another connection can lock game `pk`'s row now, without waiting
    (PostgreSQL; the rows must be committed: a `transaction=True` test)."""
    out = []

    def probe():
        try:
            with transaction.atomic():
                Game.objects.select_for_update(nowait=True).get(pk=pk)
            out.append(True)
        except DatabaseError:
            out.append(False)
        finally:
            connections.close_all()

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return out[0]
