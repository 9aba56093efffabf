"""Sign-ups (issue 16): the rules around the core's bare join and leave
(games/services/seats.py): the bar of finished games a member must meet (SEAT_WANTED),
the start when the last seat is taken or the host told it is full (GAME_FILLED), and the
moderator's changes before the start (the start date, the bar of finished games, the
site's start, the prod rule, the size, cancelling). The sweep's part is `signups_lapse`:
a start date that passed on a game that is not under way.

Each is one transaction with the game row locked first. The moderator's changes are
notices in the game's thread (their log, W-72); the site's start is the site's notice,
not a moderator act.
"""

import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.language import lazy_words
from games.deal import deal_problems, errors_only
from games.engine import GameRuleError
from games.mail import absolute_url, message_build, send_after_commit
from games.models import Game, Notification, Seat
from games.permissions import can_moderate
from games.services.base import game_locked
from games.services.games import game_deal
from games.services.inbox import notifications_write
from games.services.posts import clock_notice_create, moderator_notice_create
from games.signup_rules import min_games_checked, signups_start_checked

from .. import narration as words
from ..selectors.signups import finished_games_count
from .notices import notices_create

logger = logging.getLogger(__name__)

# The site's notices to a host go by email under this preference (games/mail.py).
EMAILS = "phases"
MAX_SEATS = 48  # Game's check constraint game_seats_3_to_48
PROD_AFTER_MAX = timedelta(days=30)


# --- members: the core's join asks (SEAT_WANTED) and tells (GAME_FILLED) ------------------
def join_checked(*, game: Game, user, **_) -> None:
    """SEAT_WANTED: refuse a member short of the finished games the game asks for."""
    if game.min_finished_games:
        played = finished_games_count(user)
        if played < game.min_finished_games:
            raise GameRuleError(words.too_few_games(game.min_finished_games, played))


def game_filled(*, game: Game, now, **_) -> None:
    """GAME_FILLED: the last seat of an open game was taken."""
    _filled(game, now)


def _filled(game: Game, now) -> None:
    """Every seat is taken: the site deals and starts, or the host is told they may."""
    if game.start_when_full:
        game_deal(game, now=now)
        seats = game.seats_count
        clock_notice_create(game, words.notice(words.SITE_STARTED, seats=seats))
        said = words.site_started_words(seats)
        notices_create(
            game=game,
            kind=Notification.Kind.SIGNUP,
            key="started-by-site",
            texts={game.host_id: said},
            email=EMAILS,
        )
    else:
        notices_create(
            game=game,
            kind=Notification.Kind.SIGNUP,
            key="full",
            texts={game.host_id: words.full_words()},
            email=EMAILS,
        )


# --- the sweep ----------------------------------------------------------------------------
def signups_lapse(*, game: Game, now) -> bool:
    """The start date of `game` (claimed and locked by sweep.signups_tick) has passed with
    the game still open: tell its host once, in their zone, and mark it told. Returns
    whether the game was still short of players."""
    filled = Seat.objects.filter(game=game).count()
    host = get_user_model().objects.get(pk=game.host_id)
    at, zone = game.signups_close_at, host.zoneinfo
    short = filled < game.seats_count
    if short:
        said = words.lapsed_words(filled, game.seats_count, at, zone)
    else:
        said = words.waiting_words(at, zone)
    game.signups_lapsed_at = now
    game.save(update_fields=["signups_lapsed_at"])
    # One notice per start date: a date moved later that lapses again tells again.
    notices_create(
        game=game,
        kind=Notification.Kind.SIGNUP,
        key=f"lapsed-{at:%Y%m%d%H%M}",
        texts={host.pk: said},
        email=EMAILS,
    )
    return short


# --- the moderator, before the start -------------------------------------------------------
def _open_moderated(game: Game, by) -> Game:
    game = game_locked(game)
    if not can_moderate(game, by):
        raise GameRuleError(gettext("only the game's moderator can change its sign-ups"))
    if game.status != Game.Status.OPEN:
        raise GameRuleError(gettext("the game has started: its sign-ups can no longer change"))
    return game


