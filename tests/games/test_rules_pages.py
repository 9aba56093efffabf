"""The rules pages: both rulesets with every ruling anchored, a page per card, the copies kept
honest against the shared originals, and a basic accessibility check on every page."""

import dataclasses
import re
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import rulebook
from games.engine.rulesets.werewolf.roles import ROLES
from games.engine.rulesets.witchhunt.cards import CHARACTERS, HOLY, TYPES
from tests.engine.cases import SHARED

# A visitor's session may be saved while the pages are read (the time zone, the CSRF cookie).
pytestmark = pytest.mark.django_db

COPIES = {  # the app's copy -> the shared original
    "witchhunt-rulings.md": "rules/witchhunt-rulings.md",
    "werewolf-rulings.md": "rules/werewolf-rulings.md",
    "witchhunt-rules-9.0.txt": "seeds/witchhunt-rules-9.0.txt",
    "werewolf-final-reveal-phase.txt": "seeds/werewolf-final-reveal-phase.txt",
}
RULINGS_FILES = {"witchhunt": "witchhunt-rulings.md", "werewolf": "werewolf-rulings.md"}
# Broader than the parser's own pattern on purpose: a ruling numbered in a new way (W-12.1,
# W-12aa) is found here, and fails the anchor test until the parser reads it.
RULING_NUMBER = re.compile(r"^- (W{1,2}-\d\S*) ", re.M)
SUB_NUMBERED = re.compile(r"^W{1,2}-\d+\D")
# Anything that looks like a file path: the pages say in words what the rulings name by path.
FILE_PATH = re.compile(r"\.\./|\bshared/|rules_text|\b[\w-]+\.(?:md|txt|py|json)\b")

CARD_PAGES = (
    [("witchhunt", "rules_card", key, name, text) for key, (_, name, _, text) in CHARACTERS.items()]
    + [("witchhunt", "rules_type", key, label, None) for key, (_, label) in TYPES.items()]
    + [("werewolf", "rules_card", key, name, text) for key, (_, name, text) in ROLES.items()]
)


class PageOutline(HTMLParser):
    """What the accessibility check reads: headings, links with their text, ids."""

    def __init__(self):
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self.links: list[dict] = []  # {"href", "text", "label"}
        self.ids: list[str] = []
        self.lang = None
        self._heading: list | None = None
        self._hidden: list[str] = []  # the open aria-hidden elements

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "html":
            self.lang = attrs.get("lang")
        if attrs.get("aria-hidden") == "true":
            self._hidden.append(tag)
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = [int(tag[1]), ""]
        elif tag == "a":
            self.links.append(
                {"href": attrs.get("href"), "text": "", "label": attrs.get("aria-label")}
            )

    def handle_endtag(self, tag):
        if re.fullmatch(r"h[1-6]", tag) and self._heading:
            self.headings.append((self._heading[0], self._heading[1].strip()))
            self._heading = None
        elif self._hidden and tag == self._hidden[-1]:
            self._hidden.pop()

    def handle_data(self, data):
        if self._heading is not None:
            self._heading[1] += data
        if self.links and not self._hidden:
            self.links[-1]["text"] += data


def outline_of(html: str) -> PageOutline:
    parser = PageOutline()
    parser.feed(html)
    return parser


def assert_accessible(html: str):
    """One h1 and it comes first; no heading skips a level; every link has a name and every
    in-page link a target; ids are unique; the page says its language."""
    page = outline_of(html)
    assert page.lang == "en"
    levels = [level for level, _ in page.headings]
    assert levels and levels[0] == 1 and levels.count(1) == 1, page.headings
    for (before, _), (level, text) in zip(page.headings, page.headings[1:], strict=False):
        assert level <= before + 1, f"heading {text!r} (h{level}) follows an h{before}"
    assert all(text for _, text in page.headings), "an empty heading"
    for link in page.links:
        assert link["text"].strip() or link["label"], f"a link without text: {link['href']}"
    duplicates = {i for i in page.ids if page.ids.count(i) > 1}
    assert not duplicates, duplicates
    for link in page.links:
        if link["href"] and link["href"].startswith("#"):
            assert link["href"][1:] in page.ids, f"in-page link to nothing: {link['href']}"


