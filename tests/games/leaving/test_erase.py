"""Deleting an account (issue 27, games/leaving): nothing of the member's remains but the
anonymised game history; their running seat is offered to the replacement list; a host's
running games go on under the site's moderators; refusals are in words and change
nothing; an admin can do the same."""

import re
from datetime import date

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.db import connection
from django.urls import reverse

from games import services
from games.community.services import absences, replacements
from games.leaving.services import member_erase
from games.mapping import game_record
from games.models import Game, Notification, Post, ReplacementOffer, Seat
from games.permissions import can_moderate
from games.reading.services.notes import note_save
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games import said
from tests.games.conftest import make_game
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db

NOTE = "Bob-note-secret-4411"
ABSENCE = "Absence-note-7788"
VOLUNTEER = "Volunteer-note-9922"
CONFIRM = {"confirmation": "Delete my account", "password": DEFAULT_PASSWORD}


@pytest.fixture
def eager_tasks():
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


@pytest.fixture
def ann_everywhere(game, cast_users, client):
    """Ann, signed in, in Day 1 of the named cast's game: a post, a vote, a note on Bob, an
    absence, a place on the replacement list, Bob's mention of her, the game page read.
    Vic is on the list for the game."""
    ann, bob = cast_users["ann"], cast_users["bob"]
    services.post_create(game=game, user=ann, body="I am the village's best hope.")
    services.post_create(game=game, user=bob, body="@Ann what do you mean?")
    services.vote_cast(game=game, user=ann, target="bob")
    note_save(game=game, user=ann, seat="bob", read="scum", text=NOTE, shared=False)
    absences.absence_declare(user=ann, first_day=date(2026, 4, 1), last_day=date(2026, 4, 3),
                             note=ABSENCE)  # fmt: skip
    replacements.volunteer_join(user=ann, hours_per_week=4, note=VOLUNTEER)
    replacements.volunteer_join(user=UserFactory(player_name="Vic"), game=game, hours_per_week=9)
    client.force_login(ann)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200
    return ann


def _text_columns():
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.concrete_fields:
            if field.get_internal_type() in ("CharField", "TextField", "EmailField",
                                             "JSONField", "SlugField"):  # fmt: skip
                yield model, field


def found_anywhere(pattern: re.Pattern, like: str) -> list:
    """Every (table, column, row id) whose text matches `pattern`, in every model's table."""
    found = []
    with connection.cursor() as cursor:
        for model, field in _text_columns():
            table, column = model._meta.db_table, field.column
            pk = model._meta.pk.column
            cursor.execute(
                # Portable SQL: the fast lane runs on SQLite, CI on PostgreSQL.
                f'SELECT "{pk}", CAST("{column}" AS TEXT) FROM "{table}" '
                f'WHERE UPPER(CAST("{column}" AS TEXT)) LIKE UPPER(%s)',
                [f"%{like}%"],
            )
            found += [
                (table, column, row) for row, text in cursor.fetchall() if pattern.search(text)
            ]
    return found


def test_deleting_an_account_leaves_nothing_of_theirs_but_the_anonymised_history(
    client, game, cast_users, ann_everywhere, eager_tasks, django_capture_on_commit_callbacks
):
    ann = ann_everywhere
    record = game_record(game)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("member_leave"), CONFIRM)
    assert response.status_code == 302 and response.url == reverse("member_left")

    # The address, the notes' texts: nowhere, in any table.
    for secret in ("ann@example.com", NOTE, ABSENCE, VOLUNTEER):
        assert found_anywhere(re.compile(re.escape(secret), re.I), secret) == [], secret
    # The name, as it was shown: only in the words of Bob's post that named her (a forum
    # keeps the words) and the notification that post sent him, never her own.
    bob_post = Post.objects.get(author=cast_users["bob"], kind=Post.Kind.PLAYER)
    assert {(t, c) for t, c, _ in found_anywhere(re.compile(r"\bAnn\b"), "Ann")} <= {
        ("games_post", "body"), ("games_post", "body_html")}  # fmt: skip
    assert {row for _, _, row in found_anywhere(re.compile(r"\bAnn\b"), "Ann")} == {bob_post.pk}
    # The seat's label, sealed in the deal's published commitment (games/fair_deal), stays
    # in the game's record: the seat, its inputs and events, and the links to the seat.
    # (Bob's mention links to it: his words.) A site post's stored meaning keys its events
    # and names by seat, as the events do (games/narration/said.py). Nowhere else.
    label = found_anywhere(re.compile(r"\bann\b"), "ann")
    assert {(t, c) for t, c, _ in label} == {
        ("games_seat", "name"), ("games_gameinput", "step"), ("games_gameevent", "data"),
        ("games_post", "body_html"), ("games_post", "words")}  # fmt: skip
    assert {row for t, c, row in label if t == "games_post" and c != "words"} == {bob_post.pk}
    said_in = {row for t, c, row in label if (t, c) == ("games_post", "words")}
    assert set(Post.objects.filter(pk__in=said_in).values_list("kind", flat=True)) == {"system"}

    former = get_user_model().objects.get(pk=ann.pk)
    assert former.player_name == "a former member" and not former.is_active
    assert not former.has_usable_password() and former.left_at is not None
    assert not EmailAddress.objects.filter(user=former).exists()
    assert not Notification.objects.filter(user=former).exists()
    key = str(ann.pk)
    assert not [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == key]
    # Signed out here, and nobody signs in again; the address may sign up anew.
    assert not client.get(reverse("profile")).status_code == 200
    assert not client.login(email="ann@example.com", password=DEFAULT_PASSWORD)
    UserFactory(player_name="Ann", email="ann@example.com")
    # The record is whole: the same inputs, seats and outcome as before.
    assert game_record(game) == record
    # A last email, to the address she had.
    assert [m.subject for m in mail.outbox if m.to == ["ann@example.com"]] == [
        "Your Witchhunt account is deleted"
    ]


