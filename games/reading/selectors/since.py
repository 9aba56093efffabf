"""Since you last read: what changed in a game since the viewer's last visit,
for its page and for the daily digest. It is built from the events the viewer's pages
show them: the public ones, those addressed to their seat, and every event only for those
who see the whole game.
"""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from games.engine import options_for
from games.mapping import engine_state
from games.models import DAY_VOTES, Assignment, Game, GameEvent, GameVisit, Post, Seat
from games.narration import ability_label, action_label, describe_event, phase_label, standing_text
from games.narration.said import first_line
from games.narration.summaries import hidden_words
from games.selectors.seats import display_names, seats_public
from games.selectors.threads import PUBLIC, post_page

from ..narration import since as words
from .news import thread_news
from .readable import UNKNOWN, Readable, readable, thread_url
from .votes import vote_moves

# How much "since you last read" shows of each part (the rest is counted): a week away must
# not make a page that lists every vote of the week (the vote moves' own: votes.py).
FIRST_LINES = 3  # the first lines of a thread's first new posts
LINE_LENGTH = 140
MAX_EVENTS = 60
# The options the role page leaves to the game page (the day vote) or to each submission.
NOT_ACTIONS = ("vote", "unvote", "withdraw")


# --- "since you last read" ------------------------------------------------------------------
@dataclass
class SinceLine:
    number: str
    author: str
    text: str
    url: str
    own: bool = False  # the text is the author's own words (a post's), not the site's


@dataclass
class SinceThread:
    key: str  # never shown
    label: str
    url: str  # where opening it lands: its first new post
    new: int
    lines: list = field(default_factory=list)  # SinceLine: the first new posts' first lines


@dataclass
class SincePage:
    game: Game
    names: dict
    readable: Readable
    boundary: int  # the last event the viewer had seen (-1: none)
    visited_at: object = None  # when they last opened the game, or None
    threads: list = field(default_factory=list)  # SinceThread with new posts
    votes: list = field(default_factory=list)  # (phase label, [vote moves in words])
    votes_more: int = 0
    happened: list = field(default_factory=list)  # (phase label, [deaths, announcements])
    happened_more: int = 0
    private: list = field(default_factory=list)  # (phase label, [what the viewer learned])
    private_more: int = 0
    actions: list = field(default_factory=list)  # what the viewer's seat still has to do
    latest_event: int = -1  # the last event read: where the next visit starts

    @property
    def new_posts(self) -> int:
        return sum(t.new for t in self.threads)

    @property
    def changed(self) -> bool:
        return bool(self.threads or self.votes or self.happened or self.private)


def visit_boundary(game: Game, user, *, previous=False) -> tuple[int, object]:
    """(last event index seen, when) of the viewer's last visit, or with `previous` where
    the visit before the game page's last one ended (its "since you last read" link); (-1,
    None) for none."""
    index = "previous_index" if previous else "event_index"
    visit = GameVisit.objects.filter(user=user, game=game).values_list(index, "visited_at")
    found = visit.first()
    return found if found is not None else (-1, None)


def visible_events(game: Game, can: Readable):
    """The events the viewer's pages show them: the public ones, those addressed to their
    seat (the role page's), and every one for those who see the whole game."""
    events = GameEvent.objects.filter(game=game)
    if can.whole_game:
        return events
    q = Q(audience=GameEvent.Audience.PUBLIC)
    if can.seat is not None:
        addressed = GameEvent.recipients.through.objects.filter(seat=can.seat)
        q |= Q(audience=GameEvent.Audience.SEATS, pk__in=addressed.values("gameevent_id"))
    return events.filter(q)


def since_page(
    game: Game, user, *, previous=False, boundary: int | None = None, created_after=None,
    seat=UNKNOWN,
) -> SincePage:  # fmt: skip
    """What changed in `game` for `user` since their last visit (GameVisit), since the visit
    before the game page's last one with `previous` (the page's link), or since event
    `boundary` when given (the digest's and the benchmark's: never from a request, an
    index counts hidden events), and, for the
    digest, only what happened after `created_after`: new posts per thread with their first
    lines, the day's vote moves with their wagons, deaths and announcements, what the viewer
    learned, and what their seat still has to do. A constant number of queries."""
    visited_at = None
    if boundary is None:
        boundary, visited_at = visit_boundary(game, user, previous=previous)
    seats = seats_public(game)
    names = display_names(seats)
    if seat is UNKNOWN:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    state = engine_state(game) if game.status != Game.Status.OPEN else None
    can = readable(game, user, seat=seat, state=state)
    page = SincePage(game, names, can, boundary, visited_at, latest_event=boundary)
    page.threads = _new_threads(game, user, can, names)
    if state is None:
        return page
    events = visible_events(game, can).filter(index__gt=boundary)
    if created_after is not None:
        events = events.filter(created_at__gt=created_after)
    rows = list(events.order_by("index").values("index", "kind", "phase", "audience", "data"))
    if rows:
        page.latest_event = rows[-1]["index"]
    viewer = seat.name if seat is not None and not can.whole_game else None
    public = [r for r in rows if r["audience"] == GameEvent.Audience.PUBLIC]
    page.votes, page.votes_more = vote_moves(game, public, state, names, viewer)
    page.happened, page.happened_more = _grouped(
        [r for r in public if r["kind"] not in (*DAY_VOTES, "setup")], names, None
    )
    page.private, page.private_more = _grouped(
        [r for r in rows if r["audience"] != GameEvent.Audience.PUBLIC], names, viewer
    )
    if seat is not None and game.status == Game.Status.RUNNING:
        page.actions = _pending(seat, state, names)
    return page