def get_html(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def card_face(html: str) -> str:
    return re.search(r'<div class="card-face[^"]*">(.*?)</div>', html, re.S)[1]


def card_face_text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", card_face(html))).strip()


def ruling_numbers(ruleset: str) -> list[str]:
    """The ruling numbers in the shared file (the app's copy where shared is absent)."""
    shared = SHARED / "rules" / RULINGS_FILES[ruleset]
    path = shared if shared.exists() else rulebook.TEXT_DIR / RULINGS_FILES[ruleset]
    return RULING_NUMBER.findall(path.read_text(encoding="utf-8"))


# --- The copies ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", COPIES)
def test_rules_text_copies_match_the_shared_originals(name):
    original = SHARED / COPIES[name]
    if not original.exists():
        pytest.skip(f"{original} is absent (set WITCHHUNT_SHARED to the shared folder)")
    copy = rulebook.TEXT_DIR / name
    assert copy.read_bytes() == original.read_bytes(), (
        f"games/rules_text/{name} differs from {original}: the shared text was refined. "
        f"Copy it again (cp {original} games/rules_text/{name}) and rerun these tests; "
        "see games/rules_text/README.md."
    )


# --- The ruleset pages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "least", "least_sub_numbered"), [("witchhunt", 86, 11), ("werewolf", 18, 0)]
)
def test_ruleset_page_anchors_every_ruling_of_the_shared_file(
    client, ruleset, least, least_sub_numbered
):
    numbers = ruling_numbers(ruleset)
    assert len(numbers) >= least  # the pattern still reads the file
    sub_numbered = [n for n in numbers if SUB_NUMBERED.match(n)]  # W-2a, W-72b
    assert len(sub_numbered) >= least_sub_numbered
    page = outline_of(get_html(client, reverse("rules_ruleset", args=[ruleset])))

    missing = [n for n in numbers if n not in page.ids]
    assert not missing, f"rulings without an anchor on the page: {missing}"
    self_links = {link["href"] for link in page.links}
    assert all(f"#{n}" in self_links for n in numbers)
    # Each ruling on its own, sub-numbered ones included: no number is left inside the text
    # of the ruling before it.
    parsed = [r.number for r in rulebook.ruleset(ruleset).rulings.all if r.number]
    assert parsed == numbers


def test_witchhunt_page_anchors_the_lettered_rulings(client):
    html = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))
    for number in ("W-2a", "W-4a", "W-5a", "W-11a", "W-14a", "W-26a", "W-69a", "W-72a", "W-72b"):
        assert f'id="{number}"' in html
        assert f'<a class="ruling__number" href="#{number}">{number}</a>' in html
    assert 'id="W-72"' in html


def ruling_html(html: str, number: str) -> str:
    """The text of one ruling on a ruleset page, without its tags."""
    item = re.search(rf'<li class="ruling" id="{number}">(.*?)</li>\s*(?:<li|</ul>)', html, re.S)
    assert item, f"no ruling {number} on the page"
    return " ".join(unescape(re.sub(r"<[^>]+>", "", item[1])).split())


def test_ruleset_pages_show_the_who_is_told_rulings(client):
    witchhunt = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))
    werewolf = get_html(client, reverse("rules_ruleset", args=["werewolf"]))

    assert '<h3 id="rulings-who-is-told">Who is told</h3>' in witchhunt
    toc = re.search(r'<nav class="rules-toc".*?</nav>', witchhunt, re.S)[0]
    assert 'href="#rulings-who-is-told"' in toc
    w73 = ruling_html(witchhunt, "W-73")
    assert w73.startswith("W-73 Private results go to those the rule names")
    assert "the removed get nothing" in w73
    assert "<code>court_disbanded</code>" in witchhunt
    assert "Every Angel is told at each midnight which players are vetoed" in witchhunt  # W-74
    assert rulebook.ruleset("witchhunt").rulings.all[-1].number == "W-76"

    ww18 = ruling_html(werewolf, "WW-18")
    assert ww18.startswith("WW-18 W-5a (ties), W-8a (lapses), W-72/W-72a (removal) and W-73")
    for number in ("W-5a", "W-8a", "W-72", "W-72a", "W-73", "W-2a"):  # cited across pages
        assert f'<a href="/rules/witchhunt/#{number}">{number}</a>' in werewolf
    assert '<a href="/rules/werewolf/#WW-17">WW-17</a>' in werewolf
    assert "The dead share a graveyard thread that no living player sees" in werewolf


