"""The webhooks' stories are worded in each destination's language (issue 30): built under
a pseudo-language that brackets every translated string, a whole game's stories hold no
word outside the brackets but the game's own data (its title, the players' names, the
links, the ruleset's name); and built in German they say what the thread says in German.
"""

import pytest

from tests.games.test_emails_translatable import pseudo_language, untranslated
from tests.games.webhooks.stories import told, werewolf_game, witchhunt_game

pytestmark = pytest.mark.django_db

TITLE = "The named cast"


def _parts(story) -> list[str]:
    return [story.title, story.text, *(part for field in story.fields for part in field)]


@pytest.mark.parametrize("play", [witchhunt_game, werewolf_game])
def test_every_word_of_a_story_is_translated(moderator, traveller, play):
    with pseudo_language(), told() as heard:
        _game, users = play(moderator)
    assert heard
    data = [TITLE, *(u.player_name for u in users.values())]
    for h in heard:
        for part in _parts(h.en):
            assert not untranslated(part, data), (h.event, part)


def test_a_german_destination_reads_german(moderator, traveller):
    with told(("en", "de")) as heard:
        werewolf_game(moderator)
    german = {h.stories["en"].title: h.stories["de"] for h in heard}
    ended = german["The named cast · Day 1 has ended"]
    assert "Tag 1" in ended.title
    assert "Das Dorf richtet Gus hin." in ended.text.splitlines()
    assert "Gus ist gestorben." in ended.text.splitlines()
    began = german["The named cast · Night 1 has fallen"]
    assert "Nacht 1" in began.title
    counts = [h.stories["de"].text for h in heard if h.event == "vote_count"]
    assert all("Nicht abgestimmt (" in text for text in counts)
    assert ended.fields[0][1] == "Gus"  # the players' own names, in every language
