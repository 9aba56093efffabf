"""The phase clock: the sweep's unit of work with time frozen, the moderator's controls,
early ends (W-2), midnight (W-3) and the deadline partial."""

from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone

from games import clock, services, turns
from games.engine import GameRuleError
from games.mapping import engine_state
from games.models import Game, GameInput, PhaseLockIn, Post
from tests.games.conftest import T0, make_game

DAY = timedelta(hours=72)
NIGHT = timedelta(hours=24)


def _night(game, at):
    """Advance `game` to Night 1 at `at` (the moderator's "advance now")."""
    services.phase_advance(game=game, by=game.host, now=at)
    game.refresh_from_db()
    return game


def _fresh(game):
    return Game.objects.get(pk=game.pk)


# --- the sweep's unit of work ---------------------------------------------------------------
def test_clock_tick_advances_a_due_day_to_night_with_its_deadline_and_midnight(game, traveller):
    assert game.deadline_at == T0 + DAY and game.midnight_at is None
    due = T0 + DAY + timedelta(seconds=5)
    traveller.move_to(due)
    assert clock.clock_tick() == clock.ADVANCED
    game = _fresh(game)
    assert game.phase == "night 1"
    assert game.phase_started_at == due
    assert game.deadline_at == due + NIGHT
    assert game.midnight_at == due + NIGHT / 2
    assert GameInput.objects.filter(game=game).last().step == {"advance": "phase"}
    assert clock.clock_tick() is None  # nothing else is due


def test_clock_tick_passes_a_due_midnight_and_keeps_the_night(game, traveller):
    night_start = T0 + timedelta(hours=1)
    game = _night(game, night_start)
    traveller.move_to(game.midnight_at - timedelta(seconds=1))
    assert clock.clock_tick() is None
    traveller.move_to(game.midnight_at)
    assert clock.clock_tick() == clock.MIDNIGHT
    game = _fresh(game)
    assert game.phase == "night 1" and game.midnight_at is None
    assert game.deadline_at == night_start + NIGHT
    assert engine_state(game).midnight is True
    assert clock.clock_tick() is None


def test_clock_tick_leaves_a_game_that_is_not_due_untouched(game, traveller):
    traveller.move_to(T0 + DAY - timedelta(seconds=1))
    before = (game.inputs_count, game.phase, game.deadline_at)
    assert clock.clock_tick() is None
    game = _fresh(game)
    assert (game.inputs_count, game.phase, game.deadline_at) == before


def test_clock_tick_passes_midnight_first_when_a_whole_night_is_overdue(game, traveller):
    game = _night(game, T0)
    traveller.move_to(T0 + NIGHT * 3)  # the worker was down all night
    assert clock.clock_tick() == clock.ADVANCED
    game = _fresh(game)
    assert game.phase == "day 2"
    kinds = list(game.events.values_list("kind", flat=True))
    assert kinds.index("midnight") < kinds.index("phase", kinds.index("midnight"))


def test_clock_never_advances_a_paused_game(game, traveller, moderator):
    traveller.move_to(T0 + timedelta(hours=70))
    clock.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(days=30))
    assert clock.clock_tick() is None
    assert clock.clock_sweep() == {}
    assert _fresh(game).phase == "day 1"