def _first_line(body: str) -> str:
    """A post's first line of its own: quotes (">") and blank lines skipped, Markdown's
    leading marks dropped, cut at LINE_LENGTH."""
    for line in body.splitlines():
        text = line.strip()
        if not text or text.startswith(">"):
            continue
        text = text.lstrip("#*-+ ").strip()
        if text:
            return text if len(text) <= LINE_LENGTH else text[: LINE_LENGTH - 1].rstrip() + "…"
    return ""


def _new_threads(game, user, can, names) -> list[SinceThread]:
    """The threads the viewer may read that have new posts, the public one first, with
    the first lines of their first new posts: two queries."""
    news = [n for k, n in thread_news(game, user).items() if can.can_read(k) and n.new]
    if not news:
        return []
    news.sort(key=lambda n: (n.key != PUBLIC, words.thread_label(n.key, game.ruleset)))
    first = Q()
    for n in news:
        first |= Q(thread=n.key, number__gt=n.read, number__lte=n.read + FIRST_LINES)
    posts = (
        Post.objects.filter(game=game)
        .filter(first)
        .order_by("thread", "number")
        .values(
            "thread",
            "number",
            "kind",
            "body",
            "author__player_name",
            "seat__alias",
            "event__kind",
            "event__data",
            "hidden_at",
            "hidden_reason",
            "words",
        )
    )
    lines = {}
    for p in posts:
        if p["event__kind"]:
            text = describe_event(p["event__kind"], p["event__data"], names)
        elif p["hidden_at"]:  # as its thread shows it: the moderator's reason, not the text
            text = hidden_words(p["hidden_reason"])
        elif p["words"]:  # the site's words, in the reader's language (narration.said)
            text = first_line(p["words"], names)
        else:
            text = _first_line(p["body"])
        own = not (p["event__kind"] or p["hidden_at"] or p["words"])
        # An anonymous game's seat by its alias (issue 31), whoever wrote from it.
        author = p["seat__alias"] or p["author__player_name"] or ""
        lines.setdefault(p["thread"], []).append((p["number"], author, text, own))
    out = []
    for n in news:
        base = thread_url(game, n.key, can)
        out.append(
            SinceThread(
                key=n.key,
                label=words.thread_label(n.key, game.ruleset),
                url=f"{base}?page={post_page(n.first_unread)}#p{n.first_unread}",
                new=n.new,
                lines=[
                    SinceLine(str(num), who, text, f"{base}?page={post_page(num)}#p{num}", own)
                    for num, who, text, own in lines.get(n.key, [])
                ],
            )
        )
    return out


def _grouped(rows, names, viewer, limit=MAX_EVENTS) -> tuple[list, int]:
    """Events in words, grouped by phase in order; the latest `limit`, and how many more."""
    more = max(len(rows) - limit, 0)
    groups = {}
    for r in rows[more:]:
        text = describe_event(r["kind"], r["data"], names, viewer)
        groups.setdefault(r["phase"], []).append(text)
    return [(phase_label(p), lines) for p, lines in groups.items()], more


def _pending(seat, state, names) -> list[str]:
    """What the seat may still do now, as the role page offers it (engine options_for and
    standing): the day vote, then each other action, chosen or not yet."""
    es = state.seat(seat.name)
    if es is None:
        return []
    lines = []
    if not state.night and es.living:
        vote = state.votes.votes.get(seat.name)
        lines.append(words.voted_for(vote, names) if vote else words.not_voted())
    standing = state.standing(seat.name)
    options = [o for o in options_for(state, seat.name) if o.action not in NOT_ACTIONS]
    card = None
    if any(o.action == "ability" for o in options):
        a = Assignment.objects.filter(seat=seat).values("role", "character").first() or {}
        card = a.get("role") or a.get("character")
    for o in options:
        if o.action in standing:
            lines.append(words.action_standing(standing_text(o.action, standing[o.action], names)))
        else:
            label = ability_label(card) if o.action == "ability" else action_label(o.action)
            lines.append(words.action_open(label))
    return lines or [words.nothing_to_do()]


def digest_pages(user, *, since=None) -> list[SincePage]:
    """The digest of `user`: "since you last read" for each running game they sit in, and
    each that ended after `since` (their last digest); only what happened after `since`
    counts as news (new posts stay those they have not read). Games with nothing to tell
    are left out."""
    ended = Q(game__status=Game.Status.FINISHED)
    ended &= Q(game__finished_at__gt=since or timezone.now() - timedelta(days=1))
    seats = (
        Seat.objects.filter(user=user)
        .filter(Q(game__status=Game.Status.RUNNING) | ended)
        .select_related("game", "game__host")
        .order_by("game__started_at", "game_id")
    )
    pages = []
    for seat in seats:
        page = since_page(seat.game, user, created_after=since, seat=seat)
        if page.changed or page.actions:
            pages.append(page)
    return pages
