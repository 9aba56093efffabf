"""The phase clock: the sweep's unit of work with time frozen, the moderator's controls,
early ends (W-2), midnight (W-3) and the deadline partial."""

import re
from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import services, turns
from games.engine import GameRuleError
from games.mapping import engine_state
from games.models import Game, GameInput, PhaseLockIn, Post, Seat
from games.selectors.clock import early_end_panel
from games.selectors.desk import moderator_log
from games.services import sweep
from tests.games import said
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
    assert sweep.clock_tick() == sweep.ADVANCED
    game = _fresh(game)
    assert game.phase == "night 1"
    assert game.phase_started_at == due
    assert game.deadline_at == due + NIGHT
    assert game.midnight_at == due + NIGHT / 2
    assert GameInput.objects.filter(game=game).last().step == {"advance": "phase"}
    assert sweep.clock_tick() is None  # nothing else is due


def test_clock_tick_passes_a_due_midnight_and_keeps_the_night(game, traveller):
    night_start = T0 + timedelta(hours=1)
    game = _night(game, night_start)
    traveller.move_to(game.midnight_at - timedelta(seconds=1))
    assert sweep.clock_tick() is None
    traveller.move_to(game.midnight_at)
    assert sweep.clock_tick() == sweep.MIDNIGHT
    game = _fresh(game)
    assert game.phase == "night 1" and game.midnight_at is None
    assert game.deadline_at == night_start + NIGHT
    assert engine_state(game).midnight is True
    assert sweep.clock_tick() is None


def test_clock_tick_leaves_a_game_that_is_not_due_untouched(game, traveller):
    traveller.move_to(T0 + DAY - timedelta(seconds=1))
    before = (game.inputs_count, game.phase, game.deadline_at)
    assert sweep.clock_tick() is None
    game = _fresh(game)
    assert (game.inputs_count, game.phase, game.deadline_at) == before


def test_clock_tick_passes_midnight_first_when_a_whole_night_is_overdue(game, traveller):
    game = _night(game, T0)
    traveller.move_to(T0 + NIGHT * 3)  # the worker was down all night
    assert sweep.clock_tick() == sweep.ADVANCED
    game = _fresh(game)
    assert game.phase == "day 2"
    kinds = list(game.events.values_list("kind", flat=True))
    assert kinds.index("midnight") < kinds.index("phase", kinds.index("midnight"))


def test_clock_never_advances_a_paused_game(game, traveller, moderator):
    traveller.move_to(T0 + timedelta(hours=70))
    services.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(days=30))
    assert sweep.clock_tick() is None
    assert sweep.clock_sweep() == {}
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

    assert sweep.clock_sweep() == {sweep.FAILED: 1, sweep.ADVANCED: 1}
    broken, healthy = _fresh(broken), _fresh(healthy)
    assert healthy.phase == "night 1"
    assert broken.phase == "day 1" and broken.clock_failures == 1
    assert "not a living player" in broken.clock_error
    assert broken.clock_retry_at == due + timedelta(minutes=1)

    # Not retried in a tight loop: the next sweeps leave it alone until its retry time.
    assert sweep.clock_sweep() == {}
    traveller.move_to(due + timedelta(seconds=59))
    assert sweep.clock_tick() is None
    traveller.move_to(due + timedelta(minutes=1))
    assert sweep.clock_tick() == sweep.FAILED
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
    assert sweep.clock_tick() == sweep.FAILED
    GameInput.objects.filter(game=game).update(step=good)  # the operator repairs it
    cache.clear()
    traveller.move_to(T0 + DAY + timedelta(minutes=2))
    assert sweep.clock_tick() == sweep.ADVANCED
    game = _fresh(game)
    assert (game.phase, game.clock_failures, game.clock_error, game.clock_retry_at) == (
        "night 1",
        0,
        "",
        None,
    )


