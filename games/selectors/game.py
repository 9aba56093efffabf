"""The game page: the public thread beside the players, the vote panel, and for the
viewer's own seat what it may do now (never a card or a private result)."""

from dataclasses import dataclass, field
from functools import cache as cache_once

from games.engine import Phase, has_option

from ..mapping import engine_state
from ..models import DAY_VOTES, Game, GameEvent, Seat
from ..narration import display_name, public_setup
from ..panels import GAME, Panels, collect
from ..permissions import can_moderate
from ..queue import GAME_PAGE_SEATS, refine
from .forum import post_counts, vote_markers
from .rooms import seat_rooms
from .seats import display_names, public_status, seats_listed
from .threads import ThreadFilter, search_words, thread_page
from .votes import HISTORY_SHOWN, vote_count, vote_history


@dataclass
class PlayerRow:
    seat: Seat
    name: str
    status: str
    # Issue 31: the seat's post counts (the seats' own counters: forum.post_counts).
    counted: object = field(default=None, repr=False)

    @property
    def posts(self):
        """forum.PostCount of the seat's player, once the game has started; else None."""
        return self.counted()[self.seat.pk] if self.counted else None


@dataclass
class PublicSetup:
    """The setup everyone sees (W-23), each list sorted by its key (narration.public_setup),
    never in the deal's seat order."""

    characters: list[str]
    types: list[tuple[str, int]]  # (player type, count)


@dataclass
class GamePage:
    game: Game
    names: dict
    players: list
    viewer_seat: Seat | None
    viewer_status: str | None
    is_moderator: bool
    posts: object  # threads.ThreadPage
    only: ThreadFilter | None  # the thread's filter (?only=, ?day=, ?q=), when one is on
    count: object = None  # votes.VoteCount, by day in a running game
    history: object = None  # votes.VoteDay: the latest day's votes
    setup: PublicSetup | None = None
    my_vote: str | None = None
    can_post: bool = False
    can_vote: bool = False
    vote_targets: list = field(default_factory=list)  # (seat name, player name), the living
    has_actions: bool = False
    rooms: list = field(default_factory=list)  # (id, label) of the viewer's rooms now
    # What capabilities show on it (games/panels.py): "player_note" (on a player's line) and
    # "post_head" (on a post's) are the viewer's own (views/fragments.py), "players_foot"
    # under the player list.
    panels: Panels = field(default_factory=Panels)
    days: list = field(default_factory=list)  # the days the thread's filter offers


@dataclass(frozen=True)
class ThreadAsk:
    """What the reader asked of the public thread: a page (threads.thread_page's `page`);
    or filtered, by `only` one seat's name or several, a `day` or a search `q`, and paged
    `after`/`before` a post; or the posts `since` one (the live refresh)."""

    page: int = 1
    only: tuple[str, ...] | str = ()
    after: int | None = None
    before: int | None = None
    day: int | None = None
    q: str = ""
    since: int | None = None


