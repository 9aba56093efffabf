"""Web push's panel: PROFILE "preferences", "How we tell you" (selectors.push_preferences)."""

from games import panels

from .selectors import push_preferences


def preferences(*, user, **_):
    return push_preferences(user)


def register_all() -> None:
    panels.register(panels.PROFILE, "preferences", "push/_preferences.html", preferences, order=10)
