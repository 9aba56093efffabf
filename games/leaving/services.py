"""A member's data out (the export) and their account gone (the erasure).

The account row is anonymised, not deleted: the games' history (seats, posts, inputs, the
host of a game) points at it with PROTECT, and a finished game's record and threads stay
whole. What made it theirs goes: the name, the addresses, the password, the sessions,
their preferences and whatever the capabilities keep of theirs (MEMBER_ERASED).
"""

import logging
import re
from importlib import import_module

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone, translation

from accounts.language import in_language_of
from accounts.mail import queue_email
from accounts.models import FORMER_MEMBER, former_member_email
from games.engine import GameRuleError
from games.models import DAY_VOTES, Game, GameEmail, GameInput, Post, Seat, SeatTenure
from games.narration.said import meaning
from games.queue import MEMBER_ERASED, MEMBER_EXPORT, emit, refine
from games.services.base import game_locked
from games.services.posts import clock_notice_create

from .narration import GOODBYE_BODY, GOODBYE_SUBJECT, HOST_LEFT, refusal_words
from .selectors import leaving_facts

logger = logging.getLogger(__name__)

EXPORT_FORMAT = "witchhunt-member-data/1"


# --- the export -----------------------------------------------------------------------------
def member_export(*, user) -> dict:
    """Everything of `user`'s, as plain JSON data. Nothing in it moves with another seat's
    hidden input: no input's index (it counts every seat's inputs), no card of a running
    game, no post but their own (tests/games/leaving/test_export.py)."""
    data = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now(),
        "profile": _profile(user),
        "games": _games(user),
        "hosted_games": [
            {"game": g.pk, "title": g.title, "status": g.status, "created_at": g.created_at}
            for g in Game.objects.filter(host=user).order_by("pk")
        ],
        "posts": _posts(user),
        **_inputs(user),
    }
    return refine(MEMBER_EXPORT, data, user=user)


def _profile(user) -> dict:
    return {
        "player_name": user.player_name,
        "email": user.email,
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        "member_since": user.date_joined,
        "time_zone": user.time_zone,
        "language": user.language,
        "preferences": {
            "email_deadline_reminders": user.email_deadline_reminders,
            "email_phase_changes": user.email_phase_changes,
            "email_mentions": user.email_mentions,
            "email_results": user.email_results,
            "email_digest": user.email_digest,
            "wagon_alerts": user.wagon_alerts,
            "theme": user.theme,
        },
    }


def _games(user) -> list[dict]:
    """Each seat they held: the game, the seat, when, and their cards once the game is
    finished (the reveal shows every card then). While it runs the role page says what
    their seat knows now; a seat they left, they may no longer see."""
    tenures = {}
    for t in SeatTenure.objects.filter(user=user).order_by("began_at", "pk"):
        tenures.setdefault(t.seat_id, []).append(t)
    seats = (
        Seat.objects.filter(Q(user=user) | Q(pk__in=list(tenures)))
        .select_related("game", "assignment")
        .order_by("game_id", "pk")
    )
    found = []
    for seat in seats:
        game = seat.game
        row = {
            "game": game.pk,
            "title": game.title,
            "ruleset": game.ruleset,
            "rulings_revision": game.revision,
            "status": game.status,
            "seat": seat.name,
            "times_held": [
                {
                    "from": t.began_at,
                    "until": t.ended_at,
                    "replacing": t.replacing,
                    "left": t.left or None,
                }
                for t in tenures.get(seat.pk, [])
            ],  # fmt: skip
            "cards": None,
        }
        if game.status == Game.Status.FINISHED:
            row["winner"] = game.winner
            assignment = getattr(seat, "assignment", None)
            if assignment is not None:
                row["cards"] = {
                    k: v
                    for k, v in (("character", assignment.character), ("type", assignment.type),
                                 ("role", assignment.role))
                    if v
                }  # fmt: skip
        found.append(row)
    return found


def _posts(user) -> list[dict]:
    posts = Post.objects.filter(author=user).select_related("game")
    posts = posts.order_by("game_id", "thread", "number")
    return [
        {
            "game": p.game_id,
            "title": p.game.title,
            "thread": p.thread,
            "number": p.number,
            "phase": p.phase,
            "kind": p.kind,
            "written_at": p.created_at,
            "text": p.body,
            "hidden_by_moderator": p.hidden_at is not None,
        }
        for p in posts
    ]


def _inputs(user) -> dict:
    """The votes and night actions they made, in order (never an index: see above)."""
    votes, actions = [], []
    rows = GameInput.objects.filter(by=user, seat__isnull=False).select_related("seat")
    for row in rows.order_by("game_id", "index"):
        entry = {"game": row.game_id, "seat": row.seat.name, "phase": row.phase,
                 "at": row.created_at, "input": row.step}  # fmt: skip
        (votes if row.step.get("action") in DAY_VOTES else actions).append(entry)
    return {"votes": votes, "night_actions": actions}


