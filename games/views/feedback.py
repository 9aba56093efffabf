"""Telling the player what happened to a form: the engine's reason for a refusal, in the
reader's language (narration/refusals.py)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from games.engine import GameRuleError
from games.narration import refusal_words
from games.narration.labels import capitalised

from .access import get_game_for_user


def sentence(text):
    """A refusal (or a GameRuleError, or words) as a sentence: a capital, a full stop."""
    text = capitalised(refusal_words(text))
    return text if text.endswith((".", "!", "?")) else text + "."


def form_refusal(form):
    """A form's first error as a refusal (raised: the page shows the form again beside it),
    named by its field's label when it has one."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        if not label:
            raise GameRuleError(errors[0])
        raise GameRuleError(gettext("%(field)s: %(error)s") % {"field": label, "error": errors[0]})


def refused(request, error):
    """A GameRuleError's reason, shown as is (W-8: it reveals nothing the actor lacks)."""
    messages.error(request, sentence(error))


def run_and_redirect(request, game_id, do, done, *, to="game_detail"):
    """Run a service for a POST on a game and go back to the game page: `do(game)` is the
    service call, `done` the success message (or a function of its result, or None); a
    refusal is shown in the engine's words and changes nothing. A same-site `next` in the
    form says where to go back to."""
    game = get_game_for_user(request, game_id)
    try:
        result = do(game)
    except GameRuleError as e:
        refused(request, e)
    else:
        message = done(result) if callable(done) else done
        if message:
            messages.success(request, message)
    back = request.POST.get("next")  # e.g. the desk's clock controls come back to the desk
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(back)
    return redirect(to, game_id=game.pk)
