"""The spectators' writes: the host's choices, following and leaving a game, a post in the
spectators' thread, a member's sign-in address, and the refusals of a seat to a spectator.
Each is one transaction with the game row locked first (games/services/base.py), and a
refusal is a GameRuleError in words, with nothing written."""

import hashlib
import hmac
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from games.engine import GameRuleError
from games.models import Game, SignInAddress, Spectator, SpectatorPost, SpectatorSettings
from games.permissions import can_moderate, has_held_seat
from games.services.base import NOT_MODERATOR, game_locked
from games.services.posts import post_body

# How long a sign-in address (its keyed hash) is kept: "recent" on the desk.
ADDRESS_DAYS = 30

NOT_ALLOWED = gettext_lazy("this game does not take spectators")
SPECTATOR_NO_SEAT = gettext_lazy(
    "you follow this game as a spectator: a spectator has seen every card, so cannot play in it"
)


# --- the host's choices ----------------------------------------------------------------------
def settings_store(game: Game, *, allowed: bool, delay: str, dead_see: bool) -> SpectatorSettings:
    """Write the game's choices (the game row locked, or just created). `dead_see` is for
    Werewolf alone: a Witchhunt afterlife sees the whole game already (W-17)."""
    if delay not in SpectatorSettings.Delay.values:
        raise GameRuleError(gettext("choose a delay from the list"))
    dead_see = dead_see and game.ruleset == Game.Ruleset.WEREWOLF
    row, _ = SpectatorSettings.objects.update_or_create(
        game=game, defaults={"allowed": allowed, "delay": delay, "dead_see": dead_see}
    )
    return row


@transaction.atomic
def settings_change(*, game: Game, user, allowed: bool, delay: str, dead_see: bool):
    """The moderator changes the choices on the desk, before the start only: once the
    cards are dealt, a player has agreed to the game as it was."""
    game = game_locked(game)
    if not can_moderate(game, user):
        raise GameRuleError(NOT_MODERATOR)
    if game.status != Game.Status.OPEN:
        raise GameRuleError(gettext("the spectators' settings are fixed once the game has started"))
    if not allowed:  # no longer allowed: they stop following (nothing was dealt yet)
        Spectator.objects.filter(game=game).delete()
    return settings_store(game, allowed=allowed, delay=delay, dead_see=dead_see)


# --- following -------------------------------------------------------------------------------
@transaction.atomic
def spectate_start(*, game: Game, user, now=None) -> Spectator:
    """`user` follows `game` as a spectator: allowed by the host, not seated, never seated
    (a player replaced or gone knows their seat's secrets and may not watch the rest: issue
    31), not its moderator, and the game not over."""
    now = now or timezone.now()
    game = game_locked(game)
    choices = SpectatorSettings.objects.filter(game=game).first()
    if choices is None or not choices.allowed:
        raise GameRuleError(NOT_ALLOWED)
    if game.status == Game.Status.FINISHED:
        raise GameRuleError(gettext("this game is over: its final reveal shows everything"))
    if can_moderate(game, user):
        raise GameRuleError(gettext("you moderate this game: the desk shows you everything"))
    if has_held_seat(game, user):
        raise GameRuleError(
            gettext("you have played in this game, so you cannot follow it as a spectator")
        )
    row = Spectator.objects.filter(game=game, user=user).first()
    if row is not None and row.left_at is None:
        raise GameRuleError(gettext("you already follow this game as a spectator"))
    if row is not None:  # back after leaving
        row.left_at = None
        row.save(update_fields=["left_at"])
        return row
    return Spectator.objects.create(game=game, user=user, joined_at=now)


@transaction.atomic
def spectate_stop(*, game: Game, user, now=None) -> None:
    """`user` stops following `game`. Before the deal nothing was seen: the row goes, and
    they may sign up. After it they have seen the cards: the row stays, closed, and they
    still may not take a seat."""
    now = now or timezone.now()
    game = game_locked(game)
    following = Spectator.objects.filter(game=game, user=user, left_at__isnull=True)
    if game.status == Game.Status.OPEN:
        done, _ = following.delete()
    else:
        done = following.update(left_at=now)
    if not done:
        raise GameRuleError(gettext("you do not follow this game as a spectator"))


def has_spectated(game: Game, user) -> bool:
    """Whether `user` follows `game` as a spectator, or did since its deal."""
    return Spectator.objects.filter(game=game, user=user).exists()


def seat_refused(*, game: Game, user, **_) -> None:
    """SEAT_WANTED and REPLACEMENT_ASKED: no seat, no offer and no volunteering for a
    member who has followed the game as a spectator."""
    if user is not None and user.is_authenticated and has_spectated(game, user):
        raise GameRuleError(SPECTATOR_NO_SEAT)


# --- the spectators' thread ------------------------------------------------------------------
@transaction.atomic
def spectator_post(*, game: Game, user, body: str, now=None) -> SpectatorPost:
    """A post in the spectators' thread, by one of its spectators (Markdown, sanitised as
    every post is: games.markup)."""
    # Rendered and sanitised as every post, before the lock; never refined by POST_BODY: an
    # "@name" here must notify no player (the thread is not theirs to learn of).
    body = post_body(body)
    now = now or timezone.now()
    game = game_locked(game)
    if not Spectator.objects.filter(game=game, user=user, left_at__isnull=True).exists():
        raise GameRuleError(gettext("only the game's spectators post in the spectators' thread"))
    top = SpectatorPost.objects.filter(game=game).aggregate(n=Max("number"))["n"] or 0
    return SpectatorPost.objects.create(
        game=game,
        number=top + 1,
        author=user,
        body=body.text,
        body_html=body.html,
        created_at=now,
    )


# --- sign-in addresses -----------------------------------------------------------------------
def address_digest(address: str) -> str:
    """A keyed hash of an IP address: equal for equal addresses, and a copy of the table
    alone gives no address back (the key is the site's secret)."""
    key = hashlib.sha256(f"spectators-address:{settings.SECRET_KEY}".encode()).digest()
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()


def sign_in_record(*, user, address: str | None, now=None) -> None:
    """Remember that `user` signed in from `address` (its digest, with the time), and
    forget their addresses older than ADDRESS_DAYS."""
    if not address or not user.is_authenticated:
        return
    now = now or timezone.now()
    SignInAddress.objects.update_or_create(
        user=user, digest=address_digest(address), defaults={"seen_at": now}
    )
    addresses_forget(now=now, user=user)


def addresses_forget(*, now=None, user=None) -> int:
    """Delete the sign-in addresses older than ADDRESS_DAYS (one member's, or everyone's:
    the clock's sweep); returns how many went."""
    now = now or timezone.now()
    rows = SignInAddress.objects.filter(seen_at__lt=now - timedelta(days=ADDRESS_DAYS))
    if user is not None:
        rows = rows.filter(user=user)
    deleted, _ = rows.delete()
    return deleted
