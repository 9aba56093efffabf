"""The capabilities' refusals, the forms' words and the numbers in the reader's language:
worded with gettext from a small German catalog compiled here (the pattern of
test_refusal_words.py), shown on the pages where a refused act lands, nothing written; and a
deal's warnings told apart from its errors by a flag, whatever the words."""

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.community.services import replacements
from games.engine import GameRuleError
from games.lab import narration as lab_words
from games.models import Absence, Game, ReplacementVolunteer
from games.wall_time import zoned_moment
from tests.catalog import german_catalog
from tests.factories import UserFactory
from tests.games.test_views import NEW_GAME, _messages

GERMAN = [  # (msgid, msgstr) or a plural's ((singular, plural), (one, many))
    ("you are not on that list", "du stehst auf keiner solchen Liste"),
    (
        (
            "an absence is at most %(count)s day; declare a longer one in parts",
            "an absence is at most %(count)s days; declare a longer one in parts",
        ),
        (
            "eine Abwesenheit dauert höchstens %(count)s Tag; trag eine längere in Teilen ein",
            "eine Abwesenheit dauert höchstens %(count)s Tage; trag eine längere in Teilen ein",
        ),
    ),
    ("Your note is saved.", "Deine Notiz ist gespeichert."),
    ("%(percent)s%%", "%(percent)s %%"),
    (
        "%(wall)s does not exist in %(zone)s: the clocks go forward then. Choose another time",
        "%(wall)s gibt es in %(zone)s nicht: die Uhren werden dann vorgestellt. Wähle eine "
        "andere Zeit",
    ),
    ("Warning: %(problem)s", "Warnung: %(problem)s"),
    ("Create the game despite the warnings", "Das Spiel trotz der Warnungen anlegen"),
]


@pytest.fixture
def german(tmp_path, settings):
    """German active, from a catalog of the entries above compiled into LOCALE_PATHS."""
    german_catalog(tmp_path, GERMAN)
    settings.LOCALE_PATHS = [str(tmp_path)]  # Django drops its loaded catalogs on the change
    with translation.override("de"):
        yield


@pytest.mark.django_db
def test_a_refused_replacement_list_act_reads_in_german(client, german):
    zed = UserFactory(player_name="Zed", language="de")
    with pytest.raises(GameRuleError) as refused:
        replacements.volunteer_leave(user=zed)
    assert str(refused.value) == "du stehst auf keiner solchen Liste"
    client.force_login(zed)
    response = client.post(reverse("replacement_leave"), follow=True)
    assert "Du stehst auf keiner solchen Liste." in _messages(response)
    assert not ReplacementVolunteer.objects.exists()  # nothing written


@pytest.mark.django_db
def test_a_refused_absence_reads_in_german_with_its_count(client, german):
    member = UserFactory(player_name="Pia", language="de")
    client.force_login(member)
    today = timezone.localdate()
    response = client.post(
        reverse("absences"), {"first_day": today, "last_day": today + timedelta(days=70)}
    )
    page = response.content.decode()
    assert "Eine Abwesenheit dauert höchstens 60 Tage; trag eine längere in Teilen ein." in page
    assert not Absence.objects.exists()


def test_the_labs_numbers_are_in_the_readers_format(german):
    assert lab_words.percent(0.54) == "54 %"
    assert lab_words.thousands(20000) == "20.000"
    with translation.override("en"):
        assert lab_words.percent(0.54) == "54%"  # the English as it always was
        assert lab_words.thousands(20000) == "20,000"


def test_a_skipped_wall_time_is_worded_in_the_readers_language_and_format(german):
    berlin = ZoneInfo("Europe/Berlin")
    skipped = datetime(2025, 3, 30, 2, 30)
    with pytest.raises(GameRuleError) as refused:
        zoned_moment(skipped, berlin, "Europe/Berlin")
    assert str(refused.value) == (
        "So., 30. März 2025, 02:30 gibt es in Europe/Berlin nicht: die Uhren werden dann "
        "vorgestellt. Wähle eine andere Zeit"
    )
    with translation.override("en"), pytest.raises(GameRuleError) as refused:
        zoned_moment(skipped, berlin, "Europe/Berlin")
    assert str(refused.value).startswith("Sun 30 Mar 2025, 02:30 does not exist in Europe/Berlin")


# A deal with warnings alone (W-23: Witches more than a third of the seats).
WARNED = {
    **NEW_GAME,
    "seats_count": 5,
    "cards": "gambler, basic villager\nRecluse basic_villager\njudge elder_witch\n"
    "survivalist basic_villager\nwizard junior_witch",
}


def _problem_classes(html):
    return re.findall(r'<li class="problem--(\w+)">([^<]*)</li>', html)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_deals_warnings_are_marked_as_such_in_any_language(client, host, german, language):
    host.language = language
    host.save(update_fields=["language"])
    client.force_login(host)
    with translation.override(language):
        html = client.post(reverse("game_new"), WARNED).content.decode()
        problems = _problem_classes(html)
        warning = "Warnung: " if language == "de" else "Warning: "
        assert problems and all(kind == "warning" for kind, _ in problems), problems
        assert all(text.startswith(warning) for _, text in problems)
        assert ("Das Spiel trotz der Warnungen anlegen" in html) == (language == "de")
        # An error beside a warning is an error (the seats do not match the cards).
        html = client.post(reverse("game_new"), {**WARNED, "seats_count": 6}).content.decode()
        assert [kind for kind, _ in _problem_classes(html)] == ["error"]
    assert not Game.objects.exists()