# --- the erasure ----------------------------------------------------------------------------
@transaction.atomic
def member_erase(*, user, by, now=None):
    """Delete `user`'s account, for good: see the module's docstring. `by` is the member or
    an admin. Raises GameRuleError, in words, when it may not happen yet (nothing written).
    Returns the anonymised row."""
    now = now or timezone.now()
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    facts = leaving_facts(user)
    if facts.refusal:
        raise GameRuleError(refusal_words(facts.refusal))
    old_email, old_name = user.email, user.player_name
    # Worded now, in the language they chose (the anonymised row no longer says), else
    # the page's; sent once the erasure commits.
    with in_language_of(user, translation.get_language()):
        goodbye = EmailMessage(subject=str(GOODBYE_SUBJECT), body=str(GOODBYE_BODY), to=[old_email])
    games = list(
        Game.objects.filter(Q(seats__user=user) | Q(seats__tenures__user=user) | Q(host=user))
        .distinct()
        .values_list("pk", flat=True)
    )
    _sessions_end(user)
    EmailAddress.objects.filter(user=user).delete()
    _social_accounts_delete(user)
    GameEmail.objects.filter(user=user).delete()  # the outbox: rendered, with their address
    kind = ContentType.objects.get_for_model(user)
    LogEntry.objects.filter(content_type=kind, object_id=str(user.pk)).update(
        object_repr=FORMER_MEMBER, change_message=""
    )
    _anonymise(user, now)
    _site_posts_reword(games, old_name)
    # The capabilities' part: the seats handed on, their notes and entries gone.
    emit(MEMBER_ERASED, user=user, now=now, by=by)
    for game in facts.hosted_running:
        clock_notice_create(game_locked(game), meaning(HOST_LEFT, title=game.title))
    queue_email(goodbye)
    logger.info("member %s erased (by member %s)", user.pk, getattr(by, "pk", None))
    return user


def _anonymise(user, now) -> None:
    user.left_at = now  # save() keys the row as former-member-<id>
    user.player_name = FORMER_MEMBER
    user.email = former_member_email(user.pk)
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.time_zone = "UTC"
    user.language = user.theme = ""
    user.email_deadline_reminders = user.email_phase_changes = False
    user.email_mentions = user.email_digest = user.wagon_alerts = user.email_results = False
    user.digest_sent_at = user.email_refused_at = None
    user.email_refused_to = user.email_refused_reply = ""
    user.notifications_unread = 0
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _sessions_end(user) -> None:
    """Every session signed in as `user`, from the database and the cache (the engine is
    cached_db). A session keeps its user's id inside its encoded data, so each is read:
    a site's sessions are few enough (they expire), and this runs once per member."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    key = str(user.pk)
    for session in Session.objects.iterator():
        if session.get_decoded().get("_auth_user_id") == key:
            store(session_key=session.session_key).delete()


def _social_accounts_delete(user) -> None:
    """allauth's social accounts, on a site that turned them on."""
    from django.apps import apps

    if apps.is_installed("allauth.socialaccount"):
        apps.get_model("socialaccount", "SocialAccount").objects.filter(user=user).delete()


# The member's name as a whole word (player names are letters, digits and underscores).
def _word(name: str) -> re.Pattern:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


def _words_reword(words: dict, word: re.Pattern) -> dict:
    """A post's stored meaning (narration.said) with the member's name "a former member"
    where it names them: a notice's names, a summary's kept names (never the seats' keys
    in its events and count)."""
    if not words:
        return words

    def part(p):
        args = {}
        for key, value in p.get("args", {}).items():
            if key == "names":
                value = {seat: word.sub(FORMER_MEMBER, n) for seat, n in value.items()}
            elif isinstance(value, str):
                value = word.sub(FORMER_MEMBER, value)
            args[key] = value
        return {**p, "args": args}

    out = part(words)
    if "then" in words:
        out["then"] = [part(p) for p in words["then"]]
    return out


def _site_posts_reword(game_ids, name: str) -> None:
    """The site's own posts (the summaries, the clock's notices) keep the words they were
    written with: where they named the member, they say "a former member" now. Players'
    and moderators' posts are theirs: their words stay (a forum's habit)."""
    word = _word(name)
    posts = Post.objects.filter(game_id__in=game_ids, kind=Post.Kind.SYSTEM)
    posts = posts.annotate(said=Cast("words", TextField()))
    posts = posts.filter(Q(body__contains=name) | Q(said__contains=name))
    changed = set()
    for post in posts:
        body = word.sub(FORMER_MEMBER, post.body)
        html = "".join(
            part if part.startswith("<") else word.sub(FORMER_MEMBER, part)
            for part in re.split(r"(<[^>]*>)", post.body_html)
        )
        words = _words_reword(post.words, word)
        if (body, html, words) != (post.body, post.body_html, post.words):
            Post.objects.filter(pk=post.pk).update(body=body, body_html=html, words=words)
            changed.add(post.game_id)
    # Every viewer of the game page sees the change: the live refresh asks again.
    Game.objects.filter(pk__in=changed).update(public_changes=F("public_changes") + 1)
