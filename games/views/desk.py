"""The moderator's desk (W-72): the whole game live, each seat's activity, and the
moderator's acts: advance now, replace or remove a player, declare a stalemate, post an
announcement. The clock's controls are the clock views' (games/views/clock.py).

The game's host and users granted games.moderate_any_game only (staff status alone is not
enough): anyone else gets a 404. Every act is a POST with CSRF and one service call; the
irreversible ones (advance now, remove, stalemate) are confirmed on a page of their own
first. "Advance now" carries the phase its form was rendered for, so
that a double click, or a click after the clock ended that phase, is refused and ends no
second phase. A refusal shows its reason and keeps what the moderator typed.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import panels, selectors, services
from games.engine import GameRuleError, Phase
from games.models import Game
from games.narration import phase_label
from games.selectors.preview import phase_preview
from games.selectors.why import log_whys

from .access import get_moderated_game_for_user
from .feedback import refused
from .rooms import render_read_only_room


def _render_desk(request, game, values=None):
    context = {
        "game": game,
        "values": values or {},
        "replace_by_email": services.member_find_by_email_allowed(request.user),
    }
    seats = None
    if game.status == Game.Status.RUNNING:
        context["page"] = page = selectors.desk_page(game)
        # Issue 17: the ruling beside each resolution, and what the deadline would do now.
        context["whys"] = log_whys(game, page.log, page.names)
        context["preview"] = phase_preview(game, page.log, page.names)
        seats = [row.seat for row in page.rows]
    # The capabilities' panels: before the start, the sign-ups and their controls; then
    # each player's absence, the activity and replacements, "N new" beside every private
    # thread (the moderator reads them all).
    context["panels"] = panels.collect(
        panels.DESK,
        request=request,
        game=game,
        user=request.user,
        values=context["values"],
        seats=seats,
        now=timezone.now(),
    )
    return render(request, "games/desk.html", context)


@never_cache
def desk(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    # A thread's "Hide…" link on a player's post: the hide form, its thread and number in.
    hide = request.GET.get("hide", "")[:12]
    thread = request.GET.get("thread", "public")[:40]
    return _render_desk(
        request, game, {"hide_thread": thread, "hide_number": hide} if hide else None
    )


@never_cache
def desk_room(request, game_id, key):
    game = get_moderated_game_for_user(request, game_id)
    state = selectors.game_state_if_running(game)
    return render_read_only_room(
        request,
        game,
        key,
        state,
        note=gettext(
            "You read this room as the moderator. Its members cannot see you, and you "
            "cannot write here."
        ),
        back_url=reverse("game_desk", args=[game.pk]),
        back_label=gettext("The moderator's desk"),
        links="game_desk_room",
        hide_url=(
            reverse("game_desk", args=[game.pk]) + f"?thread={key}&hide="
            if game.status == Game.Status.RUNNING
            else ""
        ),
    )


def desk_run(request, game, do, done, values=None):
    """One moderator act: on success back to the desk with `done`; a refusal re-renders the
    desk with the reason and what was typed (`values`)."""
    try:
        result = do()
    except GameRuleError as e:
        refused(request, e)
        return _render_desk(request, game, values)
    messages.success(request, done(result) if callable(done) else done)
    return redirect("game_desk", game_id=game.pk)


def _advance_consequences(phase):
    now = Phase.parse(phase)  # a running game's phase: advance_refusal has checked it
    label, after = phase_label(phase), phase_label(now.next())
    if now.is_night:
        ends = gettext(
            "%(phase)s ends now, as if its deadline had passed: midnight passes first if it "
            "has not yet (W-3), then the night's votes and actions as they stand now "
            "resolve."
        )
        opens = gettext(
            "%(next)s begins with the morning's announcements, unless the game ends. "
            "The new phase gets its full length on the clock."
        )
    else:
        ends = gettext(
            "%(phase)s ends now, as if its deadline had passed. The lynch is decided by the "
            "current votes, as at the deadline (W-4)."
        )
        opens = gettext(
            "%(next)s begins, unless the game ends. The new phase gets its full length on "
            "the clock."
        )
    return [
        ends % {"phase": label},
        opens % {"next": after},
        gettext(
            "This cannot be undone. If the game has moved on when you confirm (the clock, or "
            "another click, ended %(phase)s first), nothing is changed."
        )
        % {"phase": label},
    ]


def advance_now(request, game, *, back):
    """ "Advance now", in two POSTs that both carry the phase the form was rendered for:
    the first shows what ending it does, the second (`confirm`) ends that phase and no
    other; a game that has moved on is refused and nothing changes. Shared by the desk
    and the game page; `back` is the page to return to. The caller checks that the user
    moderates the game."""
    phase = request.POST.get("phase", "")
    back_url = reverse(back, args=[game.pk])
    try:
        if not phase:
            raise GameRuleError(
                gettext("this form does not say which phase to end: reload the page and try again")
            )
        if request.POST.get("confirm") != "yes":
            refusal = services.advance_refusal(game, phase)
            if refusal:
                raise GameRuleError(refusal)
            label = phase_label(phase)
            return _confirm(
                request,
                game,
                title=gettext("End %(phase)s now?") % {"phase": label},
                question=gettext("End %(phase)s now?") % {"phase": label},
                consequences=_advance_consequences(phase),
                action=request.path,
                button=gettext("End %(phase)s now") % {"phase": label},
                fields={"phase": phase},
                cancel_url=back_url,
            )
        services.phase_advance(game=game, by=request.user, expected_phase=phase)
    except GameRuleError as e:
        refused(request, e)
    else:
        messages.success(request, gettext("%(phase)s has ended.") % {"phase": phase_label(phase)})
    return redirect(back_url)


@never_cache
@require_POST
def desk_advance(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    return advance_now(request, game, back="game_desk")


@never_cache
@require_POST
def desk_announce(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    body = request.POST.get("body", "")
    return desk_run(
        request,
        game,
        lambda: services.announcement_post(game=game, by=request.user, body=body),
        gettext("Your announcement is in the public thread."),
        {"announce": body},
    )


@never_cache
@require_POST
def desk_replace(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    seat_name = request.POST.get("seat", "")
    who = request.POST.get("who", "")
    names = selectors.game_display_names(game)
    old = names.get(seat_name, seat_name)

    def replace():
        if seat_name not in names:
            raise GameRuleError(gettext("choose the seat to give to a new player"))
        new_user = services.member_find(identifier=who, by=request.user)
        return services.player_replace(
            game=game, seat_name=seat_name, new_user=new_user, by=request.user
        )

    return desk_run(
        request,
        game,
        replace,
        lambda seat: (
            gettext(
                "%(new)s replaces %(old)s: the seat, its cards, its rooms and its history "
                "are theirs now."
            )
            % {"new": seat.user.player_name, "old": old}
        ),
        {"replace_seat": seat_name, "replace_who": who},
    )


def _confirm(
    request, game, *, title, question, consequences, action, button, fields, cancel_url=None
):
    return render(
        request,
        "games/desk_confirm.html",
        {
            "game": game,
            "title": title,
            "question": question,
            "consequences": consequences,
            "action": action,
            "button": button,
            "fields": fields,
            "cancel_url": cancel_url or reverse("game_desk", args=[game.pk]),
        },
    )


@never_cache
@require_http_methods(["GET", "POST"])
def desk_remove(request, game_id):
    """GET: the confirmation page for removing a seat's player; POST (confirmed): remove."""
    game = get_moderated_game_for_user(request, game_id)
    data = request.POST if request.method == "POST" else request.GET
    seat_name = data.get("seat", "")
    names = selectors.game_display_names(game)
    if request.method == "POST" and data.get("confirm") == "yes":
        return desk_run(
            request,
            game,
            lambda: services.player_remove(game=game, seat_name=seat_name, by=request.user),
            gettext("%(name)s has been removed from the game.")
            % {"name": names.get(seat_name, seat_name)},
        )
    if seat_name not in names:
        refused(request, gettext("choose the player to remove"))
        return redirect("game_desk", game_id=game.pk)
    name = names[seat_name]
    return _confirm(
        request,
        game,
        title=gettext("Remove %(name)s?") % {"name": name},
        question=gettext("Remove %(name)s from the game?") % {"name": name},
        consequences=[
            gettext("The thread announces the removal as such, at once, by day or by night."),
            gettext(
                "%(name)s counts as dead for majorities, Halftime, the Alarm, the Court and "
                "the win check; their pending submissions lapse."
            )
            % {"name": name},
            gettext(
                "%(name)s gets no Archangel card, no last act and no afterlife, and causes no "
                "Lover suicide (W-72)."
            )
            % {"name": name},
            gettext("This cannot be undone. To keep the seat in play, replace the player instead."),
        ],
        action=reverse("game_desk_remove", args=[game.pk]),
        button=gettext("Remove %(name)s") % {"name": name},
        fields={"seat": seat_name},
    )


