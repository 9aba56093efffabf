"""The lab listens to the new-game form: ?suggested=witchhunt-12 fills its setup's fields
with that suggested setup; ?lab=<an estimate's address> with the estimate's, or with what
the host typed before asking for that estimate (kept, views.py)."""

from games import queue

from .forms import setup_initial
from .kept import new_game_kept
from .selectors import lab_result
from .simulation.setups import find_suggested


def new_game_initial(initial, *, query, request=None, **_):
    """A suggested setup's fields, or an estimate's, when the query names one and nothing
    else filled them."""
    if initial is not None:
        return initial
    key = query.get("lab", "")
    if key and request is not None:
        result = lab_result(key, viewer=request.user, observed=False)
        if result is not None:
            return new_game_kept(request, key) or setup_initial(result.setup)
    picked = find_suggested(query.get("suggested", ""))
    return setup_initial(picked) if picked else initial


def connect():
    queue.connect(queue.NEW_GAME_INITIAL, new_game_initial)
