"""A post's short edit window (issue 31, the forum habit): its author may edit it for
settings.POST_EDIT_MINUTES after posting, while they could still post it (the same phase,
still allowed to post in that thread). Each earlier text is kept as a PostVersion for the
moderator and, after the end, for the thread's readers; the post shows "edited".

An edit goes through the post rules again (services/posts.post_body: length, markup, the
sanitiser; POST_BODY: `@name`s linked) but tells no one: a post's readers were told of it
when it was posted (POST_CREATED), and an edit that could notify would let a player ping
anew by editing, or notify twice. What cites a post keeps what it cited: a quote copied
its text into the quoting post (selectors.threads.post_quote) and a vote count cites a
post by its number and moment only (selectors.votes.count_at_post), so neither moves.

A public post's edit changes what every reader of the game page sees: it bumps the
game's `posts_edited` (the cached pages of posts) and `public_changes` (the live refresh);
a room post's edit bumps nothing its other readers could not see, so it stays as private
as the room.
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.engine import GameRuleError

from ..models import Game, Post, PostVersion
from ..queue import POST_BODY, refine
from .base import game_locked
from .posts import PUBLIC, _public_post_allowed, _room_post_allowed, post_body


def edit_refusal(game: Game, post: Post, user, now=None) -> str | None:
    """Why `user` may not edit `post` now, in their words; None when they may. Call it
    with the game row locked to rely on it (the view asks it first to offer the form)."""
    now = now or timezone.now()
    if post.kind != Post.Kind.PLAYER or post.author_id != user.pk or post.seat.user_id != user.pk:
        return gettext("you can only edit your own posts")
    if post.hidden_at is not None:
        return gettext("the moderator hid this post: it cannot be edited")
    minutes = settings.POST_EDIT_MINUTES
    if now - post.created_at > timedelta(minutes=minutes):
        return ngettext(
            "a post can be edited for %(count)s minute after it is posted",
            "a post can be edited for %(count)s minutes after it is posted",
            minutes,
        ) % {"count": minutes}
    if post.phase != game.phase:
        return gettext("a post can be edited only in the phase it was posted in")
    try:
        if post.thread == PUBLIC:
            _public_post_allowed(game, post.seat, None)
        else:
            _room_post_allowed(game, user, post.thread)
    except GameRuleError as e:
        return str(e)
    return None


@transaction.atomic
def post_edit(*, game: Game, user, thread: str, number: int, body: str) -> Post:
    """Post `number` of `thread` with `body` in place of its text, the text before kept as
    a PostVersion; GameRuleError (nothing written) when `user` may not edit it now."""
    body = refine(POST_BODY, post_body(body), game=game)  # before the lock, as posting
    game = game_locked(game)
    post = (
        Post.objects.filter(game=game, thread=thread, number=number).select_related("seat").first()
    )
    if post is None:
        raise GameRuleError(gettext("there is no post #%(number)s") % {"number": number})
    refusal = edit_refusal(game, post, user)
    if refusal:
        raise GameRuleError(refusal)
    if body.text == post.body:
        return post  # nothing changed: no version, no "edited"
    PostVersion.objects.create(
        post=post,
        body=post.body,
        body_html=post.body_html,
        written_at=post.edited_at or post.created_at,
    )
    post.body, post.body_html, post.edited_at = body.text, body.html, timezone.now()
    post.save(update_fields=["body", "body_html", "edited_at"])
    if thread == PUBLIC:
        Game.objects.filter(pk=game.pk).update(
            posts_edited=F("posts_edited") + 1, public_changes=F("public_changes") + 1
        )
    return post
