"""A game's stories are made of what its public page shows a visitor (issue 30): whole
games played through the services, a Witchhunt one with its characters secret and a
Werewolf one, and after each step every story told so far is checked against the game
page an anonymous visitor is served at that moment:

- every word of a story (its title, text and fields) is a word of that page, or one of
  the stories' own words (tell.py's msgids): no card, no night action, no room;
- every line a story takes from the thread (a phase's summary, the start post, the end)
  is on the page as it is, and every line of a vote count is the vote panel's or the
  summary's;
- no card name or role a visitor could not read there is in a story.
"""

import html
import re
from pathlib import Path

import pytest
from django.test import Client

from games.narration.card_names import CHARACTER_NAMES, ROLE_NAMES, TYPE_NAMES
from games.webhooks import tell
from tests.games.webhooks.stories import told, werewolf_game, witchhunt_game

pytestmark = pytest.mark.django_db

WORD = re.compile(r"[^\W_]+", re.UNICODE)
URL = re.compile(r"https?://\S+|/games/\S+")


def _own_words() -> set[str]:
    """The words of the stories' own sentences (tell.py's msgids, their placeholders out)."""
    source = Path(tell.__file__).with_name("tell.py").read_text()
    msgids = re.findall(r'"webhooks",\s*"([^"]+)"(?:,\s*"([^"]+)")?', source)
    words = " ".join(" ".join(pair) for pair in msgids)
    return set(WORD.findall(re.sub(r"%\(\w+\)s", " ", words)))


OWN = _own_words()
CARDS = [str(label) for table in (CHARACTER_NAMES, TYPE_NAMES, ROLE_NAMES)
         for label in table.values()]  # fmt: skip


def visible(page: str) -> str:
    """A page's text as a visitor reads it: no script, no tag, whitespace made single."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return " ".join(page.split())


def one_line(text: str) -> str:
    return " ".join(text.split())


class Onlooker:
    """An anonymous visitor who looks at the game page after each step and checks the
    stories told since against what it shows."""

    def __init__(self, heard):
        self.heard, self.checked, self.looks = heard, 0, 0

    def look(self, game, _users):
        page = visible(Client().get(f"/games/{game.pk}/").content.decode())
        for h in self.heard[self.checked :]:
            self.check(h.en, page)
        self.checked = len(self.heard)
        self.looks += 1

    def check(self, story, page):
        words = set(WORD.findall(page))
        said = [story.title, story.text, *(part for field in story.fields for part in field)]
        for part in said:
            foreign = set(WORD.findall(URL.sub(" ", part))) - words - OWN
            assert not foreign, f"{story.event}: {foreign} are not on the page: {part!r}"
        for card in CARDS:
            if card not in page:
                assert not any(card in part for part in said), (story.event, card)
        for line in self.thread_lines(story):
            assert line in page, f"{story.event}: {line!r} is not on the page"

    @staticmethod
    def thread_lines(story) -> list[str]:
        """The lines a story takes from the thread or the vote panel, as the page has them."""
        if story.event in ("phase_ended", "game_ended", "game_started"):
            ours = ("ends", "reveal")  # the deadline's and the reveal's lines are ours
            lines = [line.removeprefix("- ") for line in story.text.splitlines()]
            return [one_line(x) for x in lines if not any(w in x for w in ours) and "/" not in x]
        if story.event == "vote_count":
            return [one_line(x) for x in story.text.splitlines() if "):" in x]
        return []


@pytest.mark.parametrize("play", [witchhunt_game, werewolf_game])
def test_every_story_is_made_of_what_the_public_page_shows(moderator, traveller, play):
    with told() as heard:
        onlooker = Onlooker(heard)
        game, _users = play(moderator, after=onlooker.look)
    assert onlooker.checked == len(heard) and onlooker.looks > 10
    events = {h.event for h in heard}
    assert events == {"signups_open", "game_started", "phase_ended", "phase_began",
                      "deadline_near", "vote_count", "game_ended"}  # fmt: skip
    assert all(h.game == game.pk for h in heard)


def test_the_lynch_and_the_deaths_are_the_thread_announced(moderator, traveller):
    with told() as heard:
        game, users = witchhunt_game(moderator)
    by_title = {h.en.title: h.en for h in heard}
    day_1 = by_title["The named cast · Day 1 has ended"]
    assert dict(day_1.fields) == {"Lynched": "Bob", "Died": "Bob"}
    assert day_1.mentions == (users["bob"].pk,)
    assert "The town lynches Bob." in day_1.text.splitlines()
    night_1 = by_title["The named cast · Night 1 has ended"]
    assert night_1.text.splitlines() == ["Ann has died.", "Day 2 begins."]
    assert dict(night_1.fields) == {"Died": "Ann"}
    end = by_title["The named cast is over"]
    winners = "Ann, Cat, Dan, Eve, Fay, Gus, Ivy, Jon"
    assert dict(end.fields)["Winners"] == winners
    assert f"The game is over: the Village wins. Winners: {winners}." in end.text
    assert end.url == f"http://127.0.0.1:8000/games/{game.pk}/reveal/"
    assert Client().get(f"/games/{game.pk}/reveal/").status_code == 200  # a visitor's page
    assert set(end.mentions) == {users[n].pk for n in winners.lower().split(", ")}
