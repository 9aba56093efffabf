"""The rooms' pages (issue 7): a meeting's thread for its members, the afterlife, and the
read-only views of every room for the afterlife and, after the end, for everyone."""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Post
from tests.factories import UserFactory
from tests.games.afterlife_cast import (
    AFTERLIFE_POST,
    COVEN_POST,
    LOVERS_POST,
    SPIES_POST,
    afterlife_users,
    lynch,
    page_text,
    play_to_day_3,
    room_url,
)
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db


def _room(game, key):
    return room_url("game_room", game, key)


def _get(client, user, url):
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    if response.status_code == 302 and response["Location"].startswith(f"{url}?page="):
        response = client.get(response["Location"])  # a thread read before lands on its unread
    return response


def _text(client, user, url, status=200):
    response = _get(client, user, url)
    assert response.status_code == status, (url, response.status_code)
    return page_text(response.content.decode())


@pytest.fixture
def day_3(moderator):
    users = afterlife_users()
    game, newcomer = play_to_day_3(moderator, users)
    return game, {**users, "newcomer": newcomer}


# --- meetings ------------------------------------------------------------------------------------
def test_room_members_read_and_post_in_their_room(client, cast_game, cast_users):
    bob = cast_users["bob"]
    text = _text(client, bob, _room(cast_game, "coven"))
    assert "The Coven" in text and "Nobody has posted here yet." in text
    response = client.post(
        room_url("game_room_post", cast_game, "coven"), {"body": "Ann *tonight*?"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"{_room(cast_game, 'coven')}?page=1#p1"
    post = Post.objects.get(game=cast_game, thread="coven")
    assert post.number == 1 and post.seat.name == "bob" and "<em>tonight</em>" in post.body_html
    html = client.get(_room(cast_game, "coven")).content.decode()
    assert "<em>tonight</em>" in html and 'id="p1"' in html
    # The public thread has none of it.
    assert "tonight" not in page_text(
        client.get(reverse("game_detail", args=[cast_game.pk])).content.decode()
    )


def test_room_refuses_strangers_non_members_and_the_moderator_with_a_404(
    client, cast_game, cast_users, moderator
):
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="secret")
    outsider = UserFactory(player_name="Zed")
    for user in (None, outsider, moderator, cast_users["ann"], cast_users["hal"]):
        assert _get(client, user, _room(cast_game, "coven")).status_code == 404, user
        if user is not None:
            response = client.post(
                room_url("game_room_post", cast_game, "coven"), {"body": "let me in"}
            )
            assert response.status_code == 404
    assert Post.objects.filter(game=cast_game, thread="coven").count() == 1


def test_room_404_says_nothing_about_whether_the_group_exists(client, cast_game, cast_users):
    """Ann is in no group: the Coven's room (which exists) and the Court's (which does not)
    answer her the same page."""

    def body(key):
        response = _get(client, cast_users["ann"], _room(cast_game, key))
        assert response.status_code == 404
        return re.sub(r'value="[^"]+"', "", response.content.decode())  # the CSRF token

    assert body("coven") == body("court") == body("no-such-room") == body("afterlife")


def test_room_pages_are_private_and_never_cached(client, cast_game, cast_users):
    response = _get(client, cast_users["bob"], _room(cast_game, "coven"))
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert client.get(room_url("game_room_post", cast_game, "coven")).status_code == 405


def test_room_post_refused_keeps_the_text_and_stores_nothing(client, cast_game, cast_users):
    client.force_login(cast_users["bob"])
    url = room_url("game_room_post", cast_game, "coven")
    response = client.post(url, {"body": "x" * 20001}, follow=True)
    # The room's own address (a reload posts nothing), its text kept once.
    assert response.redirect_chain == [(_room(cast_game, "coven"), 302)]
    assert "at most 20000 characters" in page_text(response.content.decode())
    assert "x" * 20001 in response.content.decode()  # the text comes back
    response = client.post(url, {"body": "   "}, follow=True)
    assert "This field is required." in page_text(response.content.decode())
    assert not Post.objects.filter(game=cast_game, thread="coven").exists()


def test_room_post_nested_too_deep_is_refused_and_keeps_the_text(client, cast_game, cast_users):
    """Thousands of nested list markers crashed the old renderer: a 500, the post lost."""
    client.force_login(cast_users["bob"])
    url = room_url("game_room_post", cast_game, "coven")
    body = "Tonight:\n\n" + "1. " * 3000 + "Ann"
    response = client.post(url, {"body": body}, follow=True)
    assert response.status_code == 200
    text = page_text(response.content.decode())
    assert "A post can nest quotes and lists at most 16 deep." in text
    assert response.context["post_form"]["body"].value() == body
    assert body in response.content.decode()  # the text comes back in the form
    assert not Post.objects.filter(game=cast_game, thread="coven").exists()


def test_game_page_lists_the_viewers_rooms_only(client, cast_game, cast_users, moderator):
    detail = reverse("game_detail", args=[cast_game.pk])
    assert "The Coven" in _text(client, cast_users["bob"], detail)
    text = _text(client, cast_users["hal"], detail)
    assert "The Junior Witches" in text and "The Coven" not in text
    text = _text(client, cast_users["fay"], detail)
    assert "Your rooms The Lovers" in text
    for user in (cast_users["ann"], moderator, None):
        assert "Your rooms" not in _text(client, user, detail)
    assert "The moderator's desk" in _text(client, moderator, detail)
    assert "The moderator's desk" not in _text(client, cast_users["bob"], detail)


def test_the_dead_lose_their_room_at_once(client, cast_game, cast_users):
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="hi")
    lynch(cast_game, cast_users, "bob")
    assert _get(client, cast_users["bob"], _room(cast_game, "coven")).status_code == 404
    response = client.post(
        room_url("game_room_post", cast_game, "coven"), {"body": "from the grave"}
    )
    assert response.status_code == 404
    assert "The afterlife" in _text(
        client, cast_users["bob"], reverse("game_afterlife", args=[cast_game.pk])
    )


