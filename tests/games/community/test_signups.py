"""Sign-ups (issue 16): signing up and withdrawing with their tenures, the bar of finished
games, the start when the last seat is taken (the site's or the host's), the host told
once when the start date passes (the clock's sweep), and the moderator's changes before
the start; the lobby, the game page and the desk that show them, and who may act."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import services
from games.community import ticks
from games.community.selectors.signups import finished_games_count
from games.community.services import absences, signups
from games.engine import GameRuleError
from games.models import Game, Notification, Post, Seat, SeatTenure
from games.services import sweep
from tests.factories import UserFactory
from tests.games import said
from tests.games.conftest import CAST, make_game
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db

CARDS = [{"character": c, "type": t} for _, c, t in CAST]
SOON = timedelta(days=3)


@pytest.fixture
def eager_tasks():
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def _open(moderator, **kwargs):
    kwargs.setdefault("signups_close_at", timezone.now() + SOON)
    return services.game_create(
        host=moderator,
        ruleset="witchhunt",
        title="Signing up",
        seats_count=len(CARDS),
        seed=7,
        deal={"mode": "explicit", "cards": CARDS, "shuffle": False},
        **kwargs,
    )


def _join_all(game, users, but=0):
    names = [n.lower() for n, _, _ in CAST]
    for name in names[: len(names) - but]:
        services.game_join(game=game, user=users[name])
    game.refresh_from_db()
    return game


def _notes(user, key=None):
    rows = Notification.objects.filter(user=user, kind=Notification.Kind.SIGNUP)
    return list((rows.filter(key=key) if key else rows).values_list("text", flat=True))


def _finished_seat(user, *, left=""):
    """A seat of `user` in a finished game (rows only: what the count reads)."""
    other = UserFactory()
    game = Game.objects.create(
        ruleset="witchhunt", title="Old", host=other, seats_count=3, seed=1, deal={},
        status=Game.Status.FINISHED,
    )  # fmt: skip
    seat = Seat.objects.create(game=game, user=user, name=user.player_key)
    SeatTenure.objects.create(seat=seat, user=user, began_at=timezone.now(), left=left)


# --- signing up and withdrawing ------------------------------------------------------------
def test_a_seat_taken_opens_a_tenure_and_a_withdrawal_frees_the_seat(moderator, cast_users):
    game = _open(moderator)
    ann = cast_users["ann"]
    seat = services.game_join(game=game, user=ann)
    tenure = SeatTenure.objects.get(seat=seat)
    assert tenure.user == ann and tenure.left == "" and not tenure.replacing
    with pytest.raises(GameRuleError, match="already joined"):
        services.game_join(game=game, user=ann)
    services.game_leave(game=game, user=ann)
    assert not Seat.objects.filter(game=game).exists()
    assert not SeatTenure.objects.filter(user=ann).exists()
    with pytest.raises(GameRuleError, match="not joined"):
        services.game_leave(game=game, user=ann)


def test_the_moderator_cannot_sign_up_and_a_full_game_takes_nobody(moderator, cast_users):
    game = _open(moderator)
    with pytest.raises(GameRuleError, match="you moderate this game"):
        services.game_join(game=game, user=moderator)
    _join_all(game, cast_users)
    with pytest.raises(GameRuleError, match="this game is full"):
        services.game_join(game=game, user=UserFactory())
    assert Seat.objects.filter(game=game).count() == len(CAST)


def test_the_bar_of_finished_games_is_said_in_words_and_replaced_out_games_do_not_count(
    moderator, cast_users
):
    ann = cast_users["ann"]
    _finished_seat(ann)
    _finished_seat(ann, left=SeatTenure.Left.REPLACED)  # replaced out: not finished
    assert finished_games_count(ann) == 1
    game = _open(moderator, min_finished_games=3)
    with pytest.raises(GameRuleError) as refused:
        services.game_join(game=game, user=ann)
    assert str(refused.value) == "this game asks for 3 finished games; you have finished 1"
    assert not Seat.objects.filter(game=game).exists()
    _finished_seat(ann)
    _finished_seat(ann)
    services.game_join(game=game, user=ann)  # 3 now
    assert Seat.objects.filter(game=game, user=ann).exists()


# --- the last seat -------------------------------------------------------------------------
def test_the_last_seat_starts_the_game_when_the_site_is_asked_to(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    game = _open(moderator, start_when_full=True)
    _join_all(game, cast_users, but=1)
    assert game.status == Game.Status.OPEN
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_join(game=game, user=cast_users["hal"])
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.phase == "day 1"
    # The site's notice, not a moderator act (W-72's log reads the moderator's posts).
    (notice,) = [
        p for p in Post.objects.filter(game=game) if "the site dealt the cards" in said.text(p)
    ]
    assert notice.kind == Post.Kind.SYSTEM and notice.author is None
    assert _notes(moderator) == [
        "All 8 seats were taken: the site dealt the cards and started the game."
    ]
    for user in cast_users.values():  # told in-site; the role email tells them by email
        assert _notes(user) == ["The game has started: your cards are on your role page."]
    by_address = {}
    for m in mail.outbox:
        by_address.setdefault(m.to[0], []).append(m.subject)
    assert by_address[moderator.email] == [
        "[Witchhunt] Signing up: All 8 seats were taken: the site dealt the cards and started "
        "the game."
    ]
    for user in cast_users.values():  # one email each: the role email, no second one
        assert by_address[user.email] == ["[Witchhunt] Signing up has started: your cards"]


def test_the_last_seat_tells_the_host_once_who_then_starts_it(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    game = _open(moderator)
    with django_capture_on_commit_callbacks(execute=True):
        game = _join_all(game, cast_users)
    assert game.status == Game.Status.OPEN
    assert _notes(moderator) == ["Every seat is taken: you can deal the cards and start the game."]
    assert [m.to for m in mail.outbox] == [[moderator.email]]
    moderator.refresh_from_db()
    assert moderator.notifications_unread == 1
    # Away and back: the host already knows it filled.
    services.game_leave(game=game, user=cast_users["hal"])
    services.game_join(game=game, user=cast_users["hal"])
    assert len(_notes(moderator)) == 1
    services.game_start(game=game, by=moderator)
    assert _notes(cast_users["ann"]) == ["The game has started: your cards are on your role page."]


def test_the_hosts_email_respects_their_preference(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    moderator.email_phase_changes = False
    moderator.save(update_fields=["email_phase_changes"])
    game = _open(moderator)
    with django_capture_on_commit_callbacks(execute=True):
        _join_all(game, cast_users)
    assert len(_notes(moderator)) == 1 and mail.outbox == []


# --- the start date passes (the clock's sweep) ---------------------------------------------
def test_a_game_short_of_players_at_its_start_date_tells_its_host_once_in_their_zone(
    moderator, cast_users
):
    moderator.time_zone = "Europe/Paris"
    moderator.save(update_fields=["time_zone"])
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    game = _open(moderator, signups_close_at=datetime(2026, 12, 4, 17, 0, tzinfo=UTC), now=now)
    _join_all(game, cast_users, but=3)
    assert ticks.signups_tick(datetime(2026, 12, 4, 16, 59, tzinfo=UTC)) is None  # not yet
    at = datetime(2026, 12, 4, 17, 0, 30, tzinfo=UTC)
    assert ticks.signups_tick(at) == ticks.LAPSED
    assert ticks.signups_tick(at) is None  # once
    assert _notes(moderator) == [
        "The start date (Fri 4 Dec 2026, 18:00 (Europe/Paris)) has passed with 5 of 8 seats "
        "taken. Move the date, make the game smaller, or cancel it."
    ]
    game.refresh_from_db()
    assert game.signups_lapsed_at == at and game.status == Game.Status.OPEN
    # The host moves the date: the sweep looks again, and tells again when it passes.
    later = datetime(2026, 12, 8, 17, 0, tzinfo=UTC)
    signups.signups_settings_set(
        game=game, by=moderator, starts_at=later, min_finished_games=0,
        start_when_full=False, prod_after=None, now=at,
    )  # fmt: skip
    game.refresh_from_db()
    assert game.signups_close_at == later and game.signups_lapsed_at is None
    assert sweep.clock_sweep(later + timedelta(seconds=1), share=False) == {ticks.LAPSED: 1}
    assert len(_notes(moderator)) == 2


def test_a_full_game_past_its_start_date_asks_the_host_to_start_it(moderator, cast_users):
    game = _open(moderator)
    _join_all(game, cast_users)
    assert ticks.signups_tick(game.signups_close_at + timedelta(seconds=1)) == ticks.LAPSED
    (text,) = _notes(moderator, key=f"lapsed-{game.signups_close_at:%Y%m%d%H%M}")
    assert "every seat is taken: deal and start the game" in text


def test_running_and_undated_games_are_never_due(moderator, cast_users):
    make_game(moderator, cast_users)  # started: not open
    _open(moderator, signups_close_at=None)
    assert not ticks.signups_due(timezone.now() + timedelta(days=100)).exists()


# --- the moderator before the start ---------------------------------------------------------
def _settings(game, by, **changes):
    values = {
        "starts_at": game.signups_close_at,
        "min_finished_games": game.min_finished_games,
        "start_when_full": game.start_when_full,
        "prod_after": game.prod_after,
        **changes,
    }
    return signups.signups_settings_set(game=game, by=by, **values)


def test_only_the_moderator_changes_sign_ups_and_each_change_is_logged(moderator, cast_users):
    game = _open(moderator)
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        _settings(game, cast_users["ann"], min_finished_games=2)
    with pytest.raises(GameRuleError, match="at least an hour from now"):
        _settings(game, moderator, starts_at=timezone.now() - timedelta(days=1))
    with pytest.raises(GameRuleError, match="nothing was changed"):
        _settings(game, moderator)
    _settings(game, moderator, min_finished_games=2, prod_after=timedelta(hours=36))
    game.refresh_from_db()
    assert game.min_finished_games == 2 and game.prod_after == timedelta(hours=36)
    (post,) = Post.objects.filter(game=game, kind=Post.Kind.MODERATOR)
    assert post.author == moderator and "2 finished games" in said.text(post)
    started = make_game(moderator, cast_users)
    with pytest.raises(GameRuleError, match="has started"):
        _settings(started, moderator, min_finished_games=1)


def test_asking_the_site_to_start_a_full_game_starts_it(moderator, cast_users):
    game = _join_all(_open(moderator), cast_users)
    _settings(game, moderator, start_when_full=True)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_the_size_never_goes_below_the_players_nor_past_the_deal(moderator, cast_users):
    game = _join_all(_open(moderator), cast_users, but=3)
    with pytest.raises(GameRuleError, match="5 players have signed up"):
        signups.game_resize(game=game, by=moderator, seats_count=4)
    with pytest.raises(GameRuleError, match="does not fit 6 seats"):
        signups.game_resize(game=game, by=moderator, seats_count=6)  # 8 cards listed
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        signups.game_resize(game=game, by=cast_users["ann"], seats_count=5)
    game.refresh_from_db()
    assert game.seats_count == 8


def test_a_pool_game_made_smaller_to_its_players_is_full(moderator, cast_users):
    game = services.game_create(
        host=moderator, ruleset="werewolf", title="Pool", seats_count=8, seed=3,
        deal={"mode": "pool", "roles": ["seer"], "werewolves": 1}, start_when_full=True,
    )  # fmt: skip
    for name in ("ann", "bob", "cat", "dan", "eve"):
        services.game_join(game=game, user=cast_users[name])
    signups.game_resize(game=game, by=moderator, seats_count=5)
    game.refresh_from_db()
    assert game.seats_count == 5 and game.status == Game.Status.RUNNING


def test_cancelling_deletes_the_game_and_tells_its_players_by_email(
    moderator, cast_users, django_capture_on_commit_callbacks
):
    game = _join_all(_open(moderator), cast_users, but=2)
    cast_users["bob"].email_phase_changes = False
    cast_users["bob"].save(update_fields=["email_phase_changes"])
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        signups.game_cancel(game=game, by=cast_users["ann"])
    with django_capture_on_commit_callbacks(execute=True):
        assert signups.game_cancel(game=game, by=moderator) == "Signing up"
    assert not Game.objects.filter(pk=game.pk).exists()
    told = sorted(m.to[0] for m in mail.outbox)
    assert told == sorted(cast_users[n].email for n in ("ann", "cat", "dan", "eve", "fay"))
    assert "The moderator cancelled Signing up before it started." in mail.outbox[0].body



def test_cancelling_leaves_each_player_a_notification_on_the_site(
    client, moderator, cast_users, django_capture_on_commit_callbacks
):
    """The email alone left nothing on the site: each player signed up (email or not) finds
    it in their notifications, in their language, leading to the lobby; the host does not."""
    game = _join_all(_open(moderator), cast_users, but=2)
    cast_users["bob"].email_phase_changes = False
    cast_users["bob"].language = "de"
    cast_users["bob"].save(update_fields=["email_phase_changes", "language"])
    with django_capture_on_commit_callbacks(execute=True):
        signups.game_cancel(game=game, by=moderator)
    told = Notification.objects.filter(game__isnull=True, kind=Notification.Kind.SIGNUP)
    assert sorted(told.values_list("user__player_name", flat=True)) == [
        "Ann", "Bob", "Cat", "Dan", "Eve", "Fay"
    ]  # fmt: skip
    ann = cast_users["ann"]
    ann.refresh_from_db()
    assert ann.notifications_unread == 1
    client.force_login(ann)
    page = client.get(reverse("notifications")).content.decode()
    assert "The moderator cancelled Signing up before it started." in page
    ref = re.search(r'action="(/notifications/(?!read/)[^"]+)"', page)[1]
    assert client.post(ref)["Location"] == reverse("game_list")
    client.force_login(cast_users["bob"])
    page = client.get(reverse("notifications")).content.decode()
    assert "Signing up" in page and "The moderator cancelled" not in page  # in German
    client.force_login(moderator)
    assert "Signing up" not in client.get(reverse("notifications")).content.decode()


# --- the pages ------------------------------------------------------------------------------
def test_the_lobby_shows_sign_ups_in_the_readers_zone_and_signs_up_from_there(
    client, moderator, cast_users
):
    at = (timezone.now() + SOON).replace(hour=17, minute=0, second=0, microsecond=0)
    game = _open(moderator, signups_close_at=at, min_finished_games=0, start_when_full=True)
    ann = cast_users["ann"]
    ann.time_zone = "Asia/Tokyo"
    ann.save(update_fields=["time_zone"])
    client.force_login(ann)
    html = client.get(reverse("game_list")).content.decode()
    assert "0 of 8 seats taken" in html and "Starts when full" not in html
    assert f"{at.astimezone(ann.zoneinfo):%H:%M} JST" in html and "or when full" in html
    lobby = reverse("game_list")
    response = client.post(reverse("game_join", args=[game.pk]), {"next": lobby})
    assert response.status_code == 302 and response["Location"] == lobby
    html = client.get(lobby).content.decode()
    assert "1 of 8 seats taken" in html and "Withdraw" in html


def test_the_game_page_says_why_a_member_may_not_sign_up(client, moderator, cast_users):
    game = _open(moderator, min_finished_games=2)
    client.force_login(cast_users["ann"])
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "You cannot sign up: this game asks for 2 finished games; you have finished 0." in html
    assert "Join the game" not in html
    response = client.post(reverse("game_join", args=[game.pk]), follow=True)
    assert "This game asks for 2 finished games; you have finished 0." in (
        response.content.decode()
    )
    assert not Seat.objects.filter(game=game).exists()


def test_the_desk_of_an_open_game_is_the_moderators_alone(client, moderator, cast_users):
    game = _join_all(_open(moderator), cast_users, but=2)
    desk = reverse("game_desk", args=[game.pk])
    client.force_login(cast_users["ann"])
    assert client.get(desk).status_code == 404
    for name in ("game_signups_settings", "game_signups_resize", "game_cancel"):
        response = client.post(reverse(name, args=[game.pk]), {"seats_count": 6, "confirm": "yes"})
        assert response.status_code == 404
    assert Game.objects.filter(pk=game.pk, seats_count=8).exists()
    client.force_login(moderator)
    html = client.get(desk).content.decode()
    assert "Signed up (6 of 8)" in html and "Save the sign-up settings" in html


def test_the_desk_changes_the_start_date_in_the_moderators_zone(client, moderator, cast_users):
    moderator.time_zone = "America/New_York"
    moderator.save(update_fields=["time_zone"])
    game = _open(moderator)
    client.force_login(moderator)
    day = (timezone.now() + timedelta(days=10)).date()
    response = client.post(
        reverse("game_signups_settings", args=[game.pk]),
        {"signups_close_at": f"{day}T18:00", "min_finished_games": "1", "prod_hours": "48"},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    local = game.signups_close_at.astimezone(moderator.zoneinfo)
    assert (local.date(), local.hour, local.minute) == (day, 18, 0)
    assert game.min_finished_games == 1 and game.prod_after == timedelta(hours=48)
    assert not game.start_when_full


def test_cancelling_on_the_desk_needs_the_box_ticked(client, moderator, cast_users):
    game = _open(moderator)
    client.force_login(moderator)
    client.post(reverse("game_cancel", args=[game.pk]))
    assert Game.objects.filter(pk=game.pk).exists()
    response = client.post(reverse("game_cancel", args=[game.pk]), {"confirm": "yes"})
    assert response["Location"] == reverse("game_list")
    assert not Game.objects.filter(pk=game.pk).exists()


def test_the_new_game_form_takes_the_sign_up_settings_in_the_hosts_zone(client, host):
    host.time_zone = "Europe/Paris"
    host.save(update_fields=["time_zone"])
    client.force_login(host)
    day = (timezone.now() + timedelta(days=5)).date()
    form = {
        "ruleset": "werewolf", "title": "Sign-ups", "seats_count": 5, "deal_mode": "explicit",
        "cards": "seer\nwerewolf\n3 x villager", "shuffle": "on", "day_hours": 72,
        "night_hours": 24, "stalemate_cycles": 3, "reminder_hours": "24, 1",
        "early_end_grace": 60, "signups_close_at": f"{day}T20:30", "min_finished_games": 2,
        "start_when_full": "on", "prod_hours": 36,
    }  # fmt: skip
    response = client.post(reverse("game_new"), form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    game = Game.objects.get(title="Sign-ups")
    local = game.signups_close_at.astimezone(host.zoneinfo)
    assert (local.date(), local.hour, local.minute) == (day, 20, 30)
    assert game.min_finished_games == 2 and game.start_when_full
    assert game.prod_after == timedelta(hours=36)
    # A wall time the clocks skip is refused in words, not guessed.
    response = client.post(reverse("game_new"), {**form, "signups_close_at": "2027-03-28T02:30"})
    assert "does not exist in Europe/Paris" in response.content.decode()
    response = client.post(reverse("game_new"), {**form, "signups_close_at": "2020-01-01T10:00"})
    assert "Choose a start date at least an hour from now." in response.content.decode()
    assert Game.objects.count() == 1


# --- the admin ------------------------------------------------------------------------------
def test_the_admin_lists_tenures_and_absences_read_only_and_cancels_through_the_service(
    admin_client, moderator, cast_users
):
    game = _join_all(_open(moderator), cast_users, but=1)
    absences.absence_declare(
        user=cast_users["ann"], first_day=timezone.localdate(),
        last_day=timezone.localdate() + timedelta(days=1), note="away",
    )  # fmt: skip
    for name in ("seattenure", "absence"):
        assert admin_client.get(reverse(f"admin:games_{name}_changelist")).status_code == 200
        assert admin_client.get(reverse(f"admin:games_{name}_add")).status_code == 403
    running = make_game(moderator, cast_users)
    response = admin_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "cancel_games", "_selected_action": [game.pk, running.pk]},
        follow=True,
    )
    said = [str(m) for m in response.context["messages"]]
    assert "Signing up: cancelled." in said
    assert "The named cast: the game has started: its sign-ups can no longer change" in said
    assert not Game.objects.filter(pk=game.pk).exists()
    assert Game.objects.filter(pk=running.pk).exists()


def test_a_refused_setting_comes_back_on_the_desk_with_its_reason(client, moderator, cast_users):
    game = _open(moderator)
    client.force_login(moderator)
    response = client.post(
        reverse("game_signups_settings", args=[game.pk]),
        {"signups_close_at": "2020-01-01T10:00", "min_finished_games": "4"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Choose a start date at least an hour from now." in html
    assert 'value="4"' in html  # what was typed is kept
    game.refresh_from_db()
    assert game.min_finished_games == 0


def test_the_moderators_changes_before_the_start_show_in_the_games_thread(
    client, moderator, cast_users
):
    game = _open(moderator)
    _settings(game, moderator, min_finished_games=2, start_when_full=True)
    client.force_login(cast_users["ann"])
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "The moderator now asks for 2 finished games to sign up." in html
    assert "The site will deal and start the game as soon as every seat is taken." in html
