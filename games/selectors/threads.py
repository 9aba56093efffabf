"""The threads: a page of posts (the public thread, a room, the afterlife), a post's
permalink, and a post quoted for a reply.

Posts are numbered 1, 2, 3… in their thread with no gap (services/posts.py), so page N is
the key range of numbers (N-1)·50+1 … N·50: read on the (game, thread, number) index
with no OFFSET, whatever the thread's length, and a post's page never changes, so its
permalink never does. A filtered view (?only= one or several seats, ?day= one day's
posts, ?q= a search in the text: ThreadFilter) pages by the numbers too: the fifty after a
post (`after`), or before one (`before`).

A page's posts are plain dicts made once, with everything the template shows already in
words (times in the reader's zone, permalinks, labels): the thread renders in one plain
loop, with no include, filter, tag or reverse() per post.
"""

from dataclasses import dataclass, field
from urllib.parse import quote

from django.db.models import Case, F, Max, Q, TextField, Value, When
from django.urls import reverse
from django.utils import dateformat, formats, timezone
from django.utils.translation import pgettext

from ..models import Game, Post
from ..narration import describe_event, display_name, phase_label
from ..narration.said import post_words
from ..narration.summaries import hidden_words, post_icon, post_label, replaced_name
from ..post_times import localise

POSTS_PER_PAGE = 50
PUBLIC = "public"  # the public thread's key
LAST = "last"  # ?page=last: the thread's last page, wherever it has got to


@dataclass
class PageLink:
    """One item of a thread's page links: a link, the current page, or a gap (…)."""

    label: str
    href: str = ""
    current: bool = False
    rel: str = ""  # "prev", "next"


# A search's words are cut to this length: the query stays small whatever is typed.
SEARCH_MAX = 100


@dataclass(frozen=True)
class ThreadFilter:
    """Which posts a filtered view of a thread shows: those of some seats (`seats`, their
    names; `seat_ids` when known), of one day (`day`), whose text holds `q` (any case)."""

    seats: tuple = ()
    seat_ids: tuple = ()
    day: int | None = None
    q: str = ""

    def __bool__(self):
        return bool(self.seats or self.day or self.q)

    @property
    def query(self) -> str:
        """The filter as a query string ("only=ann&only=bob&day=2&q=wolf")."""
        parts = [f"only={quote(s)}" for s in self.seats]
        if self.day:
            parts.append(f"day={self.day}")
        if self.q:
            parts.append(f"q={quote(self.q)}")
        return "&".join(parts)

    def apply(self, posts, names=None):
        if self.seat_ids:
            posts = posts.filter(seat_id__in=self.seat_ids)
        elif self.seats:
            posts = posts.filter(seat__name__in=self.seats)
        if self.day:
            posts = posts.filter(phase=f"day {self.day}")
        if self.q:  # a hidden post's text is not searched: a match would tell of it
            said = Q(number__in=site_words_matching(posts, self.q, names or {}))
            posts = posts.filter(Q(body__icontains=self.q) | said, hidden_at__isnull=True)
        return posts


def site_words_matching(posts, q: str, names) -> list[int]:
    """The numbers of the posts among `posts` whose site words (a system post's, a notice
    of a moderator's act) hold `q`, worded as this reader reads them: in their language,
    so a search finds what the page shows. They are worded when read, so no column holds
    them; a thread has a few site posts a phase, read in one query."""
    site = posts.filter(Q(kind=Post.Kind.SYSTEM) | ~Q(words={}))
    q, found = q.casefold(), []
    for number, words, kind, data in site.values_list(
        "number", "words", "event__kind", "event__data"
    ):
        if words:
            text = post_words(words, names)[0]
        else:
            text = describe_event(kind, data, names) if kind else ""
        if q in text.casefold():
            found.append(number)
    return found


def post_said(post: Post, names=None) -> tuple[str, str]:
    """A post's text and HTML as its reader reads them: the site's words (`words`) worded
    now in the active language, else its body as written (a player's, a moderator's, a
    site post kept from before meaning was stored). An event alone has neither."""
    if post.words:
        css = "post__announcement" if post.kind == Post.Kind.SYSTEM else ""
        return post_words(post.words, names or {}, css)
    return post.body, post.body_html


def search_words(value) -> str:
    """A `?q=` value as the search's words: stripped and bounded ("" for none)."""
    return str(value or "").strip()[:SEARCH_MAX]


