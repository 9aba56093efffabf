"""What the rules pages show: the texts in games/rules_text/ and the card tables, read once.

Witchhunt's preface says no detail of the mechanics may be withheld, so both rulesets
publish their source text, every house ruling and a page per card.

Two kinds of text:
- the house rulings (Markdown): sections of numbered rulings (`- W-12 …`), each rendered
  on its own so that the page can anchor it (`id="W-12"`) and a card page can quote it;
- the source texts (plain text scraped from the web): no line marks itself as a heading,
  so each text has a declared outline of its headings, and the parser fails loudly when
  the text no longer has one of them.
"""

import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import markdown
import nh3
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from games.engine.rulesets.werewolf.roles import EVIL, GOOD, ROLES, WILD
from games.engine.rulesets.witchhunt.cards import CHARACTERS, HOLY, TYPES

# Raw HTML off exactly as for posts (house style); posts.py keeps the extension private for now.
from games.posts import NoRawHtml

TEXT_DIR = Path(__file__).resolve().parent / "rules_text"

CARDS, TYPES_GROUP = "cards", "types"  # the URL segment of a card page


class RulebookError(ValueError):
    """A rules text no longer has the shape this module reads (a test runs into it first)."""


# ---------------------------------------------------------------------------------------
# What the pages get


@dataclass(frozen=True)
class Ruling:
    number: str | None  # "W-12"; None for an unnumbered note between rulings
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


def rulesets() -> tuple[Ruleset, ...]:
    return _library()


def ruleset(slug: str) -> Ruleset | None:
    return next((r for r in _library() if r.slug == slug), None)


# ---------------------------------------------------------------------------------------
# Markdown


_ALLOWED_TAGS = {
    *("p", "br", "em", "strong", "code", "a", "ul", "ol", "li"),
    *("table", "thead", "tbody", "tr", "th", "td"),
}


def _markdown(text: str) -> SafeString:
    """Markdown with raw HTML off; the texts are ours, and nh3 keeps them safe all the same."""
    html = markdown.markdown(text, extensions=[NoRawHtml(), "tables"], output_format="html")
    # link_rel=None: every link here is to the rules pages themselves.
    return mark_safe(nh3.clean(html, tags=_ALLOWED_TAGS, attributes={"a": {"href"}}, link_rel=None))


_REFERENCE = re.compile(r"\bW{1,2}-\d+[a-z]?\b")
_CODE_SPAN = re.compile(r"(`[^`]*`)")


def _link_references(text: str, urls: dict[str, str]) -> str:
    """Turn each ruling number outside a code span into a link to the ruling."""
    parts = _CODE_SPAN.split(text)
    for i in range(0, len(parts), 2):  # the odd parts are the code spans
        parts[i] = _REFERENCE.sub(
            lambda m: f"[{m[0]}]({urls[m[0]]})" if m[0] in urls else m[0], parts[i]
        )
    return "".join(parts)


# ---------------------------------------------------------------------------------------
# The house rulings


_ITEM = re.compile(r"^- (?:(W{1,2}-\d+[a-z]?) )?(.*)$")
_CONTINUATION = re.compile(r"^ {2,}(\S.*)$")
_CASE = re.compile(r"^\([a-z]\) ")  # W-9's cases (a)..(g), one a line


@dataclass
class _RawSection:
    title: str
    entries: list  # ("item", number, [lines]) or ("prose", None, [lines])


def _read_rulings(source: str) -> tuple[str, list[str], list[_RawSection]]:
    title, intro, sections = "", [], []
    for line in source.splitlines():
        if line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("## "):
            sections.append(_RawSection(line[3:].strip(), []))
        elif not sections:
            intro.append(line)
        elif item := _ITEM.match(line):
            sections[-1].entries.append(("item", item[1], [item[2]]))
        else:
            entries = sections[-1].entries
            continuation = _CONTINUATION.match(line)
            if continuation and entries and entries[-1][0] == "item":
                lines = entries[-1][2]
                if _CASE.match(continuation[1]):
                    lines[-1] += "  "  # a Markdown line break keeps each case on its line
                lines.append(continuation[1])
            elif not line.strip() and entries and entries[-1][0] == "item":
                continue  # a blank line between rulings
            elif entries and entries[-1][0] == "prose":
                entries[-1][2].append(line)
            else:
                entries.append(("prose", None, [line]))
    if not title or not sections:
        raise RulebookError("a rulings file needs a '# title' and '## sections'")
    return title, intro, sections


