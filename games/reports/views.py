"""The reports' and the ignores' pages. A post's "Report or ignore" page is for a signed-in
member who may read its thread now (the public thread: anyone; a room or the afterlife:
its members, else the same 404 as no such room); it offers what they may do. Every act is
a POST with CSRF and one service call; a refusal shows its reason and keeps what was typed.
The desk's acts are the moderator's alone (anyone else: a 404)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.models import Game, Ignore, Post, PostReport, Seat
from games.permissions import AFTERLIFE, can_moderate, rooms_for
from games.selectors import post_page, post_url, room_key
from games.views.access import get_game_for_user, get_moderated_game_for_user
from games.views.desk import desk_run
from games.views.feedback import form_refusal, sentence

from . import services
from .forms import ReportForm, SettleForm
from .selectors import post_author, reports_mine, thread_label
from .services import PUBLIC, seat_alias


def _get_post_for_user(request, game_id, ref, number):
    """(game, the viewer's seat or None, the post) when the viewer may read its thread now:
    a post that does not exist and a thread they may not read are the same 404."""
    game = get_game_for_user(request, game_id)
    seat = Seat.objects.filter(game=game, user=request.user).first()
    if ref == PUBLIC:
        key = PUBLIC
    else:
        keys = rooms_for(game, seat) if seat is not None else []
        key = room_key(game, ref, keys)
        if key is None:
            raise Http404("no such room")
    post = (
        Post.objects.filter(game=game, thread=key, number=number, kind=Post.Kind.PLAYER)
        .select_related("seat", "author")
        .first()
    )
    if post is None:
        raise Http404("no such post")
    return game, seat, post


def _thread_url(game, ref, post):
    if post.thread == PUBLIC:
        return post_url(game.pk, post.number)
    if post.thread == AFTERLIFE:
        base = reverse("game_afterlife", args=[game.pk])
    else:
        base = reverse("game_room", args=[game.pk, ref])
    return f"{base}?page={post_page(post.number)}#p{post.number}"


def _render_about(request, game, seat, post, ref, form=None, status=200):
    user = request.user
    own = post.author_id == user.pk
    reported = PostReport.objects.filter(post=post, reporter=user).first()
    if seat_alias(post.seat):
        ignoring = Ignore.objects.filter(owner=user, seat=post.seat).exists()
    else:
        ignoring = Ignore.objects.filter(owner=user, member_id=post.author_id).exists()
    may_report = (
        seat is not None
        and not own
        and game.status == Game.Status.RUNNING
        and not can_moderate(game, user)
    )
    context = {
        "game": game,
        "post": post,
        "ref": ref,
        "author": post_author(post),
        "thread": thread_label(game, post.thread),
        "back": _thread_url(game, ref, post),
        "own": own,
        "may_report": may_report,
        "reported": reported,
        "ignoring": ignoring,
        "form": form or ReportForm(),
    }
    return render(request, "reports/about.html", context, status=status)


@never_cache
@login_required
def post_about(request, game_id, ref, number):
    game, seat, post = _get_post_for_user(request, game_id, ref, number)
    return _render_about(request, game, seat, post, ref)


@never_cache
@require_POST
@login_required
def post_report(request, game_id, ref, number):
    game, seat, post = _get_post_for_user(request, game_id, ref, number)
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            form_refusal(form)
        services.report_make(
            game=game, thread=post.thread, number=post.number, user=request.user,
            reason=form.cleaned_data["reason"], note=form.cleaned_data["note"],
        )  # fmt: skip
    except GameRuleError as e:
        messages.error(request, sentence(e))
        return _render_about(request, game, seat, post, ref, form)
    messages.success(
        request,
        gettext("Your report is with the moderator. You will be told what they did with it."),
    )
    return redirect("post_about", game_id=game.pk, ref=ref, number=post.number)


@never_cache
@require_POST
@login_required
def post_ignore(request, game_id, ref, number):
    game, seat, post = _get_post_for_user(request, game_id, ref, number)
    try:
        services.ignore_from_post(post=post, user=request.user)
    except GameRuleError as e:
        messages.error(request, sentence(e))
        return _render_about(request, game, seat, post, ref)
    messages.success(
        request,
        gettext(
            "You ignore %(name)s: their posts are folded to one line, which you can open. "
            "Your profile lists whom you ignore."
        )
        % {"name": post_author(post)},
    )
    return redirect(_thread_url(game, ref, post))


@never_cache
@require_POST
@login_required
def ignore_remove(request, pk):
    try:
        services.ignore_remove(user=request.user, pk=pk)
    except GameRuleError as e:
        messages.error(request, sentence(e))
    else:
        messages.success(request, gettext("You no longer ignore them: their posts show in full."))
    return redirect(reverse("profile") + "#ignored-title")


@never_cache
@login_required
def my_reports(request):
    return render(request, "reports/mine.html", {"reports": reports_mine(request.user)})


@never_cache
@require_POST
@login_required
def report_settle(request, game_id, pk):
    game = get_moderated_game_for_user(request, game_id)
    form = SettleForm(request.POST)

    def settle():
        if not form.is_valid():
            form_refusal(form)
        data = form.cleaned_data
        services.report_settle(
            game=game, pk=pk, by=request.user, outcome=data["outcome"],
            answer=data["answer"], reason=data["reason"],
        )  # fmt: skip

    return desk_run(request, game, settle, gettext("The report is settled; its reporter is told."))


urlpatterns = [
    path("games/<id:game_id>/posts/<str:ref>/<id:number>/", post_about, name="post_about"),
    path("games/<id:game_id>/posts/<str:ref>/<id:number>/report/", post_report, name="post_report"),
    path("games/<id:game_id>/posts/<str:ref>/<id:number>/ignore/", post_ignore, name="post_ignore"),
    path("games/<id:game_id>/desk/reports/<id:pk>/", report_settle, name="report_settle"),
    path("ignores/<id:pk>/remove/", ignore_remove, name="ignore_remove"),
    path("reports/", my_reports, name="my_reports"),
]