def test_clock_backoff_doubles_up_to_an_hour():
    assert [sweep.backoff(n).total_seconds() / 60 for n in (1, 2, 3, 6, 7, 20)] == [
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
    assert sweep.clock_sweep() == {sweep.ADVANCED: 3}
    assert {_fresh(g).phase for g in games} == {"night 1"}
    assert sweep.clock_sweep() == {}


def test_clock_tick_ignores_finished_games(game, traveller):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    traveller.move_to(T0 + DAY * 2)
    assert sweep.clock_tick() is None


# --- pause, resume, extend, shorten (W-3) --------------------------------------------------
def test_pause_and_resume_shift_deadline_and_midnight_by_the_pause(game, traveller, moderator):
    game = _night(game, T0)
    deadline, midnight = game.deadline_at, game.midnight_at
    traveller.move_to(T0 + timedelta(hours=2))
    services.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=40))  # past both, but the clock stood still
    assert sweep.clock_sweep() == {}
    game = services.clock_resume(game=game, by=moderator)
    assert game.paused_at is None
    assert game.deadline_at == deadline + timedelta(hours=38)
    assert game.midnight_at == midnight + timedelta(hours=38)
    notices = Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).order_by("number")
    assert [said.text(p).split(" ")[2] for p in notices] == ["paused", "restarted"]
    assert "22 h left in night 1" in said.text(notices[0])


def test_a_phase_that_opens_during_a_pause_gets_its_full_length_after_resume(
    game, traveller, moderator, cast_users
):
    services.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=5))
    for voter in ("ann", "cat", "dan", "eve", "fay"):  # a lynch still ends the day
        services.vote_cast(game=game, user=cast_users[voter], target="hal")
    game = _fresh(game)
    assert game.phase == "night 1" and game.paused_at == T0
    traveller.move_to(T0 + timedelta(hours=9))
    game = services.clock_resume(game=game, by=moderator)
    resumed = T0 + timedelta(hours=9)
    assert game.deadline_at == resumed + NIGHT
    assert game.midnight_at == resumed + NIGHT / 2


def test_extend_moves_the_deadline_and_midnight_by_half(game, traveller, moderator):
    game = _night(game, T0)
    services.clock_extend(game=game, by=moderator, delta=timedelta(hours=6))
    game = _fresh(game)
    assert game.deadline_at == T0 + NIGHT + timedelta(hours=6)
    assert game.midnight_at == T0 + NIGHT / 2 + timedelta(hours=3)  # still halfway


def test_shorten_passes_a_midnight_that_is_now_behind_us_at_once(game, traveller, moderator):
    game = _night(game, T0)
    traveller.move_to(T0 + timedelta(hours=10))  # 2 h before midnight
    services.clock_shorten(game=game, by=moderator, delta=timedelta(hours=6))
    game = _fresh(game)
    assert game.deadline_at == T0 + timedelta(hours=18)
    assert game.midnight_at is None  # the new midpoint, 9 h, was already past
    assert engine_state(game).midnight and game.phase == "night 1"


def test_shorten_refuses_to_end_the_phase_and_changes_nothing(game, traveller, moderator):
    traveller.move_to(T0 + DAY - timedelta(hours=2))
    with pytest.raises(GameRuleError, match="only 2 h left; to end it now, advance"):
        services.clock_shorten(game=game, by=moderator, delta=timedelta(hours=2))
    assert _fresh(game).deadline_at == T0 + DAY
    assert not Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).exists()


def test_clock_controls_are_the_moderators_alone(game, cast_users, moderator):
    for control in (services.clock_pause, services.clock_resume):
        with pytest.raises(GameRuleError, match="only the game's moderator"):
            control(game=game, by=cast_users["ann"])
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        services.clock_extend(game=game, by=cast_users["ann"], delta=timedelta(hours=1))
    with pytest.raises(GameRuleError, match="not paused"):
        services.clock_resume(game=game, by=moderator)
    with pytest.raises(GameRuleError, match="between 1 minute and 14 days"):
        services.clock_extend(game=game, by=moderator, delta=timedelta(days=15))
    assert _fresh(game).deadline_at == T0 + DAY


