"""Post bodies into HTML: CommonMark with raw HTML off, then sanitised with nh3 (house style).

Shared by the services that store posts and the forms that check a post's length.

The parser is cmark-gfm's CommonMark (in C), with struck text (`~~`) and raw HTML shown as
typed; its cost grows with the length of the text and no faster, whatever the text holds
(`make bench`, docs/benchmarks.md: a few milliseconds for most posts of the longest
length, about 20 ms for the worst). It nests without recursion, and a post whose quotes and
lists nest deeper than `MAX_DEPTH` is refused rather than cut. The services render a
post before they lock its game (games/services/posts.py).

Two departures from CommonMark, for what forum players type and expect: a line typed at the
margin straight after a list item ends the list (CommonMark would run it on into the item),
and an image is a link to it, never a picture loaded from elsewhere.
"""

import re
import unicodedata

import nh3
from cmarkgfm.cmark import Options, markdown_to_html_with_extensions

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

_MARKS = {"Mn", "Me"}  # non-spacing and enclosing marks: the ones that stack
_NESTING = re.compile(r"<(/?)(?:blockquote|ul|ol)[ >]")
# cmark's safe mode drops raw HTML ("<!-- raw HTML omitted -->"): "vote <Bob>" would lose
# its name. So every "<" that does not open an autolink is swapped for a stand-in first
# (a noncharacter, which posts never need: a typed one becomes U+FFFD) and comes back as
# "&lt;" after rendering: raw HTML shows as the text that was typed, as it always has.
_STAND_IN = "\ufdd0"
_AUTOLINK = re.compile(
    r"<(?:[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*"
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>"
)
# A list item's line at the margin: "- ", "* ", "+ ", "1. " or "1) " (or the marker alone).
_LIST_ITEM = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)")
# A code fence's opening or closing line: nothing inside a fence is touched.
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# cmark writes an image as <img src="…" alt="…" title="…" />, its values escaped.
_IMAGE = re.compile(r'<a [^>]*>|</a>|<img src="([^"]*)" alt="([^"]*)"(?: title="[^"]*")? />')
# No CMARK_OPT_UNSAFE: raw HTML would be dropped, and javascript: and data: addresses are
# blanked (the empty href is dropped below; the link's words stay). One tilde is not struck.
_OPTIONS = Options.CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE


class TooDeep(ValueError):
    """A post whose quotes and lists nest deeper than MAX_DEPTH; the message says so."""


def _hide_tags(text: str) -> str:
    text = text.replace(_STAND_IN, "\ufffd")
    out, at = [], 0
    for link in _AUTOLINK.finditer(text):
        out.append(text[at : link.start()].replace("<", _STAND_IN))
        out.append(link[0])
        at = link.end()
    out.append(text[at:].replace("<", _STAND_IN))
    return "".join(out)


def _end_lists(text: str) -> str:
    """A blank line before each line typed at the margin straight after a list item, so
    that "- Ann\n- Bob\nVotes:\n1. Cat" is a list, a line and a numbered list, as typed;
    CommonMark would make "Votes:" part of Bob's item ("lazy continuation"). Indented lines
    still continue their item."""
    out, in_list, in_text, fence = [], False, False, None
    for line in text.splitlines(keepends=True):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening[1][0] == fence[0] and len(opening[1]) >= len(fence):
                fence = None
        elif opening:
            fence, in_list, in_text = opening[1], False, False
        elif not line.strip():
            in_text = False  # after a blank line, CommonMark ends a list itself
        elif _is_item(line, interrupting=in_text):
            in_list, in_text = True, False
        elif in_list and not line[0].isspace():
            if out[-1].strip():
                out.append("\n")
            in_list, in_text = False, True
        elif not in_list:
            in_text = True
        out.append(line)
    return "".join(out)


def _is_item(line: str, *, interrupting: bool) -> bool:
    """Whether `line` opens a list item. Straight after a paragraph's line, as CommonMark
    has it, only a bullet or a number 1 with words after it does ("It was in\n2024. A fine
    year." is one sentence)."""
    item = _LIST_ITEM.match(line)
    if not item or not interrupting:
        return bool(item)
    marker = item[0].strip()
    return bool(line[item.end() :].strip()) and (not marker[0].isdigit() or int(marker[:-1]) == 1)


def _images_as_links(html: str) -> str:
    """Each image as a link to it, marked as one: "Image: " and its words (its address when
    it has none). A post never loads a picture from elsewhere: the readers' privacy, and the
    site's policy (img-src 'self'). Inside a link, only the words (a link holds no link)."""
    inside_link = False

    def swap(tag):
        nonlocal inside_link
        if tag[0] == "</a>" or tag[0].startswith("<a "):
            inside_link = tag[0] != "</a>"
            return tag[0]
        src, alt = tag[1], tag[2]
        words = f"Image: {alt or src}"
        return words if inside_link or not src else f'<a href="{src}">{words}</a>'

    return _IMAGE.sub(swap, html)


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


def _check_depth(html: str) -> None:
    """TooDeep if the rendered quotes and lists (one level each) nest past MAX_DEPTH."""
    depth = 0
    for tag in _NESTING.finditer(html):
        if tag[1]:
            depth -= 1
        else:
            depth += 1
            if depth > MAX_DEPTH:
                raise TooDeep(f"a post can nest quotes and lists at most {MAX_DEPTH} deep")


def render_markdown(text: str) -> str:
    """A post's text as safe HTML; TooDeep for quotes and lists nested too deep."""
    html = markdown_to_html_with_extensions(
        _hide_tags(_end_lists(text)), options=_OPTIONS, extensions=["strikethrough"]
    )
    _check_depth(html)
    html = _images_as_links(html)
    # A blanked address: the words stay a link's, with no address to follow.
    html = html.replace('<a href=""', "<a").replace(_STAND_IN, "&lt;")
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener",
    )
