"""Dates in their reader's language (issue 28): templates name a format
(date:"DEADLINE_FORMAT") that each language defines (witchhunt/formats), so a German reader
reads "Mo., 3. März, 12:00 UTC" where an English one reads "Mon 3 Mar, 12:00 UTC"."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import formats, translation

from games.community.narration import day_words
from games.narration.durations import moment_utc
from witchhunt.formats.en import formats as english

NAMES = [name for name in dir(english) if name.endswith("_FORMAT")]
AT = datetime(2026, 3, 2, 12, 5, tzinfo=UTC)  # a Monday in March


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_every_language_defines_every_named_format(code):
    """A name a language lacked would be printed as a format of its own letters."""
    for name in NAMES:
        assert formats.get_format(name, lang=code) != name, f"{code} lacks {name}"


def _deadline(language: str) -> str:
    template = Template('{% load tz %}{{ at|timezone:"UTC"|date:"DEADLINE_FORMAT" }}')
    with translation.override(language):
        return template.render(Context({"at": AT}))


def test_a_deadline_reads_in_the_readers_order_and_words():
    assert _deadline("en") == "Mon 2 Mar, 12:05 UTC"  # as the site always wrote it
    assert _deadline("de") == "Mo., 2. März, 12:05 UTC"


@pytest.mark.parametrize(
    ("name", "english", "german"),
    [
        ("MOMENT_FORMAT", "Monday 2 March, 12:05 UTC", "Montag, 2. März, 12:05 UTC"),
        ("DATED_DEADLINE_FORMAT", "Mon 2 Mar 2026, 12:05 UTC", "Mo., 2. März 2026, 12:05 UTC"),
        ("CALENDAR_DATE_FORMAT", "2 Mar 2026", "2. März 2026"),
        ("FULL_DATE_FORMAT", "Monday 2 March 2026", "Montag, 2. März 2026"),
        ("DAY_FORMAT", "Mon 2 Mar", "Mo., 2. März"),
    ],
)
def test_each_named_format_in_both_languages(name, english, german):
    with translation.override("en"):
        assert formats.date_format(AT, name) == english
    with translation.override("de"):
        assert formats.date_format(AT, name) == german


def test_the_narrations_moments_follow_the_language():
    december = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)  # a Friday
    with translation.override("en"):
        assert moment_utc(AT) == "Mon 02 Mar, 12:05 UTC"  # byte for byte as stored before
        assert day_words(december, UTC) == "Fri 4 Dec"
    with translation.override("de"):
        assert "Mo., 02. März, 12:05" in moment_utc(AT)
        assert day_words(december, UTC) == "Fr., 4. Dez."
