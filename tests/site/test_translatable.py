"""Every word a person reads on the core's pages is behind a translation tag (issue 28).

The check is tests/i18n_check.py's heuristic, pointed at the core's templates: the site's
frame (base, home, the error pages, the form fields), the game pages, the clock's parts, the
rules pages and the admin's custom parts. A new template there, or a new sentence left bare
in one, fails here with its file, line and words.
"""

from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from tests.i18n_check import untranslated

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

CORE_TEMPLATES = sorted(
    [
        *(TEMPLATES / name for name in ("base.html", "home.html", "_fields.html")),
        *(TEMPLATES / name for name in ("403.html", "403_csrf.html", "404.html", "500.html")),
        *TEMPLATES.glob("games/*.html"),
        *TEMPLATES.glob("clock/*.html"),
        *TEMPLATES.glob("rules/*.html"),
        *TEMPLATES.glob("admin/**/*.html"),
    ]
)

# "L-3": the vote count's symbol for "3 more votes lynch", explained in words beside it.
ALLOW = {"L-"}


def test_the_core_templates_leave_no_word_untranslated():
    assert len(CORE_TEMPLATES) > 50
    leftovers = untranslated(CORE_TEMPLATES, allow=ALLOW)
    assert leftovers == [], "\n".join(str(x) for x in leftovers)


def _template(tmp_path, text):
    path = tmp_path / "page.html"
    path.write_text(text, encoding="utf-8")
    return [path]


@pytest.mark.parametrize(
    "text, words",
    [
        ("<p>Nothing yet.</p>", ["Nothing yet."]),
        ('<a title="Only Ann’s posts" href="/">{% translate "Posts" %}</a>', ["Only Ann’s posts"]),
        ('<input type="submit" value="Send">', ["Send"]),
        ('<img alt="A wolf" src="/w.png">', ["A wolf"]),
        ('<td data-label="Seats">3</td>', ["Seats"]),
        ("<p>{{ n }} post{{ n|pluralize }}</p>", ["post"]),
        ('{% include "games/_x.html" with empty="No votes yet." %}', ["No votes yet."]),
        ('<p>{{ empty|default:"No votes yet today." }}</p>', ["No votes yet today."]),
        ("<p>{% if a %}Yes{% else %}{% translate 'No' %}{% endif %}</p>", ["Yes"]),
    ],
)
def test_the_check_finds_bare_words(tmp_path, text, words):
    found = untranslated(_template(tmp_path, "{% load i18n %}" + text))
    assert [f.text for f in found] == words


@pytest.mark.parametrize(
    "text",
    [
        '<p>{% translate "Nothing yet." %}</p>',
        "<p>{% blocktranslate trimmed count n=n %}{{ n }} post{% plural %}{{ n }} posts"
        "{% endblocktranslate %}</p>",
        '<p title="{% translate "Posts" %}">#{{ post.number }} · {{ post.author }} — 3/4</p>',
        "{% comment %}Words for the reader of the code.{% endcomment %}{# and these #}",
        "<script>const words = 'not shown';</script><style>p::after { content: 'x'; }</style>",
        '<div class="field field--check" id="join-note" data-live-part="notice"></div>',
        '{% include "games/_field.html" with field=form.title mode="pool" %}',
        '{% include "games/_x.html" with empty=_("No votes yet.") %}',
        "<title>{% block head_title %}{% endblock %} · Witchhunt</title>",
        '<main class="{% block main_class %}page page--wide{% endblock %}"></main>',
    ],
)
def test_the_check_passes_what_is_wrapped_or_not_shown(tmp_path, text):
    assert untranslated(_template(tmp_path, "{% load i18n %}" + text)) == []


def test_the_check_names_the_file_and_line(tmp_path):
    text = "{% load i18n %}\n<h1>{% translate 'A' %}</h1>\n<p>\n  Bare\n</p>"
    found = untranslated(_template(tmp_path, text))
    assert [(Path(f.path).name, f.line, f.text) for f in found] == [("page.html", 4, "Bare")]


# --- the rules pages say, in any language but English, that the rules are in English ------


def test_the_rules_note_shows_in_german_only():
    with translation.override("de"):
        german = render_to_string("rules/_english_note.html")
    with translation.override("en"):
        english = render_to_string("rules/_english_note.html")
    assert "in English" in german or "Englisch" in german
    assert english.strip() == ""


# --- the sentences game_tags words whole, for the templates -------------------------------


def test_the_thread_filter_note_reads_as_before():
    from games.selectors.threads import ThreadFilter
    from games.templatetags.game_tags import filter_note

    names = {"a": "Ann", "b": "Bob", "c": "<Cy>"}
    with translation.override("en"):
        assert filter_note(ThreadFilter(day=2), names) == "Showing only posts of Day 2."
        assert filter_note(ThreadFilter(seats=("a",)), names) == "Showing only Ann’s posts."
        assert (
            filter_note(ThreadFilter(seats=("a", "b", "c"), day=1, q="wolf"), names)
            == "Showing only Ann’s, Bob’s and <Cy>’s posts of Day 1 containing “wolf”."
        )

    # A simple tag's output is escaped where the template prints it: the search is the
    # reader's own text.
    from django.template import Context, Template

    html = Template("{% load game_tags %}{% filter_note only names %}").render(
        Context({"only": ThreadFilter(q="<b>"), "names": {}})
    )
    assert html == "Showing only posts containing “&lt;b&gt;”."


def test_or_list_escapes_each_name():
    from games.templatetags.game_tags import or_list

    with translation.override("en"):
        assert or_list(["Ann"]) == "<strong>Ann</strong>"
        assert (
            or_list(["Ann", "<b>", "Cy"])
            == "<strong>Ann</strong>, <strong>&lt;b&gt;</strong> or <strong>Cy</strong>"
        )


def test_status_and_phase_words_inside_a_sentence():
    from games.templatetags.game_tags import phase_word, status_word

    with translation.override("en"):
        assert [status_word(s) for s in ("alive", "dead", "removed")] == [
            "alive",
            "dead",
            "removed",
        ]
        assert phase_word("night 2") == "night 2"
        assert phase_word("day 3") == "day 3"
