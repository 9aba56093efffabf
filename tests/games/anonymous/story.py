"""An anonymous game played from sign-up to the Village's win, for the tests that walk it.

The named cast's cards (conftest.CAST), under members with names found nowhere else on a
page ("Annqx", …), each seat given its alias in join order (ALIASES) so that a test knows
which seat is whose. Day 1: Elm (Ann) mentions Fern and @Bobqx, Cat votes Fern (Bob, the
Elder); Newbie replaces Eve (Yew); Bob writes in the Coven's room; Fern is lynched; Night
1: Fern writes in the afterlife, Elm (the Priest) protects; Day 2: Teak (Hal, the
Junior) is lynched and the Village wins."""

from games import services
from games.anonymous.services import anonymity_choose
from games.models import Game, Seat
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game

NAMES = ["Annqx", "Bobqx", "Catqx", "Danqx", "Eveqx", "Fayqx", "Gusqx", "Halqx"]
ALIASES = ["Elm", "Fern", "Oak", "Birch", "Yew", "Hazel", "Rowan", "Teak"]
NEWBIE = "Newbqx"
ANON_CAST = [(n, c, t) for n, (_, c, t) in zip(NAMES, CAST, strict=True)]


def anon_users(order=NAMES):
    """The members, made in `order` (a twin may swap two: their ids swap with them)."""
    made = {n: UserFactory(player_name=n) for n in order}
    return {n.lower(): made[n] for n in NAMES}


def aliases_fix(game, aliases=ALIASES):
    """Each seat's alias by join order (the service draws them at random): set up so that
    a test knows which seat is whose."""
    seats = list(Seat.objects.filter(game=game).order_by("joined_at", "pk"))
    for seat in seats:
        seat.name = f"~{seat.pk}"
    Seat.objects.bulk_update(seats, ["name"])
    for seat, alias in zip(seats, aliases, strict=True):
        seat.name, seat.alias = alias.lower(), alias
    Seat.objects.bulk_update(seats, ["name", "alias"])


def anon_open(moderator, users, join=NAMES):
    """The game open, made anonymous, every seat taken (in `join` order), aliases fixed."""
    # The cards go with the seats (their join order), whoever takes them.
    cast = [(n, c, t) for n, (_, c, t) in zip(join, ANON_CAST, strict=True)]
    game = make_game(moderator, users, cast=cast, start=False, title="Behind the trees")
    # Chosen after the first sign-ups would do as well: the seats are named again.
    anonymity_choose(game=game, user=moderator, theme="trees")
    aliases_fix(game)
    game.refresh_from_db()
    return game


def story(moderator, users, join=NAMES):
    """Yield (checkpoint, game) at each moment a player's pages are walked."""
    game = anon_open(moderator, users, join)
    u = {n.lower(): users[n.lower()] for n in NAMES}
    by_alias = {a.lower(): u[n.lower()] for a, n in zip(ALIASES, join, strict=True)}
    yield "signup", game
    game = services.game_start(game=game, by=moderator)
    services.post_create(game=game, user=by_alias["elm"], body="Morning. @Fern, and @Bobqx?")
    services.post_create(game=game, user=by_alias["oak"], body="Fern smells of sulphur.")
    services.vote_cast(game=game, user=by_alias["oak"], target="fern")
    yield "day", game
    newbie = users.get("newbqx") or UserFactory(player_name=NEWBIE)
    users["newbqx"] = newbie
    services.player_replace(game=game, seat_name="yew", new_user=newbie, by=moderator)
    by_alias["yew"] = newbie
    services.post_create(game=game, user=newbie, body="Hello, I am new here.")
    services.room_post(game=game, user=by_alias["fern"], room="coven", body="Teak, with me.")
    yield "replaced", game
    for voter in ("elm", "birch", "yew", "hazel"):
        services.vote_cast(game=game, user=by_alias[voter], target="fern")
    game.refresh_from_db()
    services.room_post(game=game, user=by_alias["fern"], room="afterlife", body="Ouch.")
    services.action_submit(game=game, user=by_alias["elm"], action="ability", targets=["teak"])
    yield "night", game
    services.phase_advance(game=game, by=moderator)
    game.refresh_from_db()
    for voter in ("elm", "oak", "birch", "yew"):
        services.vote_cast(game=game, user=by_alias[voter], target="teak")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "village"
    yield "end", game
