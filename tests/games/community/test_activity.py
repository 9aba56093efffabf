"""Issue 16's activity on the desk (selectors/activity.py): per seat, its player's posts
this phase and in the game, last post, last visit, pending decisions, prods and absence;
the seats waiting for a replacement with their offers; the volunteers. Its query count is
pinned; the post service keeps Seat.last_post_at with one UPDATE."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.community.selectors.activity import desk_activity
from games.community.services import replacements
from games.models import Absence, GameVisit, Post, Prod, Seat
from tests.factories import UserFactory
from tests.games.conftest import CAST, T0, make_game

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
DESK_ACTIVITY_QUERIES = 7  # seats, posts, visits, prods, absences, volunteers, offers


def _rows(activity):
    return {r.player: r for r in activity.seats}


def test_a_post_updates_its_seats_last_post_in_one_statement(cast_game, cast_users):
    with CaptureQueriesContext(connection) as queries:
        post = services.post_create(game=cast_game, user=cast_users["ann"], body="Morning.")
    seat_updates = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "games_seat"')]
    assert len(seat_updates) == 1 and '"last_post_at"' in seat_updates[0]
    assert Seat.objects.get(game=cast_game, name="ann").last_post_at == post.created_at
    # A room's post is no post in the day thread: the prod rule does not count it.
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="Psst.")
    assert Seat.objects.get(game=cast_game, name="bob").last_post_at is None


def test_each_seats_activity_is_its_current_players(traveller, game, cast_users, moderator):
    u = cast_users
    traveller.move_to(T0 + H)
    services.post_create(game=game, user=u["ann"], body="One.")
    traveller.move_to(T0 + 2 * H)
    services.post_create(game=game, user=u["ann"], body="Two.")
    services.post_create(game=game, user=u["bob"], body="Bob's only post.")
    services.vote_cast(game=game, user=u["cat"], target="bob")
    GameVisit.objects.create(user=u["dan"], game=game, visited_at=T0 + 3 * H)
    Absence.objects.create(user=u["eve"], starts_at=T0, ends_at=T0 + 50 * H)
    Prod.objects.create(seat=Seat.objects.get(game=game, name="fay"), user=u["fay"], number=1)
    newby = UserFactory(player_name="Newby")
    services.player_replace(game=game, seat_name="bob", new_user=newby, by=moderator)
    game.refresh_from_db()  # the state as the desk's request reads it
    rows = _rows(desk_activity(game, T0 + 4 * H))
    assert (rows["Ann"].posts, rows["Ann"].posts_phase, rows["Ann"].last_post) == (2, 2, T0 + 2 * H)
    # Bob's post stays with the seat's history, but is not the newcomer's activity.
    assert (rows["Newby"].posts, rows["Newby"].last_post) == (0, None)
    assert rows["Dan"].last_seen == T0 + 3 * H and rows["Ann"].last_seen is None
    assert rows["Eve"].away_until == T0 + 50 * H and rows["Ann"].away_until is None
    assert rows["Fay"].prods == 1
    # The day waits for those with no vote: Cat has voted.
    assert not rows["Cat"].awaited and rows["Ann"].awaited


def test_the_waiting_seats_show_their_offers_and_the_volunteers_their_hours(
    cast_game, cast_users, moderator
):
    vic, wes = UserFactory(player_name="Vic"), UserFactory(player_name="Wes")
    replacements.volunteer_join(user=wes, hours_per_week=3)
    replacements.volunteer_join(user=vic, game=cast_game, hours_per_week=10, note="evenings")
    replacements.leave_ask(game=cast_game, user=cast_users["bob"], note="Busy")
    offer = vic.replacement_offers.get()
    replacements.offer_decline(offer_id=offer.pk, user=vic)
    activity = desk_activity(cast_game, T0)
    (waiting,) = activity.waiting
    assert (waiting.player, waiting.reason) == ("Bob", "asked to leave")
    assert [(name, status) for name, status, _at in waiting.offers] == [
        ("Vic", "Declined"),
        ("Wes", "Open"),
    ]
    assert [(v.player, v.this_game, v.hours_per_week) for v in activity.volunteers] == [
        ("Vic", True, 10),
        ("Wes", False, 3),
    ]
    assert _rows(activity)["Bob"].reason == "asked to leave"


def _count(game):
    with CaptureQueriesContext(connection) as queries:
        desk_activity(game, T0)
    return len(queries)


def test_the_desk_activity_costs_the_same_queries_for_any_game(moderator, cast_game, cast_users):
    """The named cast with one post, and another eight-seat game with 300 posts, visits, prods,
    absences, volunteers and two seats waiting: the same fixed number of queries."""
    users = {n.lower(): UserFactory(player_name=f"{n}x") for n in "ABCDEFGH"}
    cast = [(n.lower(), c, t) for n, (_, c, t) in zip("ABCDEFGH", CAST, strict=True)]
    big = make_game(moderator, users, cast=cast)
    seats = list(big.seats.select_related("user"))
    first = Post.objects.filter(game=big).count()
    Post.objects.bulk_create(
        Post(game=big, number=first + i + 1, kind="player", seat=seats[i % 8],
             author=seats[i % 8].user, body="x", body_html="<p>x</p>", phase="day 1")
        for i in range(300)
    )  # fmt: skip
    for seat in seats:
        GameVisit.objects.create(user=seat.user, game=big, visited_at=T0)
        Absence.objects.create(user=seat.user, starts_at=T0, ends_at=T0 + H)
        Prod.objects.create(seat=seat, user=seat.user, number=1)
    for i in range(5):
        replacements.volunteer_join(user=UserFactory(player_name=f"V{i}"), hours_per_week=2)
    for seat in seats[:2]:
        replacements.replacement_mark(game=big, seat_name=seat.name, by=moderator)
    services.post_create(game=cast_game, user=cast_users["ann"], body="Hello.")
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    assert _count(big) == _count(cast_game) == DESK_ACTIVITY_QUERIES


def test_the_desk_shows_the_activity_to_the_moderator_alone(
    client, cast_game, cast_users, moderator
):
    desk = reverse("game_desk", args=[cast_game.pk])
    client.force_login(moderator)
    page = client.get(desk).content.decode()
    assert "Activity and replacements" in page and "Seek a volunteer" in page
    for outsider in (cast_users["ann"], UserFactory(player_name="Stranger")):
        client.force_login(outsider)
        assert client.get(desk).status_code == 404
