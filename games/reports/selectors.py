"""The reports' and the ignores' reads: the viewer's ignore set for a thread (one query;
none for a member the cache knows ignores nobody), the desk's open reports, a reporter's
own reports, a member's ignore list."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from games.models import Game, Ignore, Post, PostReport, Seat
from games.remembered import remembered
from games.selectors import label_of, room_ref

from .narration import reason_label, state_label
from .services import PUBLIC, seat_alias

# Anonymous games give a seat an alias: a member ignored everywhere is not ignored under
# one (the collapse would tie the alias to them); only an ignore of that seat is.
_HAS_ALIAS = any(f.name == "alias" for f in Seat._meta.get_fields())


@dataclass(frozen=True)
class IgnoreSet:
    """Whose posts collapse for one viewer in one game: `post in ignored` in a template,
    for a thread's row (selectors.threads: kind, author_id, seat's name). Never a
    moderator's or the site's post."""

    members: frozenset
    seats: frozenset

    def __contains__(self, row) -> bool:
        if row.get("kind") != Post.Kind.PLAYER:
            return False
        return row.get("author_id") in self.members or row.get("seat") in self.seats


def ignores_key(user_id: int) -> str:
    return f"reports:ignores:{user_id}"


def ignore_set(user, game: Game) -> IgnoreSet | None:
    """The ignores of `user` that touch `game`'s posts, in one query; None for none (the
    page keeps its cached thread)."""
    if not user.is_authenticated:
        return None
    # Most members ignore nobody: that is kept in the cache (receivers forget it), and
    # their game pages ask nothing more.
    if not remembered(ignores_key(user.pk), Ignore.objects.filter(owner=user).exists):
        return None
    wrote = Post.objects.filter(game=game, author=OuterRef("member_id"), kind=Post.Kind.PLAYER)
    if _HAS_ALIAS:
        wrote = wrote.filter(seat__alias="")
    rows = (
        Ignore.objects.filter(owner=user)
        .annotate(wrote_here=Exists(wrote))
        .filter(Q(seat__game=game) | Q(member__isnull=False, wrote_here=True))
        .values_list("member_id", "seat__name")
    )
    members, seats = set(), set()
    for member, seat in rows:
        if member is not None:
            members.add(member)
        else:
            seats.add(seat)
    if not members and not seats:
        return None
    return IgnoreSet(frozenset(members), frozenset(seats))


# --- what a post is called on the reports' pages -------------------------------------------------
def post_author(post: Post) -> str:
    """A post's writer as its thread names them: the seat's alias in an anonymous game."""
    return seat_alias(post.seat) or post.author.player_name


def thread_label(game: Game, thread: str) -> str:
    if thread == PUBLIC:
        return gettext("the game's thread")
    return label_of(game, thread)


def thread_ref(game: Game, thread: str) -> str:
    return PUBLIC if thread == PUBLIC else room_ref(game, thread)


# --- the desk -----------------------------------------------------------------------------------
@dataclass
class DeskReport:
    pk: int
    number: int
    thread: str  # its label
    ref: str  # the thread's id in the URLs
    author: str
    body_html: str
    hidden: bool
    reporter: str
    reason: str
    note: str
    at: datetime


def reports_desk(game: Game) -> list[DeskReport]:
    """The game's open reports, oldest first: for its moderator's desk alone."""
    rows = (
        PostReport.objects.filter(game=game, state=PostReport.State.OPEN)
        .select_related("post__seat", "post__author", "reporter")
        .order_by("created_at", "pk")
    )
    return [
        DeskReport(
            pk=r.pk,
            number=r.post.number,
            thread=thread_label(game, r.post.thread),
            ref=thread_ref(game, r.post.thread),
            author=post_author(r.post),
            body_html=r.post.body_html,
            hidden=r.post.hidden_at is not None,
            reporter=r.reporter.player_name,
            reason=reason_label(r.reason),
            note=r.note,
            at=r.created_at,
        )
        for r in rows
    ]


# --- the reporter's own ------------------------------------------------------------------------
@dataclass
class MyReport:
    game_id: int
    game: str
    number: int
    reason: str
    state: str
    is_open: bool
    answer: str
    at: datetime


def reports_mine(user) -> list[MyReport]:
    """`user`'s own reports, newest first, with their states and the moderator's word."""
    rows = (
        PostReport.objects.filter(reporter=user)
        .select_related("game", "post")
        .order_by("-created_at", "-pk")[:200]
    )
    return [
        MyReport(
            game_id=r.game_id,
            game=r.game.title,
            number=r.post.number,
            reason=reason_label(r.reason),
            state=state_label(r.state),
            is_open=r.state == PostReport.State.OPEN,
            answer=r.answer,
            at=r.created_at,
        )
        for r in rows
    ]


# --- a member's ignore list --------------------------------------------------------------------
@dataclass
class Ignored:
    pk: int
    label: str


def ignores_listed(user) -> list[Ignored]:
    """Whom `user` ignores: a member by name; a seat of an anonymous game by its alias and
    game ("Elm in Game 12"), never by the member behind it."""
    out = []
    for ignore in Ignore.objects.filter(owner=user).select_related("member", "seat__game"):
        if ignore.member_id is not None:
            label = ignore.member.player_name
        else:
            alias = seat_alias(ignore.seat)
            words = {"alias": alias, "game": ignore.seat.game.title}
            label = (
                gettext("%(alias)s in %(game)s") % words
                if alias
                else gettext("a seat in %(game)s") % words
            )
        out.append(Ignored(ignore.pk, label))
    return out
