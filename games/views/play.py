"""The game page (the public thread beside the seat's panel) and what players and the
moderator do from it: join, leave, start, post, vote, unvote, advance now (confirmed
first, like the desk's: games/views/desk.py).

Every mutation is a POST with CSRF (GET is 405) and one service call; a refused one
changes nothing and shows the engine's reason.
"""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import queue, services
from games.engine import GameRuleError
from games.forms import PostForm
from games.narration import accepted_text
from games.permissions import can_moderate
from games.selectors import (
    count_at_post,
    early_end_panel,
    game_display_names,
    game_page,
    game_panels,
    page_number,
    post_quote,
    post_url,
    posts_quoted,
    vote_history,
)
from games.selectors.forum import editable_post
from games.selectors.game import ThreadAsk
from games.selectors.live import live_state
from games.selectors.threads import PUBLIC
from witchhunt.converters import parse_id

from . import fragments
from .access import get_game_for_user
from .desk import advance_now
from .feedback import refused, run_and_redirect, sentence
from .kept_post import refused_post_redirect, refused_post_taken
from .preview import PREVIEW, preview


def _render_game(request, game, post_form=None, opening=None):
    ask = ThreadAsk(
        page=page_number(request.GET.get("page")),
        only=tuple(request.GET.getlist("only")),
        day=parse_id(request.GET.get("day")),
        q=request.GET.get("q", ""),
        # A filtered view pages by post numbers (selectors.threads): a bad one is ignored.
        after=parse_id(request.GET.get("after")),
        before=parse_id(request.GET.get("before")),
    )
    page = game_page(
        game,
        request.user,
        ask,
        deferred=True,  # the posts and the vote history may come from the cache
        last=opening.last if opening is not None else None,
    )
    if post_form is None and page.can_post:
        initial = {}
        for key in ("reply", "quote"):
            # Plain ASCII digits up to the largest id; anything else ("²", 2**63, a
            # 5,000-digit number) is ignored like a post that does not exist.
            number = parse_id(request.GET.get(key))
            if number is not None:
                text = post_quote(game, number, page.names)
                if text:
                    initial["body"] = text
                    if key == "reply":
                        initial["reply_to"] = number
        post_form = PostForm(initial=initial)
    # A refused post comes back with its text, even where the form is no longer offered.
    show_form = page.can_post or (post_form is not None and post_form.is_bound)
    # The page was made: whoever listens (the reader's mark, their visit) hears of it.
    queue.emit(
        queue.THREAD_SHOWN,
        request=request,
        game=game,
        thread=PUBLIC,
        posts=page.posts,
        seat=page.viewer_seat,
        state=None,
        whole_game=False,
    )
    game_panels(page, request.user, request=request)
    return render(
        request,
        "games/game_detail.html",
        {
            "page": page,
            "game": game,
            "post_form": post_form,
            "show_post_form": show_form,
            "live": live_state(game, page, request.user),
            "live_seconds": settings.LIVE_REFRESH_SECONDS,
            "panels": page.panels,
            **{f"{name}_html": html for name, html in fragments.page_parts(page).items()},
            # Issue 31: the viewer's latest post, while they may still edit it.
            "editable": editable_post(game, page.viewer_seat) if page.can_post else None,
            # W-2a's "I'm done", for a seat in a game that ends phases early.
            "early": early_end_panel(game, page.viewer_seat),
        },
    )


@never_cache
def game_detail(request, game_id):
    game = get_game_for_user(request, game_id)
    kept = refused_post_taken(request)  # a refused post comes back to its form, not elsewhere
    # Opened without a page, the thread may land elsewhere (the reader's first unread post).
    opening = queue.refine(
        queue.THREAD_OPENED, queue.ThreadOpening(), request=request, game=game, thread=PUBLIC
    )
    if opening.redirect is not None and kept is None:
        return opening.redirect
    return _render_game(request, game, post_form=kept, opening=opening)


@never_cache
def votes_day(request, game_id, day):
    """One day's public votes: the game page shows the latest day's, this page each day's
    (a day the game has not reached is a 404)."""
    game = get_game_for_user(request, game_id)
    history = vote_history(game, game_display_names(game), day)
    if history is None:
        raise Http404("no such day")
    return render(request, "games/votes_day.html", {"game": game, "history": history})


