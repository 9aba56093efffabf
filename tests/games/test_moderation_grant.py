"""Who moderates every game (games.moderate_any_game), read with the member's row
(accounts/backends.py): the game page asks no query of it, and a grant or a revoke in the
admin holds from the member's next page."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.permissions import moderates_every_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DESK_LINK = "Moderator’s desk"
LEGACY_BACKENDS = (
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
)


def _moderate_any_game():
    return Permission.objects.get(codename="moderate_any_game", content_type__app_label="games")


def _admin_sets_permissions(admin_client, member, permissions=(), groups=()):
    """The admin's user change form, posted as a staff member would: `member`'s direct
    permissions and groups become exactly those given."""
    member.refresh_from_db()
    data = {
        "email": member.email,
        "player_name": member.player_name,
        "time_zone": member.time_zone,
        "is_active": "on",
        "user_permissions": [p.pk for p in permissions],
        "groups": [g.pk for g in groups],
    }
    response = admin_client.post(f"/admin/accounts/user/{member.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors


@pytest.fixture
def admin_client(db):
    admin = Client()
    admin.force_login(UserFactory(player_name="Root", is_staff=True, is_superuser=True))
    return admin


def _page(game) -> str:
    # The first page asked for: a second visit would be sent on to the first unread post.
    return f"{reverse('game_detail', args=[game.pk])}?page=1"


def _sees_desk_link(client, game) -> bool:
    response = client.get(_page(game))
    assert response.status_code == 200
    return DESK_LINK in response.content.decode()


def test_a_grant_or_a_revoke_in_the_admin_holds_from_the_members_next_page(
    client, admin_client, cast_game
):
    member = UserFactory(player_name="Nina")
    client.force_login(member)
    assert not _sees_desk_link(client, cast_game)

    _admin_sets_permissions(admin_client, member, permissions=[_moderate_any_game()])
    assert _sees_desk_link(client, cast_game)

    _admin_sets_permissions(admin_client, member)
    assert not _sees_desk_link(client, cast_game)

    moderators = Group.objects.create(name="Moderators")
    moderators.permissions.add(_moderate_any_game())
    _admin_sets_permissions(admin_client, member, groups=[moderators])
    assert _sees_desk_link(client, cast_game)

    moderators.permissions.clear()  # the group's grant taken back: the member's too
    assert not _sees_desk_link(client, cast_game)


def _permission_queries(client, game) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(_page(game))
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries if "auth_permission" in q["sql"]]


def test_a_signed_in_viewers_game_page_sends_no_permission_query(client, cast_game, cast_users):
    """The one SQL that names auth_permission is the member's own row, read by the
    authentication middleware: the moderation is an EXISTS in it."""
    granted = UserFactory(player_name="Gran")
    granted.user_permissions.add(_moderate_any_game())
    for viewer in (cast_users["ann"], UserFactory(player_name="Outsider"), granted):
        client.force_login(viewer)
        permission_queries = _permission_queries(client, cast_game)
        assert len(permission_queries) == 1, permission_queries
        assert 'FROM "accounts_user"' in permission_queries[0], permission_queries


@pytest.mark.parametrize("backend", LEGACY_BACKENDS)
def test_a_member_signed_in_before_the_member_backend_stays_signed_in(client, cast_game, backend):
    """Their session names the backend that signed them in: still listed, it finds them
    (and the moderation is asked of them in a query of its own, as before)."""
    member = UserFactory(player_name="Olde")
    member.user_permissions.add(_moderate_any_game())
    client.force_login(member, backend=backend)
    assert _sees_desk_link(client, cast_game)
    assert client.session["_auth_user_id"] == str(member.pk)


def test_a_user_object_read_elsewhere_is_asked_in_a_query(db):
    """The admin's, a service's or a test's user object carries no answer: the fallback."""
    member = UserFactory(player_name="Plain")
    assert not moderates_every_game(member)
    member = type(member).objects.get(pk=member.pk)
    member.user_permissions.add(_moderate_any_game())
    with CaptureQueriesContext(connection) as queries:
        assert moderates_every_game(member) and moderates_every_game(member)
    assert len(queries) == 1  # kept on the object for the rest of the request
    inactive = UserFactory(player_name="Gone", is_active=False)
    inactive.user_permissions.add(_moderate_any_game())
    assert not moderates_every_game(inactive)
    assert moderates_every_game(UserFactory(player_name="Boss", is_superuser=True))
