"""What the lab shows on the core's pages (games/panels.py): on the new-game form, the
suggested setups with the lab's estimates kept (a read of small cached values, never a
simulation), the picked one's estimate in words with the site's finished games of it, and
a button that posts the form's setup to the lab."""

from games import panels

from .selectors import lab_chosen, lab_suggested


def new_game_suggestions(*, request, form, **_):
    """The suggested setups, open until the host picks one or posts the form."""
    return {
        "suggested": lab_suggested(),
        "open": not form.is_bound and not request.GET.get("suggested"),
    }


def new_game_chosen(*, request, **_):
    """The suggested setup the host picked (?suggested=witchhunt-12): what the lab's
    estimate of it means, its band, and the site's finished games of it; None otherwise."""
    return lab_chosen(request.GET.get("suggested", ""))


def new_game_estimate(**_):
    """The button "Estimate this setup's balance": the template alone, nothing to read."""
    return {}


def register():
    panels.register(
        panels.NEW_GAME, "suggestions", "lab/_new_game_suggestions.html", new_game_suggestions
    )
    panels.register(
        panels.NEW_GAME, "suggestions", "lab/_new_game_chosen.html", new_game_chosen, order=110
    )
    panels.register(panels.NEW_GAME, "actions", "lab/_new_game_estimate.html", new_game_estimate)
