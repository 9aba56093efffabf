"""Post bodies into HTML: Markdown with raw HTML off, then sanitised with nh3 (house style).

Shared by the services that store posts and the forms that check a post's length."""

import markdown
import nh3

# The longest post a player may write, in characters.
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