def test_juniors_room_closes_when_they_join_the_coven_and_they_see_the_coven(
    client, cast_game, cast_users
):
    hal = cast_users["hal"]
    services.room_post(game=cast_game, user=hal, room="juniors", body="Junior-note-1")
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="Elder-note-2")
    assert _get(client, hal, _room(cast_game, "coven")).status_code == 404
    lynch(cast_game, cast_users, "bob")  # the only Elder: the Juniors join at Night 1 (W-26)
    assert _get(client, hal, _room(cast_game, "juniors")).status_code == 404
    text = _text(client, hal, _room(cast_game, "coven"))
    assert "Elder-note-2" in text  # the Coven's thread is the room's, history included
    services.action_submit(game=cast_game, user=hal, action="coven", target="ann")
    text = _text(client, hal, _room(cast_game, "coven"))
    assert "Coven: You vote to kill Ann." in text
    assert "The Junior Witches have joined the Coven. The Coven: Hal." in text
    assert "The Coven" in _text(client, hal, reverse("game_detail", args=[cast_game.pk]))


def test_a_junior_who_joins_sees_the_coven_thread_but_no_earlier_coven_vote(
    client, cast_game, cast_users
):
    """The group's events are those addressed to the viewer (their visibility field): Bob's
    Night 1 vote went to the Coven of that night, which Hal had not joined."""
    bob, hal = cast_users["bob"], cast_users["hal"]
    services.phase_advance(game=cast_game, by=cast_game.host)  # Night 1
    services.action_submit(game=cast_game, user=bob, action="coven", target="cat")
    services.room_post(game=cast_game, user=bob, room="coven", body="Elder-note-3")
    services.phase_advance(game=cast_game, by=cast_game.host)  # Day 2: Cat, the Spy, died
    services.phase_advance(game=cast_game, by=cast_game.host)  # Night 2: the Juniors join
    services.action_submit(game=cast_game, user=bob, action="coven", target="ann")
    text = _text(client, hal, _room(cast_game, "coven"))
    assert "Elder-note-3" in text and "Coven: Bob votes to kill Ann." in text
    assert "kill Cat" not in text
    assert "Coven: You vote to kill Cat." in _text(client, bob, _room(cast_game, "coven"))


