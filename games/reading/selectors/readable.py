"""What a viewer may read of a game now, and where they read each thread.

Who may read what is the pages' own rule (games/permissions.py, the rooms' selectors): the
public thread for everyone; a seat's rooms now (a meeting while it is a living member, the
afterlife while dead); every thread for the moderator (the desk), for the Witchhunt
afterlife (W-17) and after the end (W-71). A mark in a thread the viewer may no longer
read (a room they left, a seat they gave up) is never counted or shown.
"""

from dataclasses import dataclass

from django.urls import reverse

from games.mapping import engine_state
from games.models import Game, Seat
from games.permissions import AFTERLIFE, can_moderate, rooms_for
from games.selectors.rooms import room_ref
from games.selectors.threads import PUBLIC

UNKNOWN = object()  # "look the viewer's seat up"


# --- what a viewer may read ----------------------------------------------------------------
@dataclass
class Readable:
    """What a viewer may read of a game now."""

    keys: frozenset | None  # the threads they may read; None: every thread of the game
    seat: Seat | None = None
    own: frozenset = frozenset()  # the seat's own rooms now (rooms_for), the afterlife too
    moderator: bool = False
    whole_game: bool = False  # every event: the desk, the Witchhunt afterlife, the end
    finished: bool = False
    state: object = None

    def can_read(self, key: str) -> bool:
        return self.keys is None or key in self.keys


PUBLIC_ONLY = frozenset({PUBLIC})


def viewer_seat(game: Game, user) -> Seat | None:
    """The viewer's own seat in `game` (the seat, not the user, holds access: a replaced
    player has none)."""
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


def readable(game: Game, user, *, seat=UNKNOWN, state=None) -> Readable:
    """Which threads of `game` `user` may read now, and whether they see every event.
    `seat` is the viewer's seat when the caller has it (None for none)."""
    if game.status == Game.Status.OPEN or not user.is_authenticated:
        return Readable(PUBLIC_ONLY)
    if game.status == Game.Status.FINISHED:  # W-71: every thread and card, to everyone
        return Readable(None, whole_game=True, finished=True)
    if seat is UNKNOWN:
        seat = viewer_seat(game, user)
    if seat is None:  # the moderator has no seat: neither may play in the game they run
        if can_moderate(game, user):
            return Readable(None, moderator=True, whole_game=True)
        return Readable(PUBLIC_ONLY)
    state = state or engine_state(game)
    own = frozenset(rooms_for(game, seat, state))
    # W-17: the Witchhunt afterlife reads every room; the Werewolf graveyard only its own.
    whole = AFTERLIFE in own and game.ruleset == Game.Ruleset.WITCHHUNT
    keys = None if whole else PUBLIC_ONLY | own
    return Readable(keys, seat=seat, own=own, whole_game=whole, state=state)


def thread_url(game: Game, key: str, can: Readable) -> str:
    """The page on which the viewer reads thread `key` (one they may read)."""
    if key == PUBLIC:
        return reverse("game_detail", args=[game.pk])
    ref = room_ref(game, key)
    if can.finished:
        return reverse("game_reveal_room", args=[game.pk, ref])
    if can.moderator:
        return reverse("game_desk_room", args=[game.pk, ref])
    if key == AFTERLIFE:
        return reverse("game_afterlife", args=[game.pk])
    if key in can.own:
        return reverse("game_room", args=[game.pk, ref])
    return reverse("game_afterlife_room", args=[game.pk, ref])  # W-17: read-only
