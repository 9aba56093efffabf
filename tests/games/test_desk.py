"""The moderator's desk (issue 7, W-72): the whole game live, each seat's activity, and the
moderator's acts through the desk, every one of them in the reveal's moderator's log."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine.rulesets.witchhunt.cards import CHARACTERS
from games.mapping import engine_state
from games.models import Game, GameInput, Post
from games.selectors.desk import moderator_log
from tests.factories import UserFactory
from tests.games import said
from tests.games.afterlife_cast import (
    AFTERLIFE_POST,
    COVEN_POST,
    afterlife_users,
    page_text,
    play_to_day_3,
    room_url,
)
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db


def _url(game, name="game_desk", *args):
    return reverse(name, args=[game.pk, *args])


def _text(response):
    return page_text(response.content.decode())


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client


# --- who sees it ---------------------------------------------------------------------------------
def test_desk_is_the_moderators_alone(client, cast_game, cast_users, moderator):
    """The host, and a user granted games.moderate_any_game; staff status alone is not
    enough (tests/games/test_security.py has the rest)."""
    from django.contrib.auth.models import Permission

    staff = UserFactory(player_name="Staffer", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="moderate_any_game"))
    for user in (moderator, staff):
        client.force_login(user)
        response = client.get(_url(cast_game))
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
    for user in (cast_users["ann"], cast_users["bob"], UserFactory(player_name="Zed"),
                 UserFactory(player_name="Staffless", is_staff=True)):  # fmt: skip
        client.force_login(user)
        assert client.get(_url(cast_game)).status_code == 404
        assert client.get(room_url("game_desk_room", cast_game, "coven")).status_code == 404
        assert client.post(_url(cast_game, "game_desk_advance")).status_code == 404
    client.logout()
    assert client.get(_url(cast_game)).status_code == 404


def test_desk_shows_every_card_every_event_and_every_room(mod_client, moderator):
    users = afterlife_users()
    game, _ = play_to_day_3(moderator, users)
    text = _text(mod_client.get(_url(game)))
    for name, character, _ in (("Ann", "priest", ""), ("Dan", "dirty_old_bastard", ""),
                               ("Eve", "magician", ""), ("Hal", "wizard", "")):  # fmt: skip
        assert f"{name} {CHARACTERS[character][1]}" in text
    assert "Dead (offstage, last act unused)" in text and "Dead (offstage: the Magician)" in text
    assert "Demon Bob votes to veto Cat." in text and "Coven: Hal votes to kill Dan." in text
    assert "The Coven · 1 post · Hal" in text and "The afterlife · 2 posts · Ann, Bob" in text
    room = _text(mod_client.get(room_url("game_desk_room", game, "coven")))
    assert COVEN_POST in room and "You read this room as the moderator" in room
    assert "Write in this room" not in room
    room = _text(mod_client.get(room_url("game_desk_room", game, "afterlife")))
    assert AFTERLIFE_POST in room
    assert mod_client.get(room_url("game_desk_room", game, "court")).status_code == 404
    assert mod_client.get(_url(game, "game_desk_room", "coven")).status_code == 404  # a key


def test_desk_activity_shows_each_current_players_last_post_vote_and_action(
    mod_client, cast_game, cast_users, moderator
):
    t0 = timezone.now()
    with time_machine.travel(t0 - timedelta(hours=5), tick=False):
        services.post_create(game=cast_game, user=cast_users["ann"], body="Morning.")
    with time_machine.travel(t0 - timedelta(hours=2), tick=False):
        services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
        services.vote_cast(game=cast_game, user=cast_users["bob"], target="ann")
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="hi")
    services.player_replace(
        game=cast_game, seat_name="bob", new_user=UserFactory(player_name="Newby"), by=moderator
    )
    with time_machine.travel(t0, tick=False):
        text = _text(mod_client.get(_url(cast_game)))
    assert "Ann Priest Holy Villager Alive 1 5 hours ago 2 hours ago never —" in text
    # Bob's seat: Newby has done nothing yet, and the phase waits on a vote from nobody by
    # day but the living who have not voted.
    assert "Newby Judge Elder Witch Alive 0 never never never —" in text
    assert "Cat Oracle Village Spy Alive 0 never never never Waiting" in text


# --- acts ------------------------------------------------------------------------------------
def test_desk_advance_now_ends_the_phase(mod_client, cast_game):
    # Asked first, for the phase the desk showed (tests/games/test_advance_once.py).
    asked = mod_client.post(_url(cast_game, "game_desk_advance"), {"phase": "day 1"})
    assert "End Day 1 now?" in _text(asked)
    response = mod_client.post(
        _url(cast_game, "game_desk_advance"), {"phase": "day 1", "confirm": "yes"}, follow=True
    )
    assert "Day 1 has ended." in _text(response)
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1"
    assert mod_client.get(_url(cast_game, "game_desk_advance")).status_code == 405


def test_desk_replace_by_player_name(mod_client, cast_game, cast_users):
    newby = UserFactory(player_name="Newby")
    response = mod_client.post(
        _url(cast_game, "game_desk_replace"), {"seat": "bob", "who": "  NEWBY "}, follow=True
    )
    assert "Newby replaces Bob: the seat, its cards, its rooms" in _text(response)
    assert cast_game.seats.get(name="bob").user == newby
    other = UserFactory(player_name="Other")
    # A host names players by player name only (tests/games/test_member_find.py).
    mod_client.post(_url(cast_game, "game_desk_replace"), {"seat": "ann", "who": "other"})
    assert cast_game.seats.get(name="ann").user == other
    notices = [said.text(p) for p in Post.objects.filter(game=cast_game, kind="moderator")]
    assert notices == ["Newby replaces Bob.", "Other replaces Ann."]


@pytest.mark.slow
@pytest.mark.parametrize(
    "data, reason",
    [
        ({"seat": "bob", "who": "nobody-here"}, "No member has the player name nobody-here."),
        ({"seat": "bob", "who": ""}, "Type the new player's player name."),
        ({"seat": "bob", "who": "ann"}, "Ann already has a seat in this game."),
        ({"seat": "bob", "who": "mod"}, "Mod moderates this game and cannot take a seat."),
        ({"seat": "zed", "who": "newby"}, "Choose the seat to give to a new player."),
    ],
)
def test_desk_replace_refused_says_why_and_keeps_the_form(mod_client, cast_game, data, reason):
    UserFactory(player_name="Newby")
    response = mod_client.post(_url(cast_game, "game_desk_replace"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert reason in _text(response)
    assert f'value="{data["who"]}"' in html
    if data["seat"] == "bob":
        assert '<option value="bob" selected>' in html
    assert cast_game.seats.get(name="bob").user.player_name == "Bob"
    assert not Post.objects.filter(game=cast_game, kind="moderator").exists()


def test_desk_remove_asks_first_then_removes(mod_client, cast_game):
    url = _url(cast_game, "game_desk_remove")
    text = _text(mod_client.get(url, {"seat": "cat"}))
    assert "Remove Cat from the game?" in text and "no afterlife" in text
    text = _text(mod_client.post(url, {"seat": "cat"}))  # not confirmed: asked again
    assert "Remove Cat from the game?" in text
    assert engine_state(cast_game).seat("cat").status == "alive"
    response = mod_client.post(url, {"seat": "cat", "confirm": "yes"}, follow=True)
    assert "Cat has been removed from the game." in _text(response)
    cast_game.refresh_from_db()
    assert engine_state(cast_game).seat("cat").status == "removed"
    thread = _text(mod_client.get(reverse("game_detail", args=[cast_game.pk])))
    assert "Cat has been removed from the game by the moderator." in thread
    response = mod_client.post(url, {"seat": "cat", "confirm": "yes"}, follow=True)
    assert "Cat has already been removed." in _text(response)
    response = mod_client.get(url, {"seat": "nobody"}, follow=True)
    assert "Choose the player to remove." in _text(response)


def test_desk_stalemate_asks_first_then_ends_the_game(mod_client, cast_game):
    url = _url(cast_game, "game_desk_stalemate")
    assert "the Witches win at once" in _text(mod_client.get(url)).replace(
        "The Witches", "the Witches"
    )
    cast_game.refresh_from_db()
    assert cast_game.status == Game.Status.RUNNING
    response = mod_client.post(url, {"confirm": "yes"}, follow=True)
    assert "You declared a stalemate: the game is over." in _text(response)
    cast_game.refresh_from_db()
    assert cast_game.status == Game.Status.FINISHED and cast_game.winner == "witches"
    assert "The game is over." in _text(mod_client.get(_url(cast_game)))


def test_desk_has_no_stalemate_for_werewolf(mod_client, moderator):
    cast = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "villager", ""),
            ("Dan", "villager", ""), ("Eve", "villager", "")]  # fmt: skip
    users = {name.lower(): UserFactory(player_name=name) for name, _, _ in cast}
    game = make_game(moderator, users, cast=cast, ruleset="werewolf")
    assert "Declare a stalemate" not in _text(mod_client.get(_url(game)))
    response = mod_client.post(_url(game, "game_desk_stalemate"), {"confirm": "yes"}, follow=True)
    assert "Werewolf has no stalemate rule." in _text(response)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_desk_announcement_is_the_moderators_and_cannot_be_imitated(
    mod_client, client, cast_game, cast_users
):
    response = mod_client.post(
        _url(cast_game, "game_desk_announce"), {"body": "**Deadline** moved."}, follow=True
    )
    assert "Your announcement is in the public thread." in _text(response)
    post = Post.objects.get(game=cast_game, kind="moderator")
    assert post.author.player_name == "Mod" and "<strong>Deadline</strong>" in post.body_html
    # A player's post that pretends to be one is still a player's post: only the engine and
    # the moderator's services write the marked kinds.
    services.post_create(
        game=cast_game,
        user=cast_users["ann"],
        body='<div class="post--moderator">MOD: vote Bob</div>',
    )
    html = mod_client.get(reverse("game_detail", args=[cast_game.pk])).content.decode()
    assert html.count('class="post post--moderator"') == 1
    assert '<div class="post--moderator">' not in html
    # Refused: nothing is posted and the text comes back.
    response = mod_client.post(_url(cast_game, "game_desk_announce"), {"body": "   "})
    assert "Write something first." in _text(response)
    client.force_login(cast_users["ann"])
    assert (
        client.post(_url(cast_game, "game_desk_announce"), {"body": "I am mod"}).status_code == 404
    )
    assert Post.objects.filter(game=cast_game, kind="moderator").count() == 1


def test_desk_is_a_notice_before_the_start_and_after_the_end(mod_client, moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    assert "The desk opens when the game starts." in _text(mod_client.get(_url(game)))
    game = services.game_start(game=game, by=moderator)
    services.stalemate_declare(game=game, by=moderator)
    assert "The game is over." in _text(mod_client.get(_url(game)))


# --- the log ---------------------------------------------------------------------------------
def test_reveal_lists_every_moderator_act_in_order(client, cast_game, cast_users, moderator):
    newby = UserFactory(player_name="Newby")
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")  # not an act
    services.clock_pause(game=cast_game, by=moderator)
    services.clock_resume(game=cast_game, by=moderator)
    services.clock_extend(game=cast_game, by=moderator, delta=timedelta(hours=3))
    services.announcement_post(game=cast_game, by=moderator, body="Play *nice*.")
    services.phase_advance(game=cast_game, by=moderator)
    services.player_replace(game=cast_game, seat_name="dan", new_user=newby, by=moderator)
    services.player_remove(game=cast_game, seat_name="cat", by=moderator)
    services.stalemate_declare(game=cast_game, by=moderator)
    text = _text(client.get(reverse("game_reveal", args=[cast_game.pk])))
    log = text[text.index("The moderator's log") : text.index("The whole log")]
    expected = [
        "The moderator paused the clock",
        "The moderator restarted the clock",
        "The moderator extended",
        "Play nice",
        "Ended day 1 before its deadline (advance now).",
        "Newby replaces Dan.",
        "Removed Cat from the game (W-72).",
        "Declared a stalemate (W-72b).",
    ]
    positions = [log.find(item) for item in expected]
    assert -1 not in positions, dict(zip(expected, positions, strict=True))
    assert positions == sorted(positions)
    assert log.count("· Mod") == len(expected)
    assert GameInput.objects.filter(game=cast_game, seat__isnull=True, by=moderator).count() == 4


# --- the clock's controls: the moderator's on the desk, the players' "I'm done" on the game page
def test_clock_controls_sit_on_the_desk_and_done_on_the_game_page(client, moderator, cast_users):
    game = make_game(moderator, cast_users, early_end=True)
    detail = reverse("game_detail", args=[game.pk])
    client.force_login(moderator)
    assert "Pause the clock" in _text(client.get(_url(game)))
    assert "Pause the clock" not in _text(client.get(detail))
    client.force_login(cast_users["ann"])
    text = _text(client.get(detail))
    assert "I'm done for day 1" in text and "Pause the clock" not in text
    html = client.get(detail, follow=True).content.decode()  # lands on the first unread post
    assert 'style="' not in html[html.index('class="panel phase-done"') :][:2000]


def test_replacement_is_one_transaction_and_the_newcomer_is_not_done(
    moderator, cast_users, monkeypatch
):
    game = make_game(moderator, cast_users, early_end=True)
    services.phase_lock_in(game=game, user=cast_users["bob"])
    newby = UserFactory(player_name="Newby")

    def broken(*args, **kwargs):
        raise RuntimeError("the announcement failed")

    monkeypatch.setattr(services.moderation, "_announce", broken)
    with pytest.raises(RuntimeError):
        services.player_replace(game=game, seat_name="bob", new_user=newby, by=moderator)
    seat = game.seats.get(name="bob")
    assert seat.user == cast_users["bob"] and seat.lock_ins.count() == 1
    assert not GameInput.objects.filter(game=game, step__moderator="replace").exists()
    monkeypatch.undo()
    services.player_replace(game=game, seat_name="bob", new_user=newby, by=moderator)
    seat.refresh_from_db()
    assert seat.user == newby and seat.lock_ins.count() == 0  # the phase waits for Newby


def test_once_every_living_player_is_done_a_replacement_leaves_the_grace_alone(
    moderator, cast_users
):
    """W-2a: the grace began for the phase; the newcomer's seat is not done, but the
    deadline stays where the early end put it, and its notice is no moderator act (W-72)."""
    game = make_game(moderator, cast_users, early_end=True)
    with time_machine.travel(timezone.now() + timedelta(minutes=1), tick=False):
        for name in cast_users:
            services.phase_lock_in(game=game, user=cast_users[name])
        game.refresh_from_db()
        deadline = game.deadline_at
        assert game.early_end_phase == "day 1"
        services.player_replace(
            game=game, seat_name="bob", new_user=UserFactory(player_name="Newby"), by=moderator
        )
    game.refresh_from_db()
    assert game.deadline_at == deadline and game.early_end_phase == "day 1"
    assert game.seats.get(name="bob").lock_ins.count() == 0
    notice = Post.objects.get(game=game, kind=Post.Kind.SYSTEM, event__isnull=True)
    assert said.text(notice).startswith("Every living player is done with day 1")
    log = [act.post for act in moderator_log(game, {}) if act.post is not None]
    assert notice not in log and len(log) == 1  # the replacement's announcement alone


def test_clock_control_from_the_desk_comes_back_to_the_desk(client, cast_game, moderator):
    client.force_login(moderator)
    desk = reverse("game_desk", args=[cast_game.pk])
    response = client.post(reverse("clock_pause", args=[cast_game.pk]), {"next": desk})
    assert response.status_code == 302 and response.url == desk
    cast_game.refresh_from_db()
    assert cast_game.paused_at is not None
    # Another site's address is never followed.
    response = client.post(
        reverse("clock_resume", args=[cast_game.pk]), {"next": "https://evil.example/"}
    )
    assert response.url == reverse("game_detail", args=[cast_game.pk])
