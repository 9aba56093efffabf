"""Post bodies into HTML (games/markup.py) and the clean step before a post is stored
(games/services/posts.py): what players see, what is refused, and what it costs.

Speed is measured by `make bench` (docs/benchmarks.md), not here; the guard below only
proves that the worst inputs finish at all, which took minutes with the old renderer."""

import html as html_text
import re
import signal
import unicodedata
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games import markup, services
from games.engine import GameRuleError
from games.markup import MAX_DEPTH, MAX_LENGTH, MAX_MARKS, TooDeep, render_markdown
from games.models import Post
from games.services import posts as post_services

SITE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"


def _fill(unit, n=MAX_LENGTH):
    return (unit * (n // len(unit) + 1))[:n]


@contextmanager
def _finishes_within(seconds):
    """A hang guard, not a measurement: the block must end, here in milliseconds."""

    def hung(*args):
        raise AssertionError(f"still rendering after {seconds} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# --- what players see -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, html",
    [
        ("I suspect **Bob**.", "<p>I suspect <strong>Bob</strong>.</p>"),
        ("*tonight* and _today_", "<p><em>tonight</em> and <em>today</em></p>"),
        ("`code` here", "<p><code>code</code> here</p>"),
        # The reply's quote (selectors.post_quote) as the thread shows it.
        (
            "> **Bob** wrote in #1:\n> I am innocent\n\nSure.",
            "<blockquote>\n<p><strong>Bob</strong> wrote in #1:\nI am innocent</p>\n"
            "</blockquote>\n<p>Sure.</p>",
        ),
        # A list straight after its paragraph, as players type it, is a list.
        ("My reads:\n- Ann town\n- Bob scum", "<p>My reads:</p>\n<ul>\n<li>Ann town</li>\n"),
        ("Votes:\n1. Bob\n2. Cat", "<p>Votes:</p>\n<ol>\n<li>Bob</li>\n<li>Cat</li>\n</ol>"),
        ("1) Bob\n2) Cat", "<ol>\n<li>Bob</li>\n<li>Cat</li>\n</ol>"),
        # A numbered list keeps its first number.
        ("3. Dan\n4. Eve", '<ol start="3">\n<li>Dan</li>\n<li>Eve</li>\n</ol>'),
        # Two spaces nest a list under the item above.
        ("- Ann\n  - why: voted Bob", "<ul>\n<li>Ann\n<ul>\n<li>why: voted Bob</li>"),
        ("~~Bob~~ Cat", "<p><del>Bob</del> Cat</p>"),
        ("```\nvote: bob\n```", "<pre><code>vote: bob\n</code></pre>"),
        ("### Day 2", "<h3>Day 2</h3>"),
        ("a\n\n---\n\nb", "<p>a</p>\n<hr>\n<p>b</p>"),
        # An underlined line ("===" or "---" under it) would be an h1 or h2, which posts do
        # not have: its words stay as plain text, then what follows.
        ("Bob\n---\nhe is scum", "Bob\n<p>he is scum</p>"),
        ("Title\n===", "Title"),
        (
            "[a [b] `c`](https://example.com)",
            '<a href="https://example.com" rel="nofollow noopener">a [b] <code>c</code></a>',
        ),
        # In 2024. stays a sentence: only a list starting at 1 may interrupt a paragraph.
        ("It was in\n2024. A fine year.", "<p>It was in\n2024. A fine year.</p>"),
    ],
)
def test_the_forum_cases_render_as_players_expect(text, html):
    assert html in render_markdown(text)


# --- lists and images, as forum players type them ---------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "- Ann town\n- Bob scum\n1. Cat\n2. Dan",
        "* Ann town\n* Bob scum\n\n1. Cat\n2. Dan",
        "- Ann town\r\n- Bob scum\r\n1. Cat\r\n2. Dan",  # as a browser sends a textarea
    ],
)
def test_a_bullet_list_then_a_numbered_one_are_two_lists(text):
    html = render_markdown(text)
    assert re.fullmatch(
        r"<ul>\s*<li>Ann town</li>\s*<li>Bob scum</li>\s*</ul>\s*"
        r"<ol>\s*<li>Cat</li>\s*<li>Dan</li>\s*</ol>\s*",
        html,
    ), html


def test_a_line_at_the_margin_after_a_list_is_not_part_of_its_last_item():
    """CommonMark's "lazy continuation" would end Bob's item with "Votes:"."""
    html = render_markdown("Reads:\n- Ann\n- Bob\nVotes:\n1. Cat\n2. Dan")
    assert "<li>Bob</li>\n</ul>\n<p>Votes:</p>\n<ol>\n<li>Cat</li>" in html
    # An indented line still continues its item; code keeps its lines as typed.
    assert "<li>Ann\nstill Ann</li>" in render_markdown("- Ann\n  still Ann\nafter")
    assert "- a\nb\n</code>" in render_markdown("```\n- a\nb\n```")
    assert "<li>a</li>\n</ul>\n<p>b</p>" in render_markdown("- a\n\nb")
    # A number other than 1 does not start a list inside a paragraph: nothing is split.
    text = "It was in\n2024. A fine year.\nThen Bob died."
    assert render_markdown(text) == f"<p>{text}</p>\n"