# --- early end (W-2a) ---------------------------------------------------------------------
GRACE = timedelta(hours=1)  # W-2a: one hour unless the game sets it


@pytest.fixture
def early(traveller, moderator, cast_users):
    return make_game(moderator, cast_users, early_end=True)


def _lock_in_all(game, users, except_=()):
    """Every living seat says it is done, but `except_`; returns the last call's result."""
    began = None
    for name in turns.living_not_done(engine_state(_fresh(game)), set()):
        if name not in except_:
            began = services.phase_lock_in(game=game, user=users[name])
    return began


def _notices(game):
    """The public thread's own notices: system posts with words of their own."""
    posts = Post.objects.filter(game=game, kind=Post.Kind.SYSTEM, event__isnull=True)
    return [said.text(p) for p in posts]


def test_early_end_every_living_player_done_moves_the_deadline_to_the_grace(
    early, cast_users, traveller, moderator
):
    now = T0 + timedelta(hours=5)
    traveller.move_to(now)
    assert _lock_in_all(early, cast_users, except_=("hal",)) is False
    game = _fresh(early)
    assert (game.phase, game.deadline_at, game.early_end_phase) == ("day 1", T0 + DAY, "")
    assert services.phase_lock_in(game=early, user=cast_users["hal"]) is True
    game = _fresh(early)
    # Not ended at once: the deadline moves up to the grace period from now (W-2a).
    assert game.phase == "day 1" and game.deadline_at == now + GRACE
    assert game.early_end_phase == "day 1"
    # The reminders follow the new deadline: the 24 h one is due at once, then the 1 h one.
    assert game.next_reminder_at == now + GRACE - timedelta(hours=24)
    # The public thread says so once, as the clock's notice, not a moderator's act (W-72).
    assert _notices(game) == [
        "Every living player is done with day 1: it now ends Tue 03 Mar, 00:00 UTC."
    ]
    assert not Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).exists()
    assert moderator_log(game, {}) == []
    # The clock's sweep ends the phase at that deadline, and not before.
    traveller.move_to(now + GRACE - timedelta(seconds=1))
    assert sweep.clock_tick() is None
    traveller.move_to(now + GRACE)
    assert sweep.clock_tick() == sweep.ADVANCED
    game = _fresh(early)
    assert game.phase == "night 1" and game.phase_started_at == now + GRACE
    assert game.deadline_at == now + GRACE + NIGHT  # a fresh night from the moment it began
    assert _notices(game) == _notices(early)[:1]  # a new phase: no new notice


def test_early_end_a_submission_is_not_done(early, cast_users):
    for voter in ("ann", "cat", "dan"):
        services.vote_cast(game=early, user=cast_users[voter], target="hal")
    _lock_in_all(early, cast_users, except_=("ann", "cat", "dan"))
    game = _fresh(early)
    assert game.deadline_at == T0 + DAY and game.early_end_phase == ""
    assert len(turns.living_not_done(engine_state(game), {"bob", "eve"})) == 6


def test_early_end_grace_is_the_games_own(traveller, moderator, cast_users):
    game = make_game(moderator, cast_users, early_end=True, early_end_grace=timedelta(minutes=10))
    _lock_in_all(game, cast_users)
    assert _fresh(game).deadline_at == T0 + timedelta(minutes=10)


def test_early_end_done_cannot_be_taken_back(early, cast_users, client):
    services.phase_lock_in(game=early, user=cast_users["ann"])
    with pytest.raises(GameRuleError, match="already said you are done"):
        services.phase_lock_in(game=early, user=cast_users["ann"])
    assert not hasattr(services, "phase_lock_out")
    client.force_login(cast_users["ann"])
    assert client.post(f"/games/{early.pk}/not-done/").status_code == 404
    assert PhaseLockIn.objects.filter(game=early).count() == 1