def _build_rulings(
    title: str,
    intro: list[str],
    raw_sections: list[_RawSection],
    page_url: str,
    render: Callable[[str], SafeString],
    intro_links: dict[str, str],
) -> Rulings:
    intro_text = "\n".join(intro)
    for literal, link in intro_links.items():
        intro_text = intro_text.replace(literal, link)
    sections = []
    for raw in raw_sections:
        anchor = "rulings-" + slugify(raw.title)
        blocks, notes = [], 0
        for kind, number, lines in raw.entries:
            text = "\n".join(lines).strip()
            if kind == "prose":
                if text:
                    blocks.append(Prose(render(text)))
                continue
            if number is None:
                notes += 1
            ruling_anchor = number or f"{anchor}-note-{notes}"
            ruling = Ruling(
                number=number,
                anchor=ruling_anchor,
                text=text,
                html=render(text),
                section=raw.title,
                url=f"{page_url}#{ruling_anchor}",
            )
            if blocks and blocks[-1].kind == "rulings":
                blocks[-1] = RulingList((*blocks[-1].rulings, ruling))
            else:
                blocks.append(RulingList((ruling,)))
        sections.append(RulingSection(raw.title, anchor, tuple(blocks)))
    return Rulings(title, render(intro_text), tuple(sections))


# ---------------------------------------------------------------------------------------
# The source texts


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
    note: str
    outline: tuple[Heading, ...]
    drop: frozenset[str] = frozenset()  # page furniture the scrape kept


