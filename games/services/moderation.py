"""The moderator's acts on a running game (W-72): replacing and removing players,
declaring a stalemate (W-72b), announcements, and hiding a player's post (in a finished
game's threads too); each one transaction with the game row locked first, and each logged
for the final reveal."""

from functools import partial

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import player_key_for
from games.engine import GameRuleError

from ..models import Game, Post, PostModeration, Seat
from .base import NOT_MODERATOR_HIDE, NOT_MODERATOR_SHOW, game_moderated
from .inputs import input_apply
from .posts import PUBLIC, moderator_notice_create, post_body
from .seats import seat_hand_over

HIDE_REASON_MAX = Post._meta.get_field("hidden_reason").max_length
HIDDEN_FIELDS = ["hidden_at", "hidden_by", "hidden_reason"]  # a post's state, hidden or not


def _seat(game, name):
    seat = Seat.objects.filter(game=game, name=name).select_related("user").first()
    if seat is None:
        raise GameRuleError(gettext("there is no player named %(name)s") % {"name": name})
    return seat


# Staff who manage members (and so see their addresses in the admin anyway) may also name
# a member by email address; a host names players by player name only.
MEMBERS_MANAGE = "accounts.change_user"


def member_find_by_email_allowed(user) -> bool:
    """Whether `user` may name a member by email address (member_find): staff granted the
    management of members. (Staff status is checked first: a host's page asks nothing.)"""
    return user.is_authenticated and user.is_staff and user.has_perm(MEMBERS_MANAGE)


def member_find(*, identifier: str, by):
    """The active member a moderator names for a seat, by player name (any case).

    Only staff with the permission to manage members may name one by email address: for
    anyone else the text is a player name and nothing is looked up by address, so the
    desk never tells a host whether an address is registered. Every miss (no such name,
    no such address, an inactive account) gets the same words."""
    text = identifier.strip()
    by_email = member_find_by_email_allowed(by)
    if not text:
        if by_email:
            raise GameRuleError(gettext("type the new player's player name or email address"))
        raise GameRuleError(gettext("type the new player's player name"))
    users = get_user_model().objects.filter(is_active=True)
    if by_email and "@" in text:
        user = users.filter(email__iexact=text).first()
    else:
        user = users.filter(player_key=player_key_for(text)).first()
    if user is None:
        if by_email:
            raise GameRuleError(
                gettext("no member has the player name or email address %(text)s") % {"text": text}
            )
        raise GameRuleError(gettext("no member has the player name %(text)s") % {"text": text})
    return user


@transaction.atomic
def player_replace(*, game: Game, seat_name: str, new_user, by, now=None) -> Seat:
    """W-72: a new user takes the seat with its cards, rooms and history, in one step; the
    seat's open replacement offers close (SEAT_CHANGED_HANDS: the community's)."""
    game = game_moderated(game, by)
    seat = _seat(game, seat_name)
    now = now or timezone.now()
    return seat_hand_over(
        game, seat, new_user, by=by, now=now, announce=partial(_announce, game, by)
    )


@transaction.atomic
def player_remove(*, game: Game, seat_name: str, by):
    """W-72: the removal is announced as such; the removed count as dead for the rules."""
    game = game_moderated(game, by)
    seat = _seat(game, seat_name)
    return input_apply(game=game, step={"moderator": "remove", "player": seat.name}, by=by)


@transaction.atomic
def stalemate_declare(*, game: Game, by):
    """W-72 and W-69a: the moderator declares a stalemate; the Witches win."""
    game = game_moderated(game, by)
    return input_apply(game=game, step={"moderator": "stalemate"}, by=by)


@transaction.atomic
def announcement_post(*, game: Game, by, body: str) -> Post:
    """A moderator's announcement in the public thread, marked as the moderator's."""
    body = post_body(body)  # checked and rendered before the lock, as a player's post
    game = game_moderated(game, by)
    return moderator_notice_create(game, by, body)


def _announce(game, by, words):
    """The moderator's notice of their act: "X replaces Y." (W-72: logged)."""
    return moderator_notice_create(game, by, words)


def _player_post(game, thread, number):
    post = Post.objects.filter(game=game, thread=thread, number=number).first()
    if post is None:
        raise GameRuleError(
            gettext("there is no post #%(number)s in that thread") % {"number": number}
        )
    if post.kind != Post.Kind.PLAYER:
        raise GameRuleError(
            gettext("post #%(number)s is not a player's post: only those can be hidden")
            % {"number": number}
        )
    return post


def _hidden_changed(game, post, act, by):
    post.save(update_fields=HIDDEN_FIELDS)
    PostModeration.objects.create(
        post=post, act=act, by=by, reason=post.hidden_reason, phase=game.phase
    )
    # The cached pages of posts are keyed by this count; the live refresh's version by the
    # public thread's changes alone (a hide in a room is no business of its other readers).
    changed = {"posts_hidden": F("posts_hidden") + 1}
    if post.thread == PUBLIC:
        changed["public_changes"] = F("public_changes") + 1
    Game.objects.filter(pk=game.pk).update(**changed)


@transaction.atomic
def post_hide(*, game: Game, thread: str, number: int, by, reason: str = "") -> Post:
    """A player's post hidden by the moderator (a leaked card, abuse): every thread shows
    the reason in its place, and searches and quotes pass it by. The text is kept for the
    desk and the admin; `post_show` brings it back."""
    reason = " ".join(str(reason).split())
    if len(reason) > HIDE_REASON_MAX:
        raise GameRuleError(
            gettext("keep the reason under %(count)s characters") % {"count": HIDE_REASON_MAX}
        )
    game = game_moderated(game, by, refusal=NOT_MODERATOR_HIDE, running=False)
    post = _player_post(game, thread, number)
    if post.hidden_at is not None:
        raise GameRuleError(gettext("post #%(number)s is already hidden") % {"number": number})
    post.hidden_at, post.hidden_by, post.hidden_reason = timezone.now(), by, reason
    _hidden_changed(game, post, PostModeration.Act.HIDE, by)
    return post


@transaction.atomic
def post_show(*, game: Game, thread: str, number: int, by) -> Post:
    """A hidden post shown again, as it was written."""
    game = game_moderated(game, by, refusal=NOT_MODERATOR_SHOW, running=False)
    post = _player_post(game, thread, number)
    if post.hidden_at is None:
        raise GameRuleError(gettext("post #%(number)s is not hidden") % {"number": number})
    post.hidden_at, post.hidden_by, post.hidden_reason = None, None, ""
    _hidden_changed(game, post, PostModeration.Act.SHOW, by)
    return post
