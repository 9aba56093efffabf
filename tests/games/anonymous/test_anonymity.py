"""Issue 31: the host's choice of aliases, the aliases dealt to seats, mentions by alias,
the desk's "Elm — Ann", the replacement's notice and the profile while the game runs."""

import json

import pytest
from django.urls import reverse

from games import services
from games.anonymous.services import alias_names, anonymity_choose
from games.anonymous.themes import THEMES, theme_names
from games.community.services.replacements import replacement_mark
from games.engine import GameRuleError
from games.mapping import game_record
from games.models import AnonymousGame, Notification, Post, Seat
from tests.factories import UserFactory
from tests.games.conftest import make_game

from .story import ALIASES, ANON_CAST, NAMES, anon_open, anon_users

pytestmark = pytest.mark.django_db


def _seats(game):
    return list(Seat.objects.filter(game=game).select_related("user").order_by("pk"))


def test_each_theme_names_every_seat_of_the_largest_game_once():
    for theme in THEMES:
        names = theme_names(theme)
        assert len(names) >= 48 and len({n.lower() for n in names}) == len(names), theme


def test_a_sign_up_draws_a_free_alias_and_the_record_names_no_member(moderator):
    users = anon_users()
    game = make_game(moderator, users, cast=ANON_CAST, start=False)
    anonymity_choose(game=game, user=moderator, theme="birds")
    seats = _seats(game)
    aliases = [s.alias for s in seats]
    assert len(set(aliases)) == 8 and set(aliases) <= set(theme_names("birds"))
    # The record's names are the aliases' keys: no member's key is in it.
    assert [s.name for s in seats] == [a.lower() for a in aliases]
    game = services.game_start(game=game, by=moderator)
    record = json.dumps(game_record(game)).lower()
    assert not [n for n in NAMES if n.lower() in record]
    assert all(a.lower() in record for a in aliases)


