"""Markdown for the rules pages: rulings and card texts into safe HTML, ruling numbers linked.

Stricter than nothing, looser than posts: tables are allowed (the Werewolf role table), and
links carry no rel, since every link here leads to the rules pages themselves.
"""

import re

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe

from .rulings import NUMBER

ALLOWED_TAGS = {
    *("p", "br", "em", "strong", "code", "a", "ul", "ol", "li"),
    *("table", "thead", "tbody", "tr", "th", "td"),
}


class NoRawHtml(markdown.Extension):
    """Raw HTML off, as for posts (house style): typed tags come out as text."""

    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


def render_markdown(text: str) -> SafeString:
    """Markdown with raw HTML off; the texts are ours, and nh3 keeps them safe all the same."""
    html = markdown.markdown(text, extensions=[NoRawHtml(), "tables"], output_format="html")
    # link_rel=None: every link here is to the rules pages themselves.
    return mark_safe(nh3.clean(html, tags=ALLOWED_TAGS, attributes={"a": {"href"}}, link_rel=None))


_REFERENCE = re.compile(rf"\b{NUMBER}\b")
_CODE_SPAN = re.compile(r"(`[^`]*`)")


def link_references(text: str, urls: dict[str, str]) -> str:
    """Turn each ruling number outside a code span into a link to the ruling."""
    parts = _CODE_SPAN.split(text)
    for i in range(0, len(parts), 2):  # the odd parts are the code spans
        parts[i] = _REFERENCE.sub(
            lambda m: f"[{m[0]}]({urls[m[0]]})" if m[0] in urls else m[0], parts[i]
        )
    return "".join(parts)
