"""The threads: a page of posts (the public thread, a room, the afterlife), a post's
permalink, and a post quoted for a reply."""

from django.core.paginator import Page, Paginator
from django.urls import reverse

from ..models import Game, Post

POSTS_PER_PAGE = 50
PUBLIC = "public"  # the public thread's key


def thread_page(game: Game, *, page=1, only=None, thread=PUBLIC) -> Page:
    """A page of a thread, oldest first; `only` keeps one seat's posts (ISO)."""
    posts = (
        Post.objects.filter(game=game, thread=thread)
        .select_related("seat__user", "author", "event", "reply_to")
        .order_by("number")
    )
    if only:
        posts = posts.filter(seat__name=only)
    return Paginator(posts, POSTS_PER_PAGE).get_page(page)


def post_page(number) -> int:
    """The page of the whole thread that holds post `number` (posts are numbered 1, 2, 3…
    in their thread)."""
    return (int(number) - 1) // POSTS_PER_PAGE + 1


def post_url(game_id, number) -> str:
    """The permalink of post `number`: its page of the whole public thread, and its anchor."""
    return f"{reverse('game_detail', args=[game_id])}?page={post_page(number)}#p{number}"


def post_quote(game: Game, number: int, names: dict) -> str | None:
    """Post `number` of the public thread as a Markdown quote for a reply, or None."""
    post = (
        Post.objects.filter(game=game, thread=PUBLIC, number=number, kind=Post.Kind.PLAYER)
        .select_related("seat")
        .first()
    )
    if post is None:
        return None
    author = names.get(post.seat.name, post.seat.name)
    quoted = "\n".join(f"> {line}" for line in post.body.splitlines())
    return f"> **{author}** wrote in #{number}:\n{quoted}\n\n"
