"""Every email a member gets is translatable: each game email (subject, text and HTML) and
each account email is rendered under a pseudo-language that wraps every translated string
in ⟦…⟧, and what is left outside the brackets, once the data the email was given (names,
titles, links, numbers) is taken out, must hold no word. A sentence left in plain English
in a template, or built in Python without gettext, fails here.

The pseudo-language is an object standing in for Django's active translation (what
`translation.activate` installs), so every gettext, ngettext and pgettext the templates,
the template tags and Django's own date names call goes through it.
"""

import html.parser
import re
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import trans_real

from accounts.mail import site_identity
from games.mail import message_build
from tests.e2e.german import english_left
from tests.factories import UserFactory

OPEN, CLOSE = "⟦", "⟧"
CONTEXT_SEPARATOR = "\x04"  # pgettext's "context\x04message"


class PseudoTranslation:
    """Every message wrapped in brackets, its placeholders kept."""

    def gettext(self, message):
        return OPEN + message.rsplit(CONTEXT_SEPARATOR, 1)[-1] + CLOSE

    def ngettext(self, singular, plural, number):
        return self.gettext(singular if number == 1 else plural)

    def to_language(self):
        return "en"  # English formats: the order of a date's parts is not under test


@contextmanager
def pseudo_language():
    """The pseudo-translation active, and standing for every site language too: an email
    is rendered in its recipient's language (accounts/language.py in_language_of), which
    activates that language's translation by its code."""
    pseudo = PseudoTranslation()
    active = trans_real._active
    previous = getattr(active, "value", None)
    catalogs = {code: trans_real._translations.get(code) for code, _name in settings.LANGUAGES}
    active.value = pseudo
    trans_real._translations.update(dict.fromkeys(catalogs, pseudo))
    try:
        yield
    finally:
        for code, catalog in catalogs.items():
            if catalog is None:
                trans_real._translations.pop(code, None)
            else:
                trans_real._translations[code] = catalog
        if previous is None:
            del active.value
        else:
            active.value = previous


# What an email may show outside a translation: the site's name, zone abbreviations, and
# the vote count's "L-2" (the thread's own notation).
ALLOWED_WORDS = {"Witchhunt", "UTC", "EST", "EDT", "L"}
# Data the emails are given: shown as they are, in every language.
TITLE = "Salem"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Zed"]
LINES = ["Line one", "Line two"]
CARDS = [{"name": "Card name", "text": "Card text"}]


class VisibleText(html.parser.HTMLParser):
    """The text of an HTML email a reader sees (and hears: aria-label, alt, title)."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("style", "script")
        self.parts += [v for k, v in attrs if k in ("aria-label", "alt", "title") and v]

    def handle_endtag(self, tag):
        self._skip -= tag in ("style", "script")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def untranslated(text: str, data) -> list[str]:
    """The words of `text` outside the pseudo-language's brackets and the given data."""
    previous = None
    while previous != text:  # innermost first: a sentence may hold a translated phrase
        previous, text = text, re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
    for value in sorted(data, key=len, reverse=True):
        text = text.replace(value, " ")
    text = re.sub(r"https?://\S+", " ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'’]*", text) if w not in ALLOWED_WORDS]


def visible(message) -> dict[str, str]:
    page = VisibleText()
    page.feed(message.alternatives[0][0])
    return {"subject": message.subject, "text": message.body, "html": " ".join(page.parts)}


DEADLINE = datetime(2026, 3, 3, 12, 0, tzinfo=UTC)
MIDNIGHT = datetime(2026, 3, 3, 0, 0, tzinfo=UTC)


def game(**changes):
    fields = dict(pk=7, title=TITLE, phase="day 2", status="running", deadline_at=DEADLINE)
    return SimpleNamespace(**{**fields, **changes}, get_ruleset_display="Witchhunt")


def digest_page(**changes):
    thread = SimpleNamespace(
        label=NAMES[0],
        new=3,
        url="/games/7/",
        lines=[SimpleNamespace(number=4, author=NAMES[1], text=LINES[0])],
    )
    fields = dict(
        game=game(),
        actions=LINES,
        threads=[thread],
        votes=[(NAMES[2], LINES)],
        votes_more=2,
        happened=[(NAMES[3], LINES)],
        private=[(NAMES[4], LINES)],
    )
    return SimpleNamespace(**{**fields, **changes})


COUNT = SimpleNamespace(living=7, needed=4, rows=[("ann", ["bob", "cat"], 2)], not_voting=["dan"])
EMPTY_COUNT = SimpleNamespace(living=7, needed=4, rows=[], not_voting=["dan"])
NAMES_BY_SEAT = {name.lower(): name for name in NAMES}
LEFT = timedelta(hours=6, minutes=3)

