"""A player's private notes on the other seats of their game (models.PlayerNote): kept
after the game, shown to the author alone, in the reveal only when they share them."""

from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from games.engine import GameRuleError
from games.models import Game, PlayerNote, Seat
from games.services.base import game_locked, seat_of

NOTE_MAX = PlayerNote._meta.get_field("text").max_length


@transaction.atomic
def note_save(*, game: Game, user, seat: str, read: str, text: str, shared: bool) -> None:
    """The note of `user`, who plays in `game`, on the seat named `seat`: a read (town,
    scum, unsure or none), a text and whether it shows in the reveal. A note left empty
    (no read, no text) is deleted. GameRuleError for anything else, nothing written."""
    game = game_locked(game)  # the author's seat found under it, as every write's
    author = seat_of(game, user)
    if game.status == Game.Status.OPEN:
        raise GameRuleError(gettext("notes open when the game starts"))
    target = Seat.objects.filter(game=game, name=seat).first()
    if target is None:
        raise GameRuleError(gettext("there is no such player in this game"))
    if target.pk == author.pk:
        raise GameRuleError(gettext("notes are on the other players, not on yourself"))
    if read not in PlayerNote.Read.values:
        raise GameRuleError(gettext("choose town read, scum read, unsure or no read"))
    text = text.strip()
    if len(text) > NOTE_MAX:
        raise GameRuleError(
            ngettext(
                "a note can be at most %(count)s character",
                "a note can be at most %(count)s characters",
                NOTE_MAX,
            )
            % {"count": number_format(NOTE_MAX, force_grouping=True)}
        )
    if not read and not text:
        PlayerNote.objects.filter(author=user, seat=target).delete()
        return
    PlayerNote.objects.update_or_create(
        author=user,
        seat=target,
        defaults={"game": game, "read": read, "text": text, "shared": bool(shared)},
    )
