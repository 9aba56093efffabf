"""The engine's refusals in the reader's language (games/narration/refusals.py): worded with
gettext from a catalog compiled here, on the page where a refused vote is shown; and found
by makemessages (games/management/commands/makemessages.py)."""

import subprocess

import polib
import pytest
from django.utils import translation

from games.engine import Input, Refusal
from games.engine.words import refusal
from games.management.commands.makemessages import Command as MakeMessages
from games.mapping import engine_state
from games.models import Game, GameInput
from games.narration import refusal_words
from tests.catalog import german_catalog
from tests.engine.test_refusal_marks import ENGINE, marked
from tests.games.test_views import _messages, url

GERMAN = [  # (context, msgid, msgstr) or a plural's (None, (singular, plural), (one, many))
    (None, "you have no vote to withdraw", "du hast keine Stimme zurückzuziehen"),
    (None, "%(target)s is not a living player", "%(target)s ist kein lebender Spieler"),
    (None, "you have no %(what)s to withdraw", "nichts zurückzuziehen: %(what)s"),
    ("withdrawn", "weapon", "Waffe"),
    (
        None,
        ("choose exactly %(count)s player", "choose exactly %(count)s players"),
        ("wähle genau %(count)s Spieler", "wähle genau %(count)s Spieler aus"),
    ),
]


@pytest.fixture
def german(tmp_path, settings):
    """German active, from a catalog of the entries above compiled into LOCALE_PATHS."""
    german_catalog(tmp_path, GERMAN)
    settings.LOCALE_PATHS = [str(tmp_path)]  # Django drops its loaded catalogs on the change
    settings.LANGUAGE_CODE = "de"
    with translation.override("de"):
        yield


def test_an_engine_refusal_is_worded_in_the_readers_language(cast_game, german):
    state = engine_state(cast_game)
    why = state.try_apply(Input("action", "ann", "unvote"))
    assert isinstance(why, Refusal) and str(why) == "you have no vote to withdraw"
    assert refusal_words(why) == "du hast keine Stimme zurückzuziehen"
    assert refusal_words(state.try_apply(Input("action", "ann", "vote", "zed"))) == (
        "zed ist kein lebender Spieler"  # a name stays as given
    )
    assert refusal_words(state.targets_refusal([], 2, 2)) == "wähle genau 2 Spieler aus"
    assert refusal_words(state.targets_refusal([], 1, 1)) == "wähle genau 1 Spieler"
    # A key inside the sentence is worded too (Werewolf's withdrawal of a weapon use).
    assert refusal_words(refusal("you have no %(what)s to withdraw", {"what": "weapon"})) == (
        "nichts zurückzuziehen: Waffe"
    )
    # Without a translation the English stands; a service's own words are shown as they are.
    assert refusal_words(refusal("the game is over")) == "the game is over"
    assert refusal_words(ValueError("schon übersetzt")) == "schon übersetzt"


def test_a_refused_vote_reads_in_german_on_the_page(client, cast_game, cast_users, german):
    client.force_login(cast_users["ann"])
    before = GameInput.objects.filter(game=cast_game).count()
    response = client.post(url("game_unvote", cast_game), follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert "Du hast keine Stimme zurückzuziehen." in _messages(response)
    response = client.post(
        url("game_vote", cast_game), {"target": "nobody"}, follow=True, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert "Nobody ist kein lebender Spieler." in _messages(response)
    assert GameInput.objects.filter(game=cast_game).count() == before  # nothing written
    assert engine_state(Game.objects.get(pk=cast_game.pk)).tally() == []


def test_makemessages_extracts_every_engine_refusal(tmp_path):
    """xgettext with the options the project's makemessages gives it (Django's own and the
    refusal keywords) finds every sentence the engine marks, the plural with its plural."""
    pot = tmp_path / "engine.pot"
    sources = sorted(str(p) for p in ENGINE.rglob("*.py"))
    options = [o for o in MakeMessages.xgettext_options if not o.startswith("--add-comments")]
    subprocess.run(
        ["xgettext", "-L", "Python", *options, "-o", str(pot), *sources],
        check=True,
        capture_output=True,
    )
    entries = {e.msgid: e for e in polib.pofile(str(pot))}
    assert marked() <= entries.keys(), sorted(marked() - entries.keys())
    plural = entries["choose exactly %(count)s player"]
    assert plural.msgid_plural == "choose exactly %(count)s players"
    assert "python-format" in plural.flags
