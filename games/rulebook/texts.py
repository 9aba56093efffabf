"""The source texts: plain text scraped from the web, into sections of paragraphs, lists and
questions.

No line of a scraped text marks itself as a heading, so each text has a declared outline of its
headings (a `TextSpec`), and `read_text` fails loudly when the text no longer has one of them.
How the lines under a heading read (prose, the player types, the character list, the glossary,
the FAQ) is part of the outline too.
"""

import difflib
import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy

from games.engine import CHARACTERS, HOLY, TYPES

from .model import (
    Block,
    CardRow,
    CardRows,
    Definition,
    Definitions,
    Paragraph,
    Question,
    Questions,
    RulebookError,
    SourceText,
    TextSection,
)

PROSE, TYPE_LIST, CARD_LIST, GLOSSARY, FAQ = "prose", "types", "cards", "glossary", "faq"


@dataclass(frozen=True)
class Heading:
    text: str  # the line exactly as in the text
    level: int = 1
    body: str = PROSE  # how the lines under it read


@dataclass(frozen=True)
class TextSpec:
    filename: str
    title: str  # the text's own title line, shown as its heading
    note: str  # the site's words about the text (translated; the text is not)
    outline: tuple[Heading, ...]
    drop: frozenset[str] = frozenset()  # page furniture the scrape kept


WITCHHUNT_TEXT = TextSpec(
    "witchhunt-rules-9.0.txt",
    "Witchhunt Rules 9.0",
    gettext_lazy(
        "The rules as chocolatepi posted them on the forum, shown once: the post repeats most "
        "of its sections. The house rulings below settle what the text leaves open."
    ),
    (
        Heading("Overview"),
        Heading("Player Assignments (Character and Type)"),
        Heading("Village Team Types:", 2, TYPE_LIST),
        Heading("Witch Team Types:", 2, TYPE_LIST),
        Heading("Dead Players"),
        Heading("Angels and Demons"),
        Heading("Archangel Cards"),
        Heading("Characters"),
        Heading("Witchhunt Base Set", 2, CARD_LIST),
        Heading("Showdown Expansion", 2, CARD_LIST),
        Heading("King’s Court Expansion", 2, CARD_LIST),
        Heading("Love & War Expansion", 2, CARD_LIST),
        Heading("Keyword Reference", 1, GLOSSARY),
        Heading("Frequently Asked Questions:"),
        Heading("General", 2, FAQ),
        Heading("Player Type", 2, FAQ),
        Heading("Angels and Demons", 2, FAQ),
        Heading("Characters", 2, FAQ),
    ),
)

WEREWOLF_TEXT = TextSpec(
    "werewolf-final-reveal-phase.txt",
    "Final Reveal Phase",
    gettext_lazy(
        "How a game ends, from the rules of the Werewolves of the Dark Arts deck. The house "
        "rulings below settle everything else: the cards, the night and the votes."
    ),
    (
        Heading("Meeting a Winning Condition"),
        Heading("Werewolves are Eliminated", 2),
        Heading("Werewolves Outnumber Other Cards (Werewolf Check)", 2),
        Heading("Fool is Lynched", 2),
        Heading("Were-Gerbil finds Were-Hamster", 2),
        Heading("Were-Hamster Survives", 2),
        Heading("Cards that Cannot Win", 2),
        Heading("Announcing the Winners"),
        Heading("Revealing and Collecting Cards"),
    ),
    drop=frozenset({"Contents"}),  # the web page's table of contents, empty in the scrape
)


def once(lines: list[str]) -> list[str]:
    """The lines of a post that repeats itself, shown once.

    The Witchhunt forum post repeats most of its sections, and the two copies differ (the
    second adds a line): the repeat starts at the first line that recurs together with the
    two lines after it, and the copies are merged so that every line of either is kept, in
    order. A text without a repeat comes back unchanged.
    """
    seen: dict[str, list[int]] = {}
    for p, line in enumerate(lines):
        for j in seen.get(line, ()):
            if lines[p : p + 3] == lines[j : j + 3]:
                first, second = lines[:p], lines[p:]
                merged = []
                matcher = difflib.SequenceMatcher(None, first, second, autojunk=False)
                for tag, i1, i2, j1, j2 in matcher.get_opcodes():
                    merged += first[i1:i2]
                    if tag in ("insert", "replace"):  # lines only the second copy has
                        merged += second[j1:j2]
                return merged
        seen.setdefault(line, []).append(p)
    return lines


