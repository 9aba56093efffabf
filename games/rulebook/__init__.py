"""What the rules pages show: the rules texts and the card tables, read once.

Witchhunt's preface says no detail of the mechanics may be withheld, so both rulesets publish
their source text, every house ruling and a page per card. The package reads and writes
nothing else:

- model: the dataclasses the pages get (rulings, source texts, cards, rulesets);
- markdown: Markdown into safe HTML for the rules pages, ruling numbers linked;
- rulings: the house rulings (Markdown), each ruling anchored by its number;
- texts: the source texts (scraped plain text), read against a declared outline;
- cards: a page per card, with the rulings that name it;
- library: both rulesets, assembled and parsed once per process.
"""

from .library import TEXT_DIR, ruleset, rulesets
from .markdown import render_markdown
from .model import (
    CARDS,
    TYPES_GROUP,
    Card,
    CardGroup,
    RulebookError,
    Ruleset,
    Ruling,
    Rulings,
    SourceText,
)
from .rulings import read_rulings, replace_paths
from .texts import WEREWOLF_TEXT, WITCHHUNT_TEXT, Heading, TextSpec, once, read_text

__all__ = [
    "CARDS",
    "TEXT_DIR",
    "TYPES_GROUP",
    "WEREWOLF_TEXT",
    "WITCHHUNT_TEXT",
    "Card",
    "CardGroup",
    "Heading",
    "RulebookError",
    "Ruleset",
    "Ruling",
    "Rulings",
    "SourceText",
    "TextSpec",
    "once",
    "read_rulings",
    "read_text",
    "render_markdown",
    "replace_paths",
    "ruleset",
    "rulesets",
]