def test_clock_records_a_failing_game_pushes_it_back_and_goes_on(traveller, moderator, cast_users):
    broken = make_game(moderator, cast_users)
    healthy = make_game(moderator, cast_users)
    services.vote_cast(game=broken, user=cast_users["ann"], target="bob")
    # Corrupt the stored input for real: its replay is now refused by the engine.
    GameInput.objects.filter(game=broken).update(
        step={"actor": "ann", "action": "vote", "target": "nobody"}
    )
    cache.clear()  # the cached state would hide the corruption
    due = T0 + DAY + timedelta(minutes=1)
    traveller.move_to(due)

    assert clock.clock_sweep() == {clock.FAILED: 1, clock.ADVANCED: 1}
    broken, healthy = _fresh(broken), _fresh(healthy)
    assert healthy.phase == "night 1"
    assert broken.phase == "day 1" and broken.clock_failures == 1
    assert "not a living player" in broken.clock_error
    assert broken.clock_retry_at == due + timedelta(minutes=1)

    # Not retried in a tight loop: the next sweeps leave it alone until its retry time.
    assert clock.clock_sweep() == {}
    traveller.move_to(due + timedelta(seconds=59))
    assert clock.clock_tick() is None
    traveller.move_to(due + timedelta(minutes=1))
    assert clock.clock_tick() == clock.FAILED
    broken = _fresh(broken)
    assert broken.clock_failures == 2
    assert broken.clock_retry_at == due + timedelta(minutes=3)  # backoff doubles
    assert broken.inputs_count == 1  # the failed resolution left nothing behind


def test_clock_clears_the_failure_once_the_game_resolves_again(game, traveller, cast_users):
    services.vote_cast(game=game, user=cast_users["ann"], target="bob")
    good = GameInput.objects.get(game=game).step
    GameInput.objects.filter(game=game).update(step={"actor": "ann", "action": "nonsense"})
    cache.clear()
    traveller.move_to(T0 + DAY)
    assert clock.clock_tick() == clock.FAILED
    GameInput.objects.filter(game=game).update(step=good)  # the operator repairs it
    cache.clear()
    traveller.move_to(T0 + DAY + timedelta(minutes=2))
    assert clock.clock_tick() == clock.ADVANCED
    game = _fresh(game)
    assert (game.phase, game.clock_failures, game.clock_error, game.clock_retry_at) == (
        "night 1",
        0,
        "",
        None,
    )


def test_clock_backoff_doubles_up_to_an_hour():
    assert [clock.backoff(n).total_seconds() / 60 for n in (1, 2, 3, 6, 7, 20)] == [
        1,
        2,
        4,
        32,
        60,
        60,
    ]


def test_clock_sweep_resolves_every_due_game_once(traveller, moderator, cast_users):
    games = [make_game(moderator, cast_users) for _ in range(3)]
    traveller.move_to(T0 + DAY)
    assert clock.clock_sweep() == {clock.ADVANCED: 3}
    assert {_fresh(g).phase for g in games} == {"night 1"}
    assert clock.clock_sweep() == {}


def test_clock_tick_ignores_finished_games(game, traveller):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    traveller.move_to(T0 + DAY * 2)
    assert clock.clock_tick() is None


# --- pause, resume, extend, shorten (W-3) --------------------------------------------------
def test_pause_and_resume_shift_deadline_and_midnight_by_the_pause(game, traveller, moderator):
    game = _night(game, T0)
    deadline, midnight = game.deadline_at, game.midnight_at
    traveller.move_to(T0 + timedelta(hours=2))
    clock.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=40))  # past both, but the clock stood still
    assert clock.clock_sweep() == {}
    game = clock.clock_resume(game=game, by=moderator)
    assert game.paused_at is None
    assert game.deadline_at == deadline + timedelta(hours=38)
    assert game.midnight_at == midnight + timedelta(hours=38)
    notices = Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).order_by("number")
    assert [p.body.split(" ")[2] for p in notices] == ["paused", "restarted"]
    assert "22 h left in night 1" in notices[0].body


def test_a_phase_that_opens_during_a_pause_gets_its_full_length_after_resume(
    game, traveller, moderator, cast_users
):
    clock.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=5))
    for voter in ("ann", "cat", "dan", "eve", "fay"):  # a lynch still ends the day
        services.vote_cast(game=game, user=cast_users[voter], target="hal")
    game = _fresh(game)
    assert game.phase == "night 1" and game.paused_at == T0
    traveller.move_to(T0 + timedelta(hours=9))
    game = clock.clock_resume(game=game, by=moderator)
    resumed = T0 + timedelta(hours=9)
    assert game.deadline_at == resumed + NIGHT
    assert game.midnight_at == resumed + NIGHT / 2


