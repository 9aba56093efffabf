"""The engine's refusals in the reader's language: the one place that words them.

The engine keeps a refusal as meaning (`games.engine.words`: a msgid with named
placeholders and its arguments, English when printed). Here the msgid goes through gettext
(ngettext when it has a plural), and the arguments that are keys (`what`, `choice`) are
worded too, and so are the cards a setup problem names (`CardName`, through `card_label`);
names and numbers are shown as given (W-8: a refusal reveals nothing the actor lacks, in
any language), or as the caller renames them (a deal's placeholder seats, games/deal.py).
A service's own refusal is worded when it is raised, with the member's language active,
and is shown as it stands.
"""

from django.utils.translation import gettext, ngettext, pgettext_lazy

from games.engine import CardName, Refusal

from .labels import card_label

# What a withdrawal names (engine/inputs.py WITHDRAWABLE) and the Witch's potions (WW-7), as
# words inside a refusal ("you have no %(what)s to withdraw"); English as the engine says it.
KEY_WORDS = {
    "what": {
        "coven": pgettext_lazy("withdrawn", "coven"),
        "court": pgettext_lazy("withdrawn", "court"),
        "protect": pgettext_lazy("withdrawn", "protect"),
        "veto": pgettext_lazy("withdrawn", "veto"),
        "save": pgettext_lazy("withdrawn", "save"),
        "ability": pgettext_lazy("withdrawn", "ability"),
        "weapon": pgettext_lazy("withdrawn", "weapon"),
        "pack": pgettext_lazy("withdrawn", "pack"),
    },
    "choice": {
        "heal": pgettext_lazy("potion", "heal"),
        "poison": pgettext_lazy("potion", "poison"),
    },
}


def refusal_words(reason, *, renamed=None) -> str:
    """A refusal, or a GameRuleError carrying one, in the reader's language; an argument
    found in `renamed` (a mapping) is shown as it says."""
    if isinstance(reason, BaseException):
        reason = reason.args[0] if reason.args else ""
    if not isinstance(reason, Refusal):
        return str(reason)
    args = reason.args
    if args is None:
        return gettext(reason.msgid)
    args = {key: _worded(key, value, renamed) for key, value in args.items()}
    if reason.plural is not None:
        return ngettext(reason.msgid, reason.plural, args["count"]) % args
    return gettext(reason.msgid) % args


def _worded(key, value, renamed):
    if isinstance(value, CardName):
        return card_label(value.key)
    if renamed and isinstance(value, str) and value in renamed:
        return renamed[value]
    words = KEY_WORDS.get(key)
    if words is None:
        return value  # a name or a number
    word = words.get(value)
    return value if word is None else str(word)