_LEAD = re.compile(r"^(\w+): (.*)$")
_TYPE_LABELS = {label: key for key, (_, label) in TYPES.items()}
_CHARACTER_BY_NUMBER = {number: (key, name) for key, (number, name, *_) in CHARACTERS.items()}


def _paragraph(line: str) -> Paragraph:
    lead = _LEAD.match(line)
    return Paragraph(lead[2], lead[1]) if lead else Paragraph(line)


def _definitions_and_paragraphs(lines: list[str], split) -> list[Block]:
    """Consecutive `term – text` lines become one definition list; other lines paragraphs."""
    blocks: list[Block] = []
    for line in lines:
        definition = split(line)
        if definition is None:
            blocks.append(_paragraph(line))
        elif blocks and blocks[-1].kind == "definitions":
            blocks[-1] = Definitions((*blocks[-1].items, definition))
        else:
            blocks.append(Definitions((definition,)))
    return blocks


def _type_definition(line: str) -> Definition | None:
    term, separator, text = line.partition(" - ")
    if separator and term in _TYPE_LABELS:
        url = reverse("rules_type", args=["witchhunt", _TYPE_LABELS[term]])
        return Definition(term, text, url)
    return None


def _glossary_definition(line: str) -> Definition | None:
    term, separator, text = line.partition(" – ")  # an en dash in the text
    return Definition(term, text) if separator else None


def _card_rows(lines: list[str]) -> list[Block]:
    """`1 Priest Each night, …`: the number and name must be the card table's."""
    rows = []
    for line in lines:
        number, _, rest = line.partition(" ")
        found = _CHARACTER_BY_NUMBER.get(int(number)) if number.isdigit() else None
        key, name = found or ("", "")
        if not key or not rest.startswith(f"{name} "):
            raise RulebookError(f"not a character of the card table: {line!r}")
        url = reverse("rules_card", args=["witchhunt", key])
        rows.append(CardRow(int(number), name, rest[len(name) + 1 :], url, key in HOLY))
    return [CardRows(tuple(rows))]


def _questions(lines: list[str]) -> list[Block]:
    """Each subsection opens with a question; a later line with a "?" starts the next one
    (no answer in the FAQ has one, and two questions end without one)."""
    items: list[Question] = []
    for line in lines:
        if not items or "?" in line:
            items.append(Question(line, ()))
        else:
            items[-1] = Question(items[-1].question, (*items[-1].answer, line))
    return [Questions(tuple(items))]


_BODIES = {
    PROSE: lambda lines: [_paragraph(line) for line in lines],
    TYPE_LIST: lambda lines: _definitions_and_paragraphs(lines, _type_definition),
    GLOSSARY: lambda lines: _definitions_and_paragraphs(lines, _glossary_definition),
    CARD_LIST: _card_rows,
    FAQ: _questions,
}


def read_text(spec: TextSpec, source: str) -> SourceText:
    lines = once([line for line in source.splitlines() if line.strip()])
    lines = [line for line in lines if line not in spec.drop and line != spec.title]
    preamble: list[str] = []
    sections: list[tuple[Heading, list[str]]] = []
    outline = iter(spec.outline)
    expected = next(outline, None)
    for line in lines:
        if expected is not None and line == expected.text:
            sections.append((expected, []))
            expected = next(outline, None)
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    if expected is not None:
        raise RulebookError(f"{spec.filename}: heading {expected.text!r} not found in order")
    anchors: set[str] = set()
    built = []
    for heading, body in sections:
        title = heading.text.rstrip(":")
        anchor = base = "text-" + slugify(title)
        n = 1
        while anchor in anchors:  # "Characters" is a section and an FAQ subsection
            n += 1
            anchor = f"{base}-{n}"
        anchors.add(anchor)
        built.append(TextSection(title, anchor, heading.level, tuple(_BODIES[heading.body](body))))
    preamble_paragraphs = tuple(_paragraph(line) for line in preamble)
    return SourceText(spec.title, spec.note, preamble_paragraphs, tuple(built))
