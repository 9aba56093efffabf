"""The card pages: a page per card of the engine's card tables, with the rulings that name it.

A card's rulings are those that call it by one of its names (W-22 names the Priest, W-28 is
his); the names the rulings use are listed here, per ruleset.
"""

import re
from collections.abc import Callable

from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine import CHARACTERS, EVIL, GOOD, HOLY, ROLES, TYPES, WILD
from games.narration import card_label

from .model import CARDS, TYPES_GROUP, Card, CardGroup, RulebookError, Ruling, SourceText

Render = Callable[[str], SafeString]

# The pages' framing is translated; lazily, since the library is built once per process and
# each page is worded in its reader's language. The cards' names are translated as on every
# page (narration's card labels; the library is parsed once per language); their texts are
# the spec's.
_ALIGNMENTS = {
    GOOD: gettext_lazy("Good cards"),
    EVIL: gettext_lazy("Evil cards"),
    WILD: gettext_lazy("Wildcards"),
}
_SIDES = {
    GOOD: pgettext_lazy("alignment", "Good"),
    EVIL: pgettext_lazy("alignment", "Evil"),
    WILD: pgettext_lazy("alignment", "Wild"),
}
_TEAMS = {"village": pgettext_lazy("team", "Village"), "witches": pgettext_lazy("team", "Witches")}


def _names(name: str) -> str:
    return rf"\b{re.escape(name)}s?\b"


def _witchhunt_names() -> dict[str, str]:
    """Per card, a regular expression for the names the rulings call it by."""
    names = {
        "king": r"\bKing\b(?!'s Court)",  # the King's Court is the Court's own name
        "benevolent_old_dame": r"\bOld Dame\b",  # W-11a "an Old Dame's gift"
        "village_spy": r"\b(?:Village )?Sp(?:y|ies)\b",  # W-24 "the Spies"
        "village_lover": r"\b(?:Village )?Lovers?\b",
        "elder_witch": r"\bElder(?: Witch(?:es)?|s)?\b",
        "junior_witch": r"\bJunior(?: Witch(?:es)?|s)?\b",
    }
    for key, (_, name, _, _) in CHARACTERS.items():
        first, _, rest = name.partition(" ")
        if first == "Traveling":  # W-57 "Travelers (Medic, Mercenary, …)", W-9 "a Mercenary's"
            names[key] = rf"\b(?:Traveling )?{rest}\b|\bTravelers\b"
        elif rest == "Musketeer":  # W-64 "Musketeers (Pious, Sneaky, Reckless)"
            names[key] = rf"{_names(name)}|\bMusketeers\b"
        elif rest == "Pagan":  # W-41 "Sunlight"; W-68 "a revealed Pagan"
            names[key] = rf"\b{first}\b|\brevealed (?:living )?Pagan\b"
        names.setdefault(key, _names(name))
    for key, (_, label) in TYPES.items():
        names.setdefault(key, _names(label))
    return names


def _werewolf_names() -> dict[str, str]:
    names = {
        "werewolf": r"\bWerewol(?:f|ves)\b",
        "were_hamster": r"\b(?:Were-)?Hamster\b",  # WW-14 "searched the Hamster"
        "were_gerbil": r"\b(?:Were-)?Gerbil\b",
        "matchmaker": r"\bMatchmaker\b|\bLovers?\b",  # the Matchmaker's pair (WW-9, WW-15)
    }
    for key, (_, name, _) in ROLES.items():
        names.setdefault(key, _names(name))
    return names


def _concerning(pattern: str, rulings: list[Ruling]) -> tuple[Ruling, ...]:
    found = re.compile(pattern)
    # A name may wrap in the file ("an Old\n  Dame's gift", W-11a).
    return tuple(r for r in rulings if found.search(" ".join(r.text.split())))


def _type_texts(text: SourceText) -> dict[str, str]:
    """Each player type's description: the linked terms of the text's type lists."""
    return {
        item.term: item.text
        for section in text.sections
        for block in section.blocks
        if block.kind == "definitions"
        for item in block.items
        if item.url
    }


def witchhunt_card_groups(
    rulings: list[Ruling], text: SourceText, render: Render
) -> tuple[CardGroup, ...]:
    """The characters by expansion (in the card table's order), then the player types."""
    names = _witchhunt_names()
    by_expansion: dict[str, list[Card]] = {}
    for key, (number, _name, expansion, card_text) in CHARACTERS.items():
        by_expansion.setdefault(expansion, []).append(
            Card(
                ruleset="witchhunt",
                group=CARDS,
                key=key,
                name=card_label(key),
                kind=pgettext_lazy("card kind", "Character"),
                text=card_text,
                html=render(card_text),
                url=reverse("rules_card", args=["witchhunt", key]),
                number=number,
                expansion=expansion,
                holy=key in HOLY,
                rulings=_concerning(names[key], rulings),
            )
        )
    type_texts = _type_texts(text)
    types = []
    for key, (team, label) in TYPES.items():
        if label not in type_texts:
            raise RulebookError(f"the rules text does not describe the {label}")
        types.append(
            Card(
                ruleset="witchhunt",
                group=TYPES_GROUP,
                key=key,
                name=card_label(key),
                kind=pgettext_lazy("card kind", "Player type"),
                text=type_texts[label],
                html=render(type_texts[label]),
                url=reverse("rules_type", args=["witchhunt", key]),
                side=_TEAMS[team],
                rulings=_concerning(names[key], rulings),
            )
        )
    # The expansions' names are the products' (and the rules text's), kept in English.
    groups = [
        CardGroup(expansion, tuple(cards), lang="en") for expansion, cards in by_expansion.items()
    ]
    return (*groups, CardGroup(gettext_lazy("Player types"), tuple(types)))


def werewolf_card_groups(rulings: list[Ruling], render: Render) -> tuple[CardGroup, ...]:
    """The roles by alignment: good, evil, then the wildcards."""
    names = _werewolf_names()
    by_alignment: dict[str, list[Card]] = {alignment: [] for alignment in _ALIGNMENTS}
    for key, (alignment, _name, role_text) in ROLES.items():
        by_alignment[alignment].append(
            Card(
                ruleset="werewolf",
                group=CARDS,
                key=key,
                name=card_label(key),
                kind=pgettext_lazy("card kind", "Card"),
                text=role_text,
                html=render(role_text),
                url=reverse("rules_card", args=["werewolf", key]),
                expansion="Werewolves of the Dark Arts",
                side=_SIDES.get(alignment, alignment.capitalize()),
                rulings=_concerning(names[key], rulings),
            )
        )
    return tuple(CardGroup(_ALIGNMENTS[a], tuple(cards)) for a, cards in by_alignment.items())


def link_role_keys(source: str) -> str:
    """In the Werewolf rulings' role table, link each role (`seer`) to its card page."""

    def link(match: re.Match) -> str:
        key = match[1]
        return f"[`{key}`]({reverse('rules_card', args=['werewolf', key])})"

    return "\n".join(
        re.sub(r"`([a-z_]+)`", lambda m: link(m) if m[1] in ROLES else m[0], line)
        if line.startswith("|")
        else line
        for line in source.splitlines()
    )
