"""Non-interference over hidden inputs (issue 25): two games with the same public play that
differ only in one hidden input (a night action taken or not, one withdrawn, a pack vote, a
room post, a hide in a room, an afterlife act, a secret day power) give every viewer who
may not see that input the same bytes on every channel: page bodies, headers (ETag,
Last-Modified, Content-Length, Vary), the live poll's answers (200 or 304 to a poller that
kept its tag), redirects and their URLs, cursors in links, emails
(tests/games/noninterference.py says how the twins are played and read).

The leak tests (test_leaks.py) vary the hidden cards; these vary the hidden inputs. Each
ran red on the code before issue 25: the live version counted every input and every hide,
and the "since you last read" link carried an event index that counts hidden events.
"""

from dataclasses import dataclass

import pytest
import time_machine

from games import services
from tests.factories import UserFactory
from tests.games.afterlife_cast import AFTERLIFE_CAST, lynch
from tests.games.conftest import make_game
from tests.games.noninterference import T0, differences, normal, twins

pytestmark = pytest.mark.django_db

# The afterlife cast with a Lookout, whose Day 1 choice is a secret day power (W-24's
# Alarm); the characters in play are secret (public_setup off).
CAST = [*AFTERLIFE_CAST[:-1], ("Jon", "lookout", "basic_villager")]
WOLF_CAST = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "werewolf", ""),
             ("Dan", "villager", ""), ("Eve", "villager", ""), ("Fay", "villager", ""),
             ("Gus", "villager", "")]  # fmt: skip
# Who reads: a visitor, a member outside the game, and players the input is hidden from.
VIEWERS = ("anonymous", "outsider", "dan", "gus")


def _users(cast):
    users = {n.lower(): UserFactory(player_name=n, email=f"{n.lower()}@example.com")
             for n, _, _ in cast}  # fmt: skip
    users["outsider"] = UserFactory(player_name="Outsider", email="outsider@example.com")
    users["mod"] = UserFactory(player_name="Mod", email="mod@example.com")
    return users


def _refresh(game):
    game.refresh_from_db()
    return game


# --- Witchhunt: Day 1 the town lynches Bob; Night 1 Hal's Coven kills Ann; Day 2 ------------
def _spy_post(game, u):
    return services.room_post(game=game, user=u["cat"], room="spies", body="Spy-note-5582")


def _spy_post_hidden(game, u):
    post = _spy_post(game, u)
    services.post_hide(game=game, thread="spies", number=post.number, by=u["mod"], reason="x")


def _mention_in_coven(game, u):
    services.room_post(game=game, user=u["bob"], room="coven", body="@Hal Ann tonight.")


def _mention_dan(game, u):
    services.post_create(game=_refresh(game), user=u["ann"], body="@Dan what do you think?")


@dataclass
class Hidden:
    """A hidden input at a checkpoint, with what both twins do before and after it there."""

    at: str
    act: object
    before: object = None
    after: object = None


HIDDEN = {
    "a room post": Hidden("day 1", _spy_post),
    "a hide in a room": Hidden("day 1", lambda g, u: services.post_hide(
        game=g, thread="spies", number=1, by=u["mod"], reason="A quoted card."),
        before=_spy_post),
    # A mention notifies Hal; Dan's own notification comes after it in both twins.
    "a mention in a room": Hidden("day 1", _mention_in_coven, after=_mention_dan),
    "a secret day power": Hidden("day 1", lambda g, u: services.action_submit(
        game=g, user=u["jon"], action="ability", choice="elder_witch")),
    "a night action": Hidden("night 1", lambda g, u: services.action_submit(
        game=g, user=u["ivy"], action="ability", targets=["jon"])),
    "a withdrawn night action": Hidden("night 1", lambda g, u: (
        services.action_submit(game=g, user=u["ivy"], action="ability", targets=["jon"]),
        services.action_withdraw(game=_refresh(g), user=u["ivy"], what="ability"))),
    "an afterlife act": Hidden("night 1", lambda g, u: services.action_submit(
        game=g, user=u["bob"], action="veto", target="cat")),
    "an afterlife post": Hidden("night 1", lambda g, u: services.room_post(
        game=g, user=u["bob"], room="afterlife", body="Beyond-note-7704")),
}  # fmt: skip


def _witchhunt(name):
    hidden_input = HIDDEN[name]

    def story(hidden):
        u = _users(CAST)
        game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False})

        def happen(checkpoint):
            if checkpoint != hidden_input.at:
                return
            for act in (hidden_input.before, hidden_input.act if hidden else None,
                        hidden_input.after):  # fmt: skip
                if act is not None:
                    act(_refresh(game), u)

        happen("day 1")
        yield "day 1", _refresh(game), u
        lynch(_refresh(game), u, "bob")
        happen("night 1")
        services.action_submit(game=_refresh(game), user=u["hal"], action="coven", target="ann")
        yield "night 1", _refresh(game), u
        services.phase_advance(game=_refresh(game), by=u["mod"])
        assert _refresh(game).phase == "day 2"
        yield "day 2", game, u

    return story


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HIDDEN))
def test_a_hidden_witchhunt_input_changes_nothing_its_outsiders_are_served(name):
    first, second = twins(_witchhunt(name), VIEWERS)
    assert first, "nothing was read"
    assert not differences(first, second), "\n".join(differences(first, second)[:8])