def test_extend_moves_the_deadline_and_midnight_by_half(game, traveller, moderator):
    game = _night(game, T0)
    clock.clock_extend(game=game, by=moderator, delta=timedelta(hours=6))
    game = _fresh(game)
    assert game.deadline_at == T0 + NIGHT + timedelta(hours=6)
    assert game.midnight_at == T0 + NIGHT / 2 + timedelta(hours=3)  # still halfway


def test_shorten_passes_a_midnight_that_is_now_behind_us_at_once(game, traveller, moderator):
    game = _night(game, T0)
    traveller.move_to(T0 + timedelta(hours=10))  # 2 h before midnight
    clock.clock_shorten(game=game, by=moderator, delta=timedelta(hours=6))
    game = _fresh(game)
    assert game.deadline_at == T0 + timedelta(hours=18)
    assert game.midnight_at is None  # the new midpoint, 9 h, was already past
    assert engine_state(game).midnight and game.phase == "night 1"


def test_shorten_refuses_to_end_the_phase_and_changes_nothing(game, traveller, moderator):
    traveller.move_to(T0 + DAY - timedelta(hours=2))
    with pytest.raises(GameRuleError, match="only 2 h left; to end it now, advance"):
        clock.clock_shorten(game=game, by=moderator, delta=timedelta(hours=2))
    assert _fresh(game).deadline_at == T0 + DAY
    assert not Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).exists()


def test_clock_controls_are_the_moderators_alone(game, cast_users, moderator):
    for control in (clock.clock_pause, clock.clock_resume):
        with pytest.raises(GameRuleError, match="only the game's moderator"):
            control(game=game, by=cast_users["ann"])
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        clock.clock_extend(game=game, by=cast_users["ann"], delta=timedelta(hours=1))
    with pytest.raises(GameRuleError, match="not paused"):
        clock.clock_resume(game=game, by=moderator)
    with pytest.raises(GameRuleError, match="between 1 minute and 14 days"):
        clock.clock_extend(game=game, by=moderator, delta=timedelta(days=15))
    assert _fresh(game).deadline_at == T0 + DAY


# --- early end (W-2) ----------------------------------------------------------------------
@pytest.fixture
def early(traveller, moderator, cast_users):
    return make_game(moderator, cast_users, early_end=True)


def _lock_in_all(game, users, except_=()):
    state = engine_state(_fresh(game))
    for name in turns.seats_still_deciding(state, set()):
        if name not in except_:
            services.phase_lock_in(game=game, user=users[name])


def test_early_end_day_ends_when_every_living_player_is_done(early, cast_users):
    _lock_in_all(early, cast_users, except_=("hal",))
    assert _fresh(early).phase == "day 1"
    assert services.phase_lock_in(game=early, user=cast_users["hal"]) is True
    game = _fresh(early)
    assert game.phase == "night 1"
    assert game.deadline_at == T0 + NIGHT  # a fresh night from the moment it began


def test_early_end_waits_for_a_player_who_takes_back_done(early, cast_users):
    _lock_in_all(early, cast_users, except_=("hal",))
    services.phase_lock_out(game=early, user=cast_users["ann"])
    services.phase_lock_in(game=early, user=cast_users["hal"])
    assert _fresh(early).phase == "day 1"
    with pytest.raises(GameRuleError, match="not said you are done"):
        services.phase_lock_out(game=early, user=cast_users["ann"])


def test_early_end_never_ends_a_night_before_its_midnight(early, cast_users, traveller):
    game = _night(early, T0)
    with pytest.raises(GameRuleError, match="never ends before its midnight"):
        services.phase_lock_in(game=game, user=cast_users["ann"])
    traveller.move_to(game.midnight_at)
    assert clock.clock_tick() == clock.MIDNIGHT
    state = engine_state(_fresh(game))
    deciding = turns.seats_still_deciding(state, set())
    assert "ann" in deciding and "dan" not in deciding  # the Gravedigger has no night action
    with pytest.raises(GameRuleError, match="nothing to decide"):
        services.phase_lock_in(game=game, user=cast_users["dan"])
    _lock_in_all(game, cast_users)
    game = _fresh(game)
    assert game.phase == "day 2" and game.phase_started_at == T0 + NIGHT / 2


