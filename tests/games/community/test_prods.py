"""Issue 16's prod rule: a living player silent for the game's `prod_after` of a day phase
is prodded (email, notifications to them and the moderator); the next lapse is the second
prod, which marks the seat for replacement. The clock's sweep does it, once; prods wait
for a declared absence, and never reach the dead or a seat already marked."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from games import services
from games.community import ticks
from games.community.services import replacements
from games.models import Absence, Game, Notification, Post, Prod, ReplacementOffer, Seat
from games.services import sweep
from tests.factories import UserFactory
from tests.games import said
from tests.games.conftest import T0, make_game
from tests.games.test_clock_postgres import _in_threads

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)


@pytest.fixture
def prod_game(traveller, moderator, cast_users):
    """The named cast from T0: Day 1 of 72 h, prodded after 24 h without a post."""
    return make_game(moderator, cast_users, prod_after=24 * H)


def _sweep(capture, at):
    with capture(execute=True):
        return sweep.clock_sweep(at, share=False)


def _prods(game):
    return sorted(
        Prod.objects.filter(seat__game=game).values_list("user__player_name", "number", "phase")
    )


def _everyone_but(cast_users, *names, number=1, phase="day 1"):
    return sorted((u.player_name, number, phase) for k, u in cast_users.items() if k not in names)


def test_the_first_look_is_prod_after_into_a_day_and_none_by_night(prod_game, moderator):
    assert prod_game.prods_due_at == T0 + 24 * H
    services.phase_advance(game=prod_game, by=moderator)
    prod_game.refresh_from_db()
    assert prod_game.is_night and prod_game.prods_due_at is None
    services.phase_advance(game=prod_game, by=moderator)
    prod_game.refresh_from_db()
    assert prod_game.phase == "day 2"
    assert prod_game.prods_due_at == prod_game.phase_started_at + 24 * H


def test_silent_players_are_prodded_once_by_email_and_notification(
    prod_game, traveller, cast_users, moderator, django_capture_on_commit_callbacks
):
    traveller.move_to(T0 + 10 * H)
    services.post_create(game=prod_game, user=cast_users["ann"], body="Hello, village.")
    assert Seat.objects.get(game=prod_game, name="ann").last_post_at == T0 + 10 * H
    cast_users["cat"].email_deadline_reminders = False
    cast_users["cat"].save()
    assert _sweep(django_capture_on_commit_callbacks, T0 + 24 * H - H) == {}  # not yet
    mail.outbox.clear()
    traveller.move_to(T0 + 24 * H)
    assert _sweep(django_capture_on_commit_callbacks, T0 + 24 * H) == {ticks.PRODDED: 1}
    assert _prods(prod_game) == _everyone_but(cast_users, "ann")
    # Email to each prodded player who takes reminders (Cat does not), in their own words.
    assert len(mail.outbox) == 6 and all(len(m.to) == 1 for m in mail.outbox)
    assert "cat@example.com" not in [m.to[0] for m in mail.outbox]
    assert all("please post" in m.subject for m in mail.outbox)
    assert all("List-Unsubscribe" in m.extra_headers for m in mail.outbox)
    # In-site: each prodded player, and the moderator once for each.
    told = Notification.objects.filter(game=prod_game, kind=Notification.Kind.PROD)
    assert told.filter(user=moderator).count() == 7
    assert told.filter(user=cast_users["bob"]).count() == 1
    assert not told.filter(user=cast_users["ann"]).exists()
    # Ann's silence began at her post: the sweep looks again when it has lasted 24 h.
    prod_game.refresh_from_db()
    assert prod_game.prods_due_at == T0 + 34 * H
    # Sweeping again at the same moment sends nothing more.
    assert _sweep(django_capture_on_commit_callbacks, T0 + 24 * H) == {}
    assert len(_prods(prod_game)) == 7


@pytest.mark.slow
def test_the_second_prod_marks_the_seat_and_offers_it_to_the_list(
    prod_game, traveller, cast_users, moderator, django_capture_on_commit_callbacks
):
    vic = UserFactory(player_name="Vic")
    replacements.volunteer_join(user=vic, hours_per_week=5)
    traveller.move_to(T0 + 24 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 24 * H)
    traveller.move_to(T0 + 30 * H)
    for name in ("ann", "bob", "cat", "dan", "eve", "fay", "gus"):  # all but Hal speak up
        services.post_create(game=prod_game, user=cast_users[name], body="Here.")
    traveller.move_to(T0 + 48 * H)
    counts = _sweep(django_capture_on_commit_callbacks, T0 + 48 * H)
    assert counts == {ticks.PRODDED: 1}
    assert ("Hal", 2, "day 1") in _prods(prod_game)
    assert len(_prods(prod_game)) == 9  # everyone's first, at 24 h, and Hal's second
    hal = Seat.objects.get(game=prod_game, name="hal")
    assert hal.replacement_reason == "prods" and hal.replacement_wanted_at == T0 + 48 * H
    site_posts = Post.objects.filter(game=prod_game, kind=Post.Kind.SYSTEM)
    assert [said.text(p) for p in site_posts].count("A replacement is wanted for Hal.") == 1
    assert ReplacementOffer.objects.get(seat=hal).user == vic
    assert Notification.objects.filter(
        user=moderator, text__contains="prodded a second time"
    ).exists()
    # A marked seat is prodded no more; the others go on from their posts.
    traveller.move_to(T0 + 60 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 60 * H)
    assert [p for p in _prods(prod_game) if p[0] == "Hal"] == [
        ("Hal", 1, "day 1"),
        ("Hal", 2, "day 1"),
    ]


def test_prods_wait_for_a_declared_absence(
    prod_game, traveller, cast_users, django_capture_on_commit_callbacks
):
    Absence.objects.create(user=cast_users["bob"], starts_at=T0 - H, ends_at=T0 + 30 * H)
    Absence.objects.create(user=cast_users["cat"], starts_at=T0 + H, ends_at=T0 + 10 * H)
    traveller.move_to(T0 + 24 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 24 * H)
    prodded = {name for name, _n, _p in _prods(prod_game)}
    assert "Bob" not in prodded and "Cat" not in prodded  # Cat's absence ended at 10 h
    prod_game.refresh_from_db()
    assert prod_game.prods_due_at == T0 + 34 * H
    traveller.move_to(T0 + 34 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 34 * H)
    assert ("Cat", 1, "day 1") in _prods(prod_game)
    assert "Bob" not in {name for name, _n, _p in _prods(prod_game)}
    traveller.move_to(T0 + 54 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 54 * H)
    assert ("Bob", 1, "day 1") in _prods(prod_game)


def test_the_dead_a_paused_game_and_the_night_are_never_prodded(
    prod_game, traveller, cast_users, moderator, django_capture_on_commit_callbacks
):
    services.player_remove(game=prod_game, seat_name="dan", by=moderator)
    services.clock_pause(game=prod_game, by=moderator)
    traveller.move_to(T0 + 24 * H)
    assert _sweep(django_capture_on_commit_callbacks, T0 + 24 * H) == {}
    services.clock_resume(game=Game.objects.get(pk=prod_game.pk), by=moderator)
    _sweep(django_capture_on_commit_callbacks, T0 + 24 * H)
    assert _prods(prod_game) == []  # the pause's silence is not counted
    traveller.move_to(T0 + 47 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 47 * H)
    assert _prods(prod_game) == []
    traveller.move_to(T0 + 48 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 48 * H)
    assert "Dan" not in {name for name, _n, _p in _prods(prod_game)}
    assert len(_prods(prod_game)) == 7  # a whole prod_after of running clock since
    services.phase_advance(game=Game.objects.get(pk=prod_game.pk), by=moderator)
    traveller.move_to(T0 + 60 * H)
    assert _sweep(django_capture_on_commit_callbacks, T0 + 60 * H).get(ticks.PRODDED) is None


def test_a_replacement_starts_with_no_prods_and_from_when_they_took_the_seat(
    prod_game, traveller, cast_users, moderator, django_capture_on_commit_callbacks
):
    traveller.move_to(T0 + 24 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 24 * H)
    traveller.move_to(T0 + 40 * H)
    newby = UserFactory(player_name="Newby")
    services.player_replace(game=prod_game, seat_name="bob", new_user=newby, by=moderator)
    traveller.move_to(T0 + 48 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 48 * H)
    assert ("Bob", 2, "day 1") not in _prods(prod_game)
    assert "Newby" not in {name for name, _n, _p in _prods(prod_game)}  # 8 h in the seat
    traveller.move_to(T0 + 64 * H)
    _sweep(django_capture_on_commit_callbacks, T0 + 64 * H)
    assert ("Newby", 1, "day 1") in _prods(prod_game)


def test_a_game_without_a_prod_rule_is_never_looked_at(
    traveller, moderator, cast_users, django_capture_on_commit_callbacks
):
    game = make_game(moderator, cast_users)
    assert game.prods_due_at is None
    traveller.move_to(T0 + 70 * H)
    assert _sweep(django_capture_on_commit_callbacks, T0 + 70 * H) == {}
    assert not Prod.objects.exists()


# --- two sweeps at once (PostgreSQL row locks; SQLite has none) -----------------------------
@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
)
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_sweeps_send_each_prod_exactly_once(moderator, cast_users):
    games = [make_game(moderator, cast_users, prod_after=H) for _ in range(4)]
    now = timezone.now()
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        phase_started_at=now - 2 * H, prods_due_at=now - timedelta(minutes=1)
    )
    results = _in_threads(lambda: sweep.clock_sweep(now, share=False))
    assert sum(r.get(ticks.PRODDED, 0) for r in results) == 4
    assert not any(sweep.FAILED in r for r in results)
    for game in games:
        assert len(_prods(game)) == 8  # every seat once, none twice
        told = Notification.objects.filter(game=game, kind=Notification.Kind.PROD)
        assert told.count() == 16  # each player, and the moderator for each
        game.refresh_from_db()
        assert game.prods_due_at == now + H


def test_the_prods_deadline_sentence_stays_whole_in_both_versions(
    prod_game, traveller, cast_users, django_capture_on_commit_callbacks
):
    """The deadline line, in the member's zone beside UTC and in their language, is one
    sentence with its full stop: one line of the text, one paragraph of the HTML."""
    for name, zone, language in (("ann", "America/New_York", "en"), ("bob", "Asia/Tokyo", "de")):
        user = cast_users[name]
        user.time_zone, user.language = zone, language
        user.save(update_fields=["time_zone", "language"])
    traveller.move_to(T0 + 24 * H)
    mail.outbox.clear()
    _sweep(django_capture_on_commit_callbacks, T0 + 24 * H)
    mails = {m.to[0]: m for m in mail.outbox}
    for name, opening in (("ann", "The day ends "), ("bob", "Der Tag endet am ")):
        message = mails[cast_users[name].email]
        html = next(body for body, kind in message.alternatives if kind == "text/html")
        [line] = [ln for ln in message.body.splitlines() if ln.startswith(opening)]
        assert line.endswith("UTC).") and line.count("(") == 1, line
        assert f"<p>{line}</p>" in html, line