@pytest.mark.parametrize(
    "text, html",
    [
        (
            "My chart: ![votes by day](https://example.com/chart.png)",
            '<p>My chart: <a href="https://example.com/chart.png" rel="nofollow noopener">'
            "Image: votes by day</a></p>",
        ),
        # No words: the address says what the link opens.
        (
            '![](https://example.com/a.png?x=1&y=2 "title")',
            '<a href="https://example.com/a.png?x=1&amp;y=2" rel="nofollow noopener">'
            "Image: https://example.com/a.png?x=1&amp;y=2</a>",
        ),
        # Inside a link, the image's words only: a link holds no link.
        (
            "[![a *chart*](https://example.com/i.png)](https://example.com/page)",
            '<a href="https://example.com/page" rel="nofollow noopener">Image: a chart</a>',
        ),
        ("![x](javascript:alert(1))", "<p>Image: x</p>"),
        ('![<b>"q"</b>](https://example.com/i.png)', 'Image: &lt;b&gt;"q"&lt;/b&gt;</a>'),
    ],
)
def test_an_image_is_a_link_to_it_never_a_picture(text, html):
    rendered = render_markdown(text)
    assert html in rendered
    assert "<img" not in rendered and "src=" not in rendered


def test_raw_html_is_text_and_links_are_safe():
    html = render_markdown(
        '<script>alert(1)</script> <b onclick="x()">b</b> &amp; 1 < 2\n\n'
        "[x](javascript:alert(1)) [d](data:text/html;base64,PHNjcmlwdD4=) "
        "[ok](https://example.com/a) <https://example.com/b> [m](mailto:a@example.com) "
        "![img](https://example.com/i.png)"
    )
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '&lt;b onclick="x()"&gt;b&lt;/b&gt;' in html and "&amp; 1 &lt; 2" in html
    assert "javascript:" not in html and "data:" not in html and "<img" not in html
    assert '<a href="https://example.com/a" rel="nofollow noopener">ok</a>' in html
    assert '<a href="https://example.com/b" rel="nofollow noopener">' in html
    assert '<a href="mailto:a@example.com" rel="nofollow noopener">m</a>' in html
    assert '<a rel="nofollow noopener">x</a>' in html  # the words stay, the address goes


def test_only_the_allowed_tags_come_out():
    html = render_markdown("# Big\n\n## Bigger\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nx")
    tags = set(re.findall(r"</?([a-z0-9]+)", html))
    assert tags <= {"p"}, tags  # h1, h2 and tables are not post markup: their text stays
    assert "Big" in html and "Bigger" in html


PIECES = list("[]()<>!*_`~#-+.:\\&;\"' \n\ta\u0300") + [
    *("http://x.example", "javascript:", "data:", "mailto:", "[a]: ", "```", "    "),
    *("1. ", "- ", "> ", "&#x", "&amp;", "<http://", "\u2028", "\x00"),
]


def _scheme(href):
    """The scheme a browser reads in an href as the HTML source has it (the WHATWG URL
    parser: entities decoded, leading controls and spaces stripped, tabs and newlines
    dropped), or None for a relative address."""
    url = re.sub(r"[\t\n\r]", "", html_text.unescape(href).lstrip("".join(map(chr, range(33)))))
    found = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", url)
    return found.group(1).lower() if found else None


def test_the_scheme_check_reads_a_link_as_a_browser_does():
    assert _scheme("java&#x09;script:alert(1)") == "javascript"
    assert _scheme("&#x20;\x01JavaScript:x") == "javascript"
    assert _scheme("data:text/html,x") == "data" and _scheme("https://x.example") == "https"
    # No scheme: a scheme is a letter then letters, digits, "+", "-" or "."
    assert _scheme("%5Bhttp://x.example") is None and _scheme("/games/1/") is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
@example("[a]: [http://x.example\n[a]: ")  # a relative address with a colon in it
def test_any_text_renders_to_allowed_tags_and_safe_links_or_is_refused(text):
    try:
        html = render_markdown(text)
    except TooDeep:
        return
    assert set(re.findall(r"</?([a-z0-9]+)", html)) <= markup.ALLOWED_TAGS
    for href in re.findall(r'href="([^"]*)"', html):
        assert _scheme(href) in (None, "http", "https", "mailto"), href