def test_early_end_waits_for_the_dead_with_an_afterlife_vote(early, cast_users, traveller):
    for voter in ("ann", "cat", "eve", "fay", "gus"):
        services.vote_cast(game=early, user=cast_users[voter], target="dan")
    game = _fresh(early)
    traveller.move_to(game.midnight_at)
    clock.clock_tick()
    state = engine_state(_fresh(game))
    # Dan, a dead Villager, is an Angel: the Angels' protection stays open after midnight.
    assert not state.seat("dan").living
    assert "dan" in turns.seats_still_deciding(state, set())
    _lock_in_all(game, cast_users, except_=("dan",))
    assert _fresh(game).phase == "night 1"
    services.phase_lock_in(game=game, user=cast_users["dan"])
    assert _fresh(game).phase == "day 2"


def test_early_end_is_off_unless_the_game_turns_it_on(game, cast_users):
    with pytest.raises(GameRuleError, match="run to their deadlines"):
        services.phase_lock_in(game=game, user=cast_users["ann"])
    assert not PhaseLockIn.objects.exists()


def test_early_end_waits_while_the_clock_is_paused(early, cast_users, moderator, traveller):
    clock.clock_pause(game=early, by=moderator)
    _lock_in_all(early, cast_users)
    assert _fresh(early).phase == "day 1"
    traveller.move_to(T0 + timedelta(hours=1))
    clock.clock_resume(game=early, by=moderator)
    assert _fresh(early).phase == "night 1"


# --- the deadline partial -----------------------------------------------------------------
def test_deadline_partial_shows_local_time_utc_and_a_countdown(game, traveller):
    traveller.move_to(T0 + DAY - timedelta(hours=2, minutes=14, seconds=30))
    with timezone.override(ZoneInfo("Asia/Tokyo")):
        html = render_to_string("games/_deadline.html", {"game": game})
    # Day 1 ends Thu 5 Mar 18:00 UTC, which is Fri 6 Mar 03:00 in Tokyo.
    assert "Fri 6 Mar, 03:00 JST" in html
    assert "(Thu 5 Mar, 18:00 UTC)" in html
    assert "in 2 h 14 min" in html
    assert 'data-countdown="2026-03-05T18:00:00+00:00"' in html
    assert "js/countdown.js" in html


def test_deadline_partial_shows_utc_once_to_a_viewer_on_utc(game):
    with timezone.override(UTC):
        html = render_to_string("games/_deadline.html", {"game": game})
    assert html.count("Thu 5 Mar, 18:00") == 1 and "18:00 UTC" in html


def test_deadline_partial_says_paused_with_the_time_left(game, traveller, moderator):
    traveller.move_to(T0 + timedelta(hours=71))
    clock.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=90))
    html = render_to_string("games/_deadline.html", {"game": _fresh(game)})
    assert "the clock is paused" in html and "1 h left" in html
    assert "data-countdown" not in html


def test_deadline_partial_shows_midnight_at_night(game, traveller):
    game = _night(game, T0)
    with timezone.override(UTC):
        html = render_to_string("games/_deadline.html", {"game": game})
    assert "midnight" in html and "06:00" in html


