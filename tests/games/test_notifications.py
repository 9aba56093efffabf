"""The inbox (issue 15): a member's notification list, opening one and "mark all read",
and the header's count and its cost. (Who is told of what: tests/games/reading/.)"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Notification
from games.selectors.notifications import REF_FIELDS, notification_ref, unread_count
from tests.games.conftest import forget_start_notices, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(moderator, cast_users):
    game = make_game(moderator, cast_users)
    forget_start_notices()
    return game


# --- the list, opening one, mark all read ----------------------------------------------------
def _mention(game, cast_users, text="@bob look"):
    return services.post_create(game=game, user=cast_users["ann"], body=text)


def test_the_list_shows_newest_first_and_opening_one_marks_it_read(client, game, cast_users):
    bob = cast_users["bob"]
    first = _mention(game, cast_users, "@bob first")
    second = _mention(game, cast_users, "@bob second")
    client.force_login(bob)
    page = client.get(reverse("notifications")).content.decode()
    assert page.index(f"(#{second.number})") < page.index(f"(#{first.number})")
    assert 'class="nav-count">2<' in page
    note = Notification.objects.get(post=first)
    go = reverse("notification_go", args=[_ref(note)])
    # Named with the site's secret, never by its row's id (issue 25).
    assert f'action="{go}"' in page and f"/notifications/{note.pk}/" not in page
    assert client.post(f"/notifications/{note.pk}/").status_code == 404
    response = client.post(go)
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/?page=1#p{first.number}"
    note.refresh_from_db()
    assert note.read_at is not None
    bob.refresh_from_db()
    assert unread_count(bob) == 1
    assert client.get(go).status_code == 405
    client.post(reverse("notifications_read"))
    bob.refresh_from_db()
    assert unread_count(bob) == 0
    assert "nav-count" not in client.get(reverse("notifications")).content.decode()


def _ref(note):
    return notification_ref(Notification.objects.values_list(*REF_FIELDS).get(pk=note.pk))


def test_another_members_notification_is_a_404_and_changes_nothing(client, game, cast_users):
    _mention(game, cast_users)
    note = Notification.objects.get()
    client.force_login(cast_users["cat"])
    go = reverse("notification_go", args=[_ref(note)])
    assert client.post(go).status_code == 404
    client.post(reverse("notifications_read"))
    note.refresh_from_db()
    assert note.read_at is None
    client.logout()
    response = client.get(reverse("notifications"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_header_count_costs_no_query_and_is_never_asked_for_visitors(client, game, cast_users):
    _mention(game, cast_users)
    url = reverse("game_list")

    def page():
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200
        assert not [q for q in ctx.captured_queries if "games_notification" in q["sql"]]
        return response.content.decode()

    assert "Notifications" not in page()  # a visitor: no link, no count
    client.force_login(cast_users["bob"])
    assert 'class="nav-count">1<' in page()  # read with the user: no query of its own
    _mention(game, cast_users, "@bob again")
    assert 'class="nav-count">2<' in page()
