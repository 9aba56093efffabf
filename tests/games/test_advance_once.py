"""The moderator's "advance now" is exactly-once (the Hardening review, finding 2).

Every form that ends a phase carries the phase it was rendered for, and asks first: the
desk's and the game page's "Advance now" show a confirmation, whose POST ends that phase
only; the admin action lists each selected game with its phase and submits the phases
back. A double click, or a click after the clock's sweep ended the phase, is refused in
words and changes nothing. The other moderator acts that could be sent twice (remove,
stalemate, the clock's extend and shorten) answer a second submit with a refusal or a
second, visible move, never a server error.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import GameRuleError
from games.models import Game, GameEvent, GameInput, Post
from games.services import sweep
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db


def _stale(phase, now):
    return f"{phase} has already ended: the game is now in {now}. Nothing was changed."


STALE = _stale("Day 1", "Night 1")


def _url(game, name):
    return reverse(name, args=[game.pk])


def _messages(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def _text(response):
    return page_text(response.content.decode())


def _advances(game):
    return GameInput.objects.filter(game=game, step={"advance": "phase"}).count()


def _snapshot(game):
    row = Game.objects.get(pk=game.pk)
    return (
        row.phase,
        row.status,
        row.deadline_at,
        row.inputs_count,
        GameInput.objects.filter(game=game).count(),
        GameEvent.objects.filter(game=game).count(),
        Post.objects.filter(game=game).count(),
    )


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client


# --- the service ---------------------------------------------------------------------------------
def test_the_moderators_advance_with_a_stale_phase_is_refused_in_words(cast_game, moderator):
    services.phase_advance(game=cast_game, by=moderator, expected_phase="day 1")
    before = _snapshot(cast_game)
    with pytest.raises(GameRuleError) as refusal:
        services.phase_advance(game=cast_game, by=moderator, expected_phase="day 1")
    assert str(refusal.value) == STALE
    assert _snapshot(cast_game) == before and _advances(cast_game) == 1


def test_the_sweeps_advance_with_a_stale_phase_stays_a_quiet_no_op(cast_game, moderator):
    services.phase_advance(game=cast_game, by=moderator, expected_phase="day 1")
    assert services.phase_advance(game=cast_game, expected_phase="day 1") is None
    assert _advances(cast_game) == 1


def test_advancing_a_game_that_ended_says_it_is_over(moderator, cast_users):
    game = make_game(moderator, cast_users)
    services.stalemate_declare(game=game, by=moderator)
    with pytest.raises(GameRuleError) as refusal:
        services.phase_advance(game=game, by=moderator, expected_phase="day 1")
    assert str(refusal.value) == "Day 1 has already ended: the game is over. Nothing was changed."


# --- the desk ------------------------------------------------------------------------------------
def test_desk_advance_asks_first_for_the_phase_it_was_rendered_for(mod_client, cast_game):
    desk = mod_client.get(_url(cast_game, "game_desk")).content.decode()
    assert 'name="phase" value="day 1"' in desk
    before = _snapshot(cast_game)
    response = mod_client.post(_url(cast_game, "game_desk_advance"), {"phase": "day 1"})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    text = _text(response)
    assert "End Day 1 now?" in text
    assert "The lynch is decided by the current votes" in text
    html = response.content.decode()
    assert 'name="phase" value="day 1"' in html and 'name="confirm" value="yes"' in html
    assert _snapshot(cast_game) == before  # asking changes nothing
    assert mod_client.get(_url(cast_game, "game_desk_advance")).status_code == 405


def test_desk_double_post_of_the_same_advance_ends_exactly_one_phase(mod_client, cast_game):
    form = {"phase": "day 1", "confirm": "yes"}
    first = mod_client.post(_url(cast_game, "game_desk_advance"), form, follow=True)
    assert "Day 1 has ended." in _messages(first)
    after_first = _snapshot(cast_game)
    second = mod_client.post(_url(cast_game, "game_desk_advance"), form, follow=True)
    assert second.status_code == 200
    assert _messages(second) == [STALE]
    assert _snapshot(cast_game) == after_first
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1" and _advances(cast_game) == 1


def test_desk_advance_after_the_sweep_ended_the_phase_changes_nothing(mod_client, cast_game):
    Game.objects.filter(pk=cast_game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert sweep.clock_sweep() == {sweep.ADVANCED: 1}
    before = _snapshot(cast_game)
    for form in ({"phase": "day 1", "confirm": "yes"}, {"phase": "day 1"}):
        response = mod_client.post(_url(cast_game, "game_desk_advance"), form, follow=True)
        assert _messages(response) == [STALE]
        assert "End Night 1 now?" not in _text(response)
    assert _snapshot(cast_game) == before and _advances(cast_game) == 1


def test_desk_advance_without_a_phase_is_refused(mod_client, cast_game):
    before = _snapshot(cast_game)
    for form in ({}, {"confirm": "yes"}, {"phase": "", "confirm": "yes"}):
        response = mod_client.post(_url(cast_game, "game_desk_advance"), form, follow=True)
        assert response.status_code == 200
        assert _messages(response) == [
            "This form does not say which phase to end: reload the page and try again."
        ]
    assert _snapshot(cast_game) == before


# --- the game page -------------------------------------------------------------------------------
def test_game_page_advance_asks_first_and_ends_exactly_one_phase(mod_client, cast_game):
    page = mod_client.get(_url(cast_game, "game_detail")).content.decode()
    assert 'name="phase" value="day 1"' in page
    before = _snapshot(cast_game)
    ask = mod_client.post(_url(cast_game, "game_advance"), {"phase": "day 1"})
    assert ask.status_code == 200 and "End Day 1 now?" in _text(ask)
    assert _snapshot(cast_game) == before
    form = {"phase": "day 1", "confirm": "yes"}
    first = mod_client.post(_url(cast_game, "game_advance"), form, follow=True)
    # Back to the game page (which then lands on the first post the moderator has not read).
    assert first.redirect_chain[0][0] == _url(cast_game, "game_detail")
    assert "Day 1 has ended." in _messages(first)
    second = mod_client.post(_url(cast_game, "game_advance"), form, follow=True)
    assert _messages(second) == [STALE]
    assert _advances(cast_game) == 1


def test_game_page_advance_is_still_the_moderators(client, cast_game, cast_users):
    client.force_login(cast_users["ann"])
    before = _snapshot(cast_game)
    for form in ({"phase": "day 1"}, {"phase": "day 1", "confirm": "yes"}):
        response = client.post(_url(cast_game, "game_advance"), form, follow=True)
        assert _messages(response) == ["Only the game's moderator can advance the game."]
        assert "End Day 1 now?" not in _text(response)
    assert _snapshot(cast_game) == before


# --- the admin action ----------------------------------------------------------------------------
@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(player_name="Root", is_staff=True, is_superuser=True))
    return client


def _admin_advance(admin_client, games, **extra):
    data = {"action": "advance_games", "_selected_action": [g.pk for g in games], **extra}
    return admin_client.post(reverse("admin:games_game_changelist"), data, follow=True)


def test_admin_advance_lists_each_game_with_its_phase_first(admin_client, moderator, cast_users):
    day = make_game(moderator, cast_users)
    night = make_game(moderator, cast_users)
    services.phase_advance(game=night, by=moderator, expected_phase="day 1")
    before = [_snapshot(day), _snapshot(night)]
    response = _admin_advance(admin_client, [day, night])
    html = response.content.decode()
    assert response.status_code == 200
    assert "End the current phase of these games?" in _text(response)
    assert f'name="phase-{day.pk}" value="day 1"' in html
    assert f'name="phase-{night.pk}" value="night 1"' in html
    assert [_snapshot(day), _snapshot(night)] == before


def test_admin_advance_confirmed_ends_each_phase_once(admin_client, moderator, cast_users):
    day = make_game(moderator, cast_users)
    night = make_game(moderator, cast_users)
    services.phase_advance(game=night, by=moderator, expected_phase="day 1")
    confirm = {"post": "yes", f"phase-{day.pk}": "day 1", f"phase-{night.pk}": "night 1"}
    response = _admin_advance(admin_client, [day, night], **confirm)
    assert sorted(_messages(response)) == [
        "The named cast: Day 1 has ended.",
        "The named cast: Night 1 has ended.",
    ]
    day.refresh_from_db()
    night.refresh_from_db()
    assert (day.phase, night.phase) == ("night 1", "day 2")
    again = _admin_advance(admin_client, [day, night], **confirm)  # the double submit
    assert sorted(_messages(again)) == [
        "The named cast: " + STALE,
        "The named cast: " + _stale("Night 1", "Day 2"),
    ]
    assert (_advances(day), _advances(night)) == (1, 2)


def test_admin_advance_with_a_stale_phase_changes_nothing(admin_client, cast_game):
    Game.objects.filter(pk=cast_game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert sweep.clock_sweep() == {sweep.ADVANCED: 1}  # the clock got there first
    before = _snapshot(cast_game)
    response = _admin_advance(
        admin_client, [cast_game], post="yes", **{f"phase-{cast_game.pk}": "day 1"}
    )
    assert _messages(response) == ["The named cast: " + STALE]
    assert _snapshot(cast_game) == before


def test_admin_advance_without_the_phase_changes_nothing(admin_client, cast_game):
    before = _snapshot(cast_game)
    response = _admin_advance(admin_client, [cast_game], post="yes")
    assert _messages(response) == [
        "The named cast: this form does not say which phase to end: nothing was changed."
    ]
    assert _snapshot(cast_game) == before


# --- the other acts a double click could send twice ----------------------------------------------
def test_desk_remove_sent_twice_is_refused_the_second_time(mod_client, cast_game):
    form = {"seat": "cat", "confirm": "yes"}
    first = mod_client.post(_url(cast_game, "game_desk_remove"), form, follow=True)
    assert "Cat has been removed from the game." in _messages(first)
    before = _snapshot(cast_game)
    second = mod_client.post(_url(cast_game, "game_desk_remove"), form, follow=True)
    assert second.status_code == 200
    assert _messages(second) == ["Cat has already been removed."]
    assert _snapshot(cast_game) == before


def test_desk_stalemate_sent_twice_is_refused_the_second_time(mod_client, cast_game):
    form = {"confirm": "yes"}
    first = mod_client.post(_url(cast_game, "game_desk_stalemate"), form, follow=True)
    assert "You declared a stalemate: the game is over." in _messages(first)
    before = _snapshot(cast_game)
    second = mod_client.post(_url(cast_game, "game_desk_stalemate"), form, follow=True)
    assert second.status_code == 200
    assert _messages(second) == ["This game is not running."]
    assert _snapshot(cast_game) == before


@pytest.mark.parametrize("name", ["clock_extend", "clock_shorten"])
def test_a_clock_move_sent_twice_moves_the_deadline_once(mod_client, cast_game, name):
    """The form carries the deadline it showed: the second click finds it moved."""
    shown = Game.objects.get(pk=cast_game.pk).deadline_at
    form = {"minutes": 60, "deadline": shown.isoformat(), "next": _url(cast_game, "game_desk")}
    first = mod_client.post(_url(cast_game, name), form, follow=True)
    moved = Game.objects.get(pk=cast_game.pk).deadline_at
    assert abs(moved - shown) == timedelta(hours=1)
    second = mod_client.post(_url(cast_game, name), form, follow=True)
    assert first.status_code == second.status_code == 200
    assert _messages(second) == [
        "The deadline has moved since this page was loaded: nothing was changed. "
        "Reload the page to see it."
    ]
    cast_game.refresh_from_db()
    assert cast_game.deadline_at == moved
    assert cast_game.phase == "day 1" and _advances(cast_game) == 0


def test_a_clock_move_without_the_deadline_it_showed_is_refused(mod_client, cast_game):
    before = _snapshot(cast_game)
    response = mod_client.post(_url(cast_game, "clock_extend"), {"minutes": 60}, follow=True)
    assert _messages(response) == [
        "This form does not say which deadline it moves: reload the page and try again."
    ]
    assert _snapshot(cast_game) == before


# --- under real concurrency (PostgreSQL row locks) -----------------------------------------------
def _in_threads(*targets):
    """Run the targets in threads released together; returns (results, errors)."""
    barrier = threading.Barrier(len(targets))
    results, errors = [None] * len(targets), [None] * len(targets)

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = targets[i]()
        except Exception as e:  # noqa: BLE001 - the test reads each outcome
            errors[i] = e
        finally:
            connections.close_all()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(targets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results, errors


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
)
@pytest.mark.django_db(transaction=True)
def test_the_moderators_advance_and_the_sweep_at_once_end_one_phase(moderator, cast_users):
    game = make_game(moderator, cast_users)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))

    def moderator_advance():
        return services.phase_advance(
            game=Game.objects.get(pk=game.pk), by=moderator, expected_phase="day 1"
        )

    results, errors = _in_threads(moderator_advance, sweep.clock_sweep)
    game.refresh_from_db()
    assert game.phase == "night 1" and _advances(game) == 1
    if errors[0] is None:  # the moderator won: the sweep found nothing due
        assert results[1] == {} and errors[1] is None
    else:  # the sweep won: the moderator is told, and nothing more happened
        assert isinstance(errors[0], GameRuleError) and str(errors[0]) == STALE
        assert results[1] == {sweep.ADVANCED: 1}