def test_deadline_partial_is_empty_without_a_deadline(moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    assert render_to_string("games/_deadline.html", {"game": game}).strip() == ""


def test_game_page_shows_the_deadline_in_the_viewers_time_zone(game, client, cast_users):
    ann = cast_users["ann"]
    ann.time_zone = "America/New_York"
    ann.save()
    client.force_login(ann)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Thu 5 Mar, 13:00 EST" in html and "(Thu 5 Mar, 18:00 UTC)" in html


# --- the controls on the page -------------------------------------------------------------
def test_moderator_pauses_extends_and_resumes_through_the_views(game, client, moderator):
    client.force_login(moderator)
    assert client.get(f"/games/{game.pk}/clock/pause/").status_code == 405
    response = client.post(f"/games/{game.pk}/clock/pause/", follow=True)
    assert "The clock is paused" in response.content.decode()
    assert _fresh(game).paused_at == T0
    client.post(f"/games/{game.pk}/clock/extend/", {"minutes": "720"})
    assert _fresh(game).deadline_at == T0 + DAY + timedelta(hours=12)
    response = client.post(f"/games/{game.pk}/clock/shorten/", {"minutes": "7"}, follow=True)
    assert "choose how far to move the deadline" in response.content.decode().lower()
    client.post(f"/games/{game.pk}/clock/resume/")
    assert _fresh(game).paused_at is None


def test_a_player_cannot_touch_the_clock_through_the_views(game, client, cast_users):
    client.force_login(cast_users["ann"])
    response = client.post(f"/games/{game.pk}/clock/pause/", follow=True)
    assert "Only the game&#x27;s moderator can change its clock." in response.content.decode()
    assert _fresh(game).paused_at is None
    assert client.post(f"/games/{game.pk + 999}/clock/pause/").status_code == 404


def test_clock_controls_show_the_moderator_controls_only_to_the_moderator(
    game, rf, moderator, cast_users
):
    from django.template import Context, Template

    template = Template("{% load clock_tags %}{% clock_controls game %}")
    for user, sees in ((moderator, True), (cast_users["ann"], False)):
        request = rf.get("/")
        request.user = user
        html = template.render(Context({"game": game, "request": request}))
        assert ("Pause the clock" in html) is sees
        assert "done for" not in html  # this game runs phases to their deadlines


def test_done_button_through_the_views_ends_the_day_early(early, client, cast_users):
    _lock_in_all(early, cast_users, except_=("hal",))
    client.force_login(cast_users["hal"])
    assert client.get(f"/games/{early.pk}/done/").status_code == 405
    response = client.post(f"/games/{early.pk}/done/", follow=True)
    assert "Everyone was done: the phase has ended." in response.content.decode()
    assert _fresh(early).phase == "night 1"


def test_done_controls_say_how_many_the_phase_waits_for(early, rf, cast_users):
    from django.template import Context, Template

    services.phase_lock_in(game=early, user=cast_users["ann"])
    template = Template("{% load clock_tags %}{% clock_controls game %}")
    request = rf.get("/")
    request.user = cast_users["ann"]
    html = template.render(Context({"game": _fresh(early), "request": request}))
    assert "You said you are done for day 1. Waiting for 7 more." in html
    request.user = cast_users["bob"]
    html = template.render(Context({"game": _fresh(early), "request": request}))
    assert "done for day 1</button>" in html and "(7 still deciding)" in html


# --- per-game settings --------------------------------------------------------------------
def test_game_create_takes_the_clock_settings_and_refuses_bad_reminder_times(moderator, cast_users):
    from django.core.exceptions import ValidationError

    game = make_game(moderator, cast_users, start=False, early_end=True, reminder_hours=[2, 12])
    assert game.early_end is True and game.reminder_hours == [12, 2]
    for bad in ([0], [1, 1], ["1"], [24 * 8], list(range(1, 9))):
        with pytest.raises(ValidationError, match="reminder|Reminder"):
            make_game(moderator, cast_users, start=False, reminder_hours=bad)


def test_reminders_follow_the_games_own_times(traveller, moderator, cast_users):
    game = make_game(moderator, cast_users, reminder_hours=[2, 12])
    assert game.next_reminder_at == T0 + DAY - timedelta(hours=12)
    game = make_game(moderator, cast_users, reminder_hours=[])
    assert game.next_reminder_at is None
