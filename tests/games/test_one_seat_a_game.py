"""Issue 25, "nothing hidden leaks": one seat a game. A player who held a seat has seen its
cards and rooms (a werewolf knows the pack); once replaced out (by the moderator, by an
accepted offer, after asking to leave) or removed (W-72), they may not come back on
another seat of the same game: not by volunteering, not by an offer, not by the
moderator's replace. Each refusal is in words a player reads and changes nothing.
Before the deal nothing is known: a member who gave back an open game's sign-up may sign
up again (services/signups.game_join)."""

import pytest
from django.urls import reverse

from games import services
from games.community.selectors.activity import desk_activity
from games.community.selectors.replacements import offer_page, replacement_list_page
from games.community.services import replacements
from games.engine import GameRuleError
from games.models import (
    GameInput,
    Post,
    ReplacementOffer,
    ReplacementVolunteer,
    Seat,
    SeatTenure,
)
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

pytestmark = pytest.mark.django_db

# Bob is the pack: once replaced, he knows who the werewolf is whoever holds his seat.
PACK_CAST = [
    ("Ann", "seer", ""),
    ("Bob", "werewolf", ""),
    ("Cat", "villager", ""),
    ("Dan", "villager", ""),
    ("Eve", "villager", ""),
]
PLAYED = (
    "you have already played in this game: you know what your seat knew, so you cannot "
    "take another seat in it"
)


@pytest.fixture
def pack(moderator):
    users = users_for(PACK_CAST)
    return make_game(moderator, users, cast=PACK_CAST, ruleset="werewolf"), users


def _fresh(game):
    game.refresh_from_db()
    return game


def _seat(game, name):
    return Seat.objects.select_related("user").get(game=game, name=name)


def _state(game):
    """What a refusal must leave as it was: who sits where, the wanted marks, the inputs,
    the thread, the offers and the list."""
    return (
        sorted(
            Seat.objects.filter(game=game).values_list("name", "user_id", "replacement_wanted_at")
        ),
        GameInput.objects.filter(game=game).count(),
        list(Post.objects.filter(game=game).values_list("number", "body", "words")),
        sorted(ReplacementOffer.objects.values_list("seat_id", "user_id", "status")),
        sorted(ReplacementVolunteer.objects.values_list("user_id", "game_id")),
        SeatTenure.objects.count(),
    )


def _replace_bob(game, moderator, name="Newby"):
    newby = UserFactory(player_name=name)
    services.player_replace(game=_fresh(game), seat_name="bob", new_user=newby, by=moderator)
    return newby


def test_a_replaced_werewolf_cannot_volunteer_for_a_village_seat(pack, moderator):
    game, users = pack
    bob = users["bob"]
    _replace_bob(game, moderator)
    replacements.leave_ask(game=_fresh(game), user=users["cat"])
    before = _state(game)
    with pytest.raises(GameRuleError) as refusal:
        replacements.seat_volunteer(game=_fresh(game), seat_name="cat", user=bob)
    assert str(refusal.value) == PLAYED
    with pytest.raises(GameRuleError, match="you have already played in this game"):
        replacements.volunteer_join(user=bob, game=_fresh(game), hours_per_week=5)
    assert _state(game) == before
    assert _seat(game, "cat").user == users["cat"]


def test_a_replaced_werewolf_on_the_list_is_never_offered_a_seat_of_that_game(pack, moderator):
    game, users = pack
    bob = users["bob"]
    replacements.volunteer_join(user=bob, hours_per_week=8)  # any game: the list he was on
    vic = UserFactory(player_name="Vic")
    replacements.volunteer_join(user=vic, hours_per_week=2)
    _replace_bob(game, moderator)
    offers = replacements.leave_ask(game=_fresh(game), user=users["cat"])
    seat = _seat(game, "cat")
    assert [o.user for o in ReplacementOffer.objects.filter(seat=seat)] == [vic]
    assert offers is not None
    # The desk lists who could be offered a seat: not him.
    listed = [v.player for v in desk_activity(_fresh(game), game.started_at).volunteers]
    assert listed == ["Vic"]


