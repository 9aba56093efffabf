"""The moderator's desk: every card, every event, every room, each seat's activity, and
the log of the moderator's own acts (W-72) that the final reveal shows too."""

from dataclasses import dataclass, field

from django.db.models import Count, Max, Q

from .. import turns
from ..mapping import engine_state
from ..models import DAY_VOTES, Game, GameEmail, GameInput, PhaseLockIn, Post, PostModeration
from ..narration import display_name
from ..narration.desk import act_text, moderation_text
from ..narration.notices import PUBLIC, thread_words
from ..narration.said import post_words
from ..post_times import localise
from .clock import clock_moves
from .heartbeat import ClockBeat, clock_beat
from .log import by_phase, events_all
from .rooms import room_links, room_ref
from .seats import CardRow, card_rows, display_names, game_seats
from .threads import moments


@dataclass
class ActivityRow(CardRow):
    posts: int = 0
    last_post: object = None  # datetimes, or None
    last_vote: object = None
    last_action: object = None
    awaited: bool = False  # the phase waits for a decision of this seat (games/turns.py)
    done: bool = False  # said "I'm done for this phase" (W-2)


def _activity(game, seats, state):
    """Per seat, its current player's last post, day vote and other action (a replaced
    player's history stays with the seat but is not the newcomer's activity), in three
    queries whatever the size of the game."""
    posts = {
        (r["seat_id"], r["author_id"]): r
        for r in Post.objects.filter(game=game, kind=Post.Kind.PLAYER)
        .values("seat_id", "author_id")
        .annotate(n=Count("id"), last=Max("created_at"))
    }
    votes = Q(step__action__in=DAY_VOTES)
    inputs = {
        (r["seat_id"], r["by_id"]): r
        for r in GameInput.objects.filter(game=game, seat__isnull=False)
        .values("seat_id", "by_id")
        .annotate(
            last_vote=Max("created_at", filter=votes),
            last_action=Max("created_at", filter=~votes),
        )
    }
    done = set(
        PhaseLockIn.objects.filter(game=game, phase=game.phase).values_list("seat_id", flat=True)
    )
    rows = []
    for card in card_rows(game, seats, state):
        seat = card.seat
        p = posts.get((seat.pk, seat.user_id), {})
        i = inputs.get((seat.pk, seat.user_id), {})
        rows.append(
            ActivityRow(
                **vars(card),
                posts=p.get("n", 0),
                last_post=p.get("last"),
                last_vote=i.get("last_vote"),
                last_action=i.get("last_action"),
                awaited=turns.awaited(state, seat.name),
                done=seat.pk in done,
            )
        )
    return rows


@dataclass
class DeskPage:
    game: Game
    names: dict
    rows: list  # ActivityRow per seat, with its cards
    log: list  # (phase, [events]): every event
    threads: list  # RoomLink: every private thread
    hidden: list = field(default_factory=list)  # HiddenPost: the posts the moderator hid
    emails: "EmailTrouble | None" = None  # the game emails not reaching players
    clock_moves: list = field(default_factory=list)  # the clock's extend and shorten choices
    clock_beat: ClockBeat | None = None  # when the clock last ran (docs/operations.md)


def desk_page(game: Game) -> DeskPage:
    """The moderator's desk of a running game, in a constant number of queries."""
    seats = game_seats(game)
    state = engine_state(game)
    names = display_names(seats)
    return DeskPage(
        game=game,
        names=names,
        rows=_activity(game, seats, state),
        log=by_phase(events_all(game)),
        threads=room_links(game, state),
        hidden=hidden_posts(game, names),
        emails=email_trouble(game, seats),
        clock_moves=clock_moves(),
        clock_beat=clock_beat(),
    )


@dataclass
class EmailTrouble:
    """What the desk says of the game emails not reaching players: names and times only,
    never an address or the server's reply (those are the member's, on their profile)."""

    refused: list  # (seat name, since): players whose address the mail server refuses
    waiting: int  # this game's emails that failed and wait to be tried again

    def __bool__(self):
        return bool(self.refused or self.waiting)


def email_trouble(game: Game, seats) -> EmailTrouble:
    """From the seats' users (loaded with them) and one count of the outbox's rows."""
    refused = [(s.name, s.user.email_refused_at) for s in seats if s.user.email_refused]
    waiting = (
        GameEmail.objects.filter(game=game, status=GameEmail.Status.PENDING)
        .exclude(last_error="")  # pushed back after a failure
        .count()
    )
    return EmailTrouble(refused=refused, waiting=waiting)


@dataclass
class HiddenPost:
    ref: str  # its thread's id in the desk's forms: "public", or the room's (room_ref)
    thread: str  # its thread in words
    number: int
    author: str
    body_html: str  # as written: shown on the desk alone
    reason: str
    by: str  # who hid it
    at: object


def hidden_posts(game: Game, names: dict) -> list[HiddenPost]:
    """The posts the moderator hid, in the order they were hidden, with their text."""
    return [
        HiddenPost(
            ref=PUBLIC if p.thread == PUBLIC else room_ref(game, p.thread),
            thread=thread_words(p.thread, game.ruleset),
            number=p.number,
            author=display_name(p.seat.name, names),
            body_html=p.body_html,
            reason=p.hidden_reason,
            by=p.hidden_by.player_name if p.hidden_by else "",
            at=p.hidden_at,
        )
        for p in Post.objects.filter(game=game, hidden_at__isnull=False)
        .select_related("seat", "hidden_by")
        .order_by("hidden_at")
    ]


@dataclass
class ModeratorAct:
    at: object  # when
    phase: str
    by: str  # the moderator's player name
    text: str = ""  # an act in words
    post: Post | None = None  # or a post: an announcement, a clock notice, "X replaces Y"


def moderator_log(game: Game, names: dict) -> list[ModeratorAct]:
    """W-72: every moderator act in order: the engine inputs a moderator made (advance now,
    remove, stalemate), the moderator's posts (announcements and the clock's notices) and
    the posts they hid."""
    acts = [
        ModeratorAct(i.created_at, i.phase, i.by.player_name, act_text(i.step, i.phase, names))
        for i in GameInput.objects.filter(game=game, seat__isnull=True, by__isnull=False)
        .select_related("by")
        .order_by("index")
        # A replacement's post, written in the same transaction, names both players.
        if i.step.get("moderator") != "replace"
    ]
    posts = Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).select_related("author")
    moment = moments()
    for p in posts:
        if p.words:  # the notice of an act, worded for this reader (narration.said)
            p.body_html = post_words(p.words, names)[1]
        if "<time" in p.body_html:  # its moments in the reader's zone, as the thread shows them
            p.body_html = localise(p.body_html, moment)
        acts.append(
            ModeratorAct(p.created_at, p.phase, p.author.player_name if p.author else "", post=p)
        )
    acts += [
        ModeratorAct(
            m.created_at, m.phase, m.by.player_name if m.by else "", _post_act(m, game, names)
        )
        for m in PostModeration.objects.filter(post__game=game).select_related("post__seat", "by")
    ]
    return sorted(acts, key=lambda a: a.at)


def _post_act(m: PostModeration, game: Game, names: dict) -> str:
    """A hide or a show in the log's words; the reason, never the post's text."""
    return moderation_text(
        shown=m.act == PostModeration.Act.SHOW, seat=m.post.seat.name, number=m.post.number,
        thread=m.post.thread, ruleset=game.ruleset, reason=m.reason, names=names,
    )  # fmt: skip