def test_court_room_shows_its_votes_to_its_members_live(client, court_game, court_users):
    ann, eve, bob = court_users["ann"], court_users["eve"], court_users["bob"]
    text = _text(client, eve, _room(court_game, "court"))
    assert "Members Ann Eve you Ivy" in text
    assert "The King's Court: Ann, Eve, Ivy." in text  # W-49: members learn the membership
    assert _get(client, bob, _room(court_game, "court")).status_code == 404
    services.phase_advance(game=court_game, by=court_game.host)  # Night 2: the Court meets
    court_game.refresh_from_db()
    services.action_submit(game=court_game, user=ann, action="court", target="bob")
    assert "Court: Ann votes to kill Bob." in _text(client, eve, _room(court_game, "court"))
    assert "Court: You vote to kill Bob." in _text(client, ann, _room(court_game, "court"))


@pytest.fixture
def inn_game(moderator):
    """Day 1: Ann the Innkeeper meets Cat the Inquisitor each night (W-43); Dan and Eve are
    Travelers (W-57)."""
    cast = [
        ("Ann", "innkeeper", "basic_villager"),
        ("Bob", "judge", "elder_witch"),
        ("Cat", "inquisitor", "basic_villager"),
        ("Dan", "traveling_medic", "basic_villager"),
        ("Eve", "traveling_mercenary", "basic_villager"),
        ("Fay", "recluse", "basic_villager"),
    ]
    users = {name.lower(): UserFactory(player_name=name) for name, _, _ in cast}
    return make_game(moderator, users, cast=cast), users


def test_inn_and_travelers_rooms_show_their_checks_choices_and_results(client, inn_game):
    game, users = inn_game
    advance = lambda: services.phase_advance(game=game, by=game.host)  # noqa: E731
    assert _get(client, users["ann"], _room(game, "innkeeper")).status_code == 404  # by day
    advance()  # Night 1: the Inn meets (W-43)
    services.action_submit(game=game, user=users["cat"], action="ability", targets=["fay"])
    assert "Cat chose: Fay." in _text(client, users["ann"], _room(game, "innkeeper"))
    assert _get(client, users["fay"], _room(game, "innkeeper")).status_code == 404
    advance()  # Day 2: the room closes until the night
    assert _get(client, users["ann"], _room(game, "innkeeper")).status_code == 404
    advance()  # Night 2: the Innkeeper sees the Inquisitor's result (W-43)
    text = _text(client, users["ann"], _room(game, "innkeeper"))
    assert "Inquisitor's check: Fay is not a Holy Villager." in text
    assert _get(client, users["dan"], _room(game, "travelers")).status_code == 404
    advance()
    advance()  # Night 3: the Travelers meet (W-57)
    services.action_submit(game=game, user=users["eve"], action="ability", targets=["bob"])
    assert "Eve chose: Bob." in _text(client, users["dan"], _room(game, "travelers"))
    assert _get(client, users["ann"], _room(game, "travelers")).status_code == 404


# --- the afterlife -------------------------------------------------------------------------------
CARDS = ("Priest", "Judge", "Oracle", "Dirty Old Bastard", "Magician", "Cupid", "Harlot",
         "Wizard", "Inquisitor", "Survivalist", "Holy Villager", "Elder Witch", "Village Spy",
         "Village Lover", "Basic Villager")  # fmt: skip