# --- Werewolf: Day 1 the town lynches Gus; Night 1 the pack kills Dan; Day 2 ------------------
def _wolf_story(extra):
    def story(hidden):
        u = _users(WOLF_CAST)
        game = make_game(u["mod"], u, cast=WOLF_CAST, ruleset="werewolf")
        lynch(_refresh(game), u, "gus")  # WW-1: Day 1 first
        if hidden:
            extra(game, u)
        for wolf in ("bob", "cat"):
            services.action_submit(game=_refresh(game), user=u[wolf], action="pack", target="dan")
        yield "night 1", _refresh(game), u
        services.phase_advance(game=_refresh(game), by=u["mod"])
        assert _refresh(game).phase == "day 2"
        yield "day 2", game, u

    return story


WOLF_HIDDEN = {
    "a pack vote": lambda g, u: services.action_submit(
        game=_refresh(g), user=u["bob"], action="pack", target="eve"),
    "a withdrawn pack vote": lambda g, u: (
        services.action_submit(game=_refresh(g), user=u["cat"], action="pack", target="eve"),
        services.action_withdraw(game=_refresh(g), user=u["cat"], what="pack")),
    "the Seer's look": lambda g, u: services.action_submit(
        game=_refresh(g), user=u["ann"], action="ability", targets=["bob"]),
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", list(WOLF_HIDDEN))
def test_a_hidden_werewolf_input_changes_nothing_its_outsiders_are_served(name):
    first, second = twins(_wolf_story(WOLF_HIDDEN[name]), ("anonymous", "outsider", "eve"))
    assert first, "nothing was read"
    assert not differences(first, second), "\n".join(differences(first, second)[:8])


@pytest.mark.slow
def test_the_twins_do_tell_a_public_difference_apart():
    """The harness can fail: a public input (a day vote, a post) in one twin only is seen."""

    def story(hidden):
        u = _users(CAST)
        game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False})
        if hidden:
            services.vote_cast(game=game, user=u["ann"], target="bob")
            services.post_create(game=_refresh(game), user=u["ann"], body="Bob, explain.")
        yield "day 1", _refresh(game), u

    first, second = twins(story, ("anonymous", "dan"))
    found = differences(first, second)
    assert any("/live/ If-None-Match" in line and "status 304 != 200" in line for line in found)
    # Dan's emails are read too: his digest quotes the post.
    assert first[("day 1", "dan", "mail")], "no email was read"
    assert any("'mail')" in line for line in found), found


# --- the reproductions of issue 25 -------------------------------------------------------------
def test_a_poller_of_the_live_refresh_does_not_see_a_night_action(client):
    """An anonymous visitor polling /live/ with the tag it was given kept getting 304 until
    a night action was submitted, to the second: the tag counted every input."""
    u = _users(CAST)
    game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False})
    lynch(game, u, "bob")
    live = f"/games/{game.pk}/live/"
    tag = client.get(live).headers["ETag"]
    services.action_submit(game=_refresh(game), user=u["ivy"], action="ability", targets=["jon"])
    services.action_submit(game=_refresh(game), user=u["bob"], action="veto", target="cat")
    services.room_post(game=_refresh(game), user=u["cat"], room="spies", body="Spy-note")
    services.post_hide(game=_refresh(game), thread="spies", number=1, by=u["mod"], reason="x")
    assert client.get(live, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # A public change still reaches the page: the tag is not frozen.
    services.action_submit(game=_refresh(game), user=u["hal"], action="coven", target="ann")
    services.phase_advance(game=_refresh(game), by=u["mod"])
    assert client.get(live, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_prober_of_the_since_page_cannot_choose_where_it_starts(client):
    """`?from=N` started "since you last read" at event N, numbered across every audience,
    so the gaps between a member's public events counted the hidden ones. The page now
    starts only where the member's own visits ended, and no link names an event."""
    u = _users(CAST)
    game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False})
    lynch(game, u, "bob")
    services.action_submit(game=_refresh(game), user=u["ivy"], action="ability", targets=["jon"])
    client.force_login(u["dan"])
    since = f"/games/{game.pk}/since/"
    with time_machine.travel(T0, tick=False):  # the page says when the visit was
        _probe(client, game, since)


def _probe(client, game, since):
    page = client.get(f"/games/{game.pk}/?page=1").content.decode()
    assert "from=" not in page and f'href="{since}?visit=previous"' in page
    client.get(since)  # seen to the end
    plain = normal(client.get(since).content)
    for n in (0, 5, 9, 10, 11):
        assert normal(client.get(f"{since}?from={n}").content) == plain, n