@transaction.atomic
def signups_settings_set(
    *,
    game: Game,
    by,
    starts_at,
    min_finished_games: int,
    start_when_full: bool,
    prod_after: timedelta | None,
    now=None,
) -> Game:
    """The moderator changes an open game's sign-up settings: each change is a notice in
    the thread. A start date moved (it must be ahead) makes the sweep look at it again; the
    site's start turned on for a full game starts it now."""
    now = now or timezone.now()
    game = _open_moderated(game, by)
    min_games_checked(min_finished_games)
    if prod_after is not None and not timedelta(hours=1) <= prod_after <= PROD_AFTER_MAX:
        raise GameRuleError(gettext("prod after between 1 hour and 30 days of silence, or never"))
    changed = []
    if starts_at != game.signups_close_at:
        if starts_at is None:
            moderator_notice_create(game, by, words.notice(words.START_CLEARED))
        else:
            signups_start_checked(starts_at, now)
            moderator_notice_create(game, by, words.notice(words.START_MOVED, moment=starts_at))
        game.signups_close_at = starts_at
        game.signups_lapsed_at = None
        changed += ["signups_close_at", "signups_lapsed_at"]
    if min_finished_games != game.min_finished_games:
        game.min_finished_games = min_finished_games
        changed.append("min_finished_games")
        moderator_notice_create(
            game,
            by,
            words.notice(words.MIN_GAMES_CHANGED, games=min_finished_games),
        )
    if prod_after != game.prod_after:
        game.prod_after = prod_after  # shown on the game page; no notice: prods are later
        changed.append("prod_after")
    turned_on = start_when_full and not game.start_when_full
    if start_when_full != game.start_when_full:
        game.start_when_full = start_when_full
        changed.append("start_when_full")
        said = words.START_WHEN_FULL_ON if start_when_full else words.START_WHEN_FULL_OFF
        moderator_notice_create(game, by, words.notice(said))
    if not changed:
        raise GameRuleError(gettext("nothing was changed"))
    game.save(update_fields=changed)
    if turned_on and Seat.objects.filter(game=game).count() == game.seats_count:
        _filled(game, now)
    return game


@transaction.atomic
def game_resize(*, game: Game, by, seats_count: int, now=None) -> Game:
    """The moderator makes an open game smaller (or larger): never below the players
    signed up, and only to a size its deal can fill. A game full at its new size is full
    as if its last seat had just been taken."""
    now = now or timezone.now()
    game = _open_moderated(game, by)
    filled = Seat.objects.filter(game=game).count()
    if not 3 <= seats_count <= MAX_SEATS:
        raise GameRuleError(
            gettext("a game has between %(least)s and %(most)s seats")
            % {"least": 3, "most": MAX_SEATS}
        )
    if seats_count == game.seats_count:
        raise GameRuleError(
            ngettext(
                "the game has %(count)s seat already",
                "the game has %(count)s seats already",
                seats_count,
            )
            % {"count": seats_count}
        )
    if seats_count < filled:
        raise GameRuleError(
            ngettext(
                "%(count)s player has signed up: the game cannot have fewer seats than that",
                "%(count)s players have signed up: the game cannot have fewer seats than that",
                filled,
            )
            % {"count": filled}
        )
    problems = errors_only(deal_problems(game.ruleset, game.deal, seats_count, game.seed))
    if problems:
        raise GameRuleError(
            gettext("the game's deal does not fit %(count)s seats: %(problems)s")
            % {"count": seats_count, "problems": "; ".join(problems)}
        )
    game.seats_count = seats_count
    game.save(update_fields=["seats_count"])
    moderator_notice_create(game, by, words.notice(words.SIZE_CHANGED, seats=seats_count))
    if filled == seats_count:
        _filled(game, now)
    return game


@transaction.atomic
def game_cancel(*, game: Game, by) -> str:
    """The moderator cancels an open game: it is deleted with its seats, and each player
    signed up is told by email and in their notifications (their earlier notifications of
    it go with it; this one names the game by its title, having none to lead to). Returns
    its title. Logged (the game's own log goes with the game)."""
    game = _open_moderated(game, by)
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    text = lazy_words(words.cancelled_text, game.title)  # in each recipient's language
    context = {"game": game, "text": text, "url": absolute_url(reverse("game_list"))}
    messages = [
        message_build(seat.user, "notification", context, EMAILS)
        for seat in seats
        if seat.user.email_phase_changes
    ]
    title = game.title
    logger.info("game %s (%s) cancelled by user %s before its start", game.pk, title, by.pk)
    send_after_commit(messages)  # written before the game goes: their rows keep no game
    game.delete()
    said = words.cancelled_words(title)
    notifications_write(None, [(s.user_id, Notification.Kind.SIGNUP, "", said) for s in seats])
    return title
