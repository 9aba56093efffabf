"""The webhooks' own words: the events a destination may choose, the desk's test story."""

from django.utils.translation import gettext, gettext_lazy

from games.mail import game_url
from games.narration.said import meaning, sentence

from .story import Story

EVENT_LABELS = {
    "signups_open": gettext_lazy("Sign-ups open"),
    "game_started": gettext_lazy("The game starts"),
    "phase_ended": gettext_lazy("A phase ends (the lynch and the deaths, as announced)"),
    "phase_began": gettext_lazy("A phase begins"),
    "deadline_near": gettext_lazy("A deadline is near"),
    "vote_count": gettext_lazy("The vote count changes (one message, kept current)"),
    "game_ended": gettext_lazy("The game ends (with the reveal’s link)"),
    "test": gettext_lazy("A test"),
}


def event_label(event: str) -> str:
    return str(EVENT_LABELS.get(event, event))


def test_story(game):
    """What "send a test" posts: public words only, the game's title and link."""

    def build(language):
        return Story(
            event="test",
            title=gettext("%(game)s · a test from the moderator’s desk") % {"game": game.title},
            text=gettext("If you can read this, the game’s news will be posted here."),
            url=game_url(game),
        )

    return build


# The moderator's notification when a destination is turned off (Notification.words).
TURNED_OFF = "note_webhook_off"
sentence(
    TURNED_OFF,
    gettext_lazy(
        "A chat destination of %(title)s (%(host)s) was turned off: its deliveries kept "
        "failing. The desk says why."
    ),
)


def turned_off_words(title: str, host: str) -> dict:
    return meaning(TURNED_OFF, title=title, host=host)