def test_an_offer_made_before_cannot_be_accepted_nor_shown(
    client, pack, moderator, django_assert_num_queries
):
    """An open offer to him for another seat (made before he was replaced, as the old code
    let stand): the list page does not show it, its page does not offer it, and accepting
    it is refused, the seat untouched."""
    game, users = pack
    bob = users["bob"]
    replacements.leave_ask(game=game, user=users["cat"])
    _replace_bob(game, moderator)
    offer = ReplacementOffer.objects.create(seat=_seat(game, "cat"), user=bob)
    ReplacementVolunteer.objects.create(user=bob, game=game)
    before = _state(game)
    with pytest.raises(GameRuleError) as refusal:
        replacements.offer_accept(offer_id=offer.pk, user=bob)
    assert str(refusal.value) == PLAYED
    assert _state(game) == before
    with django_assert_num_queries(5):  # as before: the held games are subqueries
        page = replacement_list_page(bob)
    assert page.offers == [] and page.entries == []
    assert game not in page.games
    assert [w.mine for w in page.wanted if w.game == game] == [True]
    shown = offer_page(bob, offer.pk)
    assert (shown.open, shown.played) == (False, True)
    client.force_login(bob)
    html = client.get(reverse("replacement_offer", args=[offer.pk])).content.decode()
    assert "Take the seat" not in html and "you cannot take another seat in it" in html
    client.post(reverse("replacement_offer_answer", args=[offer.pk]), {"answer": "take"})
    assert _seat(game, "cat").user == users["cat"]


def test_the_moderators_replace_refuses_a_former_player_in_words(pack, moderator):
    game, users = pack
    _replace_bob(game, moderator)
    before = _state(game)
    with pytest.raises(GameRuleError) as refusal:
        services.player_replace(
            game=_fresh(game), seat_name="cat", new_user=users["bob"], by=moderator
        )
    assert str(refusal.value) == (
        "Bob has already played in this game and knows what their seat knew: nobody may "
        "take a second seat in the same game"
    )
    assert _state(game) == before
    # A removed player keeps the seat row (W-72): named for another seat, refused too.
    services.player_remove(game=_fresh(game), seat_name="dan", by=moderator)
    with pytest.raises(GameRuleError, match="Dan already has a seat in this game"):
        services.player_replace(
            game=_fresh(game), seat_name="cat", new_user=users["dan"], by=moderator
        )


def test_asking_to_leave_then_volunteering_later_is_refused(pack, moderator):
    """The werewolf arranges it alone: he asks to leave, a volunteer takes his seat, and
    when a village seat is wanted later he volunteers for it."""
    game, users = pack
    bob = users["bob"]
    vic = UserFactory(player_name="Vic")
    replacements.volunteer_join(user=vic, game=game, hours_per_week=4)
    replacements.leave_ask(game=game, user=bob, note="Busy week")
    offer = ReplacementOffer.objects.get(user=vic)
    replacements.offer_accept(offer_id=offer.pk, user=vic)
    assert _seat(game, "bob").user == vic
    replacements.volunteer_join(user=bob, hours_per_week=10)  # the list for any game
    replacements.replacement_mark(game=_fresh(game), seat_name="ann", by=moderator)
    assert not ReplacementOffer.objects.filter(user=bob).exists()
    before = _state(game)
    with pytest.raises(GameRuleError) as refusal:
        replacements.seat_volunteer(game=_fresh(game), seat_name="ann", user=bob)
    assert str(refusal.value) == PLAYED
    assert _state(game) == before
    # The one who took his seat cannot take a second one either.
    with pytest.raises(GameRuleError, match="you already have a seat in this game"):
        replacements.seat_volunteer(game=_fresh(game), seat_name="ann", user=vic)


def test_the_volunteer_page_refuses_a_former_player_in_words(client, pack, moderator):
    game, users = pack
    _replace_bob(game, moderator)
    replacements.leave_ask(game=_fresh(game), user=users["cat"])
    client.force_login(users["bob"])
    response = client.post(
        reverse("replacement_volunteer", args=[game.pk]), {"seat": "cat"}, follow=True
    )
    assert "You" + PLAYED[3:] + "." in response.content.decode().replace("&#x27;", "'")
    assert not ReplacementOffer.objects.filter(user=users["bob"]).exists()


def test_a_member_who_left_an_open_game_before_the_deal_may_sign_up_again(moderator):
    """The choice made in signups.game_join: before the deal nobody knows a card, so giving
    back a sign-up leaves nothing held and the member may sign up again."""
    users = users_for(PACK_CAST)
    game = make_game(moderator, users, cast=PACK_CAST, ruleset="werewolf", start=False)
    services.game_leave(game=game, user=users["bob"])
    assert not SeatTenure.objects.filter(user=users["bob"]).exists()
    services.game_join(game=game, user=users["bob"])
    with pytest.raises(GameRuleError, match="you have already joined this game"):
        services.game_join(game=game, user=users["bob"])
    game = services.game_start(game=_fresh(game), by=moderator)
    assert _seat(game, "bob").user == users["bob"]
