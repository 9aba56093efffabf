"""Replacements (issue 16, W-72): a seat is marked for replacement (its player asked to
leave, the moderator marked it, or a second prod did: services/prods.py); the public
thread says a replacement is wanted and the volunteers on the replacement list are
offered the seat, in-site and by email; the first to accept takes it exactly as a
moderator's replacement does (the core's `seat_hand_over`, services/seats.py, whose
SEAT_CHANGED_HANDS closes the other open offers here): the seat keeps its cards, rooms
and history, and the newcomer alone gets the cards.

An offer and the wanted post name the game, the phase and the seat's player, never a
card or an alignment. Every write locks the game row first; a volunteer's list entry for
any game locks nothing but their own row.
"""

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from games import queue
from games.engine import REMOVED, GameRuleError
from games.mail import absolute_url, message_build, send_after_commit
from games.mapping import engine_state
from games.models import (
    Game,
    Notification,
    ReplacementOffer,
    ReplacementVolunteer,
    Seat,
)
from games.permissions import can_moderate, has_held_seat, seat_held_q
from games.queue import member_told
from games.services.base import game_locked, game_moderated, seat_of
from games.services.inbox import notifications_write
from games.services.posts import clock_notice_create, moderator_notice_create
from games.services.seats import seat_hand_over

from ..narration import (
    NO_LONGER_WANTED,
    WANTED,
    leave_asked_words,
    note_too_long,
    notice,
    offer_words,
)

# Issue 25: a member who held a seat of the game (replaced out, asked to leave, removed).
PLAYED_BEFORE = gettext_lazy(
    "you have already played in this game: you know what your seat knew, so you cannot "
    "take another seat in it"
)
NOTE_MAX = 200  # a volunteer's note, a leaving player's reason (the columns' length)
HOURS_MAX = 168

NOT_MODERATOR_ASK = gettext_lazy("only the game's moderator can ask for a replacement")
NOT_MODERATOR_CHANGE = gettext_lazy("only the game's moderator can change a replacement")
# An offer answered already, one whole sentence per answer.
ANSWERED = {
    ReplacementOffer.Status.ACCEPTED: gettext_lazy("you have already accepted this offer"),
    ReplacementOffer.Status.DECLINED: gettext_lazy("you have already declined this offer"),
}


def offers_closed(*, game, seat, old, new, now, **_) -> None:
    """SEAT_CHANGED_HANDS: the seat's other open offers close, and so do the leaver's and
    the newcomer's open offers for the game's other seats: neither may take another seat
    of this game (issue 25)."""
    ReplacementOffer.objects.filter(seat=seat, status=ReplacementOffer.Status.OPEN).exclude(
        user=new
    ).update(status=ReplacementOffer.Status.CLOSED, answered_at=now)
    ReplacementOffer.objects.filter(
        seat__game=game, user__in=(old, new), status=ReplacementOffer.Status.OPEN
    ).exclude(seat=seat).update(status=ReplacementOffer.Status.CLOSED, answered_at=now)


def moderator_says(game, by):
    """Who writes a notice in the thread: the moderator, for their own act (so the desk's
    log and the reveal show it, W-72) ..."""
    return lambda words: moderator_notice_create(game, by, words)


def site_says(game):
    """... or the site, for a volunteer's taking a seat or the sweep's second prod."""
    return lambda words: clock_notice_create(game, words)


# --- marking a seat ------------------------------------------------------------------------
def seat_mark(game: Game, seat: Seat, *, reason: str, now, by=None) -> list[ReplacementOffer]:
    """Mark `seat` for replacement: the public thread says so (the moderator's notice when
    `by` marked it, else the site's) and the volunteers are offered the seat. Call it with
    the game row locked; returns the offers made."""
    seat.replacement_wanted_at = now
    seat.replacement_reason = reason
    seat.save(update_fields=["replacement_wanted_at", "replacement_reason"])
    say = moderator_says(game, by) if by is not None else site_says(game)
    say(notice(WANTED, name=seat.shown_name))
    return _offers_make(game, seat, _volunteers(game, seat))


