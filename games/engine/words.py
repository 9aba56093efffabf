"""The engine's refusals, kept as meaning so the site can word them in the reader's language.

A check returns `refusal("%(target)s is not a living player", {"target": name})`: a
`Refusal` that keeps its `msgid` and `args`; `str()` of it is the English sentence (the
record's `refused` reasons, `play_record`'s output, a GameRuleError's message), and it
equals that sentence. The web layer words it with gettext
(`games/narration/refusals.py`); the engine stays pure Python.

makemessages finds the sentences by these two names:
`--keyword=refusal --keyword=refusal_n:1,2` (docs/translation.md). So the first argument
is always a literal, with named placeholders only.

An argument named `what` or `choice` is a key (an action withdrawn, a potion), worded at
display; so is a `CardName` (a card a setup problem names: its English name in `str()`,
its key for the site); every other argument is a player's name or a number and is shown
as given.

Refusals are hot: most inputs a playout or a bot proposes are refused, and only asked
whether they were. So a refusal is worded only when read; one without arguments is made
once and handed out again; arguments come as one dict (a call with keywords costs more).
"""


class Refusal:
    """A refusal: `msgid` (the English, with named placeholders), `args`, and `plural`
    (the plural msgid, or None) with `args["count"]` choosing between them."""

    __slots__ = ("msgid", "args", "plural")

    def __str__(self):
        msgid, args = self.msgid, self.args
        if args is None:
            return msgid
        if self.plural is not None and args["count"] > 1:
            # The English as the records have always said it: the plural from two
            # ("exactly 0 player"); a translation follows its language's rule (ngettext).
            msgid = self.plural
        return msgid % args

    def __repr__(self):
        return f"Refusal({str(self)!r})"

    def __eq__(self, other):
        if isinstance(other, Refusal | str):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self):
        return hash(str(self))


class CardName(str):
    """A card named in a refusal: as a string, its English name as the card tables print
    it (what `str()` of the refusal says); `key`, the engine's key the site words."""

    def __new__(cls, key, english):
        name = super().__new__(cls, english)
        name.key = key
        return name

    def __reduce__(self):
        return (CardName, (self.key, str(self)))


_new = object.__new__  # a Refusal without an __init__ call
_SAID = {}  # msgid -> its Refusal, for the refusals without arguments


def refusal(msgid, args=None, /):
    """The refusal `msgid % args` (`args` a dict, by name: %(target)s)."""
    if args is None:
        said = _SAID.get(msgid)
        if said is None:
            said = _SAID[msgid] = _made(msgid, None, None)
        return said
    return _made(msgid, args, None)


def refusal_n(singular, plural, count, args=None, /):
    """A refusal whose words follow `count` (in the sentence as %(count)s)."""
    return _made(singular, {**(args or {}), "count": count}, plural)


def _made(msgid, args, plural):
    said = _new(Refusal)
    said.msgid = msgid
    said.args = args
    said.plural = plural
    return said
