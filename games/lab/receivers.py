"""The lab listens to the new-game form: ?suggested=witchhunt-12 fills its setup's fields
with that suggested setup."""

from games import queue

from .forms import setup_initial
from .simulation.setups import find_suggested


def new_game_initial(initial, *, query, **_):
    """A suggested setup's fields, when the query names one and nothing else filled them."""
    if initial is not None:
        return initial
    picked = find_suggested(query.get("suggested", ""))
    return setup_initial(picked) if picked else initial


def connect():
    queue.connect(queue.NEW_GAME_INITIAL, new_game_initial)