def test_ruleset_pages_show_the_revisions(client):
    """Rulings revision 3: W-76 (a game is played under the revision it started with) in a
    section of its own, W-8a's per-name lapses, and WW-19 citing W-76."""
    witchhunt = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))
    werewolf = get_html(client, reverse("rules_ruleset", args=["werewolf"]))
    assert '<h3 id="rulings-revisions">Revisions</h3>' in witchhunt
    w76 = ruling_html(witchhunt, "W-76")
    assert w76.startswith("W-76 Every game records the revision of these rulings it started")
    assert "each name lapses alone and the others go on" in ruling_html(witchhunt, "W-8a")
    assert ruling_html(werewolf, "WW-19").startswith("WW-19 Revisions (W-76) apply")
    assert '<a href="/rules/witchhunt/#W-76">W-76</a>' in werewolf


@pytest.mark.parametrize("ruleset", ["witchhunt", "werewolf"])
def test_ruleset_page_table_of_contents_links_every_section(client, ruleset):
    html = get_html(client, reverse("rules_ruleset", args=[ruleset]))
    toc = re.search(r'<nav class="rules-toc".*?</nav>', html, re.S)[0]
    found = rulebook.ruleset(ruleset)

    anchors = [s.anchor for s in found.text.sections] + [s.anchor for s in found.rulings.sections]
    for anchor in anchors:
        assert f'href="#{anchor}"' in toc
    source = (rulebook.TEXT_DIR / RULINGS_FILES[ruleset]).read_text(encoding="utf-8")
    assert len(found.rulings.sections) == source.count("\n## ")


def test_witchhunt_rules_text_is_shown_once_with_the_second_copy_line(client):
    html = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))

    assert html.count("Witchhunt does not accommodate bastard modding") == 1
    assert html.count("Okay, I’m getting confused about character versus player type.") == 1
    # Only the post's second copy has this line (the rulings' preface says so).
    assert html.count("Holy characters aside, any characters can be any player type") == 1


def test_witchhunt_rules_text_headings_structure_the_post(client):
    page = outline_of(get_html(client, reverse("rules_ruleset", args=["witchhunt"])))
    headings = [(level, text) for level, text in page.headings]

    assert (2, "Witchhunt Rules 9.0") in headings
    assert (3, "Overview") in headings
    assert (4, "Love & War Expansion") in headings
    assert (3, "Frequently Asked Questions") in headings
    assert (2, "Witchhunt 9.0 — the house rulings") in headings
    assert (3, "Characters — Love & War") in headings


def test_witchhunt_character_list_links_every_card_and_type(client):
    html = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))
    for key in CHARACTERS:
        assert f'href="{reverse("rules_card", args=["witchhunt", key])}"' in html
    for key in TYPES:
        assert f'href="{reverse("rules_type", args=["witchhunt", key])}"' in html


def test_witchhunt_text_character_list_matches_the_card_table():
    rows = [
        row
        for section in rulebook.ruleset("witchhunt").text.sections
        for block in section.blocks
        if block.kind == "cards"
        for row in block.rows
    ]
    assert {row.number: (row.name, row.text) for row in rows} == {
        number: (name, text) for number, name, _, text in CHARACTERS.values()
    }


def test_werewolf_page_links_roles_and_the_witchhunt_rulings_it_borrows(client):
    html = get_html(client, reverse("rules_ruleset", args=["werewolf"]))

    assert "<table>" in html  # the role table, rendered by Markdown's tables extension
    for key in ROLES:
        assert (
            f'<a href="{reverse("rules_card", args=["werewolf", key])}"><code>{key}</code></a>'
            in html
        )
    assert '<a href="/rules/witchhunt/#W-4a">W-4a</a>' in html
    assert '<a href="/rules/werewolf/#WW-15">WW-15</a>' in html


def test_rulings_reference_in_code_stays_code(client):
    html = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))
    assert "<code>W-12</code>" in html  # the preface's example is not a link


def test_rules_index_lists_both_rulesets_and_their_cards(client):
    html = get_html(client, reverse("rules"))

    for ruleset in ("witchhunt", "werewolf"):
        assert f'href="{reverse("rules_ruleset", args=[ruleset])}"' in html
    for ruleset, url_name, key, name, _ in CARD_PAGES:
        assert f'href="{reverse(url_name, args=[ruleset, key])}">{escape(name)}</a>' in html


