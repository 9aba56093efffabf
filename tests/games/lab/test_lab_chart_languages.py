"""The lab's chart in its reader's language (issue 28): its title, description, axes and
legend are drawn into the SVG, so the worker draws one chart per language of the site and
the page shows the reader's. Proved with a small German catalog compiled here."""

import re

import pytest
from django.utils import translation

from games.lab.selectors import lab_result
from games.lab.services import lab_store
from games.lab.simulation.estimate import simulate
from games.lab.simulation.setups import find_suggested
from tests.catalog import german_catalog

GERMAN = {
    "Win chances for %(setup)s": "Gewinnchancen für %(setup)s",
    "Share of games won (bars: 95%% interval)": "Anteil gewonnener Spiele (Balken: 95%% Intervall)",
    "Players": "Spieler",
    "Players (dotted: this setup)": "Spieler (gepunktet: diese Aufstellung)",
    "Share of games won": "Anteil gewonnener Spiele",
}


@pytest.fixture
def german(settings, tmp_path):
    german_catalog(tmp_path, GERMAN.items())
    settings.LOCALE_PATHS = [tmp_path]  # Django drops its loaded catalogs when this changes
    settings.LANGUAGES = [("en", "English"), ("de", "Deutsch")]


def _drawing(svg: str) -> str:
    """The chart without the words it is named and described by: what is drawn."""
    return re.sub(r"<(title|desc)\b.*?</\1>", "", svg, flags=re.S)


@pytest.mark.django_db
def test_the_chart_is_drawn_in_each_language_and_shown_in_the_readers(german):
    werewolf_8 = find_suggested("werewolf-8")
    estimate = simulate(werewolf_8, games=30, seed=1)
    assert lab_store(setup=werewolf_8, estimate=estimate, sizes=[(12, estimate)])

    with translation.override("en"):
        english = lab_result(werewolf_8.key()).svg
    with translation.override("de"):
        german_svg = lab_result(werewolf_8.key()).svg

    assert "<title" in english and "Win chances for Werewolf 8" in english
    assert "Gewinnchancen für Werewolf 8" in german_svg and "Win chances" not in german_svg
    # The axes' words are drawn as glyphs (the catalog has no team's name): they differ.
    assert _drawing(german_svg) != _drawing(english)


@pytest.mark.django_db
def test_a_record_from_before_charts_had_languages_still_shows_its_chart(german):
    from games.lab import jobs
    from games.lab.selectors import chart_of

    old = jobs.Job.from_dict({"setup": {}, "seed": 1, "asked": 1, "svg": "<svg>old</svg>"})
    assert chart_of(old, "de") == chart_of(old, "en") == "<svg>old</svg>"
    new = jobs.Job(setup={}, seed=1, asked=1, svgs={"en": "<svg>en</svg>", "de": "<svg>de</svg>"})
    assert chart_of(new, "de-at") == "<svg>de</svg>"
    assert chart_of(new, "fr") == "<svg>en</svg>"  # a language without a chart: the default
