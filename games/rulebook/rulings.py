"""The house rulings: a rulings file (Markdown) into sections of numbered, anchored rulings.

A file has a `# title`, an intro, and `## sections`. In a section, a ruling is a list item that
opens with its number (`- W-12 …`, or sub-numbered `- W-72a …`) and goes on over indented
lines; an item without a number is a note, and anything else is prose between rulings. Each
ruling is rendered on its own, so that the page can anchor it (`id="W-12"`) and a card page
can quote it.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.safestring import SafeString
from django.utils.text import slugify

from .model import Prose, RulebookError, Ruling, RulingList, Rulings, RulingSection

NUMBER = r"W{1,2}-\d+[a-z]?"  # W-12, W-72a, WW-18

_ITEM = re.compile(rf"^- (?:({NUMBER}) )?(.*)$")
_CONTINUATION = re.compile(r"^ {2,}(\S.*)$")
_CASE = re.compile(r"^\([a-z]\) ")  # W-9's cases (a)..(g), one a line
_PATH = re.compile(r"`(\.\./[^`]+)`")


@dataclass
class RawSection:
    title: str
    # ("item", number, [lines]) or ("prose", None, [lines])
    entries: list = field(default_factory=list)


@dataclass
class RawRulings:
    title: str
    intro: list[str]
    sections: list[RawSection]

    @property
    def numbers(self) -> list[str]:
        return [n for s in self.sections for kind, n, _ in s.entries if n]


def replace_paths(source: str, words: dict[str, str]) -> str:
    """Put words where the shared rulings name another shared file by its path
    (`../seeds/…`): the pages never show a path. A path without words fails loudly."""

    def replace(match: re.Match) -> str:
        if match[1] not in words:
            raise RulebookError(f"the rulings name {match[1]!r}: say in words what it is")
        return words[match[1]]

    return _PATH.sub(replace, source)


def read_rulings(source: str) -> RawRulings:
    title, intro, sections = "", [], []
    for line in source.splitlines():
        if line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("## "):
            sections.append(RawSection(line[3:].strip()))
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
    return RawRulings(title, intro, sections)


def build_rulings(raw: RawRulings, page_url: str, render: Callable[[str], SafeString]) -> Rulings:
    sections = []
    for raw_section in raw.sections:
        anchor = "rulings-" + slugify(raw_section.title)
        blocks, notes = [], 0
        for kind, number, lines in raw_section.entries:
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
                section=raw_section.title,
                url=f"{page_url}#{ruling_anchor}",
            )
            if blocks and blocks[-1].kind == "rulings":
                blocks[-1] = RulingList((*blocks[-1].rulings, ruling))
            else:
                blocks.append(RulingList((ruling,)))
        sections.append(RulingSection(raw_section.title, anchor, tuple(blocks)))
    return Rulings(raw.title, render("\n".join(raw.intro)), tuple(sections))
