"""A notification's words: the kind of news and the game's title, nothing of the news itself
(no card, no result, no post), in the member's language (worded by the caller)."""

from django.utils.translation import gettext

SITE = "Witchhunt"


def told_words(kind: str, title: str) -> str:
    words = {
        "role": gettext("Your cards are dealt in %(game)s."),
        "result": gettext("You have a new result in %(game)s."),
        "reminder": gettext("A deadline is near in %(game)s and the game waits for you."),
        "mention": gettext("Someone mentioned or quoted you in %(game)s."),
        "replacement": gettext("You are offered a seat in %(game)s."),
    }[kind]
    return words % {"game": title}


def kind_label(kind: str) -> str:
    """A kind of news as the preferences table names it."""
    return {
        "role": gettext("Your cards, when a game starts or you take a seat"),
        "result": gettext("A new result on your role page"),
        "reminder": gettext("A deadline near while the game waits for you"),
        "mention": gettext("A mention (@name) or a quote of your post"),
        "replacement": gettext("A seat offered to you as a replacement"),
    }[kind]