# --- The card pages ------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "url_name", "key", "name", "text"), CARD_PAGES)
def test_card_page_shows_its_text(client, ruleset, url_name, key, name, text):
    html = get_html(client, reverse(url_name, args=[ruleset, key]))

    assert f"<h1>{escape(name)}</h1>" in html
    if text is None:  # a player type: its description in the rules text
        text = rulebook.ruleset(ruleset).card("types", key).text
        assert len(text) > 40
    assert card_face_text(html) == text


def test_card_text_links_the_rulings_it_cites(client):
    html = get_html(client, reverse("rules_card", args=["werewolf", "were_gerbil"]))
    assert '(<a href="/rules/werewolf/#WW-14">WW-14</a>)' in card_face(html)


def test_card_pages_cover_every_card():
    assert len(CARD_PAGES) == 48 + 6 + 12


@pytest.mark.parametrize(
    "url",
    [
        "/rules/witchhunt/cards/nobody/",
        "/rules/witchhunt/cards/holy_villager/",  # a type is not a character
        "/rules/witchhunt/types/priest/",  # nor a character a type
        "/rules/werewolf/cards/priest/",  # a Witchhunt card is not a Werewolf one
        "/rules/werewolf/types/villager/",  # Werewolf has no player types
        "/rules/chess/",
        "/rules/chess/cards/king/",
    ],
)
def test_unknown_ruleset_or_card_is_404(client, url):
    assert client.get(url).status_code == 404


def test_priest_page_links_and_quotes_its_rulings(client):
    html = get_html(client, reverse("rules_card", args=["witchhunt", "priest"]))

    for number in ("W-22", "W-28", "W-34", "W-37"):
        assert f'<a href="/rules/witchhunt/#{number}">{number}</a>' in html
    assert "learns whether the target is in the Coven" in html  # W-28 quoted
    assert "Yes: always dealt to a Holy Villager." in html
    assert "#W-29" not in html  # the Survivalist's ruling does not name the Priest


@pytest.mark.parametrize(
    ("ruleset", "key", "named", "not_named"),
    [
        ("witchhunt", "king", ["W-22", "W-49"], ["W-6", "W-11"]),  # "King's Court" is the Court
        ("witchhunt", "traveling_medic", ["W-57", "W-11a"], ["W-58"]),  # W-57 says "Medic"
        ("witchhunt", "benevolent_old_dame", ["W-32", "W-11a"], ["W-31"]),  # "an Old Dame's gift"
        ("witchhunt", "sneaky_musketeer", ["W-64", "W-26a"], ["W-63"]),
        ("witchhunt", "templar", ["W-68"], ["W-67"]),
        ("witchhunt", "sunlight_pagan", ["W-67", "W-68", "W-41"], ["W-65"]),
        ("witchhunt", "village_spy", ["W-21", "W-24", "W-47"], ["W-28"]),
        ("werewolf", "were_hamster", ["WW-10", "WW-13", "WW-14"], ["WW-8"]),
        ("werewolf", "witch", ["WW-5", "WW-7"], ["WW-12"]),  # "Witch" is not "Witches"
    ],
)
def test_card_rulings_are_those_that_name_the_card(ruleset, key, named, not_named):
    group = "types" if key in TYPES else "cards"
    numbers = [r.number for r in rulebook.ruleset(ruleset).card(group, key).rulings]

    assert set(named) <= set(numbers)
    assert not set(not_named) & set(numbers)


def test_holy_cards_say_so_and_others_say_not(client):
    for key in CHARACTERS:
        html = get_html(client, reverse("rules_card", args=["witchhunt", key]))
        assert ("Yes: always dealt to a Holy Villager." in html) == (key in HOLY)
        assert ("No: dealt to any player type but the Holy Villager." in html) == (key not in HOLY)


def test_card_page_links_its_neighbours(client):
    html = get_html(client, reverse("rules_card", args=["witchhunt", "survivalist"]))
    assert f'href="{reverse("rules_card", args=["witchhunt", "priest"])}" rel="prev"' in html
    assert f'href="{reverse("rules_card", args=["witchhunt", "judge"])}" rel="next"' in html


# --- Every page ----------------------------------------------------------------------------


def all_rules_urls() -> list[str]:
    urls = [reverse("rules")] + [reverse("rules_ruleset", args=[r]) for r in RULINGS_FILES]
    return urls + [reverse(url_name, args=[r, key]) for r, url_name, key, _, _ in CARD_PAGES]


