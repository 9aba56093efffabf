"""The rules pages in their reader's language (issue 28): the library is parsed once per
process, and the site's words standing for the paths the rulings name ("the text above")
are drawn into the parsed HTML, so it is kept per language. The rulings stay English.
Proved with a small German catalog written here (the committed one is translated later)."""

import pytest
from django.urls import reverse

from games.rulebook import library
from tests.catalog import german_catalog

pytestmark = pytest.mark.django_db

GERMAN = {
    "the text above": "der Text oben",
    "the %(title)s text": "der Text „%(title)s“",
    "the game record format": "das Format des Spielprotokolls",
}


@pytest.fixture
def german(settings, tmp_path):
    german_catalog(tmp_path, GERMAN.items())
    settings.LOCALE_PATHS = [tmp_path]  # Django drops its loaded catalogs when this changes
    library._parsed.cache_clear()  # parsed under the committed catalog by an earlier test
    yield
    library._parsed.cache_clear()


def _page(client, slug, language):
    url = reverse("rules_ruleset", args=[slug])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_rulings_name_the_texts_in_the_readers_language_whoever_came_first(client, german):
    # German first: its words must not be frozen into the English page, nor the reverse.
    german_page = _page(client, "werewolf", "de")
    english_page = _page(client, "werewolf", "en")
    german_again = _page(client, "werewolf", "de")

    assert 'Its source is <a href="#text">der Text oben</a>' in german_page
    assert "Info sources are listed in das Format des Spielprotokolls." in german_page
    assert "the text above" not in german_page
    assert 'Its source is <a href="#text">the text above</a>' in english_page
    assert "der Text oben" not in english_page
    assert "der Text oben" in german_again and "the text above" not in german_again


def test_the_library_is_parsed_once_per_language(german):
    from django.utils import translation

    with translation.override("de"):
        first = library.rulesets()
        assert library.rulesets() is first
    with translation.override("en"):
        assert library.rulesets() is not first
    assert library._parsed.cache_info().currsize == 2