def test_early_end_never_ends_a_night_before_its_midnight(early, cast_users, traveller):
    game = _night(early, T0)
    with pytest.raises(GameRuleError, match="never ends before its midnight"):
        services.phase_lock_in(game=game, user=cast_users["ann"])
    assert not PhaseLockIn.objects.filter(game=game).exists()
    traveller.move_to(game.midnight_at)
    assert sweep.clock_tick() == sweep.MIDNIGHT
    # Every living seat says it, with a night action or not: Dan the Gravedigger has none.
    assert "dan" in turns.living_not_done(engine_state(_fresh(game)), set())
    assert _lock_in_all(game, cast_users) is True
    game = _fresh(game)
    assert game.phase == "night 1" and game.deadline_at == T0 + NIGHT / 2 + GRACE
    assert game.midnight_at is None
    traveller.move_to(T0 + NIGHT / 2 + GRACE)
    assert sweep.clock_tick() == sweep.ADVANCED
    game = _fresh(game)
    assert game.phase == "day 2" and game.phase_started_at == T0 + NIGHT / 2 + GRACE


def test_early_end_never_waits_for_the_dead_who_cannot_say_done(early, cast_users, traveller):
    for voter in ("ann", "cat", "eve", "fay", "gus"):
        services.vote_cast(game=early, user=cast_users[voter], target="dan")
    game = _fresh(early)
    midnight = game.midnight_at
    traveller.move_to(midnight)
    sweep.clock_tick()
    state = engine_state(_fresh(game))
    # Dan, a dead Villager, is an Angel: the Angels' protection stays open after midnight,
    # but the early end neither waits for him nor counts him (W-2a).
    assert not state.seat("dan").living
    assert "dan" not in turns.living_not_done(state, set())
    with pytest.raises(GameRuleError, match="only the living say they are done"):
        services.phase_lock_in(game=game, user=cast_users["dan"])
    assert _lock_in_all(game, cast_users) is True
    game = _fresh(game)
    assert game.phase == "night 1" and game.deadline_at == midnight + GRACE


def test_early_end_a_removal_that_leaves_everyone_living_done_starts_the_grace(
    early, cast_users, traveller, moderator
):
    _lock_in_all(early, cast_users, except_=("cat",))
    assert _fresh(early).early_end_phase == ""
    traveller.move_to(T0 + timedelta(hours=2))
    services.player_remove(game=early, seat_name="cat", by=moderator)
    game = _fresh(early)
    assert game.phase == "day 1" and game.deadline_at == T0 + timedelta(hours=2) + GRACE
    assert len(_notices(game)) == 1


def test_early_end_never_moves_a_sooner_deadline_later(early, cast_users, traveller, moderator):
    traveller.move_to(T0 + DAY - timedelta(minutes=30))
    assert _lock_in_all(early, cast_users) is True
    game = _fresh(early)
    assert game.deadline_at == T0 + DAY  # 30 min left is sooner than the grace
    assert _notices(game) == [
        "Every living player is done with day 1: it now ends Thu 05 Mar, 18:00 UTC."
    ]


def test_early_end_moves_the_deadline_once_a_phase(early, cast_users, traveller, moderator):
    traveller.move_to(T0 + timedelta(hours=5))
    _lock_in_all(early, cast_users)
    assert _fresh(early).deadline_at == T0 + timedelta(hours=6)
    traveller.move_to(T0 + timedelta(hours=5, minutes=30))
    services.vote_cast(game=early, user=cast_users["ann"], target="hal")  # never twice later
    assert _fresh(early).deadline_at == T0 + timedelta(hours=6)
    services.clock_extend(game=early, by=moderator, delta=timedelta(hours=12))
    services.vote_cast(game=early, user=cast_users["bob"], target="hal")  # nor pulled back
    assert _fresh(early).deadline_at == T0 + timedelta(hours=18)
    assert len(_notices(early)) == 1