def test_the_host_changes_the_list_before_the_start_and_not_after(moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    anonymity_choose(game=game, user=moderator, theme="trees")
    own = "\n".join(f"Mask{i}" for i in range(8))
    anonymity_choose(game=game, user=moderator, theme="own", names=own)
    assert {s.alias for s in _seats(game)} == {f"Mask{i}" for i in range(8)}
    anonymity_choose(game=game, user=moderator, theme="")
    assert [(s.name, s.alias) for s in _seats(game)] == [
        (s.user.player_key, "") for s in _seats(game)
    ]
    assert not AnonymousGame.objects.filter(game=game).exists()
    game = services.game_start(game=game, by=moderator)
    with pytest.raises(GameRuleError, match="only before it starts"):
        anonymity_choose(game=game, user=moderator, theme="trees")
    assert all(not s.alias for s in _seats(game))


@pytest.mark.parametrize(
    "names, refusal",
    [
        ("Oak\nElm", "a name for each of the 8 seats; it has 2"),
        ("\n".join(["Oak", "oak", *[f"N{i}x" for i in range(6)]]), "once: Oak, oak"),
        ("\n".join(["Ann", *[f"N{i}x" for i in range(7)]]), "a member is already called Ann"),
        ("\n".join(["Bad name!", *[f"N{i}x" for i in range(7)]]), "cannot be a name"),
    ],
)
def test_a_host_s_own_list_is_refused_in_words_and_nothing_changes(
    moderator, cast_users, names, refusal
):
    game = make_game(moderator, cast_users, start=False)
    with pytest.raises(GameRuleError, match=refusal):
        anonymity_choose(game=game, user=moderator, theme="own", names=names)
    assert not AnonymousGame.objects.exists() and all(not s.alias for s in _seats(game))


def test_only_the_moderator_chooses(moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    with pytest.raises(GameRuleError):
        anonymity_choose(game=game, user=cast_users["ann"], theme="trees")
    assert not AnonymousGame.objects.exists()


def test_the_new_game_form_makes_a_game_anonymous(client, host):
    client.force_login(host)
    page = client.get(reverse("game_new")).content.decode()
    assert 'name="anonymous_theme"' in page
    form = {
        "ruleset": "werewolf", "title": "Masks", "seats_count": 3, "deal_mode": "explicit",
        "cards": "werewolf\nvillager\nvillager", "day_hours": 48, "night_hours": 12,
        "reminder_hours": "24", "anonymous_theme": "stones",
    }  # fmt: skip
    response = client.post(reverse("game_new"), form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    game = AnonymousGame.objects.get().game
    seat = services.game_join(game=game, user=UserFactory(player_name="Zed"))
    assert seat.alias in theme_names("stones") and seat.name == seat.alias.lower()


def test_a_mention_finds_an_alias_never_a_member(moderator):
    users = anon_users()
    game = services.game_start(game=anon_open(moderator, users), by=moderator)
    ann, bob = users["annqx"], users["bobqx"]  # Elm, Fern
    post = services.post_create(game=game, user=ann, body="@Fern and @Bobqx")
    assert f'<a href="/games/{game.pk}/#player-fern">@Fern</a>' in post.body_html
    assert "@Bobqx" in post.body_html and ">@Bobqx<" not in post.body_html
    told = Notification.objects.get(user=bob, kind=Notification.Kind.MENTION)
    assert "Elm" in str(told.words) and "Annqx" not in str(told.words)


def test_the_desk_shows_alias_and_member_and_the_replacement_names_no_one(client, moderator):
    users = anon_users()
    game = services.game_start(game=anon_open(moderator, users), by=moderator)
    client.force_login(moderator)
    desk = client.get(reverse("game_desk", args=[game.pk])).content.decode()
    for alias, name in zip(ALIASES, NAMES, strict=True):
        assert f'{alias} <span class="muted" data-member>— {name}</span>' in desk
    newbie = UserFactory(player_name="Newbqx")
    services.player_replace(game=game, seat_name="yew", new_user=newbie, by=moderator)
    notice = Post.objects.filter(game=game).order_by("-number").first()
    client.force_login(users["catqx"])
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "A new player takes Yew’s seat." in page
    assert "Newbqx" not in page and "Eveqx" not in page and notice.words


def test_a_profile_keeps_a_running_anonymous_game_off(client, moderator):
    users = anon_users()
    game = services.game_start(game=anon_open(moderator, users), by=moderator)
    page = client.get(reverse("player_profile", args=["annqx"])).content.decode()
    assert reverse("game_detail", args=[game.pk]) not in page and "Behind the trees" not in page


def test_a_theme_leaves_out_a_name_a_member_goes_by(moderator, cast_users):
    UserFactory(player_name="Oak")
    game = make_game(moderator, cast_users, start=False)
    anonymity_choose(game=game, user=moderator, theme="trees")
    assert "Oak" not in {s.alias for s in _seats(game)}
    assert "Oak" not in alias_names(AnonymousGame.objects.get(game=game))


def test_the_replacement_list_shows_a_wanted_seat_by_its_alias(client, moderator):
    users = anon_users()
    game = services.game_start(game=anon_open(moderator, users), by=moderator)
    replacement_mark(game=game, seat_name="yew", by=moderator)
    client.force_login(UserFactory(player_name="Volqx"))
    page = client.get(reverse("replacement_list")).content.decode()
    assert "Yew" in page and "Eveqx" not in page
    client.force_login(users["catqx"])
    thread = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Yew" in thread and "Eveqx" not in thread


def test_the_chat_news_names_aliases_and_pings_no_member(moderator):
    from games.webhooks.public import game_seats as chat_seats

    users = anon_users()
    game = services.game_start(game=anon_open(moderator, users), by=moderator)
    seats = chat_seats(game)
    assert sorted(seats.names.values()) == sorted(ALIASES)
    assert seats.named(["elm", "fern"]) == ()