def _running_seat(game, seat_name):
    seat = Seat.objects.filter(game=game, name=seat_name).select_related("user").first()
    if seat is None:
        raise GameRuleError(gettext("there is no player named %(name)s") % {"name": seat_name})
    return seat


def _in_play(game, seat) -> bool:
    """Whether the seat still has a part to hand over. In Witchhunt every seat not removed
    (W-72) does: the dead play on as Angels and Demons, so a "wanted" notice for a seat
    announced dead says nothing of an offstage one (W-14a, W-41) among them. In Werewolf
    the dead only talk (WW-17): only a living seat is handed over."""
    es = engine_state(game).seat(seat.name)
    if es is None or es.status == REMOVED:
        return False
    return game.ruleset == Game.Ruleset.WITCHHUNT or es.living


@transaction.atomic
def replacement_mark(*, game: Game, seat_name: str, by, now=None) -> Seat:
    """The moderator marks a seat for replacement from the desk or the admin."""
    now = now or timezone.now()
    game = game_moderated(game, by, refusal=NOT_MODERATOR_ASK)
    seat = _running_seat(game, seat_name)
    if seat.replacement_wanted_at is not None:
        raise GameRuleError(
            gettext("a replacement is already wanted for %(name)s") % {"name": seat.shown_name}
        )
    if not _in_play(game, seat):
        raise GameRuleError(
            gettext("%(name)s is out of the game: there is no seat to hand over")
            % {"name": seat.shown_name}
        )
    seat_mark(game, seat, reason="moderator", now=now, by=by)
    return seat


@transaction.atomic
def replacement_unmark(*, game: Game, seat_name: str, by, now=None) -> Seat:
    """The moderator keeps the player after all: the mark goes, the open offers close and
    the thread says the seat is no longer wanted."""
    now = now or timezone.now()
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CHANGE)
    seat = _running_seat(game, seat_name)
    if seat.replacement_wanted_at is None:
        raise GameRuleError(
            gettext("no replacement is wanted for %(name)s") % {"name": seat.shown_name}
        )
    seat.replacement_wanted_at = None
    seat.replacement_reason = ""
    seat.save(update_fields=["replacement_wanted_at", "replacement_reason"])
    ReplacementOffer.objects.filter(seat=seat, status=ReplacementOffer.Status.OPEN).update(
        status=ReplacementOffer.Status.CLOSED, answered_at=now
    )
    moderator_notice_create(game, by, notice(NO_LONGER_WANTED, name=seat.shown_name))
    return seat


@transaction.atomic
def leave_ask(*, game: Game, user, note: str = "", now=None) -> Seat:
    """A player asks to leave: their seat is marked and offered to the volunteers; they
    play on until somebody takes it. `note` goes to the moderator alone."""
    now = now or timezone.now()
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise GameRuleError(
            ngettext(
                "keep the reason to %(count)s character",
                "keep the reason to %(count)s characters",
                NOTE_MAX,
            )
            % {"count": NOTE_MAX}
        )
    game = game_locked(game)
    seat = seat_of(game, user)
    if game.status != Game.Status.RUNNING:
        raise GameRuleError(
            gettext("only a running game has replacements: before the start, leave it")
        )
    if seat.replacement_wanted_at is not None:
        raise GameRuleError(gettext("a replacement is already wanted for your seat"))
    if not _in_play(game, seat):
        raise GameRuleError(gettext("you are out of the game: there is no seat to hand over"))
    seat.user = user  # the seat's player, for the notice, without another query
    seat_mark(game, seat, reason="asked", now=now)
    notifications_write(
        game,
        [
            (
                game.host_id,
                Notification.Kind.REPLACEMENT,
                f"asked-{seat.pk}-{now.timestamp():.0f}",
                leave_asked_words(user.player_name, note),
            )
        ],
    )
    return seat