@pytest.mark.parametrize("dead", ["ann", "bob"], ids=["a dead Angel", "a dead Demon"])
def test_afterlife_shows_the_whole_game_to_the_dead(client, day_3, dead):
    game, users = day_3
    text = _text(client, users[dead], reverse("game_afterlife", args=[game.pk]))
    for card in CARDS:
        assert card in text, card
    assert "Dead (offstage, last act unused)" in text  # Dan (W-14a)
    assert "Dead (offstage: the Magician)" in text  # Eve (W-41)
    assert "Demon Bob votes to veto Cat." in text and "Angel Ann votes to protect Cat." in text
    assert "Kill attempt on Eve (lynch): died (a fake death)." in text  # the moderator's
    assert "Coven: Hal votes to kill Dan." in text
    assert f"{AFTERLIFE_POST}: a Demon arrives." in text
    assert "You are an Angel" in text if dead == "ann" else "You are a Demon" in text
    for key, post in (("coven", COVEN_POST), ("spies", SPIES_POST), ("lovers-1", LOVERS_POST)):
        room = _text(client, users[dead], room_url("game_afterlife_room", game, key))
        assert post in room and "Write in this room" not in room
        assert "You read this room from the afterlife" in room


def test_afterlife_is_404_for_everyone_not_in_it(client, day_3, moderator):
    game, users = day_3
    url = reverse("game_afterlife", args=[game.pk])
    # The living, the offstage (Dan's last act, Eve's fake death), the replaced Gus, the
    # moderator, strangers.
    for name in ("cat", "dan", "eve", "gus", "newcomer", "hal"):
        assert _get(client, users[name], url).status_code == 404, name
        assert (
            _get(client, users[name], room_url("game_afterlife_room", game, "coven")).status_code
            == 404
        )
    for user in (moderator, None, UserFactory(player_name="Zed")):
        assert _get(client, user, url).status_code == 404
    client.force_login(users["dan"])
    response = client.post(reverse("game_afterlife_post", args=[game.pk]), {"body": "boo"})
    assert response.status_code == 404
    assert not Post.objects.filter(game=game, thread="afterlife", seat__name="dan").exists()


def test_the_dead_post_in_the_afterlife_and_the_living_never_see_it(client, day_3):
    game, users = day_3
    client.force_login(users["ann"])
    response = client.post(
        reverse("game_afterlife_post", args=[game.pk]), {"body": "Hush-8815 **Hal** did it"}
    )
    assert response.status_code == 302 and response["Location"].endswith("?page=1#p3")
    living_pages = [reverse("game_detail", args=[game.pk]), reverse("game_role", args=[game.pk])]
    for name, room in (("cat", "spies"), ("fay", "lovers-1"), ("hal", "coven"), ("ivy", None),
                       ("dan", None), ("eve", None), ("newcomer", "lovers-1")):  # fmt: skip
        pages = living_pages + ([_room(game, room)] if room else [])
        for url in pages:
            text = _text(client, users[name], url)
            assert "Hush-8815" not in text and AFTERLIFE_POST not in text, (name, url)
    assert "Hush-8815 Hal did it" in _text(
        client, users["bob"], reverse("game_afterlife", args=[game.pk])
    )


def test_afterlife_cannot_write_in_a_meeting(client, day_3):
    game, users = day_3
    client.force_login(users["ann"])
    response = client.post(room_url("game_room_post", game, "coven"), {"body": "boo"})
    assert response.status_code == 404
    assert _get(client, users["ann"], _room(game, "coven")).status_code == 404
    unknown = room_url("game_afterlife_room", game, "court")  # no Court in this game
    assert _get(client, users["ann"], unknown).status_code == 404