# Every game email, with each branch its templates take: (template, preference, context).
GAME_EMAILS = [
    ("notification", "mentions", {"game": game(), "text": LINES[0]}),
    *[
        (
            "phase",
            "phases",
            {
                "game": game(),
                "phase": phase,
                "night": phase.startswith("night"),
                "end": end,
                "lines": LINES,
                "deadline_at": DEADLINE,
                "midnight_at": midnight,
                "paused": paused,
            },
        )
        for phase in ("day 2", "night 2")
        for end in (False, True)
        for midnight in (None, MIDNIGHT)
        for paused in (False, True)
    ],
    *[
        (
            "prod",
            "reminders",
            {
                "game": game(),
                "number": number,
                "silent": timedelta(hours=hours),
                "deadline_at": deadline,
            },
        )
        for number in (1, 2)
        for hours in (0, 5, 49)
        for deadline in (None, DEADLINE)
    ],
    *[
        (
            "reminder",
            "reminders",
            {
                "game": game(phase=phase),
                "left": LEFT,
                "deadline_at": DEADLINE,
                "midnight_at": midnight,
                "count": count,
                "names": NAMES_BY_SEAT,
                "living": living,
            },
        )
        for phase in ("day 2", "night 1")
        for midnight in (None, MIDNIGHT)
        for count in (None, COUNT, EMPTY_COUNT)
        for living in (True, False)
    ],
    *[
        (
            "replacement_offer",
            "phases",
            {
                "game": game(),
                "name": NAMES[1],
                "phase": "day 2",
                "deadline_at": deadline,
                "list_url": "http://testserver/replacements/",
            },
        )
        for deadline in (None, DEADLINE)
    ],
    *[
        (
            "role",
            "phases",
            {
                "game": game(),
                "replacing": replacing,
                "cards": CARDS,
                "phase": "day 2",
                "paused": paused,
                "deadline_at": deadline,
                "game_url": "http://testserver/g/7/",
            },
        )
        for replacing in (False, True)
        for paused in (False, True)
        for deadline in (None, DEADLINE)
    ],
    *[
        (
            "digest",
            "digest",
            {
                "pages": [
                    digest_page(),
                    digest_page(game=game(status="finished"), votes_more=1),
                    digest_page(game=game(deadline_at=None, phase="night 3"), votes_more=0),
                ],
                "previous": previous,
                "site_url": "http://testserver",
                "since_urls": {7: "http://testserver/since/7/"},
                "subject": LINES[1],
            },
        )
        for previous in (None, DEADLINE)
    ],
]
DATA = [TITLE, *NAMES, *LINES, *CARDS[0].values(), "Witchhunt"]


@pytest.mark.parametrize("zone", ["UTC", "America/New_York"])
@pytest.mark.parametrize(
    ("template", "preference", "context"),
    GAME_EMAILS,
    ids=[f"{t}-{i}" for i, (t, _p, _c) in enumerate(GAME_EMAILS)],
)
def test_every_game_email_is_translated(db, zone, template, preference, context):
    user = UserFactory(player_name="Zed", time_zone=zone)
    with pseudo_language():
        message = message_build(user, template, context, preference)
    for part, text in visible(message).items():
        assert untranslated(text, DATA) == [], f"{template} {part}: {text}"


@pytest.mark.parametrize(
    "template",
    [
        "account/email/email_confirmation_signup_message.txt",
        "account/email/email_confirmation_message.txt",
    ],
)
@pytest.mark.parametrize("code", [None, "KX3-9QZ"])
def test_every_account_email_is_translated(db, template, code):
    user = UserFactory(player_name="Zed")
    context = {
        "user": user,
        "current_site": site_identity(),
        "code": code,
        "activate_url": "http://testserver/accounts/confirm-email/abc/",
    }
    with pseudo_language():
        text = render_to_string(template, context)
    assert untranslated(text, [*DATA, code or ""]) == [], text


def test_the_check_sees_english_left_outside_a_translation():
    """The check itself: a sentence outside the brackets is found, the data is not."""
    assert untranslated(f"{OPEN}Hello {TITLE}{CLOSE} Salem ends soon", DATA) == ["ends", "soon"]
    assert untranslated(f"{OPEN}{OPEN}Day 2{CLOSE} ends{CLOSE} Ann, L-2 UTC", DATA) == []


@pytest.mark.parametrize(
    ("template", "preference", "context"),
    GAME_EMAILS,
    ids=[f"{t}-{i}" for i, (t, _p, _c) in enumerate(GAME_EMAILS)],
)
def test_every_game_email_reads_in_german_for_a_german_member(db, template, preference, context):
    """The committed catalog, a member who chose German: no sentence of ours is left in
    English in the subject, the text or the HTML, and the HTML says it is German."""
    user = UserFactory(player_name="Zed", language="de")
    message = message_build(user, template, context, preference)
    for part, text in visible(message).items():
        assert english_left(text, DATA) == [], f"{template} {part}: {text}"
    html = message.alternatives[0][0]
    assert '<html lang="de">' in html
