"""The notifications in words (services/notifications.py): a mention, a quote, a wagon
one vote from a lynch, a vote landing on a member. Each is stored as meaning (a kind of
games/narration/said.py and its arguments) and worded when read, in its reader's
language: the same sentence is the in-site list's line and the email's. Names are the
players' as shown; only public facts (day votes are public) and a thread the recipient
may read are named."""

from django.utils.translation import gettext_lazy

from games.narration import phase_label
from games.narration.notices import thread_words
from games.narration.said import meaning, sentence

MENTION = "note_mention"
QUOTE = "note_quote"
WAGON = "note_wagon"
WAGON_YOU = "note_wagon_you"
VOTED = "note_voted"


def _where(value) -> str:
    return thread_words(value["thread"], value["ruleset"])


sentence(
    MENTION, gettext_lazy("%(author)s mentioned you in %(where)s (#%(number)s)."), where=_where
)
sentence(
    QUOTE, gettext_lazy("%(author)s quoted your post in %(where)s (#%(number)s)."), where=_where
)
# W-4: one more vote lynches the target.
sentence(WAGON_YOU, gettext_lazy("You are one vote from being lynched (%(day)s)."), day=phase_label)
sentence(
    WAGON, gettext_lazy("%(target)s is one vote from being lynched (%(day)s)."), day=phase_label
)
sentence(VOTED, gettext_lazy("%(voter)s voted for you (%(day)s)."), day=phase_label)


def mention_words(author: str, thread: str, ruleset: str, number: int) -> dict:
    where = {"thread": thread, "ruleset": ruleset}
    return meaning(MENTION, author=author, where=where, number=number)


def quote_words(author: str, thread: str, ruleset: str, number: int) -> dict:
    where = {"thread": thread, "ruleset": ruleset}
    return meaning(QUOTE, author=author, where=where, number=number)


def wagon_words(target: str, phase: str, *, you: bool) -> dict:
    """`phase`: its key ("day 2")."""
    if you:
        return meaning(WAGON_YOU, day=phase)
    return meaning(WAGON, target=target, day=phase)


def voted_words(voter: str, phase: str) -> dict:
    return meaning(VOTED, voter=voter, day=phase)
