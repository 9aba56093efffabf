"""The host's choice, before the start: a game anonymous with a theme's aliases or their
own, or not; and the aliases dealt to its seats. Each write locks the game row first, so a
sign-up (which draws an alias under the same lock) never meets a half-dealt list."""

import secrets

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User, player_key_for
from games.engine import GameRuleError
from games.models import AnonymousGame, Game, Seat
from games.permissions import can_moderate
from games.services.base import game_locked

from .themes import OWN, THEMES, own_names, own_problems, theme_names


def alias_names(anonymity: AnonymousGame) -> list[str]:
    """The names an anonymous game draws its aliases from: a theme's leaves out any that a
    member goes by (an alias "Oak" beside a member Oak would point at the wrong seat)."""
    if anonymity.theme == OWN:
        return own_names(anonymity.names)
    names = theme_names(anonymity.theme)
    members = set(
        User.objects.filter(player_key__in=[player_key_for(n) for n in names]).values_list(
            "player_key", flat=True
        )
    )
    return [n for n in names if player_key_for(n) not in members]


@transaction.atomic
def anonymity_choose(*, game: Game, user, theme: str, names: str = "") -> None:
    """Make an open game anonymous (`theme`: a THEMES key or OWN, with the host's `names`)
    or not (`theme` ""); its seats are given aliases again, drawn at random, or their
    players' keys back. Refused in words once the game has started: the record, the
    thread and the emails already name its seats."""
    game = game_locked(game)
    if not can_moderate(game, user):
        raise GameRuleError(gettext("only the game's moderator may choose this"))
    if game.status != Game.Status.OPEN:
        raise GameRuleError(gettext("a game can be made anonymous only before it starts"))
    if not theme:
        AnonymousGame.objects.filter(game=game).delete()
        _seats_named(game, lambda seats: [(s.user.player_key, "") for s in seats])
        return
    if theme != OWN and theme not in THEMES:
        raise GameRuleError(gettext("choose one of the lists"))
    if theme == OWN:
        listed = own_names(names)
        keys = [player_key_for(n) for n in listed]
        taken = set(User.objects.filter(player_key__in=keys).values_list("player_key", flat=True))
        problems = own_problems(listed, game.seats_count, taken)
        if problems:
            raise GameRuleError("; ".join(problems))
        names = "\n".join(listed)
    else:
        names = ""
    anonymity, _ = AnonymousGame.objects.update_or_create(
        game=game, defaults={"theme": theme, "names": names}
    )
    pool = alias_names(anonymity)
    _seats_named(game, lambda seats: [(player_key_for(a), a) for a in _draw(pool, len(seats))])


def anonymity_opened(game: Game, theme: str) -> None:
    """A game just created anonymous from the new-game form (a theme's list; no seat is
    taken yet). Anything but a theme's key leaves it as it is."""
    if theme in THEMES:
        AnonymousGame.objects.create(game=game, theme=theme)


def alias_drawn(game: Game) -> tuple[str, str] | None:
    """A free alias for a seat being taken in `game` (its row locked by the sign-up), as
    (record name, alias); None when the game is not anonymous."""
    anonymity = AnonymousGame.objects.filter(game=game).first()
    if anonymity is None:
        return None
    used = set(Seat.objects.filter(game=game).values_list("alias", flat=True))
    free = [n for n in alias_names(anonymity) if n not in used]
    if not free:
        raise GameRuleError(gettext("this game has run out of names: ask its moderator"))
    alias = _draw(free, 1)[0]
    return player_key_for(alias), alias


def _draw(pool: list[str], n: int) -> list[str]:
    # From the system's randomness, not the game's seed: nobody can work out who drew which.
    return secrets.SystemRandom().sample(pool, n)


def _seats_named(game, naming) -> None:
    """Rename every seat of `game` (`naming(seats)`: their (name, alias), in order). First
    to a name no member or alias has (a seat's new name may be another's old one: the
    names are unique in a game)."""
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("pk"))
    for seat in seats:
        seat.name = f"~{seat.pk}"
    Seat.objects.bulk_update(seats, ["name"])
    for seat, (name, alias) in zip(seats, naming(seats), strict=True):
        seat.name, seat.alias = name, alias
    Seat.objects.bulk_update(seats, ["name", "alias"])
