"""Names on cards and in the game's vocabulary: card, type, role, status, winner and phase
labels, seat names as player names, and a seat's cards in words (`seat_cards`).

Card names are the engine's keys worded in the reader's language (card_names.py); card
texts come from the engine's card tables and are shown as printed (the spec's English);
every other word here goes through Django's translation functions.
"""

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.engine import CHARACTERS, REPEATABLE, ROLES, TYPES, Phase

from .card_names import CHARACTER_NAMES, ROLE_NAMES, TYPE_NAMES

Names = Mapping[str, str]  # seat name -> the occupant's player name

# What each player type means for its holder; the card table has no text for types.
TYPE_NOTES = {
    # The card's kind line already names the team ("Player type · the Village's team").
    "basic_villager": gettext_lazy("No power of its own: you win with the Village."),
    "holy_villager": gettext_lazy("You hold a Holy character (W-22)."),
    "village_spy": gettext_lazy("The Village Spies know each other (W-24)."),
    "village_lover": gettext_lazy(
        "You and your partner share protection; when one of you dies, the other makes a kill "
        "attempt on themselves (W-58)."
    ),
    "elder_witch": gettext_lazy("You meet with the Coven every night and vote to kill (W-25)."),
    "junior_witch": gettext_lazy(
        "You join the Coven the night no Elder Witch or no Village Spy is alive (W-26)."
    ),
}
# The type names in the plural, for a count of players (the card table has the singular).
TYPE_PLURALS = {
    "basic_villager": lambda n: ngettext("Basic Villager", "Basic Villagers", n),
    "holy_villager": lambda n: ngettext("Holy Villager", "Holy Villagers", n),
    "village_spy": lambda n: ngettext("Village Spy", "Village Spies", n),
    "village_lover": lambda n: ngettext("Village Lover", "Village Lovers", n),
    "elder_witch": lambda n: ngettext("Elder Witch", "Elder Witches", n),
    "junior_witch": lambda n: ngettext("Junior Witch", "Junior Witches", n),
}
WINNERS = {
    "village": gettext_lazy("the Village"),
    "witches": gettext_lazy("the Witches"),
    "werewolves": gettext_lazy("the Werewolves"),
    "fool": gettext_lazy("the Fool"),
    "were_hamster": gettext_lazy("the Were-Hamster"),
    "hamster_and_gerbil": gettext_lazy("the Were-Hamster and the Were-Gerbil"),
    "nobody": gettext_lazy("nobody"),
}
# A Werewolf role's alignment on its card ("Role · Good").
ALIGNMENTS = {
    "good": pgettext_lazy("alignment", "Good"),
    "evil": pgettext_lazy("alignment", "Evil"),
    "wildcard": pgettext_lazy("alignment", "Wildcard"),
}
STATUSES = {
    "alive": gettext_lazy("Alive"),
    "dead": gettext_lazy("Dead"),
    "last_act": gettext_lazy("Dead (offstage, last act unused)"),
    # Chosen by night: it resolves with the night (W-14), and its holder waits offstage.
    "last_act_chosen": gettext_lazy("Dead (offstage, last act chosen: it resolves at dawn)"),
    "fake": gettext_lazy("Dead (offstage: the Magician)"),
    "removed": gettext_lazy("Removed"),
}
PHASES = {
    "day": lambda n: _("Day %(n)s") % {"n": n},
    "night": lambda n: _("Night %(n)s") % {"n": n},
}


# A phase inside a sentence ("… left in day 2"), as the clock's notices name it.
PHASE_WORDS = {
    "day": lambda n: pgettext("in a sentence", "day %(number)s") % {"number": n},
    "night": lambda n: pgettext("in a sentence", "night %(number)s") % {"number": n},
}


# --- cards ----------------------------------------------------------------------------
def character_label(key) -> str:
    return str(CHARACTER_NAMES[key]) if key in CHARACTER_NAMES else str(key)


def type_label(key) -> str:
    return str(TYPE_NAMES[key]) if key in TYPE_NAMES else str(key)


def type_label_count(key, n: int) -> str:
    """ "Elder Witch" or "Elder Witches", for n of them."""
    plural = TYPE_PLURALS.get(key)
    return plural(n) if plural else type_label(key)


def type_note(key) -> str:
    return str(TYPE_NOTES.get(key, ""))


def alignment_label(alignment) -> str:
    return str(ALIGNMENTS.get(alignment, alignment))


def role_label(key) -> str:
    return str(ROLE_NAMES[key]) if key in ROLE_NAMES else str(key)