def game_page(
    game: Game, user, ask: ThreadAsk = ThreadAsk(), *, deferred=False, last=None
) -> GamePage:
    """Everything the game page shows to `user`: the thread as `ask`ed, the players, the
    vote panel, and for the viewer's own seat what it may do (no card, no private result);
    the capabilities' panels come once it is shown (`game_panels`). `deferred` leaves a
    page of the whole thread's posts unread (ThreadPage.loaded reads them) and the vote
    history and the setup unmade (None): the game page's view takes them from the cache
    (views/fragments.py). `last`, the public thread's last post number when the caller
    has read it, spares reading it again."""
    seats = list(refine(GAME_PAGE_SEATS, seats_listed(game), game=game, user=user))
    names = display_names(seats)
    viewer_seat = None
    if user.is_authenticated:
        viewer_seat = next((s for s in seats if s.user_id == user.pk), None)
    started = game.status != Game.Status.OPEN
    state = engine_state(game) if started else None
    last_day = _days(game) if started else 0
    filters = _thread_filter(seats, ask, last_day)
    posts = thread_page(
        game,
        page=ask.page,
        filters=filters,
        after=ask.after,
        before=ask.before,
        names=names,
        since=ask.since,
        deferred=deferred,
        last=last,
    )
    if started and posts.number is not None:  # issue 31: the whole thread's vote markers
        _with_markers(posts, game, names)
    out = GamePage(
        game=game,
        names=names,
        players=[PlayerRow(s, names[s.name], public_status(state, s.name)) for s in seats],
        viewer_seat=viewer_seat,
        viewer_status=public_status(state, viewer_seat.name) if viewer_seat else None,
        is_moderator=can_moderate(game, user),
        posts=posts,
        only=filters or None,
        days=list(range(1, last_day + 1)),
    )
    if started:
        counted = cache_once(lambda: post_counts(game, seats))
        for row in out.players:
            row.counted = counted
        _play_panel(out, game, state, deferred)
    return out


def _with_markers(posts, game, names) -> None:
    """The page's rows, once read, carry the vote markers (forum.vote_markers)."""
    if posts.rows is not None:
        vote_markers(game, posts.rows, names)
        return
    load = posts.pending
    posts.pending = lambda: vote_markers(game, load(), names)


def _days(game: Game) -> int:
    """The number of the game's latest day ("day 3", "night 2": 3, 2)."""
    phase = Phase.parse(game.phase)
    return phase.number if phase else 0


def _thread_filter(seats, ask: ThreadAsk, last_day: int) -> ThreadFilter:
    wanted = {ask.only} if isinstance(ask.only, str) else set(ask.only or ())
    chosen = [s for s in seats if s.name in wanted]  # unknown names are ignored
    return ThreadFilter(
        seats=tuple(s.name for s in chosen),
        seat_ids=tuple(s.pk for s in chosen),
        day=ask.day if ask.day and ask.day <= last_day else None,
        q=search_words(ask.q),
    )


def _play_panel(out: GamePage, game, state, deferred) -> None:
    """A started game's vote count and history, its setup, and what the viewer may do."""
    if not deferred:
        out.history = vote_history(game, out.names, last=HISTORY_SHOWN)
        out.setup = game_setup(game)
    running = game.status == Game.Status.RUNNING
    # After the end, the players may talk it over (services.posts.post_create allows it).
    out.can_post = out.viewer_seat is not None and game.status == Game.Status.FINISHED
    if running and not state.night:
        out.count = vote_count(state)
    if running and out.viewer_seat is not None:
        _viewer_panel(out, game, state, out.viewer_seat)


def game_setup(game: Game) -> PublicSetup | None:
    """The setup the game announced to everyone (W-23), or None when it keeps it secret."""
    setup = GameEvent.objects.filter(
        game=game, kind="setup", audience=GameEvent.Audience.PUBLIC
    ).first()
    return PublicSetup(*public_setup(setup.data)) if setup is not None else None


def _viewer_panel(out: GamePage, game, state, seat) -> None:
    es = state.seat(seat.name)
    out.my_vote = state.votes.votes.get(seat.name)
    out.can_post = es.living and not state.night
    out.can_vote = es.living and not state.night
    names = out.names
    out.vote_targets = [(s.name, display_name(s.name, names)) for s in state.seats if s.living]
    out.has_actions = has_option(state, seat.name, skip=DAY_VOTES)
    out.rooms = seat_rooms(game, seat, state)


def game_panels(page: GamePage, user, **context) -> Panels:
    """The capabilities' panels on the game page (games/panels.py), once it is made and
    shown: the view passes the request (what reading's THREAD_SHOWN left on it)."""
    seats = [row.seat for row in page.players]
    page.panels = collect(
        GAME, game=page.game, user=user, seats=seats, viewer_seat=page.viewer_seat, **context
    )
    return page.panels
