"""The core's event seam (games/queue.py) and its panels (games/panels.py): a receiver is
one function and one connect line; the core never names it."""

import pytest
from django.db import transaction
from django.template import Context, Template

from games import panels, queue, services
from games.engine import GameRuleError
from games.models import Post
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def connected():
    """Connect receivers for one test; they are gone after it."""
    added = []

    def connect(event, receiver, **kwargs):
        queue.connect(event, receiver, **kwargs)
        added.append((event, receiver))

    yield connect
    for event, receiver in added:
        queue.disconnect(event, receiver)


def test_a_phase_began_receiver_is_one_function_and_one_connect_line(
    connected, moderator, cast_users, django_capture_on_commit_callbacks
):
    """What a chat webhook would be: told of each new phase once the advance has committed."""
    heard = []

    def phase_webhook(*, game, phase, first_event, **_):
        heard.append((game.pk, phase, first_event, game.phase))

    connected(queue.PHASE_BEGAN, phase_webhook, on_commit=True)
    game = make_game(moderator, cast_users)
    before = game.events.count()  # the advance's first event will have this index
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.phase_advance(game=game, by=moderator)
        assert heard == []  # not during the advance
    assert callbacks
    assert heard == [(game.pk, "night 1", before, "night 1")]


def test_an_on_commit_receiver_hears_nothing_of_a_write_that_rolled_back(
    connected, moderator, cast_users, django_capture_on_commit_callbacks
):
    heard = []
    connected(queue.PHASE_BEGAN, lambda **event: heard.append(event), on_commit=True)
    game = make_game(moderator, cast_users)
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            services.phase_advance(game=game, by=moderator)
            raise RuntimeError("the write fails after the advance")
    assert heard == []
    game.refresh_from_db()
    assert game.phase == "day 1"


def test_a_receiver_in_the_transaction_can_refuse_the_write(connected, moderator, cast_users):
    game = make_game(moderator, cast_users)

    def quiet_please(*, post, **_):
        raise GameRuleError("the thread is closed for a minute")

    connected(queue.POST_CREATED, quiet_please)
    with pytest.raises(GameRuleError, match="closed for a minute"):
        services.post_create(game=game, user=cast_users["ann"], body="Hello")
    assert not Post.objects.filter(game=game, thread="public", kind="player").exists()


def test_refine_passes_the_value_through_each_receiver_in_turn(connected, moderator, cast_users):
    game = make_game(moderator, cast_users)
    connected(queue.POST_BODY, lambda body, **_: body._replace(text=body.text + " [1]"))
    connected(queue.POST_BODY, lambda body, **_: body._replace(text=body.text + " [2]"))
    post = services.post_create(game=game, user=cast_users["ann"], body="Hello")
    assert post.body == "Hello [1] [2]"


def test_emit_returns_what_the_receivers_in_the_transaction_said(connected):
    connected(queue.SWEEP_TICKED, lambda **_: True)
    counts = {}
    assert True in queue.emit(queue.SWEEP_TICKED, now=None, counts=counts)


def test_an_unknown_event_or_page_is_refused():
    with pytest.raises(ValueError, match="not one of the core's events"):
        queue.connect("phase_begun", lambda **_: None)
    with pytest.raises(ValueError, match="not a page"):
        panels.register("gaem", "aside", "x.html", lambda **_: None)


def test_connecting_twice_connects_once(connected):
    def receiver(**_):
        return 1

    connected(queue.SWEEP_TICKED, receiver)
    queue.connect(queue.SWEEP_TICKED, receiver)
    assert [r.function for r in queue.receivers(queue.SWEEP_TICKED)].count(receiver) == 1


def test_a_panel_shows_its_data_in_its_slot_in_order(settings, tmp_path):
    (tmp_path / "first.html").write_text("<p>{{ panel.word }} for {{ seat }}</p>")
    (tmp_path / "second.html").write_text("<p>{{ panel }}</p>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    calls = []

    def first(*, game, **_):
        calls.append(game)
        return {"word": "<b>hello</b>"}

    def nothing(**_):
        return None  # shows nothing

    registered = panels._providers[panels.LOBBY]
    panels._providers[panels.LOBBY] = []  # this test's providers alone
    panels.register(panels.LOBBY, "test-slot", "second.html", lambda **_: "second", order=20)
    panels.register(panels.LOBBY, "test-slot", "first.html", first, order=10)
    panels.register(panels.LOBBY, "test-slot", "first.html", nothing, order=15)
    try:
        found = panels.collect(panels.LOBBY, game="G")
        html = (
            Template('{% load panel_tags %}{% panel_slot found "test-slot" seat="Ann" %}')
            .render(Context({"found": found}))
            .strip()
        )
    finally:
        panels._providers[panels.LOBBY] = registered
    assert calls == ["G"]
    assert html == "<p>&lt;b&gt;hello&lt;/b&gt; for Ann</p><p>second</p>"  # escaped, in order
    assert found.data("test-slot") == {"word": "<b>hello</b>"}
    assert not found["another-slot"]
