"""Visible English left outside translation tags in a template: a heuristic, shared.

`untranslated(paths)` reads each template with Django's own lexer and returns what a person
would read that no `{% translate %}` or `{% blocktranslate %}` wraps: the text between tags,
and the attributes read aloud or shown (title, alt, placeholder, aria-label, a button's
value). Comments, `<script>`, `<style>`, `{% verbatim %}` and whatever a template variable
or tag prints are left out: the variable's words are the Python's to mark, the tag's too.

Each marking part of the site points it at its own templates:

    from tests.i18n_check import untranslated
    assert untranslated(sorted(TEMPLATES.glob("games/*.html"))) == []

Text with no letters passes ("·", "—", "#", numbers); so does text made only of the words
in `ALLOWED` (proper names) and whatever a caller adds with `allow`.
"""

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

# Words that read the same in every language: the site's name, the rulesets' names.
ALLOWED = frozenset({"Witchhunt", "Werewolf", "UTC"})

# Stands in for whatever a tag or variable prints: no letter, so it never counts as text.
HOLE = "\ue000"

# A quoted argument of `include ... with`, `with` or `|default:`: a label handed on to be shown.
# Words (a capital or a space) count; a bare key ("pool", "admin") or a path does not.
ARGUMENT = re.compile(r"""(?:\b\w+=|default:)(?P<q>["'])(?P<value>[^"']*)(?P=q)""")

# Attributes whose values a person reads or hears (data-label: the lobby's narrow layout shows it).
READ_ATTRIBUTES = frozenset(
    {"title", "alt", "placeholder", "aria-label", "aria-description", "label", "data-label"}
)
# A value is shown on these inputs only.
VALUE_SHOWN = frozenset({"submit", "button", "reset"})


@dataclass(frozen=True)
class Leftover:
    path: str
    line: int
    text: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.text!r}"


def untranslated(paths, *, allow=()):
    """Every stretch of visible English outside translation tags in `paths`, in order."""
    allowed = ALLOWED | frozenset(allow)
    found = []
    for path in paths:
        source = Path(path).read_text(encoding="utf-8")
        for line, text in _visible_text(source):
            if text not in allowed and not _only_allowed_words(text, allowed):
                found.append(Leftover(str(path), line, text))
    return found


def _only_allowed_words(text, allowed):
    """True for text with no letters, or whose every word is allowed ("· Witchhunt")."""
    return all(word in allowed for word in re.findall(r"[^\W\d_]+", text))


def _skeleton(source):
    """The template with every tag and variable a HOLE, and what is not shown dropped.

    Returns (text, lines): `lines[i]` is the template line of the text's character i."""
    parts, lines = [], []
    quiet = None  # the end tag of a block whose insides are not checked
    for token in Lexer(source).tokenize():
        kind, contents = token.token_type, token.contents
        if kind == TokenType.BLOCK:
            name = contents.split(maxsplit=1)[0] if contents else ""
            if quiet:
                if name == quiet:
                    quiet = None
                continue
            if name in ("blocktranslate", "blocktrans"):
                quiet = "end" + name
            elif name in ("comment", "verbatim"):
                quiet = "end" + name
            elif name == "block" and contents.split()[1:2] in (["main_class"], ["bodyclass"]):
                quiet = "endblock"  # a page's CSS classes, not words
            piece = _arguments(contents) if name in ("include", "with") else HOLE
            parts.append(piece)
            lines.extend([token.lineno] * len(piece))
            continue
        if quiet or kind == TokenType.COMMENT:
            continue
        if kind == TokenType.VAR:
            piece = _arguments(contents)
            parts.append(piece)
            lines.extend([token.lineno] * len(piece))
            continue
        line = token.lineno
        for ch in contents:
            parts.append(ch)
            lines.append(line)
            if ch == "\n":
                line += 1
    return "".join(parts), lines


def _arguments(contents):
    """The words a tag or variable hands on as literals, between HOLEs; a HOLE if none."""
    words = [
        match["value"]
        for match in ARGUMENT.finditer(contents)
        if "/" not in match["value"] and (" " in match["value"] or match["value"][:1].isupper())
    ]
    return HOLE + HOLE.join(words) + HOLE if words else HOLE


def _visible_text(source):
    text, lines = _skeleton(source)
    reader = _Reader(lines)
    reader.feed(text)
    reader.close()
    return reader.found


class _Reader(HTMLParser):
    def __init__(self, lines):
        super().__init__(convert_charrefs=True)
        self._lines = lines
        self._hidden = 0  # inside <script> or <style>
        self.found = []

    def _line(self, start=0):
        # getpos() is where the data began in the skeleton; the template line is looked up.
        row, column = self.getpos()
        offset = self._offset(row, column) + start
        return self._lines[min(offset, len(self._lines) - 1)] if self._lines else 1

    def feed(self, data):
        self._starts = [0]
        for i, ch in enumerate(data):
            if ch == "\n":
                self._starts.append(i + 1)
        super().feed(data)

    def _offset(self, row, column):
        return self._starts[row - 1] + column

    def _add(self, text, at_data=True):
        start = 0
        for piece in text.split(HOLE):
            words = " ".join(piece.split())
            if words:
                line = self._line(start + len(piece) - len(piece.lstrip()) if at_data else 0)
                self.found.append((line, words))
            start += len(piece) + 1

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        values = dict(attrs)
        for name, value in attrs:
            if value is None:
                continue
            if name in READ_ATTRIBUTES or (
                name == "value" and tag == "input" and values.get("type") in VALUE_SHOWN
            ):
                self._add(value, at_data=False)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self._add(data)