@never_cache
def votes_at_post(request, game_id, number):
    """The day's public vote count as it stood right after post `number` of the public
    thread (by night, the day's final count): each post links here."""
    game = get_game_for_user(request, game_id)
    found = count_at_post(game, number, game_display_names(game))
    if found is None:
        raise Http404("no such post")
    return render(request, "games/votes_at_post.html", {"game": game, "at": found})


# Multi-quote (issue 31, static/js/forum.js) quotes at most this many posts at once.
QUOTES_MAX = 10


@never_cache
def game_quotes(request, game_id):
    """The Markdown quotes of the public thread's posts `?n=…` (each as the Quote link
    writes it), in order, for the multi-quote: JSON {"text": …}. Public posts only, as
    their page shows them; a hidden or missing post is passed by."""
    game = get_game_for_user(request, game_id)
    numbers = [parse_id(n) for n in request.GET.getlist("n")[:QUOTES_MAX]]
    names = game_display_names(game)
    quotes = posts_quoted(game, {n for n in numbers if n}, names)
    return JsonResponse({"text": "".join(quotes[n] for n in sorted(quotes))})


@never_cache
@require_POST
@login_required
def game_post(request, game_id):
    game = get_game_for_user(request, game_id)
    form = PostForm(request.POST)
    if form.is_valid() and PREVIEW in request.POST:
        # Issue 31: shown as it will be, nothing stored; the text stays in the box.
        preview(form, lambda body, reply_to: services.post_preview(
            game=game, user=request.user, body=body, reply_to=reply_to
        ))  # fmt: skip
    elif form.is_valid():
        try:
            post = services.post_create(
                game=game,
                user=request.user,
                body=form.cleaned_data["body"],
                reply_to=form.cleaned_data["reply_to"],
            )
        except GameRuleError as e:
            form.add_error(None, sentence(e))
        else:
            return redirect(post_url(game.pk, post.number))
    # The text is kept: the thread comes back with the form as it was sent, at its own
    # address (a reload must not post again).
    return refused_post_redirect(request, form, reverse("game_detail", args=[game.pk]))


@require_POST
@login_required
def game_join(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.game_join(game=g, user=request.user),
        gettext("You have joined the game."),
    )


@require_POST
@login_required
def game_leave(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.game_leave(game=g, user=request.user),
        gettext("You have left the game."),
    )


@require_POST
@login_required
def game_start(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.game_start(game=g, by=request.user),
        gettext("The game has started: every seat has its cards."),
    )


@never_cache
@require_POST
@login_required
def game_advance(request, game_id):
    """The game page's "advance now": the desk's two steps (a confirmation, then the phase
    the page showed ends, and no other), back to the game page."""
    game = get_game_for_user(request, game_id)
    if not can_moderate(game, request.user):
        refused(request, gettext("only the game's moderator can advance the game"))
        return redirect("game_detail", game_id=game.pk)
    return advance_now(request, game, back="game_detail")


@require_POST
@login_required
def game_vote(request, game_id):
    target = request.POST.get("target", "")

    def vote(game):
        if not target:
            raise GameRuleError(gettext("choose a player to vote for"))
        services.vote_cast(game=game, user=request.user, target=target)
        return accepted_text("vote", {"target": target}, game_display_names(game), None)

    return run_and_redirect(request, game_id, vote, lambda said: said)


@require_POST
@login_required
def game_unvote(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.vote_withdraw(game=g, user=request.user),
        gettext("Your vote is withdrawn."),
    )


urlpatterns = [
    path("games/<id:game_id>/", game_detail, name="game_detail"),
    path("games/<id:game_id>/post/", game_post, name="game_post"),
    path("games/<id:game_id>/quotes/", game_quotes, name="game_quotes"),
    path("games/<id:game_id>/join/", game_join, name="game_join"),
    path("games/<id:game_id>/leave/", game_leave, name="game_leave"),
    path("games/<id:game_id>/start/", game_start, name="game_start"),
    path("games/<id:game_id>/advance/", game_advance, name="game_advance"),
    path("games/<id:game_id>/vote/", game_vote, name="game_vote"),
    path("games/<id:game_id>/unvote/", game_unvote, name="game_unvote"),
    path("games/<id:game_id>/votes/day-<id:day>/", votes_day, name="game_votes_day"),
    path("games/<id:game_id>/votes/after-<id:number>/", votes_at_post, name="game_votes_at_post"),
]