# --- nesting --------------------------------------------------------------------------------
@pytest.mark.parametrize("unit", ["> ", "- ", "1. ", "* ", "> - "])
def test_nesting_up_to_the_limit_renders_and_one_more_is_refused(unit):
    deepest = unit * (MAX_DEPTH // unit.count(" ")) + "x"
    assert "x" in render_markdown(deepest)
    with pytest.raises(TooDeep, match=f"at most {MAX_DEPTH} deep"):
        render_markdown(unit * (MAX_DEPTH + 1) + "x")


def test_nested_lines_are_refused_too():
    text = "".join("  " * i + "- item\n" for i in range(MAX_DEPTH + 1))
    with pytest.raises(TooDeep):
        render_markdown(text)
    assert render_markdown(text.rsplit("\n", 2)[0]).count("<ul>") == MAX_DEPTH


@pytest.mark.parametrize("unit", ["- ", "1. ", "> ", "* > "])
def test_a_post_nested_thousands_deep_is_refused_with_the_reason(unit):
    """The old renderer raised RecursionError here (a 500, the post lost)."""
    reason = f"a post can nest quotes and lists at most {MAX_DEPTH} deep"
    with pytest.raises(GameRuleError, match=reason):
        post_services.post_body(_fill(unit, 3000) + "x")


# --- the worst inputs finish -----------------------------------------------------------------
WORST = {
    "brackets": _fill("["),
    "nested brackets": _fill("[", MAX_LENGTH // 2) + _fill("]", MAX_LENGTH // 2),
    "link openers": _fill("[a"),
    "images": _fill("![[]()"),
    "unclosed links": _fill("[a](b"),
    "emphasis": _fill("*a"),
    "backticks": _fill("`a"),
    "references": "[a]: http://x.example\n" + _fill("[a][a] ", MAX_LENGTH - 22),
}


def test_the_worst_inputs_of_the_longest_length_finish():
    """Each took from about a second to over two minutes with the old renderer."""
    with _finishes_within(20):
        for name, text in WORST.items():
            assert len(text) <= MAX_LENGTH, name
            assert post_services.post_body(text).html, name


# --- the lock ---------------------------------------------------------------------------------
def _lock_order(monkeypatch):
    """Record, in order, when a post's body is rendered and when the game row is locked."""
    calls = []
    real_render, real_lock = post_services.render_markdown, post_services.game_locked
    from games.services import base

    real_moderated = base.game_locked

    def render(text):
        calls.append("render")
        return real_render(text)

    def lock(game):
        calls.append("lock")
        return real_lock(game)

    def lock_moderated(game):
        calls.append("lock")
        return real_moderated(game)

    monkeypatch.setattr(post_services, "render_markdown", render)
    monkeypatch.setattr(post_services, "game_locked", lock)
    monkeypatch.setattr(base, "game_locked", lock_moderated)
    return calls


@pytest.mark.django_db
def test_a_post_is_rendered_before_the_game_row_is_locked(
    monkeypatch, cast_game, cast_users, moderator
):
    calls = _lock_order(monkeypatch)
    services.post_create(game=cast_game, user=cast_users["ann"], body="*Ann* here")
    assert calls == ["render", "lock"]
    calls.clear()
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="*Bob*")
    assert calls == ["render", "lock"]
    calls.clear()
    services.announcement_post(game=cast_game, by=moderator, body="*Play nice*")
    assert calls == ["render", "lock"]
    assert Post.objects.filter(body_html__contains="<em>").count() == 3


@pytest.mark.django_db
def test_a_refused_body_locks_nothing_and_stores_nothing(monkeypatch, cast_game, cast_users):
    calls = _lock_order(monkeypatch)
    before = Post.objects.count()
    with pytest.raises(GameRuleError, match=f"at most {MAX_DEPTH} deep"):
        services.post_create(game=cast_game, user=cast_users["ann"], body="> " * 40 + "x")
    assert "lock" not in calls and Post.objects.count() == before


# --- combining marks ("Zalgo") ----------------------------------------------------------------
def test_a_pile_of_combining_marks_is_cut_to_a_few_at_clean_time():
    zalgo = "".join(ch + "\u0300\u0301\u0316\u0489" * 100 for ch in "Bob")
    cleaned = services.clean_body(f"Vote {zalgo} now")
    kept = "\u0300\u0301\u0316\u0489\u0300"  # the first five of each pile
    assert cleaned == "Vote " + "".join(ch + kept for ch in "Bob") + " now"
    runs = re.findall(r"[\u0300-\u036f\u0489]+", cleaned)
    assert max(len(run) for run in runs) == MAX_MARKS


@pytest.mark.parametrize(
    "text",
    [
        "Việt Nam",  # composed
        unicodedata.normalize("NFD", "Việt Nam, tiếng Việt"),  # two marks on a letter
        "בְּרֵאשִׁ֖ית בָּרָ֣א",  # Hebrew points and accents
        "ན་བཟའ་ཚང་ ཀྵྨྱཱ",  # Tibetan stacks
        "naïve café — 日本語 🙂",
    ],
)
def test_real_accents_are_kept(text):
    assert services.clean_body(text) == text.strip()


def test_the_post_body_clips_what_paints_outside_it():
    css = SITE_CSS.read_text(encoding="utf-8")
    rule = re.search(r"^\.post__body\s*\{([^}]*)\}", css, re.M)
    assert rule, "site.css has a rule for .post__body itself"
    assert re.search(r"overflow:\s*(hidden|clip)", rule[1]), rule[1]