def test_a_leaving_players_running_seat_goes_to_the_replacement_list(
    client, game, ann_everywhere, moderator
):
    client.post(reverse("member_leave"), CONFIRM)
    seat = Seat.objects.get(game=game, name="ann")
    assert seat.replacement_wanted_at is not None
    assert ReplacementOffer.objects.filter(seat=seat, user__player_name="Vic").exists()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.paused_at is None
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "A replacement is wanted for a former member." in page
    assert "a former member" in page and not re.search(r">Ann<", page)
    # The moderator is told, in-site.
    assert Notification.objects.filter(user=moderator, kind="replacement").exists()


def test_a_leaving_player_leaves_the_open_games_and_cancels_those_they_host(cast_users):
    ann = cast_users["ann"]
    joined = make_game(UserFactory(player_name="Host2"), cast_users, start=False, title="Joined")
    own = services.game_create(host=ann, ruleset="witchhunt", title="Ann's open game",
                               seats_count=8, seed=1, deal=joined.deal)  # fmt: skip
    member_erase(user=ann, by=ann)
    assert not Seat.objects.filter(game=joined, user=ann).exists()
    assert Seat.objects.filter(game=joined).count() == 7
    assert not Game.objects.filter(pk=own.pk).exists()


def test_a_host_with_a_running_game_is_refused_without_a_site_moderator(client, game, moderator):
    client.force_login(moderator)
    page = client.get(reverse("member_leave")).content.decode()
    assert "no other moderator to take it over" in page
    response = client.post(reverse("member_leave"), {**CONFIRM})
    assert response.status_code == 400
    assert "no other moderator" in response.content.decode()
    moderator.refresh_from_db()
    assert moderator.is_active and moderator.left_at is None


def test_a_hosts_running_game_goes_on_under_the_site_moderators(client, game, moderator):
    admin = UserFactory(player_name="Admin", is_superuser=True, is_staff=True)
    client.force_login(moderator)
    page = client.get(reverse("member_leave")).content.decode()
    assert "go on under the site's moderators" in page
    assert client.post(reverse("member_leave"), CONFIRM).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and can_moderate(game, admin)
    last = Post.objects.filter(game=game).order_by("-number").first()
    assert "The host of The named cast has left the site" in said.text(last)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"confirmation": "delete it", "password": DEFAULT_PASSWORD}, "Type “delete my account”"),
        ({"confirmation": "delete my account", "password": "wrong"}, "not your password"),
    ],
)
def test_a_wrong_confirmation_is_refused_in_words_and_deletes_nothing(
    client, ann_everywhere, fields, words
):
    response = client.post(reverse("member_leave"), fields)
    assert response.status_code == 400 and words in response.content.decode()
    ann = get_user_model().objects.get(pk=ann_everywhere.pk)
    assert ann.is_active and ann.email == "ann@example.com" and ann.player_name == "Ann"
    assert client.get(reverse("profile")).status_code == 200  # still signed in


def test_an_erased_members_profile_is_gone(client, game, ann_everywhere):
    assert client.get(reverse("player_profile", args=["ann"])).status_code == 200
    client.post(reverse("member_leave"), CONFIRM)
    assert client.get(reverse("player_profile", args=["ann"])).status_code == 404
    key = f"former-member-{ann_everywhere.pk}"
    assert client.get(reverse("player_profile", args=[key])).status_code == 404


def test_an_admin_deletes_a_members_account_from_the_admin(client, game, ann_everywhere):
    admin = UserFactory(player_name="Admin", is_superuser=True, is_staff=True)
    client.force_login(admin)
    url = reverse("admin:accounts_user_changelist")
    chosen = {"action": "member_erase_action", "_selected_action": [ann_everywhere.pk]}
    page = client.post(url, chosen)
    assert page.status_code == 200 and "Delete these members" in page.content.decode()
    refused = client.post(url, {**chosen, "erase": "1", "confirmation": "yes"})
    assert "Type “delete” to confirm" in refused.content.decode()
    assert get_user_model().objects.get(pk=ann_everywhere.pk).is_active
    client.post(url, {**chosen, "erase": "1", "confirmation": "delete"})
    ann = get_user_model().objects.get(pk=ann_everywhere.pk)
    assert ann.left_at is not None and ann.player_name == "a former member"
    assert Seat.objects.get(game=game, name="ann").replacement_wanted_at is not None


def test_staff_without_the_delete_permission_has_no_such_action(client, ann_everywhere):
    staff = UserFactory(player_name="Staffer", is_staff=True)
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(Permission.objects.get(codename="view_user"))
    client.force_login(staff)
    page = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "member_erase_action" not in page
