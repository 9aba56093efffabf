"""Post bodies: Markdown with raw HTML off, then sanitised with nh3 (house style)."""

import markdown
import nh3

from games.engine import GameRuleError

MAX_LENGTH = 20000

ALLOWED_TAGS = {
    "p",
    "br",
    "em",
    "strong",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "hr",
    "h3",
    "h4",
    "h5",
    "h6",
    "del",
}


class NoRawHtml(markdown.Extension):
    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


def render_markdown(text: str) -> str:
    html = markdown.markdown(text, extensions=[NoRawHtml()], output_format="html")
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener",
    )


def clean_body(body: str) -> str:
    """A post's text, stripped; GameRuleError when it is empty or too long."""
    body = body.strip()
    if not body:
        raise GameRuleError("write something first")
    if len(body) > MAX_LENGTH:
        raise GameRuleError(f"a post can be at most {MAX_LENGTH:,} characters")
    return body