def test_early_end_is_off_unless_the_game_turns_it_on(game, cast_users):
    with pytest.raises(GameRuleError, match="run to their deadlines"):
        services.phase_lock_in(game=game, user=cast_users["ann"])
    assert not PhaseLockIn.objects.exists()


def test_early_end_waits_while_the_clock_is_paused(early, cast_users, moderator, traveller):
    services.clock_pause(game=early, by=moderator)
    assert _lock_in_all(early, cast_users) is False
    game = _fresh(early)
    assert game.deadline_at == T0 + DAY and game.early_end_phase == "" and not _notices(game)
    resumed = T0 + timedelta(hours=3)
    traveller.move_to(resumed)
    services.clock_resume(game=early, by=moderator)
    game = _fresh(early)
    assert game.phase == "day 1" and game.deadline_at == resumed + GRACE
    assert game.early_end_phase == "day 1" and len(_notices(game)) == 1
    traveller.move_to(resumed + GRACE)
    assert sweep.clock_tick() == sweep.ADVANCED
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
    # static/js/deadline.js counts to the <time>'s datetime, with the server's time beside it.
    assert '<time datetime="2026-03-05T18:00:00+00:00">' in html
    assert 'class="countdown" data-now="2026-03-05T15:45:30+00:00"' in html
    assert 'role="status" data-deadline-passed' in html
    assert "js/deadline.js" in html


def test_deadline_partial_shows_utc_once_to_a_viewer_on_utc(game):
    with timezone.override(UTC):
        html = render_to_string("games/_deadline.html", {"game": game})
    assert html.count("Thu 5 Mar, 18:00") == 1 and "18:00 UTC" in html


def test_deadline_partial_says_paused_with_the_time_left(game, traveller, moderator):
    traveller.move_to(T0 + timedelta(hours=71))
    services.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=90))
    html = render_to_string("games/_deadline.html", {"game": _fresh(game)})
    assert "the clock is paused" in html and "1 h left" in html
    assert "data-now" not in html and "data-deadline-passed" not in html


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
    shown = _fresh(game).deadline_at.isoformat()
    client.post(f"/games/{game.pk}/clock/extend/", {"minutes": "720", "deadline": shown})
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
    game, client, moderator, cast_users
):
    desk, detail = (reverse(name, args=[game.pk]) for name in ("game_desk", "game_detail"))
    client.force_login(moderator)
    html = client.get(desk).content.decode()
    assert "Pause the clock" in html and "done for" not in html
    client.force_login(cast_users["ann"])
    assert client.get(desk).status_code == 404
    html = client.get(detail, follow=True).content.decode()
    assert "Pause the clock" not in html
    assert "done for" not in html  # this game runs phases to their deadlines


def test_done_button_through_the_views_starts_the_grace(early, client, cast_users, traveller):
    _lock_in_all(early, cast_users, except_=("hal",))
    client.force_login(cast_users["ann"])
    response = client.post(f"/games/{early.pk}/done/", follow=True)
    assert "You have already said you are done in this phase." in response.content.decode()
    client.force_login(cast_users["hal"])
    assert client.get(f"/games/{early.pk}/done/").status_code == 405
    traveller.move_to(T0 + timedelta(hours=1))
    response = client.post(f"/games/{early.pk}/done/", follow=True)
    text = response.content.decode()
    assert "Every living player is now done: the phase ends early, at the deadline" in text
    # The notice's moment, in the reader's zone (UTC here), as the thread renders it.
    assert (
        "Every living player is done with day 1: it now ends "
        '<time datetime="2026-03-02T20:00:00Z" title="Monday 2 March 2026, 20:00 UTC">'
        "Mon 2 Mar, 20:00 UTC</time>." in text
    )
    game = _fresh(early)
    assert game.phase == "day 1" and game.deadline_at == T0 + timedelta(hours=1) + GRACE


