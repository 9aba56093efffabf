"""A seat of a game: taken and given back before the start (the bare sign-up: the
community's rules may refuse a member through SEAT_WANTED, and it hears of the last seat
taken through GAME_FILLED), and handed over to a new player once the game runs (W-72:
the moderator's replacement, or a volunteer's accepted offer).

Each is one transaction with the game row locked first, so two members taking the last
seat together queue on the lock and the second finds the game full (or started). A seat
taken opens a SeatTenure; a withdrawal before the start deletes the seat and its tenure,
as if it had never been taken.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import GameRuleError

from ..models import Game, PhaseLockIn, Seat, SeatTenure
from ..narration import said
from ..permissions import can_moderate, has_held_seat
from ..queue import (
    GAME_FILLED,
    REPLACEMENT_ASKED,
    SEAT_CHANGED_HANDS,
    SEAT_NAMING,
    SEAT_WANTED,
    after_commit,
    emit,
    member_told,
    refine,
)
from .base import game_locked
from .inputs import input_apply
from .posts import clock_notice_create, moderator_notice_create


# --- members, before the start ------------------------------------------------------------
@transaction.atomic
def game_join(*, game: Game, user, now=None) -> Seat:
    """Sign `user` up for an open game: a seat named by their player key, and its tenure.
    The last seat taken is announced (GAME_FILLED): the community starts the game
    (`start_when_full`) or tells the moderator it is full.

    One seat a game (issue 25, `permissions.has_held_seat`): a member who holds a seat
    cannot sign up again. A member who gave back their sign-up before the deal may: no
    card was dealt, so they know nothing of the game, and `game_leave` deleted their seat
    and its tenure, so they have held none. Once the cards are dealt the game is no longer
    open, and a seat left then (replaced out) is never given back to its player."""
    now = now or timezone.now()
    game = game_locked(game)
    if game.status != Game.Status.OPEN:
        raise GameRuleError(gettext("this game is no longer open for sign-ups"))
    if can_moderate(game, user):
        # The moderator (the host, or a holder of games.moderate_any_game) sees every card
        # on the desk and may download the record: they cannot also play, as
        # moderation.player_replace says too.
        raise GameRuleError(gettext("you moderate this game and cannot take a seat in it"))
    if has_held_seat(game, user):
        raise GameRuleError(gettext("you have already joined this game"))
    filled = Seat.objects.filter(game=game).count()
    if filled >= game.seats_count:
        raise GameRuleError(gettext("this game is full"))
    emit(SEAT_WANTED, game=game, user=user)  # a capability may refuse, in words
    # The seat's record name and alias: the player key and none, or an anonymous game's.
    name, alias = refine(SEAT_NAMING, (user.player_key, ""), game=game, user=user)
    seat = Seat.objects.create(game=game, user=user, name=name, alias=alias)
    SeatTenure.objects.create(seat=seat, user=user, began_at=now)
    if filled + 1 == game.seats_count:
        emit(GAME_FILLED, game=game, now=now)
    return seat


@transaction.atomic
def game_leave(*, game: Game, user) -> None:
    """Withdraw from an open game: the seat (and its tenure) is gone, free for another,
    and the member may sign up again while the game is open (nothing was dealt yet: see
    `game_join`)."""
    game = game_locked(game)
    if game.status != Game.Status.OPEN:
        raise GameRuleError(gettext("you can only leave a game before it starts"))
    deleted, _ = Seat.objects.filter(game=game, user=user).delete()
    if not deleted:
        raise GameRuleError(gettext("you have not joined this game"))


# --- the hand-over: the moderator's replacement, and an accepted offer (the community's) ----
def seat_hand_over(game: Game, seat: Seat, new_user, *, by, now, announce) -> Seat:
    """W-72: `new_user` takes `seat` with its cards, rooms and history, in one step: the
    engine's replace input, the thread's "X replaces Y" (`announce(words)`
    writes it: the moderator's notice or the site's), the tenures, the newcomer's cards
    emailed to them alone, and SEAT_CHANGED_HANDS announced (the community closes the open
    offers). Call it with the game row locked."""
    if can_moderate(game, new_user):
        # A moderator sees every card on the desk: they cannot also play.
        raise GameRuleError(
            gettext("%(name)s moderates this game and cannot take a seat")
            % {"name": new_user.player_name}
        )
    if Seat.objects.filter(game=game, user=new_user).exists():
        raise GameRuleError(
            gettext("%(name)s already has a seat in this game") % {"name": new_user.player_name}
        )
    if has_held_seat(game, new_user):
        # Issue 25: they have seen another seat's cards and rooms in this game.
        raise GameRuleError(
            gettext(
                "%(name)s has already played in this game and knows what their seat knew: "
                "nobody may take a second seat in the same game"
            )
            % {"name": new_user.player_name}
        )
    emit(REPLACEMENT_ASKED, game=game, user=new_user)  # a capability may refuse, in words
    old = seat.user
    seat.user = new_user
    seat.replacement_wanted_at = None
    seat.replacement_reason = ""
    seat.last_post_at = None  # the desk's and the prods' "last post" is the occupant's
    seat.posts_count = seat.posts_day_count = 0  # so are the player list's counts (issue 31)
    seat.save(
        update_fields=["user", "replacement_wanted_at", "replacement_reason", "last_post_at",
                       "posts_count", "posts_day_count"]
    )  # fmt: skip
    # The newcomer has not said "I'm done" (W-2): the phase waits for them.
    PhaseLockIn.objects.filter(seat=seat, phase=game.phase).delete()
    input_apply(game=game, step={"moderator": "replace", "player": seat.name}, by=by, now=now)
    if seat.alias:  # an anonymous game: the seat keeps its alias, its players stay unnamed
        announce(said.meaning(said.ALIAS_REPLACED, name=seat.alias))
    else:
        announce(said.meaning(said.REPLACES, new=new_user.player_name, old=old.player_name))
    _tenures_pass(game, seat, old, new_user, now)
    after_commit("game_role_emails", game.pk)  # the newcomer's cards, to them alone
    member_told(user_id=new_user.pk, game=game, kind="role")
    # The community closes the seat's open offers; the reading forgets the alerts asked.
    emit(SEAT_CHANGED_HANDS, game=game, seat=seat, old=old, new=new_user, now=now)
    return seat


def _tenures_pass(game, seat, old, new_user, now):
    """Close the leaver's tenure (opened when the seat was dealt, or written now for a
    game dealt before tenures were kept) and open the newcomer's."""
    closed = SeatTenure.objects.filter(seat=seat, user=old, ended_at__isnull=True).update(
        ended_at=now, left=SeatTenure.Left.REPLACED
    )
    if not closed:
        SeatTenure.objects.create(
            seat=seat,
            user=old,
            began_at=game.started_at or seat.joined_at,
            ended_at=now,
            left=SeatTenure.Left.REPLACED,
        )
    SeatTenure.objects.create(seat=seat, user=new_user, replacing=True, began_at=now)


def moderator_says(game, by):
    """Who writes a notice in the thread: the moderator, for their own act (so the desk's
    log and the reveal show it, W-72) ..."""
    return lambda words: moderator_notice_create(game, by, words)


def site_says(game):
    """... or the site, for a volunteer's taking a seat or the sweep's second prod."""
    return lambda words: clock_notice_create(game, words)
