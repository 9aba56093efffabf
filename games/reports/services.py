"""The reports' and the ignores' writes: each one transaction, a refusal in the member's
words (GameRuleError) that writes nothing.

A report locks its game's row, like every write to a game: one post's reports are then
made one at a time, so "one per post and reporter" is checked exactly (the unique
constraint post_report_once stands behind it)."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from games.engine import GameRuleError
from games.models import Game, Ignore, Notification, Post, PostReport, Seat
from games.permissions import AFTERLIFE, can_moderate, rooms_for
from games.services import post_hide
from games.services.base import game_locked, game_moderated
from games.services.inbox import notifications_write

from .narration import outcome_words

PUBLIC = "public"
NOTE_MAX = 500
ANSWER_MAX = 300
# Sane limits: a member reports a few posts an hour at most, and ignores a few hundred.
REPORTS_PER_HOUR = 10
IGNORES_MAX = 500
NOT_MODERATOR_REPORTS = gettext_lazy("only the game's moderator can settle its reports")


def _text(value, limit: int, too_long: str) -> str:
    text = str(value or "").strip()
    if len(text) > limit:
        raise GameRuleError(too_long % {"count": limit})
    return text


def readable_post(game: Game, thread: str, number: int, seat: Seat | None) -> Post:
    """Post `number` of `thread` when `seat` may read that thread now (anyone reads the
    public thread); a thread it may not read is the same refusal as a missing post."""
    missing = GameRuleError(
        gettext("there is no post #%(number)s in that thread") % {"number": number}
    )
    if thread != PUBLIC and (seat is None or thread not in rooms_for(game, seat)):
        raise missing
    post = (
        Post.objects.filter(game=game, thread=thread, number=number).select_related("seat").first()
    )
    if post is None:
        raise missing
    return post


# --- reports -----------------------------------------------------------------------------------
@transaction.atomic
def report_make(*, game: Game, thread: str, number: int, user, reason: str, note: str = ""):
    """`user` reports post `number` of `thread` to the game's moderator. Only a player of
    the running game (a seat held now) who may read that thread; only a player's post,
    not their own; once per post."""
    game = game_locked(game)
    if game.status != Game.Status.RUNNING:
        raise GameRuleError(gettext("reports are taken while a game runs: this one is not running"))
    if can_moderate(game, user):
        raise GameRuleError(gettext("you moderate this game: hide a post from your desk"))
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise GameRuleError(gettext("only the game's players can report its posts"))
    post = readable_post(game, thread, number, seat)
    if post.kind != Post.Kind.PLAYER:
        raise GameRuleError(
            gettext("only a player's post can be reported: not the moderator's, nor the site's")
        )
    if post.author_id == user.pk:
        raise GameRuleError(gettext("that post is your own"))
    if post.hidden_at is not None:
        raise GameRuleError(gettext("the moderator has already hidden that post"))
    if reason not in PostReport.Reason.values:
        raise GameRuleError(gettext("choose a reason from the list"))
    note = _text(note, NOTE_MAX, gettext("keep the note under %(count)s characters"))
    if PostReport.objects.filter(post=post, reporter=user).exists():
        raise GameRuleError(
            gettext("you have already reported post #%(number)s: the moderator has it")
            % {"number": number}
        )
    since = timezone.now() - timedelta(hours=1)
    if PostReport.objects.filter(reporter=user, created_at__gte=since).count() >= REPORTS_PER_HOUR:
        raise GameRuleError(
            gettext(
                "you have made %(count)s reports in the last hour: wait a while before the next"
            )
            % {"count": REPORTS_PER_HOUR}
        )
    try:  # the game's lock makes this exact; the constraint stands behind it, in words too
        with transaction.atomic():
            return PostReport.objects.create(
                post=post, game=game, reporter=user, reason=reason, note=note
            )
    except IntegrityError:
        raise GameRuleError(
            gettext("you have already reported post #%(number)s: the moderator has it")
            % {"number": number}
        ) from None


def _where(thread: str) -> str:
    return thread if thread in (PUBLIC, AFTERLIFE) else "room"


@transaction.atomic
def report_settle(*, game: Game, pk: int, by, outcome: str, answer: str = "", reason: str = ""):
    """The moderator settles open report `pk` of `game`: hides its post (with `reason`, shown
    in the post's place; every open report of that post is settled with it), dismisses
    it, or marks it handled with `answer`, a word to the reporter. Each reporter settled is
    told by a notification; the reported player is told nothing."""
    game = game_moderated(game, by, refusal=NOT_MODERATOR_REPORTS, running=False)
    report = PostReport.objects.filter(game=game, pk=pk).select_related("post").first()
    if report is None:
        raise GameRuleError(gettext("there is no such report in this game"))
    if report.state != PostReport.State.OPEN:
        raise GameRuleError(gettext("that report is already settled"))
    post = report.post
    settled = [report]
    answer = _text(answer, ANSWER_MAX, gettext("keep your word under %(count)s characters"))
    if outcome == PostReport.State.HIDDEN:
        if post.hidden_at is None:  # hidden from the desk's own form since: settled alike
            post_hide(game=game, thread=post.thread, number=post.number, by=by, reason=reason)
        settled = list(
            PostReport.objects.filter(post=post, state=PostReport.State.OPEN).select_related("post")
        )
        answer = ""
    elif outcome == PostReport.State.HANDLED:
        if not answer:
            raise GameRuleError(gettext("say a word to the reporter: what you did"))
    elif outcome == PostReport.State.DISMISSED:
        answer = ""
    else:
        raise GameRuleError(gettext("choose what to do with the report"))
    now, rows = timezone.now(), []
    for one in settled:
        one.state, one.settled_at, one.settled_by = outcome, now, by
        one.answer = answer if one.pk == report.pk else ""
        one.game = game
        rows.append(
            (one.reporter_id, Notification.Kind.REPORT, f"report-{one.pk}",
             outcome_words(one, _where(post.thread)))
        )  # fmt: skip
    PostReport.objects.bulk_update(settled, ["state", "settled_at", "settled_by", "answer"])
    notifications_write(game, rows, once=True)
    return report


# --- ignore ------------------------------------------------------------------------------------
def seat_alias(seat) -> str:
    """The seat's alias in an anonymous game, else "" (the field comes with anonymous games)."""
    return getattr(seat, "alias", "") or ""


@transaction.atomic
def ignore_from_post(*, post: Post, user) -> Ignore:
    """`user` ignores the writer of `post` (a player's, which the caller let them read):
    the member everywhere; in an anonymous game, that seat in that game alone, so that no
    ignore ties an alias to a member."""
    if post.kind != Post.Kind.PLAYER:
        raise GameRuleError(gettext("only a player's posts can be hidden from you"))
    if post.author_id == user.pk:
        raise GameRuleError(gettext("you cannot ignore yourself"))
    if Ignore.objects.filter(owner=user).count() >= IGNORES_MAX:
        raise GameRuleError(
            gettext("you ignore %(count)s members already: stop ignoring one first")
            % {"count": IGNORES_MAX}
        )
    if seat_alias(post.seat):
        target = {"seat": post.seat}
    else:
        target = {"member_id": post.author_id}
    already = GameRuleError(gettext("you already ignore this player"))
    if Ignore.objects.filter(owner=user, **target).exists():
        raise already
    try:  # a second click racing the first: the unique constraint says no, in words
        with transaction.atomic():
            return Ignore.objects.create(owner=user, **target)
    except IntegrityError:
        raise already from None


@transaction.atomic
def ignore_remove(*, user, pk: int) -> None:
    """`user` stops ignoring (their own ignore `pk`)."""
    deleted, _ = Ignore.objects.filter(owner=user, pk=pk).delete()
    if not deleted:
        raise GameRuleError(gettext("you do not ignore that member"))
