"""Post bodies into HTML: CommonMark with raw HTML off, then sanitised with nh3 (house style).

Shared by the services that store posts and the forms that check a post's length.

The parser is markdown-it's CommonMark, whose cost grows with the length of the text and
no faster, whatever the text holds (`make bench`, docs/benchmarks.md: a fraction of a
second for the worst post of the longest length, where the old parser took minutes). Its
recursion is bounded by how deep quotes and lists nest, and a post nested deeper than
`MAX_DEPTH` is refused rather than cut. The services render a post before they lock its
game (games/services/posts.py).
"""

import unicodedata

import nh3
from markdown_it import MarkdownIt

# The longest post a player may write, in characters.
MAX_LENGTH = 20000
# How deep quotes and lists may nest in one another (a reply's quote adds one).
MAX_DEPTH = 16
# The most combining marks (accents) kept on one character; the rest of a longer run
# ("Zalgo" text) is dropped when the post is cleaned. Real scripts stack fewer: two in
# Vietnamese, four or five with Hebrew's points and accents or Tibetan's stacks.
MAX_MARKS = 5

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
# `start`: a numbered list that starts at 3 shows 3, as typed.
ALLOWED_ATTRIBUTES = {"a": {"href"}, "ol": {"start"}}

_CONTAINERS = {"blockquote_open", "bullet_list_open", "ordered_list_open"}
_CLOSERS = {"blockquote_close", "bullet_list_close", "ordered_list_close"}
_MARKS = {"Mn", "Me"}  # non-spacing and enclosing marks: the ones that stack


class TooDeep(ValueError):
    """A post whose quotes and lists nest deeper than MAX_DEPTH; the message says so."""


def _parser(max_nesting: int) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "maxNesting": max_nesting})
    # Every link is kept for nh3 to judge (it keeps http, https and mailto addresses), so
    # a link to a banned address shows its words without the address, as it always has.
    md.validateLink = lambda url: True
    md.enable("strikethrough")  # ~~struck~~
    # Raw HTML is off, so its rules only cost time. Underlined headings ("Title" over
    # "===" or "---") would be h1 and h2, which posts do not have: the text stays a
    # paragraph and "---" a rule, and long paragraphs are not scanned twice.
    return md.disable(["html_block", "html_inline", "lheading"])


# Blocks: a list adds two levels (list and item), a quote one, so the limit leaves room to
# see a post one level too deep and refuse it (past its limit the parser drops the rest
# of the text). Inline, only a link's words nest while they are parsed, and each level
# is paid for at every "[" of a post: five is ample for any real link.
_md = _parser(2 * MAX_DEPTH + 8)
_inline_md = _parser(5)


def _inline(state) -> None:
    """markdown-it's own core rule "inline", with the inline parser's tighter limit."""
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            _inline_md.inline.parse(token.content, _inline_md, state.env, token.children)


_md.core.ruler.at("inline", _inline)


def trim_marks(text: str) -> str:
    """`text` with each run of combining marks cut to MAX_MARKS: accents stay, a letter
    buried under hundreds of them ("Zalgo") keeps the first few."""
    if text.isascii():
        return text
    out, run = [], 0
    for ch in text:
        # Every combining mark is at U+0300 or above.
        if ch >= "\u0300" and unicodedata.category(ch) in _MARKS:
            run += 1
            if run > MAX_MARKS:
                continue
        else:
            run = 0
        out.append(ch)
    return "".join(out)


def _check_depth(tokens) -> None:
    depth = 0
    for token in tokens:
        if token.type in _CONTAINERS:
            depth += 1
            if depth > MAX_DEPTH:
                raise TooDeep(f"a post can nest quotes and lists at most {MAX_DEPTH} deep")
        elif token.type in _CLOSERS:
            depth -= 1


def render_markdown(text: str) -> str:
    """A post's text as safe HTML; TooDeep for quotes and lists nested too deep."""
    tokens = _md.parse(text)
    _check_depth(tokens)
    for token in tokens:
        for child in token.children or ():
            if child.type in ("s_open", "s_close"):
                child.tag = "del"  # struck text is <del>, as the allowed tags say
    html = _md.renderer.render(tokens, _md.options, {})
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener",
    )