def test_done_button_through_the_views_says_done_is_final(early, client, cast_users):
    client.force_login(cast_users["ann"])
    response = client.post(f"/games/{early.pk}/done/", follow=True)
    assert "You are done for this phase; that cannot be taken back." in response.content.decode()
    assert _fresh(early).deadline_at == T0 + DAY


def _panel(game, user, rf):
    """The "I'm done" panel as the game page shows it to `user`."""
    request = rf.get("/")
    request.user = user
    game = _fresh(game)
    early = early_end_panel(game, Seat.objects.filter(game=game, user=user).first())
    html = render_to_string("clock/_done.html", {"game": game, "early": early}, request)
    return " ".join(re.sub(r"<(?!/button)[^>]+>", "", html).split())


def test_done_controls_count_the_living_not_done_and_say_done_is_final(
    early, rf, cast_users, traveller
):
    bob = _panel(early, cast_users["bob"], rf)
    assert "I'm done for day 1</button>" in bob and "This cannot be taken back." in bob
    assert "8 living players are not done yet." in bob
    services.phase_lock_in(game=early, user=cast_users["ann"])
    ann = _panel(early, cast_users["ann"], rf)
    assert "You said you are done for day 1. That cannot be taken back" in ann
    assert "7 living players are not done yet." in ann and "</button>" not in ann
    _lock_in_all(early, cast_users, except_=("ann", "hal"))
    assert "1 living player is not done yet." in _panel(early, cast_users["hal"], rf)
    traveller.move_to(T0 + timedelta(hours=2))
    services.phase_lock_in(game=early, user=cast_users["hal"])
    with timezone.override(UTC):
        hal = _panel(early, cast_users["hal"], rf)
    assert "Every living player is done: day 1 now ends Mon 2 Mar, 21:00 UTC." in hal
    assert "not done yet" not in hal and "</button>" not in hal


def test_done_controls_by_night_count_the_living_and_refuse_the_dead(
    early, rf, cast_users, traveller
):
    for voter in ("ann", "cat", "eve", "fay", "gus"):
        services.vote_cast(game=early, user=cast_users[voter], target="dan")
    ann = _panel(early, cast_users["ann"], rf)
    assert "never a night before its midnight" in ann and "</button>" not in ann
    assert "7 living players are not done yet." in ann
    traveller.move_to(_fresh(early).midnight_at)
    sweep.clock_tick()
    ann = _panel(early, cast_users["ann"], rf)
    assert "I'm done for night 1</button>" in ann and "7 living players are not done yet." in ann
    dan = _panel(early, cast_users["dan"], rf)
    assert "Only the living say they are done" in dan and "</button>" not in dan
    assert "7 living players are not done yet." in dan


# --- per-game settings --------------------------------------------------------------------
def test_game_create_takes_the_clock_settings_and_refuses_bad_reminder_times(moderator, cast_users):
    from django.core.exceptions import ValidationError

    game = make_game(moderator, cast_users, start=False, early_end=True, reminder_hours=[2, 12])
    assert game.early_end is True and game.reminder_hours == [12, 2]
    assert game.early_end_grace == timedelta(hours=1)  # W-2a: one hour unless set
    for bad in (timedelta(minutes=4), timedelta(days=2, seconds=1)):
        with pytest.raises(ValidationError, match="grace period"):
            make_game(moderator, cast_users, start=False, early_end=True, early_end_grace=bad)
    for bad in ([0], [1, 1], ["1"], [24 * 8], list(range(1, 9))):
        with pytest.raises(ValidationError, match="reminder|Reminder"):
            make_game(moderator, cast_users, start=False, reminder_hours=bad)


def test_reminders_follow_the_games_own_times(traveller, moderator, cast_users):
    game = make_game(moderator, cast_users, reminder_hours=[2, 12])
    assert game.next_reminder_at == T0 + DAY - timedelta(hours=12)
    game = make_game(moderator, cast_users, reminder_hours=[])
    assert game.next_reminder_at is None
