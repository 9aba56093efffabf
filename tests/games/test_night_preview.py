"""The moderator's preview of the phase's end (issue 17): "if the deadline passed now", from
the standing votes and submissions, each outcome with its ruling; nothing written, nothing
told, and nobody but the moderator sees it."""

import pytest
from django.apps import apps
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

from games import mapping, services
from games.mapping import engine_state
from games.models import Game, GameEvent
from games.narration import describe_event
from games.selectors.log import by_phase, events_all
from games.selectors.preview import phase_preview
from games.selectors.seats import display_names, game_seats
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text

pytestmark = pytest.mark.django_db
TITLE = "If the deadline passed now"


def _desk(client, game):
    return client.get(reverse("game_desk", args=[game.pk]))


def _rows():
    """Every row of every model of the games app, by model."""
    return {m.__name__: m.objects.count() for m in apps.get_app_config("games").get_models()}


def _night_1(game, users):
    """Hal is lynched on Day 1; on Night 1 the Coven (Bob) names Dan."""
    for voter in ("ann", "bob", "cat", "dan", "eve"):
        services.vote_cast(game=game, user=users[voter], target="hal")
    services.action_submit(game=game, user=users["bob"], action="coven", target="dan")
    game.refresh_from_db()
    assert game.phase == "night 1"
    return game


def _preview(game):
    game.refresh_from_db()  # the state is cached by the number of inputs
    names = display_names(game_seats(game))
    return phase_preview(game, by_phase(events_all(game)), names)


def test_the_night_preview_shows_the_outcomes_and_their_rulings(client, moderator, cast_game,
                                                               cast_users):  # fmt: skip
    game = _night_1(cast_game, cast_users)
    client.force_login(moderator)
    text = page_text(_desk(client, game).content.decode())
    assert TITLE in text
    assert "Dan died to the Coven's kill: nothing saved them. ( W-9 )" in text
    assert "Day 2 begins." in text
    assert "At midnight the Coven's and the Court's targets and the vetoes lock. ( W-3 )" in text


def test_the_preview_writes_nothing_and_leaves_the_cached_state_alone(
    client, moderator, cast_game, cast_users
):
    game = _night_1(cast_game, cast_users)
    client.force_login(moderator)
    engine_state(game)  # cached
    key = mapping._key(game)
    blob, rows, outbox = cache.get(key), _rows(), len(mail.outbox)
    assert blob is not None
    before = Game.objects.values().get(pk=game.pk)
    assert TITLE in page_text(_desk(client, game).content.decode())
    assert _preview(game).lines  # and through the selector, outside a request
    assert _rows() == rows
    assert len(mail.outbox) == outbox
    assert Game.objects.values().get(pk=game.pk) == before
    assert cache.get(key) == blob
    state = engine_state(game)
    assert (state.phase, state.midnight, state.over) == ("night 1", False, False)


def test_the_preview_is_what_the_deadline_then_does(moderator, cast_game, cast_users):
    game = _night_1(cast_game, cast_users)
    services.action_submit(game=game, user=cast_users["ann"], action="ability", targets=["bob"])
    preview = _preview(game)
    first = GameEvent.objects.filter(game=game).count()
    services.phase_advance(game=game, by=moderator)
    names = display_names(game_seats(game))
    made = [
        describe_event(e.kind, e.data, names)
        for e in GameEvent.objects.filter(game=game, index__gte=first).order_by("index")
    ]
    assert [line.text for line in preview.lines] == made
    assert "Priest's check: Bob is in the Coven." in made


def test_by_day_the_preview_says_whether_there_would_be_a_lynch(moderator, cast_game,
                                                                cast_users):  # fmt: skip
    for voter in ("ann", "cat", "dan"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="hal")
    [no_lynch] = [w for line in _preview(cast_game).lines for w in line.whys]
    assert no_lynch.ruling == "W-4"
    assert no_lynch.url.endswith("/rules/witchhunt/#W-4")
    assert no_lynch.text == (
        "No lynch on Day 1: the most votes anyone held, 3 of 8, is not a majority "
        "(a lynch needs 5)."
    )
    # The Judge (Bob) names Eve: the deadline would lynch her (W-30).
    services.action_submit(game=cast_game, user=cast_users["bob"], action="ability",
                           targets=["eve"])  # fmt: skip
    whys = [(w.ruling, w.text) for line in _preview(cast_game).lines for w in line.whys]
    assert (
        "W-30",
        "Eve is lynched at the deadline: the Judge named them and no majority formed.",
    ) in whys


def test_the_preview_is_the_moderators_alone(client, moderator, cast_game, cast_users):
    game = _night_1(cast_game, cast_users)
    outsider = UserFactory(player_name="Zed")
    for user in (cast_users["ann"], cast_users["bob"], outsider):
        client.force_login(user)
        assert _desk(client, game).status_code == 404
        page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        assert TITLE not in page and "W-9" not in page
    client.logout()
    assert _desk(client, game).status_code == 404


def test_no_preview_once_the_game_is_over(client, moderator, cast_game):
    services.stalemate_declare(game=cast_game, by=moderator)
    cast_game.refresh_from_db()
    assert _preview(cast_game) is None
    client.force_login(moderator)
    assert TITLE not in page_text(_desk(client, cast_game).content.decode())
