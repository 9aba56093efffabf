"""The notifications in words (services/notifications.py): a mention, a quote, a wagon
one vote from a lynch, a vote landing on a member. The same sentence is the in-site
list's line and the email's. Names are the players' as shown; only public facts (day
votes are public) and a thread the recipient may read are named."""

from django.utils.translation import gettext as _

from games.narration.notices import thread_words


def mention_text(author: str, thread: str, ruleset: str, number: int) -> str:
    return _("{author} mentioned you in {where} (#{number}).").format(
        author=author, where=thread_words(thread, ruleset), number=number
    )


def quote_text(author: str, thread: str, ruleset: str, number: int) -> str:
    return _("{author} quoted your post in {where} (#{number}).").format(
        author=author, where=thread_words(thread, ruleset), number=number
    )


def wagon_text(target: str, phase: str, *, you: bool) -> str:
    """W-4: one more vote lynches `target`."""
    if you:
        return _("You are one vote from being lynched ({phase}).").format(phase=phase)
    return _("{target} is one vote from being lynched ({phase}).").format(
        target=target, phase=phase
    )


def voted_text(voter: str, phase: str) -> str:
    return _("{voter} voted for you ({phase}).").format(voter=voter, phase=phase)
