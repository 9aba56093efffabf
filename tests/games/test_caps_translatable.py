"""Every word a person reads in the capabilities' templates is behind a translation tag
(issue 28): text outside {% translate %} / {% blocktranslate %}, comments, <script> and
<style>, and template variables fails, naming the template and the words. Attributes a
person reads or hears (aria-label, title, placeholder, alt) count as text too."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
CAPABILITIES = ("archive", "community", "fair_deal", "lab", "leaving", "reading")
TEMPLATES = sorted(
    p for name in CAPABILITIES for p in (ROOT / "games" / name / "templates").rglob("*.html")
)
# Blocks whose inside is not visible text, or is already translated.
HIDDEN_BLOCKS = {
    "comment": "endcomment",
    "blocktranslate": "endblocktranslate",
    "blocktrans": "endblocktrans",
}
# Blocks holding class names, not words.
CLASS_BLOCKS = {"main_class", "body_class"}
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt"}
# Words that read the same in every language: the games' names and symbols.
ALLOWED = {"Witchhunt", "Werewolf", "h"}
PLACEHOLDER = " "  # where a variable or a tag stood: words on either side stay apart


def visible_source(source: str) -> str:
    """The template's text with tags, variables, comments and translated blocks taken out
    (each replaced by a space, so words on either side never join)."""
    out, closing = [], None
    for token in Lexer(source).tokenize():
        if closing:
            if token.token_type == TokenType.BLOCK and token.contents.split()[0] == closing:
                closing = None
            continue
        if token.token_type == TokenType.TEXT:
            out.append(token.contents)
            continue
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            if name in HIDDEN_BLOCKS:
                closing = HIDDEN_BLOCKS[name]
            elif name == "block" and token.contents.split()[1] in CLASS_BLOCKS:
                closing = "endblock"
        out.append(PLACEHOLDER)
    return "".join(out)


class _Words(HTMLParser):
    """Collects the text nodes and read attributes outside <script> and <style>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.found.append(data)


def untranslated(source: str) -> list[str]:
    """The visible words of a template left outside translation tags."""
    parser = _Words()
    parser.feed(visible_source(source))
    left = []
    for text in parser.found:
        words = [w for w in re.findall(r"[^\W\d_]+", text) if w not in ALLOWED]
        if words:
            left.append(" ".join(text.split()))
    return left


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_word_is_translatable(path):
    assert untranslated(path.read_text()) == []


def test_the_check_finds_words_outside_the_tags():
    """The check itself bites: bare words, a read attribute and words beside a variable
    are found; translated blocks, comments, scripts and variables are not."""
    source = (
        "{% load i18n %}{% comment %}A note{% endcomment %}<h1>Archive</h1>"
        '<a aria-label="Search the archive">{% translate "Search" %}</a>'
        "<p>{{ game.title }} won</p><script>var x = 'words';</script>"
        "<p>{% blocktranslate trimmed with n=1 %}{{ n }} game{% endblocktranslate %}</p>"
    )
    assert untranslated(source) == ["Archive", "Search the archive", "won"]
    assert TEMPLATES, "the capabilities' templates are found"