def card_label(key) -> str:
    """A character, a player type or a Werewolf role by its name on the card."""
    for table in (CHARACTER_NAMES, TYPE_NAMES, ROLE_NAMES):
        if key in table:
            return str(table[key])
    return str(key)


def card_in_sentence(key) -> str:
    """A card as a sentence names it: "the Seer" and "the Priest" (one in a game: every
    Witchhunt character, every Werewolf role but two), "a Villager", "a Werewolf" and
    "an Elder Witch" (cards several players hold: the Witchhunt types)."""
    name = card_label(key)
    if key in CHARACTERS or (key in ROLES and key not in REPEATABLE):
        return _("the %(card)s") % {"card": name}
    if name[:1] in "AEIOU":
        return _("an %(card)s") % {"card": name}
    return _("a %(card)s") % {"card": name}


def cards_text(cards: Mapping) -> str:
    """A Witchhunt seat's two cards: "Priest (Holy Villager)"."""
    return _("%(character)s (%(type)s)") % {
        "character": card_label(cards.get("character")),
        "type": card_label(cards.get("type")),
    }


class SeatCard(NamedTuple):
    """One of a seat's cards, as the role page and the role email show it."""

    kind: str  # "character", "type" or "role"
    key: str
    name: str
    text: str | None  # the card's ability text (a player type has none)
    extra: str  # a character's set, a type's team, a role's alignment

    @property
    def summary(self) -> str:
        """The card in one line: its text, or for a player type the team it plays for."""
        if self.kind != "type":
            return self.text
        if self.extra == "village":
            return _("You play for the Village.")
        return _("You play for the Witches.")


def seat_cards(ruleset: str, assignment) -> list[SeatCard]:
    """A seat's cards from the rulesets' card tables (`assignment` holds the dealt
    role, or character and type)."""
    if ruleset == "werewolf":
        alignment, _name, text = ROLES[assignment.role]
        name = role_label(assignment.role)
        return [SeatCard("role", assignment.role, name, text, alignment)]
    _number, name, expansion, text = CHARACTERS[assignment.character]
    team, _type_name = TYPES[assignment.type]
    name, type_name = character_label(assignment.character), type_label(assignment.type)
    return [
        SeatCard("character", assignment.character, name, text, expansion),
        SeatCard("type", assignment.type, type_name, None, team),
    ]


# --- states of play -------------------------------------------------------------------
def status_label(status) -> str:
    return str(STATUSES.get(status, status))


def capitalised(text) -> str:
    """The first letter upper case, the rest as it is ("the Village" -> "The Village");
    invisible format characters before it (a zero-width space) are passed over."""
    text = str(text)
    at = 0
    while at < len(text) and not text[at].isprintable():  # format characters, e.g. U+200B
        at += 1
    return text[:at] + text[at : at + 1].upper() + text[at + 1 :]


def phase_label(phase) -> str:
    """ "night 2" -> "Night 2"."""
    parsed = Phase.parse(phase)
    if parsed:
        return PHASES[parsed.kind](parsed.number)
    return capitalised(phase)


def phase_words(phase) -> str:
    """ "night 2" inside a sentence, in the reader's language; any other text as it is."""
    parsed = Phase.parse(phase)
    return PHASE_WORDS[parsed.kind](parsed.number) if parsed else str(phase or "")


def winner_label(key) -> str:
    return str(WINNERS.get(key, key))


# --- names ----------------------------------------------------------------------------
def display_name(name, names: Names) -> str:
    """A seat's occupant by player name; "nobody" for no seat."""
    if name is None:
        return _("nobody")
    return names.get(name, name)


def name_list(names: Names, seq: Iterable) -> str:
    """Seats as a list of player names; "nobody" for none."""
    people = [display_name(n, names) for n in seq]
    return ", ".join(people) if people else _("nobody")


AUDIENCES = {
    "public": gettext_lazy("everyone"),
    "dead": gettext_lazy("the afterlife"),
    "moderator": gettext_lazy("the moderator"),
}


def audience_label(audience: str, meeting: str, seats: Iterable, names: Names) -> str:
    """Who could see an event while the game ran: everyone, the afterlife, the moderator,
    a meeting's members ("Coven: Ann, Bob") or single seats ("to Ann")."""
    if audience in AUDIENCES:
        return str(AUDIENCES[audience])
    people = ", ".join(names.get(s, s) for s in seats)
    if meeting:
        return _("%(meeting)s: %(players)s") % {"meeting": meeting.capitalize(), "players": people}
    return _("to %(players)s") % {"players": people}