def test_rules_pages_pass_the_accessibility_check(client):
    for url in all_rules_urls():
        assert_accessible(get_html(client, url))


def test_rules_pages_show_no_file_paths(client):
    for url in all_rules_urls():
        text = unescape(re.sub(r"<[^>]+>", " ", get_html(client, url)))
        assert not FILE_PATH.search(text), f"{url} shows a path: {FILE_PATH.search(text)[0]!r}"


def test_rulings_name_the_other_texts_in_words(client):
    witchhunt = get_html(client, reverse("rules_ruleset", args=["witchhunt"]))
    werewolf = get_html(client, reverse("rules_ruleset", args=["werewolf"]))

    assert 'The rules text is <a href="#text">the text above</a>' in witchhunt
    assert 'Its source is <a href="#text">the text above</a>' in werewolf
    assert "Info sources are listed in the game record format." in werewolf


def test_a_path_in_the_rulings_without_words_fails_loudly():
    source = "# Rulings\n\n## Section\n- W-1 See `../seeds/new.txt` and `../seeds/old.txt`.\n"
    with pytest.raises(rulebook.RulebookError, match="old.txt"):
        rulebook.replace_paths(source, {"../seeds/new.txt": "the new text"})
    words = {"../seeds/new.txt": "the new text", "../seeds/old.txt": "the old text"}
    replaced = rulebook.replace_paths(source, words)
    assert rulebook.read_rulings(replaced).sections[0].entries == [
        ("item", "W-1", ["See the new text and the old text."])
    ]


@pytest.mark.parametrize(
    ("html", "problem"),
    [
        ('<html lang="en"><h2>x</h2><h1>y</h1></html>', "h1 not first"),
        ('<html lang="en"><h1>x</h1><h1>y</h1></html>', "two h1"),
        ('<html lang="en"><h1>x</h1><h3>y</h3></html>', "a skipped level"),
        ('<html lang="en"><h1>x</h1><a href="/"> </a></html>', "a link without text"),
        ('<html lang="en"><h1>x</h1><a href="#nowhere">x</a></html>', "a link to nothing"),
        ('<html lang="en"><h1 id="a">x</h1><p id="a"></p></html>', "a duplicate id"),
        (
            '<html lang="en"><h1>x</h1><a href="/"><span aria-hidden="true">→</span></a></html>',
            "a link whose only text is hidden",
        ),
    ],
)
def test_accessibility_check_catches(html, problem):
    with pytest.raises(AssertionError):
        assert_accessible(html)


@pytest.mark.django_db
def test_rules_pages_make_no_queries(client, django_assert_num_queries):
    # The texts are parsed once per process; the pages read nothing from the database.
    for url in [reverse("rules"), reverse("rules_ruleset", args=["witchhunt"])]:
        client.get(url)  # the first visit parses the texts
        with django_assert_num_queries(0):
            assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_rules_pages_are_the_same_for_members(client, member):
    client.force_login(member)
    html = get_html(client, reverse("rules_card", args=["witchhunt", "priest"]))
    assert '<a href="/rules/witchhunt/#W-28">W-28</a>' in html


# --- The reading -------------------------------------------------------------------------


def test_once_keeps_a_repeated_post_once_with_lines_from_either_copy():
    lines = ["Post", "Title", "A", "B", "C", "D", "A", "B", "C", "X", "D"]
    assert rulebook.once(lines) == ["Post", "Title", "A", "B", "C", "X", "D"]


def test_once_leaves_a_text_without_a_repeat_alone():
    lines = ["A", "B", "A", "C", "D"]  # "A" recurs, but not with the lines after it
    assert rulebook.once(lines) == lines


def test_missing_heading_in_a_source_text_fails_loudly():
    spec = dataclasses.replace(
        rulebook.WITCHHUNT_TEXT,
        outline=(*rulebook.WITCHHUNT_TEXT.outline, rulebook.Heading("Appendix")),
    )
    source = (rulebook.TEXT_DIR / spec.filename).read_text(encoding="utf-8")
    with pytest.raises(rulebook.RulebookError, match="Appendix"):
        rulebook.read_text(spec, source)


def test_rules_markdown_escapes_raw_html_and_drops_script_links():
    html = rulebook.render_markdown("<script>alert(1)</script> [x](javascript:alert(1)) *ok*")

    assert "<script" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html
    assert "<em>ok</em>" in html