@dataclass
class ThreadPage:
    # Each post a dict: number, kind, url (permalink), author_name, seat (its name, or None),
    # seat_query (?only= value), seat_label, phase, body_html, text (a system post's words),
    # reply_number (of the post it answers, or None), reply_url, hidden (the words shown in
    # place of a post the moderator hid, else ""), its time in the reader's zone
    # as the `date` filter writes it: at_iso ("c", to the second), at_short ("D j M, H:i"),
    # at_zone ("T").
    rows: list
    number: int | None  # the page of the whole thread; None for one seat's posts
    query: str  # this page's query string ("page=3", "only=bob&after=120")
    links: list = field(default_factory=list)  # PageLink, empty when one page holds all
    last: int | None = None  # the whole thread's last post number (not read when filtered)
    pages: int = 1  # the whole thread's pages
    # A deferred page (thread_page's `deferred`) has `rows` None until `loaded()` reads
    # them: the game page's posts may come from the cache (views/fragments.py).
    pending: object = None
    # The live refresh's posts appended to an open page: the post before them (number,
    # created_at) with the vote markers of the run its first closes (forum.markers_appended).
    lead: dict | None = None

    def loaded(self) -> "ThreadPage":
        """The page with its rows read (a deferred page's query runs now)."""
        if self.rows is None:
            self.rows = self.pending()
        return self

    @property
    def last_shown(self) -> int | None:
        """The number of the page's last post (None when it shows none), without reading
        the rows of a page of the whole thread."""
        if self.number is not None and self.last is not None:
            top = min(self.number * POSTS_PER_PAGE, self.last)
            return top if top > (self.number - 1) * POSTS_PER_PAGE else None
        self.loaded()
        return int(self.rows[-1]["number"]) if self.rows else None


def post_page(number) -> int:
    """The page of the whole thread that holds post `number`."""
    return (int(number) - 1) // POSTS_PER_PAGE + 1


def permalink(base: str, number) -> str:
    """Post `number`'s address under `base` (the thread's page): its page and anchor."""
    return f"{base}?page={post_page(number)}#p{number}"


def post_url(game_id, number) -> str:
    """The permalink of post `number`: its page of the whole public thread, and its anchor."""
    return permalink(reverse("game_detail", args=[game_id]), number)


def page_number(value) -> int | str:
    """A `?page=` value as a page: a number from 1, or LAST; anything else is page 1."""
    if value == LAST:
        return LAST
    try:
        return max(int(value), 1)
    except (TypeError, ValueError):
        return 1


def thread_page(
    game: Game,
    *,
    page=1,
    only=None,
    after=None,
    before=None,
    thread=PUBLIC,
    names=None,
    only_seat=None,
    filters=None,
    since=None,
    deferred=False,
    last=None,
) -> ThreadPage:
    """A page of a thread, oldest first: page `page` (a number, or LAST) of the whole
    thread; or with `filters` (a ThreadFilter; `only`, a seat's name with `only_seat` its
    id when known, is the one-seat filter) the fifty posts it keeps after post `after`,
    before post `before`, its last (page LAST) or its first; or with `since` the (up to
    fifty) posts after post `since` (the live refresh, selectors/live.py). `names`
    (seat -> player name) words the announcements and the seats' names. Two queries,
    whatever the thread's length; a page of the whole thread made `deferred` reads its
    posts only when `loaded()` (or not at all), and one told the thread's `last` post
    number (a thread page's THREAD_OPENED may have read it: games/queue.py) does not read it."""
    posts = Post.objects.filter(game=game, thread=thread)
    names = names or {}
    if only and not filters:
        filters = ThreadFilter(seats=(only,), seat_ids=(only_seat,) if only_seat else ())
    if filters:
        if page == LAST:
            before = LAST_NUMBER
        mine = filters.apply(posts, names)
        return _seat_page(mine, filters.query, after, before, thread, names, game)
    if last is None:
        last = posts.aggregate(n=Max("number"))["n"] or 0
    if since is not None:
        chosen = posts.filter(number__gt=since).order_by("number")[:POSTS_PER_PAGE]
        rows = _rows(chosen, thread, names, game)
        return ThreadPage(rows=rows, number=None, query=f"page={LAST}", last=last)
    pages = post_page(last) if last else 1
    number = pages if page == LAST else min(max(int(page), 1), pages)
    top = number * POSTS_PER_PAGE
    # No further than `last`: a post written meanwhile is not on a page whose version
    # (selectors.live) says the thread ends at `last`.
    upto = min(top, last)
    chosen = posts.filter(number__gt=top - POSTS_PER_PAGE, number__lte=upto).order_by("number")
    load = lambda: _rows(chosen, thread, names, game)  # noqa: E731
    return ThreadPage(
        rows=None if deferred else load(),
        pending=load,
        number=number,
        query=f"page={number}",
        links=_page_links(number, pages),
        last=last,
        pages=pages,
    )


def posts_shown(game: Game, thread: str, numbers, names) -> list[dict]:
    """Posts `numbers` of `thread` as the thread shows them (hidden ones as hidden), in
    order: one query. For the game viewer's steps of a finished game."""
    posts = Post.objects.filter(game=game, thread=thread, number__in=list(numbers))
    return _rows(posts.order_by("number"), thread, names, game)