def test_werewolf_graveyard_is_a_thread_without_the_whole_game(client, moderator):
    cast = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "villager", ""),
            ("Dan", "villager", ""), ("Eve", "villager", "")]  # fmt: skip
    users = {name.lower(): UserFactory(player_name=name) for name, _, _ in cast}
    game = make_game(moderator, users, cast=cast, ruleset="werewolf")
    lynch(game, users, "dan")
    url = reverse("game_afterlife", args=[game.pk])
    text = _text(client, users["dan"], url)
    assert "The graveyard" in text and "Every card" not in text and "Seer" not in text
    client.post(reverse("game_afterlife_post", args=[game.pk]), {"body": "Grave-note-1"})
    assert "Grave-note-1" in _text(client, users["dan"], url)
    assert (
        _get(client, users["dan"], room_url("game_afterlife_room", game, "pack")).status_code == 404
    )
    assert _get(client, users["ann"], url).status_code == 404
    assert "The pack" in _text(client, users["bob"], _room(game, "pack"))


# --- replacement -----------------------------------------------------------------------------
def test_replacement_moves_the_role_page_and_rooms_and_keeps_the_history(client, day_3):
    game, users = day_3
    newcomer, gus = users["newcomer"], users["gus"]
    role = reverse("game_role", args=[game.pk])
    text = _text(client, newcomer, role)
    assert "Harlot" in text and "Village Lover" in text
    text = _text(client, newcomer, _room(game, "lovers-1"))
    assert text.count(LOVERS_POST) == 2 and "Gus" in text  # Gus's post stays, signed by Gus
    assert "Members Fay Newcomer you" in text
    for url in (role, _room(game, "lovers-1")):
        assert _get(client, gus, url).status_code == 404
    text = _text(client, gus, reverse("game_detail", args=[game.pk]))
    assert "Newcomer replaces Gus." in text and "Your seat" not in text


# --- after the end -------------------------------------------------------------------------------
def test_rooms_close_at_the_end_and_the_reveal_opens_every_thread(client, day_3, moderator):
    game, users = day_3
    services.stalemate_declare(game=game, by=moderator)
    assert _get(client, users["hal"], _room(game, "coven")).status_code == 404
    assert _get(client, users["ann"], reverse("game_afterlife", args=[game.pk])).status_code == 404
    reveal = _text(client, None, reverse("game_reveal", args=[game.pk]))
    assert "The private threads" in reveal and "The afterlife" in reveal
    for key, post in (("coven", COVEN_POST), ("afterlife", AFTERLIFE_POST)):
        text = _text(client, None, room_url("game_reveal_room", game, key))
        assert post in text and "every private thread is open to everyone" in text
    assert _get(client, None, room_url("game_reveal_room", game, "court")).status_code == 404


def test_reveal_rooms_are_404_while_the_game_runs(client, day_3, moderator):
    game, _ = day_3
    for user in (None, moderator):
        url = room_url("game_reveal_room", game, "coven")
        assert _get(client, user, url).status_code == 404


def test_the_public_thread_sends_the_dead_to_the_afterlife_and_no_one_else(client, day_3):
    game, users = day_3
    afterlife = reverse("game_afterlife", args=[game.pk])
    page = _get(client, users["ann"], reverse("game_detail", args=[game.pk])).content.decode()
    assert "The dead never post in the public thread." in page and afterlife in page
    # The offstage (Dan's last act, W-14a) and the living get no such link.
    for name in ("dan", "cat"):
        page = _get(client, users[name], reverse("game_detail", args=[game.pk])).content.decode()
        assert afterlife not in page, name


def test_the_role_page_lists_the_seats_rooms_and_no_others(client, cast_game, cast_users):
    role = reverse("game_role", args=[cast_game.pk])
    client.force_login(cast_users["bob"])  # an Elder: the Coven
    page = client.get(role).content.decode()
    assert room_url("game_room", cast_game, "coven") in page
    client.force_login(cast_users["ann"])  # the Priest meets no group
    page = client.get(role).content.decode()
    assert "Your rooms" not in page and "/rooms/" not in page
