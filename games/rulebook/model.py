"""What the rules pages get: frozen dataclasses for the rulings, the source texts and the cards.

Plain data, built once by the library; the templates read the `kind` of each block to choose
how to show it.
"""

from dataclasses import dataclass
from typing import ClassVar

from django.urls import reverse
from django.utils.safestring import SafeString

CARDS, TYPES_GROUP = "cards", "types"  # the URL segment of a card page


class RulebookError(ValueError):
    """A rules text no longer has the shape this package reads (a test runs into it first)."""


# --- The house rulings -------------------------------------------------------------------


@dataclass(frozen=True)
class Ruling:
    number: str | None  # "W-12", "W-72a"; None for an unnumbered note between rulings
    anchor: str  # the HTML id on the ruleset page
    text: str  # the Markdown source, without the number
    html: SafeString
    section: str
    url: str  # the ruleset page with the anchor

    @property
    def label(self) -> str:
        return self.number or f"Note ({self.section})"


@dataclass(frozen=True)
class RulingList:
    rulings: tuple[Ruling, ...]
    kind: ClassVar[str] = "rulings"


@dataclass(frozen=True)
class Prose:
    html: SafeString
    kind: ClassVar[str] = "prose"


@dataclass(frozen=True)
class RulingSection:
    title: str
    anchor: str
    blocks: tuple[RulingList | Prose, ...]

    @property
    def numbers(self) -> list[str]:
        return [r.number for b in self.blocks if b.kind == "rulings" for r in b.rulings if r.number]


@dataclass(frozen=True)
class Rulings:
    title: str
    intro: SafeString
    sections: tuple[RulingSection, ...]

    @property
    def all(self) -> list[Ruling]:
        return [
            r for s in self.sections for b in s.blocks if b.kind == "rulings" for r in b.rulings
        ]

    @property
    def count(self) -> int:
        return sum(1 for ruling in self.all if ruling.number)


# --- The source texts --------------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    text: str
    lead: str = ""  # "Preface", "Remember": shown in bold before the text
    kind: ClassVar[str] = "paragraph"


@dataclass(frozen=True)
class Definition:
    term: str
    text: str
    url: str = ""


@dataclass(frozen=True)
class Definitions:
    items: tuple[Definition, ...]
    kind: ClassVar[str] = "definitions"


@dataclass(frozen=True)
class CardRow:
    number: int
    name: str
    text: str
    url: str
    holy: bool


@dataclass(frozen=True)
class CardRows:
    rows: tuple[CardRow, ...]
    kind: ClassVar[str] = "cards"


@dataclass(frozen=True)
class Question:
    question: str
    answer: tuple[str, ...]


@dataclass(frozen=True)
class Questions:
    items: tuple[Question, ...]
    kind: ClassVar[str] = "questions"


Block = Paragraph | Definitions | CardRows | Questions


@dataclass(frozen=True)
class TextSection:
    title: str
    anchor: str
    level: int  # 1: a section, 2: a subsection of the one before
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class SourceText:
    title: str
    note: str  # what the text is, shown under its title
    preamble: tuple[Paragraph, ...]
    sections: tuple[TextSection, ...]

    @property
    def toc(self) -> list[tuple[TextSection, list[TextSection]]]:
        """Each section with its subsections, for the table of contents."""
        entries: list[tuple[TextSection, list[TextSection]]] = []
        for section in self.sections:
            if section.level == 1 or not entries:
                entries.append((section, []))
            else:
                entries[-1][1].append(section)
        return entries


# --- The cards and the rulesets ----------------------------------------------------------


@dataclass(frozen=True)
class Card:
    ruleset: str
    group: str  # CARDS or TYPES_GROUP
    key: str
    name: str
    kind: str  # "Character", "Player type", "Card"
    text: str
    html: SafeString  # the text, its ruling numbers linked
    url: str
    number: int | None = None
    expansion: str = ""
    holy: bool | None = None  # W-22; None where the ruleset has no Holy cards
    side: str = ""  # a type's team (W-21) or a role's alignment
    rulings: tuple[Ruling, ...] = ()


@dataclass(frozen=True)
class CardGroup:
    title: str
    cards: tuple[Card, ...]
    lang: str = ""  # "en" for a title that is the spec's (an expansion's name), not ours


@dataclass(frozen=True)
class Ruleset:
    slug: str
    name: str
    summary: str
    text: SourceText
    rulings: Rulings
    card_groups: tuple[CardGroup, ...]

    @property
    def url(self) -> str:
        return reverse("rules_ruleset", args=[self.slug])

    @property
    def cards(self) -> list[Card]:
        return [card for group in self.card_groups for card in group.cards]

    def card(self, group: str, key: str) -> Card | None:
        return next((c for c in self.cards if c.group == group and c.key == key), None)

    def neighbours(self, card: Card) -> tuple[Card | None, Card | None]:
        """The cards before and after this one, in the order of the index (by number)."""
        same = [c for c in self.cards if c.group == card.group]
        i = same.index(card)
        return (same[i - 1] if i else None, same[i + 1] if i + 1 < len(same) else None)