# `before` beyond any post's number: a seat's last fifty posts (?only=…&page=last).
LAST_NUMBER = 2**31


def _seat_page(mine, only_q, after, before, thread, names, game) -> ThreadPage:
    """A filtered view's fifty posts (`mine`; `only_q` the filter's query string) after
    post `after`, before post `before`, or its first: a keyset on the post number, no
    OFFSET. Two queries: the page and one beyond it, and whether any lies on the other
    side."""
    if before is not None:
        chosen = mine.filter(number__lt=before).order_by("-number")
        query = f"{only_q}&page={LAST}" if before == LAST_NUMBER else f"{only_q}&before={before}"
    else:
        chosen = mine.filter(number__gt=after or 0).order_by("number")
        query = f"{only_q}&after={after}" if after else only_q
    rows = _rows(chosen[: POSTS_PER_PAGE + 1], thread, names, game)
    beyond = len(rows) > POSTS_PER_PAGE
    rows = rows[:POSTS_PER_PAGE]
    if before is not None:
        rows.reverse()
    earlier = later = False
    if rows:
        first, last = int(rows[0]["number"]), int(rows[-1]["number"])
        if before is not None:
            earlier, later = beyond, mine.filter(number__gt=last).exists()
        else:
            earlier, later = mine.filter(number__lt=first).exists(), beyond
    links = []
    if earlier:
        links.append(PageLink(pgettext("thread pages", "First"), f"?{only_q}"))
        links.append(
            PageLink(pgettext("thread pages", "Previous"), f"?{only_q}&before={first}", rel="prev")
        )
    if later:
        links.append(
            PageLink(pgettext("thread pages", "Next"), f"?{only_q}&after={last}", rel="next")
        )
        links.append(PageLink(pgettext("thread pages", "Last"), f"?{only_q}&page={LAST}"))
    return ThreadPage(rows=rows, number=None, query=query, links=links)


def _page_links(number: int, pages: int) -> list[PageLink]:
    """Previous, the first and last pages, those within two of this one with a gap (…)
    where pages are skipped, and Next; none when the thread has one page."""
    if pages <= 1:
        return []
    links = []
    if number > 1:
        links.append(
            PageLink(pgettext("thread pages", "Previous"), f"?page={number - 1}", rel="prev")
        )
    near = {1, 2, pages - 1, pages, *range(number - 2, number + 3)}
    for n in sorted(n for n in near if 1 <= n <= pages):
        if n == number:
            links.append(PageLink(str(n), current=True))
        elif n in (1, pages) or abs(n - number) <= 2:
            links.append(PageLink(str(n), f"?page={n}"))
        else:  # page 2 or the one before the last, out of reach: a gap stands for them
            links.append(PageLink("…"))
    if number < pages:
        links.append(PageLink(pgettext("thread pages", "Next"), f"?page={number + 1}", rel="next"))
    return links


# What a page reads of each post (paths through its author, seat, reply and event).
ROW_FIELDS = ("number", "kind", "phase", "body_html", "created_at", "author__player_name",
              "seat__name", "reply_to__number", "event__kind", "event__data", "notice",
              "author_id", "seat__user_id", "hidden_at", "hidden_reason", "words",
              "seat__alias", "edited_at")  # fmt: skip


