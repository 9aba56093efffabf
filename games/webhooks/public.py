"""What a game's stories are made of: what its public thread and its game page say to a
visitor, read with the core's own reads and worded with the thread's own words.

Nothing here reads a card, a night action, a room, the afterlife or an event whose
audience is not everyone: the posts are the public thread's system posts (written only
for public events: services/posts.py), the names are the seats' as the thread shows them,
and the vote count is the game page's (selectors/votes.py). A story whose words moved
with a hidden input would be a side channel (tests/games/webhooks/test_story_twins.py).
"""

import re
from dataclasses import dataclass
from datetime import UTC

from django.utils import formats
from django.utils.translation import gettext as _

from games.mail import absolute_url
from games.models import Game, GameEvent, GameInput, Post
from games.narration import describe_event
from games.narration.said import post_words
from games.narration.summaries import EVENTS, SUMMARY
from games.selectors.seats import seats_public
from games.selectors.threads import PUBLIC


@dataclass(frozen=True)
class Seats:
    """The seats in their order: seat -> player name as the thread shows it, and each
    seat's member (a mention's id)."""

    names: dict
    members: dict

    def named(self, seats) -> tuple:
        """The member ids of `seats`, in order, once each (a story's mentions)."""
        ids = [self.members[s] for s in seats if s in self.members]
        return tuple(dict.fromkeys(ids))


def game_seats(game: Game) -> Seats:
    """One query: the seats without their cards (selectors.seats.seats_public)."""
    seats = seats_public(game)
    # An anonymous game's seats go by their aliases, and a chat never pings their members.
    return Seats(
        {s.name: s.shown_name for s in seats}, {s.name: s.user_id for s in seats if not s.alias}
    )


# A page of the site a post's words name by its path (the fair deal's "How to check the
# deal: /games/12/fair-deal/"): a chat needs the whole address.
SITE_PATH = re.compile(r"(?<!\S)/[\w][\w/.-]*")


@dataclass(frozen=True)
class Said:
    """One system post of the public thread: its number, its words (as a reader reads them
    now, in the active language) and the public events it announces (kind, data)."""

    number: int
    words: dict
    event: tuple  # its headline event (kind, data), or ()

    def text(self, names) -> str:
        if self.words:
            text = post_words(self.words, names)[0]  # as selectors.threads words it
        else:
            text = describe_event(*self.event, names) if self.event else ""
        return SITE_PATH.sub(lambda path: absolute_url(path.group()), text)

    def events(self) -> list[tuple]:
        """The events it announces: a summary's and the start post's are in its words."""
        if self.words.get("kind") in (SUMMARY, EVENTS):
            return [tuple(e) for e in self.words.get("args", {}).get("events", [])]
        return [self.event] if self.event else []


def advance_said(game: Game, first_event: int) -> list[Said]:
    """The public thread's system posts for the events from `first_event` on (one advance's,
    or the start's: index 0), in order; a post the moderator hid is not told. One query."""
    posts = Post.objects.filter(
        game=game,
        thread=PUBLIC,
        kind=Post.Kind.SYSTEM,
        event__index__gte=first_event,
        event__audience=GameEvent.Audience.PUBLIC,  # as services/posts.py writes them
        hidden_at__isnull=True,
    ).order_by("number")
    rows = posts.values_list("number", "words", "event__kind", "event__data")
    return [Said(n, words or {}, (kind, data)) for n, words, kind, data in rows]


def phase_ended(game: Game) -> str:
    """The phase the game's last input was applied in: the one an advance ended. One query."""
    last = GameInput.objects.filter(game=game).order_by("-index").values_list("phase", flat=True)
    return last.first() or ""


def moment(at) -> str:
    """A moment as the game page shows it to a visitor in UTC ("Thu 5 Mar, 18:00 UTC"):
    a chat has no reader's zone."""
    return _("%(moment)s UTC") % {
        "moment": formats.date_format(at.astimezone(UTC), "DEADLINE_UTC_FORMAT")
    }