# --- the volunteers and their offers -------------------------------------------------------
def _volunteers(game, seat) -> list[ReplacementVolunteer]:
    """Who is offered `seat`, in order: those on the list for this game, then those for
    any game; never anyone who holds or has held a seat of the game (issue 25), its
    moderator, nor anyone who already has an open offer for the seat or declined it."""
    answered = ReplacementOffer.objects.filter(
        seat=seat,
        status__in=(ReplacementOffer.Status.OPEN, ReplacementOffer.Status.DECLINED),
    ).values("user_id")
    rows = (
        ReplacementVolunteer.objects.filter(
            Q(game=game) | Q(game__isnull=True), user__is_active=True
        )
        .exclude(seat_held_q(game))
        .exclude(user_id__in=answered)
        .exclude(user_id=game.host_id)
        .select_related("user")
        .order_by("created_at", "pk")
    )
    found = {}
    # This game's list first (sorted here: databases put NULLs first or last as they like).
    for row in sorted(rows, key=lambda r: r.game_id is None):
        if row.user_id in found or can_moderate(game, row.user):
            continue
        if _may_be_offered(game, row.user):
            found[row.user_id] = row
    return list(found.values())


def _offers_make(game, seat, volunteers) -> list[ReplacementOffer]:
    """One offer to each volunteer, with a notification and an email (for those who take
    phase-change emails: an offer is a game to join), sent after the commit."""
    if not volunteers:
        return []
    offers = ReplacementOffer.objects.bulk_create(
        [ReplacementOffer(seat=seat, user=v.user) for v in volunteers]
    )
    name, phase = seat.shown_name, game.phase
    notifications_write(
        game,
        [
            (
                o.user_id,
                Notification.Kind.REPLACEMENT,
                f"offer-{o.pk}",
                offer_words(name, game.title, phase),
            )
            for o in offers
        ],
    )
    send_after_commit([_offer_email(game, o, name) for o in offers if o.user.email_phase_changes])
    for offer in offers:
        member_told(user_id=offer.user_id, game=game, kind="replacement")
    return offers


def _offer_email(game, offer, name):
    context = {
        "game": game,
        "name": name,
        "phase": game.phase,
        "deadline_at": game.deadline_at,
        "url": absolute_url(reverse("replacement_offer", args=[offer.pk])),
        "list_url": absolute_url(reverse("replacement_list")),
    }
    return message_build(offer.user, "replacement_offer", context, "phases")


def _volunteer_check(hours_per_week, note):
    if not 1 <= hours_per_week <= HOURS_MAX:
        raise GameRuleError(
            gettext("give between 1 and %(most)s hours a week") % {"most": HOURS_MAX}
        )
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise GameRuleError(note_too_long(NOTE_MAX))
    return note


def _may_volunteer(game, user):
    if game.status == Game.Status.FINISHED:
        raise GameRuleError(gettext("this game is over"))
    if can_moderate(game, user):
        raise GameRuleError(gettext("you moderate this game: you cannot also play in it"))
    if Seat.objects.filter(game=game, user=user).exists():
        raise GameRuleError(gettext("you already have a seat in this game"))
    if has_held_seat(game, user):
        raise GameRuleError(PLAYED_BEFORE)
    queue.emit(queue.REPLACEMENT_ASKED, game=game, user=user)  # a capability may refuse


def _may_be_offered(game, user) -> bool:
    """Whether no capability refuses `user` a seat of `game` (REPLACEMENT_ASKED)."""
    try:
        queue.emit(queue.REPLACEMENT_ASKED, game=game, user=user)
    except GameRuleError:
        return False
    return True


@transaction.atomic
def volunteer_join(*, user, game: Game | None = None, hours_per_week: int, note: str = ""):
    """Put `user` on the replacement list, for any game (`game` None) or one game, with the
    hours a week they can give; joining again changes the hours and the note."""
    note = _volunteer_check(hours_per_week, note)
    if game is not None:
        game = game_locked(game)
        _may_volunteer(game, user)
    row, _created = ReplacementVolunteer.objects.update_or_create(
        user=user, game=game, defaults={"hours_per_week": hours_per_week, "note": note}
    )
    return row


