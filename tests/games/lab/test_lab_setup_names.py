"""A setup's name on the lab's pages and the new-game form: a suggested setup's is worded
in the reader's language (games/lab/narration.py setup_label), while the simulation keeps
its English name as the key the command line finds it by; a name a member gave is theirs."""

import pytest
from django.test import override_settings
from django.utils import translation

from games.lab import narration as words
from games.lab.simulation.setups import Setup, find_suggested, suggested
from witchhunt.pseudo import pseudo, write_catalog


@pytest.fixture(scope="module")
def pseudo_locale(tmp_path_factory):
    """The pseudo catalog (witchhunt/pseudo.py) stands in for German."""
    return str(write_catalog(tmp_path_factory.mktemp("pseudo")))


def test_a_suggested_setups_name_is_worded_for_its_reader(pseudo_locale):
    setup = suggested("werewolf", 12)
    assert setup.name == "Werewolf 12 (suggested)"  # the simulation's key, unchanged
    assert find_suggested("Werewolf 12 (suggested)") == setup
    assert words.setup_label(setup) == "Werewolf 12 (suggested)"
    assert words.setup_label(setup, short=True) == "Werewolf 12"
    with override_settings(LOCALE_PATHS=[pseudo_locale]), translation.override("de"):
        args = {"ruleset": pseudo("Werewolf"), "seats": 12}
        assert words.setup_label(setup) == pseudo("%(ruleset)s %(seats)s (suggested)") % args
        assert words.setup_label(setup, short=True) == pseudo("%(ruleset)s %(seats)s") % args
        assert words.setup_label(suggested("witchhunt", 8), short=True) == (
            pseudo("%(ruleset)s %(seats)s") % {"ruleset": "Witchhunt", "seats": 8}
        )


def test_a_members_name_for_a_setup_is_shown_as_given(pseudo_locale):
    own = Setup("werewolf", 9, {"mode": "explicit", "cards": []}, {}, "Friday night game")
    unnamed = Setup("werewolf", 9, {"mode": "explicit", "cards": []}, {})
    with override_settings(LOCALE_PATHS=[pseudo_locale]), translation.override("de"):
        assert words.setup_label(own) == "Friday night game"
        assert words.setup_label(unnamed) == pseudo("%(ruleset)s %(seats)s") % {
            "ruleset": pseudo("Werewolf"),
            "seats": 9,
        }
