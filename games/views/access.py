"""The access helpers every game view starts with (house style: `_get_<thing>_for_user`).

A game that does not exist and a page the viewer may not see are the same 404, so a
private page never tells a stranger that it exists.
"""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404

from accounts.models import player_key_for
from games.models import Game, Seat
from games.permissions import can_moderate
from games.selectors import afterlife_state_for, seat_room


def get_game_for_user(request, game_id) -> Game:
    """Any game: its public thread and vote count are open to everyone, like the lobby."""
    return get_object_or_404(Game.objects.select_related("host"), pk=game_id)


def get_seat_for_user(request, game_id) -> Seat:
    """The viewer's own seat in the game, with its game and cards; anyone else's is a 404
    (the moderator's too: the role page is the seat's alone)."""
    if not request.user.is_authenticated:
        raise Http404("no such seat")
    seat = (
        Seat.objects.select_related("game__host", "user")
        .filter(game_id=game_id, user=request.user)
        .first()
    )
    if seat is None:
        raise Http404("no such seat")
    return seat


def get_finished_game_for_user(request, game_id) -> Game:
    """A finished game: at the end everything is revealed to everyone (W-71, WW-16)."""
    game = get_game_for_user(request, game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404("the game is not over")
    return game


def get_record_game_for_user(request, game_id) -> Game:
    """A game whose record the viewer may download: every finished game, and a running one
    for its moderator only (the record holds every card)."""
    game = get_game_for_user(request, game_id)
    if game.status == Game.Status.FINISHED:
        return game
    if game.status == Game.Status.RUNNING and can_moderate(game, request.user):
        return game
    raise Http404("no record to download")


# --- the rooms beside the thread --------------------------------------------------------
# A room the viewer may not use now is the same 404 as a room that does not exist, so a GET
# never tells a non-member that a group exists (W-26a).
def get_room_seat_for_user(request, game_id, ref):
    """(seat, engine state, meeting key) of a member of the meeting whose id is `ref` now:
    living, and in the group while it exists. Access is the seat's, so a replacement has it
    at once and the replaced, the dead and the moderator's own account do not. A guessed
    meeting key is no id: a 404 like any room the viewer may not open."""
    seat = get_seat_for_user(request, game_id)
    found = seat_room(seat, ref)  # None for the afterlife: it has its own page
    if found is None:
        raise Http404("no such room")
    state, key = found
    return seat, state, key


def get_afterlife_seat_for_user(request, game_id, *, whole_game=False):
    """(seat, engine state) of a seat in the afterlife now (W-17): dead, not offstage (W-14a,
    W-41) and not removed (W-72). With `whole_game`, only where the afterlife sees the whole
    game: Witchhunt, not the Werewolf graveyard."""
    seat = get_seat_for_user(request, game_id)
    if whole_game and seat.game.ruleset != Game.Ruleset.WITCHHUNT:
        raise Http404("no afterlife")
    state = afterlife_state_for(seat)
    if state is None:
        raise Http404("no afterlife")
    return seat, state


def get_moderated_game_for_user(request, game_id) -> Game:
    """A game the viewer moderates (its host, or a user granted games.moderate_any_game);
    anyone else gets a 404."""
    game = get_game_for_user(request, game_id)
    if not can_moderate(game, request.user):
        raise Http404("no such page")
    return game


# --- the players' public pages (issue 16) ----------------------------------------------------
def get_player_for_user(request, key):
    """The member whose player key (the lowercased player name) is `key`: a public profile,
    open to everyone; no such member is a 404."""
    if len(key) > 64:
        raise Http404("no such player")
    # A member who deleted their account has no profile: their games show "a former member".
    members = get_user_model().objects.filter(left_at__isnull=True)
    return get_object_or_404(members, player_key=player_key_for(key))