@transaction.atomic
def volunteer_leave(*, user, game: Game | None = None, now=None) -> int:
    """Take `user` off the list (for any game, or for one game); their open offers there
    close. Returns how many list entries went."""
    now = now or timezone.now()
    if game is not None:
        game = game_locked(game)
    deleted, _ = ReplacementVolunteer.objects.filter(user=user, game=game).delete()
    if not deleted:
        raise GameRuleError(gettext("you are not on that list"))
    offers = ReplacementOffer.objects.filter(user=user, status=ReplacementOffer.Status.OPEN)
    if game is not None:
        offers = offers.filter(seat__game=game)
    elif ReplacementVolunteer.objects.filter(user=user).exists():
        # Still on the list for some games: only the other games' offers close.
        offers = offers.exclude(seat__game__volunteers__user=user)
    offers.update(status=ReplacementOffer.Status.CLOSED, answered_at=now)
    return deleted


@transaction.atomic
def seat_volunteer(*, game: Game, seat_name: str, user, hours_per_week: int = 5, note: str = ""):
    """A member volunteers for a seat that is wanted now: they join the game's list (if
    they were on no list for it) and are offered the seat at once."""
    note = _volunteer_check(hours_per_week, note)
    game = game_locked(game)
    _may_volunteer(game, user)
    if game.status != Game.Status.RUNNING:
        raise GameRuleError(gettext("this game is not running"))
    seat = Seat.objects.filter(game=game, name=seat_name).select_related("user").first()
    if seat is None or seat.replacement_wanted_at is None:
        raise GameRuleError(gettext("that seat is no longer wanted: somebody may have taken it"))
    ReplacementVolunteer.objects.get_or_create(
        user=user, game=game, defaults={"hours_per_week": hours_per_week, "note": note}
    )
    mine = ReplacementOffer.objects.filter(seat=seat, user=user)
    offer = mine.filter(status=ReplacementOffer.Status.OPEN).first()
    if offer is None:
        if mine.filter(status=ReplacementOffer.Status.DECLINED).exists():
            raise GameRuleError(gettext("you declined this seat earlier"))
        (offer,) = _offers_make(game, seat, [ReplacementVolunteer(user=user, game=game)])
    return offer


def _offer_locked(offer_id, user):
    """The user's offer with its game row locked; the same refusal for any offer that is
    not theirs as for one that does not exist."""
    found = ReplacementOffer.objects.filter(pk=offer_id, user=user).select_related("seat").first()
    if found is None:
        raise GameRuleError(gettext("there is no such offer"))
    game = game_locked(found.seat.game)
    offer = ReplacementOffer.objects.select_related("seat__user").get(pk=found.pk)
    if offer.status == ReplacementOffer.Status.CLOSED:
        raise GameRuleError(gettext("this seat has been taken or is no longer wanted"))
    if offer.status != ReplacementOffer.Status.OPEN:
        raise GameRuleError(ANSWERED[offer.status])
    return game, offer


@transaction.atomic
def offer_accept(*, offer_id: int, user, now=None) -> Seat:
    """The volunteer takes the seat: the first to accept wins it (the game row lock
    queues the others, who then find their offer closed)."""
    now = now or timezone.now()
    game, offer = _offer_locked(offer_id, user)
    seat = offer.seat
    if game.status != Game.Status.RUNNING or seat.replacement_wanted_at is None:
        raise GameRuleError(gettext("this seat has been taken or is no longer wanted"))
    if has_held_seat(game, user):
        # An offer made before they held a seat of this game (issue 25).
        raise GameRuleError(PLAYED_BEFORE)
    seat_hand_over(game, seat, user, by=user, now=now, announce=site_says(game))
    offer.status = ReplacementOffer.Status.ACCEPTED
    offer.answered_at = now
    offer.save(update_fields=["status", "answered_at"])
    return seat


@transaction.atomic
def offer_decline(*, offer_id: int, user, now=None) -> ReplacementOffer:
    """The volunteer says no to this seat; they stay on the list for others."""
    now = now or timezone.now()
    _game, offer = _offer_locked(offer_id, user)
    offer.status = ReplacementOffer.Status.DECLINED
    offer.answered_at = now
    offer.save(update_fields=["status", "answered_at"])
    return offer