def _rows(posts, thread, names, game) -> list[dict]:
    """The posts as the thread shows them: one query, and each post's words made once."""
    # A clock notice's words; a player's text is not read (its HTML is).
    notice = Case(
        When(kind=Post.Kind.SYSTEM, then=F("body")), default=Value(""), output_field=TextField()
    )
    rows = list(posts.annotate(notice=notice).values(*ROW_FIELDS))
    # The public thread's permalinks are whole addresses (they are copied and shared); a
    # room's stay on its own page.
    base = reverse("game_detail", args=[game.pk]) if thread == PUBLIC else ""
    # "The vote count as of post N" (selectors.votes.count_at_post), the public thread's.
    counts = reverse("game_votes_at_post", args=[game.pk, 1])[:-2] if thread == PUBLIC else ""
    moment = moments()
    phases, seats, icons = {}, {None: ("", "")}, {}
    for row in rows:
        # Numbers as text: a template localises an int it prints, at a cost per number.
        number = row["number"] = str(row["number"])
        row["url"] = permalink(base, number)
        row["author_name"] = row.pop("author__player_name")
        alias = row.pop("seat__alias")
        row["count_url"] = f"{counts}{number}/" if counts else ""
        reply = row.pop("reply_to__number")
        row["reply_number"] = str(reply) if reply else ""
        row["reply_url"] = permalink(base, reply) if reply else ""
        seat = row["seat"] = row.pop("seat__name")
        if seat not in seats:
            seats[seat] = (quote(seat), display_name(seat, names))
        row["seat_query"], row["seat_label"] = seats[seat]
        if alias:  # an anonymous game's seat: its alias, whoever sits there (W-72)
            row["author_name"] = alias
            row.pop("author_id"), row.pop("seat__user_id")  # no ignore of a member folds it
        # author_id stays otherwise: a reader's ignores are by writer (games/reports).
        elif seat and row["author_id"] != row.pop("seat__user_id"):
            # W-72: what a replaced player wrote keeps their name, beside today's.
            row["author_name"] = replaced_name(row["author_name"], display_name(seat, names))
        phase = row["phase"]
        if phase not in phases:
            phases[phase] = phase_label(phase)
        row["phase"] = phases[phase]
        kind, data = row.pop("event__kind"), row.pop("event__data")
        words = row.pop("words")
        if words:  # the site's words, worded now in the reader's language (narration.said)
            css = "post__announcement" if row["kind"] == Post.Kind.SYSTEM else ""
            row["notice"], row["body_html"] = post_words(words, names, css)
        if row["kind"] == Post.Kind.SYSTEM:
            # A summary's and a notice's words are their HTML (worded above, or as an old
            # post kept them); an event alone is told in today's words.
            row["text"] = (
                ""
                if row["body_html"]
                else describe_event(kind, data, names)
                if kind
                else row["notice"]
            )
            icon = post_icon(kind, data)
            if icon not in icons:
                icons[icon] = post_label(icon)
            row["icon"], row["label"] = icon, icons[icon]
        if row["kind"] != Post.Kind.PLAYER and "<time" in row["body_html"]:
            # A notice's moments in the reader's zone (games/post_times.py).
            row["body_html"] = localise(row["body_html"], moment)
        reason = row.pop("hidden_reason")
        if row.pop("hidden_at"):  # its words in its place, for every reader of the thread
            row["body_html"], row["hidden"] = "", hidden_words(reason)
        else:
            row["hidden"] = ""
        row["at_iso"], _long, row["at_short"], row["at_zone"] = moment(row["created_at"])
        edited = row.pop("edited_at")  # issue 31: "edited", with when (services/post_edits.py)
        row["edited_iso"], row["edited_long"], *_ = moment(edited) if edited else ("", "")
    return rows


def moments():
    """A function from a moment to (iso, long, short, zone) in the reader's time zone (the
    current one: accounts' middleware sets it), as the `date` filter writes "c" (to the
    second), FULL_DATE_FORMAT with the time and zone, DAY_FORMAT with the time, and "T"
    (witchhunt/formats: the reader's language's). The date's words are formatted once a day,
    not four times a post."""
    zone = timezone.get_current_timezone()
    days = {}

    def moment(at):
        local = at.astimezone(zone)
        day = local.date()
        words = days.get(day)
        if words is None:
            words = days[day] = (
                dateformat.format(local, formats.get_format("FULL_DATE_FORMAT")),
                dateformat.format(local, formats.get_format("DAY_FORMAT")),
            )
        clock = f"{local.hour:02d}:{local.minute:02d}"
        # "T" names no zone for a wall time the clocks change over (there twice, or never),
        # as the date filter does.
        other = local.replace(fold=1 - local.fold)
        name = "" if zone.utcoffset(other) != local.utcoffset() else str(local.tzname())
        iso = local.isoformat(timespec="seconds")
        return iso, f"{words[0]}, {clock} {name}", f"{words[1]}, {clock}", name

    return moment


def hidden_in_thread(game: Game, thread: str) -> list[tuple[int, str]]:
    """(number, the words shown in its place) of each post of `thread` the moderator hid."""
    posts = Post.objects.filter(game=game, thread=thread, hidden_at__isnull=False)
    return [(n, hidden_words(r)) for n, r in posts.values_list("number", "hidden_reason")]


def post_quote(game: Game, number: int, names: dict) -> str | None:
    """Post `number` of the public thread as a Markdown quote for a reply, or None."""
    return posts_quoted(game, [number], names).get(number)


def posts_quoted(game: Game, numbers, names: dict) -> dict[int, str]:
    """Number -> post_quote's Markdown of each of `numbers` that is a visible player's post
    of the public thread (one query: the multi-quote asks for several)."""
    posts = Post.objects.filter(
        game=game, thread=PUBLIC, number__in=numbers, kind=Post.Kind.PLAYER, hidden_at__isnull=True
    ).select_related("seat")
    out = {}
    for post in posts:
        author = names.get(post.seat.name, post.seat.name)
        quoted = "\n".join(f"> {line}" for line in post.body.splitlines())
        out[post.number] = f"> **{author}** wrote in #{post.number}:\n{quoted}\n\n"
    return out