WITCHHUNT_TEXT = TextSpec(
    "witchhunt-rules-9.0.txt",
    "Witchhunt Rules 9.0",
    "The rules as chocolatepi posted them on the forum, shown once: the post repeats most of "
    "its sections. The house rulings below settle what the text leaves open.",
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
    "How a game ends, from the rules of the Werewolves of the Dark Arts deck. The house "
    "rulings below settle everything else: the cards, the night and the votes.",
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
_CHARACTER_BY_NUMBER = {number: key for key, (number, *_) in CHARACTERS.items()}


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
        key = _CHARACTER_BY_NUMBER.get(int(number)) if number.isdigit() else None
        name = CHARACTERS[key][1] if key else ""
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


def _read_text(spec: TextSpec, source: str) -> SourceText:
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


# ---------------------------------------------------------------------------------------
# Which rulings concern a card: those that name it (W-22 names the Priest, W-28 is his).


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


# ---------------------------------------------------------------------------------------
# The two rulesets


_WITCHHUNT_SUMMARY = (
    "The main game: a village against a hidden Coven of Witches. Every player holds a unique "
    "character and a player type; the dead play on as Angels and Demons. Rules 9.0 with "
    "48 characters (the base set and the Showdown, King’s Court and Love & War expansions)."
)
_WEREWOLF_SUMMARY = (
    "The second ruleset: the Werewolves against everyone else, with the cards of the free "
    "Werewolves of the Dark Arts deck, including the wildcards (the Fool, the Were-Hamster, "
    "the Were-Gerbil, the Devil) that win on their own terms."
)
_ALIGNMENTS = {GOOD: "Good cards", EVIL: "Evil cards", WILD: "Wildcards"}
_TEAMS = {"village": "Village", "witches": "Witches"}


def _read(filename: str) -> str:
    return (TEXT_DIR / filename).read_text(encoding="utf-8")


def _witchhunt(rulings: Rulings, text: SourceText, render: Callable) -> Ruleset:
    all_rulings, names = rulings.all, _witchhunt_names()
    by_expansion: dict[str, list[Card]] = {}
    for key, (number, name, expansion, card_text) in CHARACTERS.items():
        by_expansion.setdefault(expansion, []).append(
            Card(
                ruleset="witchhunt",
                group=CARDS,
                key=key,
                name=name,
                kind="Character",
                text=card_text,
                html=render(card_text),
                url=reverse("rules_card", args=["witchhunt", key]),
                number=number,
                expansion=expansion,
                holy=key in HOLY,
                rulings=_concerning(names[key], all_rulings),
            )
        )
    type_texts = {
        item.term: item.text
        for section in text.sections
        for block in section.blocks
        if block.kind == "definitions"
        for item in block.items
        if item.url
    }
    types = []
    for key, (team, label) in TYPES.items():
        if label not in type_texts:
            raise RulebookError(f"the rules text does not describe the {label}")
        types.append(
            Card(
                ruleset="witchhunt",
                group=TYPES_GROUP,
                key=key,
                name=label,
                kind="Player type",
                text=type_texts[label],
                html=render(type_texts[label]),
                url=reverse("rules_type", args=["witchhunt", key]),
                side=_TEAMS[team],
                rulings=_concerning(names[key], all_rulings),
            )
        )
    groups = [CardGroup(expansion, tuple(cards)) for expansion, cards in by_expansion.items()]
    groups.append(CardGroup("Player types", tuple(types)))
    return Ruleset("witchhunt", "Witchhunt 9.0", _WITCHHUNT_SUMMARY, text, rulings, tuple(groups))


def _werewolf(rulings: Rulings, text: SourceText, render: Callable) -> Ruleset:
    all_rulings, names = rulings.all, _werewolf_names()
    by_alignment: dict[str, list[Card]] = {alignment: [] for alignment in _ALIGNMENTS}
    for key, (alignment, name, role_text) in ROLES.items():
        by_alignment[alignment].append(
            Card(
                ruleset="werewolf",
                group=CARDS,
                key=key,
                name=name,
                kind="Card",
                text=role_text,
                html=render(role_text),
                url=reverse("rules_card", args=["werewolf", key]),
                expansion="Werewolves of the Dark Arts",
                side=alignment.capitalize(),
                rulings=_concerning(names[key], all_rulings),
            )
        )
    groups = tuple(CardGroup(_ALIGNMENTS[a], tuple(cards)) for a, cards in by_alignment.items())
    return Ruleset("werewolf", "Werewolf", _WEREWOLF_SUMMARY, text, rulings, groups)


def _link_role_keys(source: str) -> str:
    """In the role table, link each role (`seer`) to its card page."""

    def link(match: re.Match) -> str:
        key = match[1]
        return f"[`{key}`]({reverse('rules_card', args=['werewolf', key])})"

    return "\n".join(
        re.sub(r"`([a-z_]+)`", lambda m: link(m) if m[1] in ROLES else m[0], line)
        if line.startswith("|")
        else line
        for line in source.splitlines()
    )


@functools.cache
def _library() -> tuple[Ruleset, ...]:
    """Both rulesets, parsed once per process (the texts ship with the code)."""
    witchhunt_url = reverse("rules_ruleset", args=["witchhunt"])
    werewolf_url = reverse("rules_ruleset", args=["werewolf"])
    raw = {
        witchhunt_url: _read_rulings(_read("witchhunt-rulings.md")),
        werewolf_url: _read_rulings(_link_role_keys(_read("werewolf-rulings.md"))),
    }
    # Every ruling number, to link references across both pages (WW rulings cite W-4).
    urls = {
        number: f"{page}#{number}"
        for page, (_, _, sections) in raw.items()
        for section in sections
        for kind, number, _ in section.entries
        if number
    }

    def render(text: str) -> SafeString:
        return _markdown(_link_references(text, urls))

    def rulings(page: str, source: str) -> Rulings:
        title, intro, sections = raw[page]
        # The rulings name their source text by its path in the shared folder.
        return _build_rulings(
            title, intro, sections, page, render, {f"`{source}`": "[the text above](#text)"}
        )

    return (
        _witchhunt(
            rulings(witchhunt_url, "../seeds/witchhunt-rules-9.0.txt"),
            _read_text(WITCHHUNT_TEXT, _read(WITCHHUNT_TEXT.filename)),
            render,
        ),
        _werewolf(
            rulings(werewolf_url, "../seeds/werewolf-final-reveal-phase.txt"),
            _read_text(WEREWOLF_TEXT, _read(WEREWOLF_TEXT.filename)),
            render,
        ),
    )
