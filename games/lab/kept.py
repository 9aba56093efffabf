"""What a host typed in the new-game form before asking the lab for its estimate: kept in
their session with the estimate's address, so "back to your new game" on the estimate's
page opens the form as they left it (its title, sign-ups and phases too, not only the
setup the estimate read)."""

from django import forms

from games.forms import NewGameForm

SESSION_KEY = "lab_new_game"


def new_game_keep(request, key: str) -> None:
    """Keep the POSTed new-game form (its fields, as typed) for the estimate at `key`."""
    form = NewGameForm()
    data = {name: request.POST.getlist(name) for name in form.fields if name in request.POST}
    request.session[SESSION_KEY] = {"key": key, "data": data}


def new_game_kept(request, key: str) -> dict | None:
    """The kept form as initial values, if it was kept for the estimate at `key`."""
    kept = request.session.get(SESSION_KEY)
    if not kept or kept.get("key") != key:
        return None
    form = NewGameForm()
    initial = {}
    for name, field in form.fields.items():
        values = kept["data"].get(name)
        if values is None:
            if isinstance(field, forms.BooleanField):
                initial[name] = False  # a box left unticked is not sent
            continue
        many = isinstance(field, forms.MultipleChoiceField)
        initial[name] = values if many else values[0]
    return initial


def kept_for(request, key: str) -> bool:
    kept = request.session.get(SESSION_KEY)
    return bool(kept and kept.get("key") == key)