@never_cache
@require_http_methods(["GET", "POST"])
def desk_stalemate(request, game_id):
    """GET: the confirmation page; POST (confirmed): declare a stalemate (W-69a, W-72)."""
    game = get_moderated_game_for_user(request, game_id)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        return desk_run(
            request,
            game,
            lambda: services.stalemate_declare(game=game, by=request.user),
            gettext("You declared a stalemate: the game is over."),
        )
    if game.ruleset != Game.Ruleset.WITCHHUNT:
        refused(request, gettext("Werewolf has no stalemate rule"))
        return redirect("game_desk", game_id=game.pk)
    return _confirm(
        request,
        game,
        title=gettext("Declare a stalemate?"),
        question=gettext("Declare a stalemate and end the game now?"),
        consequences=[
            gettext(
                "The Witches win at once (W-69a), every card is revealed and the game is over."
            ),
            gettext("This cannot be undone."),
        ],
        action=reverse("game_desk_stalemate", args=[game.pk]),
        button=gettext("Declare a stalemate"),
        fields={},
    )


urlpatterns = [
    path("games/<id:game_id>/desk/", desk, name="game_desk"),
    path("games/<id:game_id>/desk/rooms/<slug:key>/", desk_room, name="game_desk_room"),
    path("games/<id:game_id>/desk/advance/", desk_advance, name="game_desk_advance"),
    path("games/<id:game_id>/desk/announce/", desk_announce, name="game_desk_announce"),
    path("games/<id:game_id>/desk/replace/", desk_replace, name="game_desk_replace"),
    path("games/<id:game_id>/desk/remove/", desk_remove, name="game_desk_remove"),
    path("games/<id:game_id>/desk/stalemate/", desk_stalemate, name="game_desk_stalemate"),
]
